#!/usr/bin/env bash
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

sudo apt-get install -y --no-install-recommends \
  nginx-extras \
  php8.1-fpm

sudo systemctl enable nginx
