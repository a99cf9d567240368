export SNAP_DIR="$BATS_TEST_TMPDIR/snaps"
mkdir -p "$SNAP_DIR"
export BTRFS_LOG="$BATS_TEST_TMPDIR/btrfs.log"
btrfs() { echo "$*" >> "$BTRFS_LOG"; }
export -f btrfs
mk_snap() { local s; for s in "$@"; do mkdir -p "$SNAP_DIR/$s"; done; }
