setup() {
  load 'test_helper/bats-support/load'
  load 'test_helper/bats-assert/load'
  source "$BATS_TEST_DIRNAME/../lib/probe.sh"
}

@test "probe_one fails fast on unresolvable host" {
  run probe_one nonexistent.invalid
  assert_failure
}
