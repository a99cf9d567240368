setup() {
    load helpers
    source "$BATS_TEST_DIRNAME/../lib/create.sh"
}

@test "snap_create calls btrfs with readonly flag" {
    run snap_create /home
    [ "$status" -eq 0 ]
    grep -q -- 'subvolume snapshot -r /home' "$BTRFS_LOG"
}
