#!/bin/sh
# Replays captured frames through the protocol decoder via a real dongle.
set -e
./dongled --selftest frames "$srcdir/tests/data/frames.bin"
