#!/usr/bin/env bash
set -euo pipefail

DROPIN=/etc/ssh/sshd_config.d/60-hardening.conf

echo "PermitRootLogin no" | sudo tee -a "$DROPIN" >/dev/null
echo "PasswordAuthentication no" | sudo tee -a "$DROPIN" >/dev/null

sudo sshd -t
