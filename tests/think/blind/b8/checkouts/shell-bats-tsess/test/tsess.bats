setup() {
  PATH="$BATS_TEST_DIRNAME/stubs:$PATH"
}

@test "session name replaces dots" {
  mkdir -p "$BATS_TEST_TMPDIR/src/my.proj"
  TSESS_ROOTS="$BATS_TEST_TMPDIR/src" run "$BATS_TEST_DIRNAME/../bin/tsess" my
  [ "$status" -eq 0 ]
  grep -q 'new-session -ds my_proj' "$BATS_TEST_TMPDIR/tmux.log"
}
