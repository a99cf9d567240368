#!/usr/bin/env bash
# Runs every program that has tests/input/<PROG>.in and diffs stdout with tests/expected/<PROG>.out
set -u
mkdir -p tmp/out
fail=0
for in in tests/input/*.in; do
  prog=$(basename "$in" .in)
  [ $# -gt 0 ] && [[ " $* " != *" $prog "* ]] && continue
  bin/"$prog" < "$in" > tmp/out/"$prog".out 2>&1
  if diff -u tests/expected/"$prog".out tmp/out/"$prog".out > tmp/out/"$prog".diff; then
    echo "PASS $prog"
  else
    echo "FAIL $prog (see tmp/out/$prog.diff)"; cat tmp/out/"$prog".diff; fail=1
  fi
done
exit $fail
