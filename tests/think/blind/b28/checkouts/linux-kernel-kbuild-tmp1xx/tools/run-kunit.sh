#!/bin/sh
set -e
mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
insmod ./tmp1xx.ko
insmod ./tmp1xx_kunit.ko
cat /sys/kernel/debug/kunit/tmp1xx/results
grep -q '^ok 1 tmp1xx' /sys/kernel/debug/kunit/tmp1xx/results
