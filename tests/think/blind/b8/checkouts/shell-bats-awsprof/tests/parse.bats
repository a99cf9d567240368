setup() {
  source "$BATS_TEST_DIRNAME/../lib/parse.sh"
  CFG="$BATS_TEST_TMPDIR/config"
}

@test "list_profiles reads [profile x] sections" {
  printf '[profile dev]\nregion=eu-west-1\n[profile prod]\n' > "$CFG"
  run list_profiles "$CFG"
  [ "$status" -eq 0 ]
  [ "$output" = $'dev\nprod' ]
}
