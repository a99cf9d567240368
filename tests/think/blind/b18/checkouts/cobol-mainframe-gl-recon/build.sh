#!/bin/sh
# build.sh - compile all GL reconciliation programs (fixed format, IBM dialect)
set -e
mkdir -p load
for src in cbl/*.cbl; do
  prog=$(basename "$src" .cbl)
  cobc -x -std=ibm-strict -fixed -I cpy -o "load/$prog" "$src"
done
