#!/usr/bin/env bash
# Runs each program against tests/regression/input/*.dat and diffs the
# output against tests/regression/expected/. Exit 1 on any difference.
set -u
cd "$(dirname "$0")/../.."
mkdir -p tests/regression/out
fail=0
for in in tests/regression/input/*.dat; do
  name=$(basename "$in" .dat)
  DD_CLMIN="$in" DD_CLMOK="tests/regression/out/$name.ok" \
  DD_CLMREJ="tests/regression/out/$name.rej" ./bin/CLMVAL > "tests/regression/out/$name.sysout" 2>&1 || fail=1
  for ext in ok rej; do
    if ! diff -u "tests/regression/expected/$name.$ext" "tests/regression/out/$name.$ext" \
         > "tests/regression/out/$name.$ext.diff"; then
      echo "FAIL: $name.$ext (see tests/regression/out/$name.$ext.diff)"; fail=1
    else
      echo "ok:   $name.$ext"
    fi
  done
done
exit $fail
