#!/bin/sh
# minimal test runner for acme
BIN=${1:-./acme}
pass=0; fail=0
check() {
  name=$1; expected=$2; got=$3
  if [ "$expected" = "$got" ]; then echo "PASS  $name"; pass=$((pass+1));
  else echo "FAIL  $name: expected '$expected', got '$got'"; fail=$((fail+1)); fi
}
check test_cli_help "usage: acme [options] FILE" "$($BIN --help | head -n1)"
check test_parse_args "ok" "$($BIN --self-test args)"
check test_config_paths "/etc/acme/acme.conf" "$($BIN --print-config-path)"
check test_plugin_load "loaded 0 plugins" "$($BIN --self-test plugins)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
