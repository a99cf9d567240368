# shellcheck shell=bash
# list_profiles CONFIG: print profile names from an AWS config file.
list_profiles() {
  local cfg=${1:-${AWS_CONFIG_FILE:-$HOME/.aws/config}}
  sed -n 's/^\[profile \(.*\)\]$/\1/p' "$cfg"
}
