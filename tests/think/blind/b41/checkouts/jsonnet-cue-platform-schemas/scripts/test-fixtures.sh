#!/usr/bin/env bash
# tests/fixtures/<kind>/valid-*.yaml must pass `cue vet` against #<Kind>;
# tests/fixtures/<kind>/invalid-*.yaml must be rejected.
set -uo pipefail
cd "$(dirname "$0")/.."
pass=0; fail=0
for dir in tests/fixtures/*/; do
  kind=$(basename "$dir"); def="#${kind^}"
  for f in "$dir"valid-*.yaml; do
    [ -e "$f" ] || continue
    if cue vet -c ./schemas "$f" -d "$def" >/dev/null 2>&1; then echo "PASS $f"; pass=$((pass+1)); else echo "FAIL $f"; fail=$((fail+1)); fi
  done
  for f in "$dir"invalid-*.yaml; do
    [ -e "$f" ] || continue
    if cue vet -c ./schemas "$f" -d "$def" >/dev/null 2>&1; then echo "FAIL $f (accepted)"; fail=$((fail+1)); else echo "PASS $f (rejected as expected)"; pass=$((pass+1)); fi
  done
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
