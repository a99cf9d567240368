#!/usr/bin/env bash
# Evaluates every tests/*_test.jsonnet; a test file fails if evaluation errors.
set -uo pipefail
cd "$(dirname "$0")/.."
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(tests/*_test.jsonnet)
failed=0
for f in "${files[@]}"; do
  echo "==> $f"
  if jsonnet -J lib -J vendor "$f" > /dev/null; then echo ok; else echo "FAIL $f"; failed=$((failed+1)); fi
done
echo
if [ $failed -gt 0 ]; then echo "$failed of ${#files[@]} test files failed"; exit 1; fi
echo "${#files[@]} test files passed"
