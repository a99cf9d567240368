setup() {
    load helpers
    source "$BATS_TEST_DIRNAME/../lib/list.sh"
}

@test "snap_list returns snapshots sorted by timestamp" {
    mk_snap home@2025-01-02T00:00 home@2025-01-01T00:00
    run snap_list /home
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "home@2025-01-01T00:00" ]
}
