setup() {
  source "$BATS_TEST_DIRNAME/../lib/expiry.sh"
  PATH="$BATS_TEST_DIRNAME/fakes:$PATH"
}

@test "days_left parses openssl enddate" {
  export FAKE_ENDDATE='notAfter=Jan  1 00:00:00 2099 GMT'
  run days_left example.org
  [ "$status" -eq 0 ]
  [ "$output" -gt 20000 ]
}
