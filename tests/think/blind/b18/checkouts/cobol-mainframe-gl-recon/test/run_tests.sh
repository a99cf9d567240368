#!/bin/sh
# run_tests.sh - golden-file tests: each case dir has input.dat, expected.txt, prog
cd "$(dirname "$0")/.." || exit 2
pass=0; fail=0
for d in test/cases/*/; do
  prog=$(cat "$d/prog")
  DD_GLIN="$d/input.dat" DD_GLRPT="$d/actual.txt" "load/$prog" >/dev/null 2>"$d/stderr.txt"
  if cmp -s "$d/expected.txt" "$d/actual.txt"; then pass=$((pass+1)); echo "PASS $d"
  else fail=$((fail+1)); echo "FAIL $d"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
