# shellcheck shell=bash
# Source this from your shell rc: provides `awsprof` to switch AWS_PROFILE.
_AWSPROF_DIR="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=lib/parse.sh
source "$_AWSPROF_DIR/lib/parse.sh"

awsprof() {
  if [[ $# -eq 0 ]]; then list_profiles; return; fi
  export AWS_PROFILE=$1
}
