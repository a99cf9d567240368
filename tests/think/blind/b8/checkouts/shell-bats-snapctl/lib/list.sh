# shellcheck shell=bash
snap_list() {
    local subvol=${1:?subvolume}
    find "${SNAP_DIR:-/.snapshots}" -maxdepth 1 -name "$(basename "$subvol")@*" -printf '%f\n' | sort
}
