setup() {
  load 'test_helper/bats-support/load'
  load 'test_helper/bats-assert/load'
  source "$BATS_TEST_DIRNAME/../lib/report.sh"
  probe_one() { [[ $1 == good.* ]]; }
}

@test "report_text marks hosts up/down" {
  printf 'good.example\nbad.example\n' > "$BATS_TEST_TMPDIR/h"
  run report_text "$BATS_TEST_TMPDIR/h"
  assert_line --regexp '^good.example +up$'
  assert_line --regexp '^bad.example +down$'
}

@test "report_text skips comments and blanks" {
  printf '# c\n\ngood.example\n' > "$BATS_TEST_TMPDIR/h"
  run report_text "$BATS_TEST_TMPDIR/h"
  assert_equal "${#lines[@]}" 1
}
