setup() {
  source "$BATS_TEST_DIRNAME/../../lib/retry.sh"
  sleep() { echo "sleep $1" >> "$BATS_TEST_TMPDIR/sleeps"; }
}

@test "retry gives up after MAX attempts" {
  run retry 3 false
  [ "$status" -eq 1 ]
}
