#!/usr/bin/env bats

setup() {
  export DROPIN_DIR="$(mktemp -d)"
  # stub sudo/sshd so the script runs unprivileged against a temp drop-in
  export PATH="$BATS_TEST_DIRNAME/stubs:$PATH"
  sed "s|/etc/ssh/sshd_config.d|$DROPIN_DIR|" "$BATS_TEST_DIRNAME/../scripts/harden.sh" > "$DROPIN_DIR/harden.sh"
}

teardown() {
  rm -rf "$DROPIN_DIR"
}

@test "disables root login" {
  run bash "$DROPIN_DIR/harden.sh"
  [ "$status" -eq 0 ]
  grep -qx "PermitRootLogin no" "$DROPIN_DIR/60-hardening.conf"
}

@test "disables password auth" {
  run bash "$DROPIN_DIR/harden.sh"
  [ "$status" -eq 0 ]
  grep -qx "PasswordAuthentication no" "$DROPIN_DIR/60-hardening.conf"
}
