# shellcheck shell=bash
# retry MAX CMD...: run CMD until success, exponential backoff from 1s.
retry() {
  local max=$1 n=0 delay=1
  shift
  until "$@"; do
    n=$((n + 1))
    ((n >= max)) && return 1
    sleep "$delay"
    delay=$((delay * 2))
  done
}
