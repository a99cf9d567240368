#!/usr/bin/env bash
# cargo runner: wraps the ELF in a limine ISO and boots it headless.
# Exit status: isa-debug-exit writes (code << 1) | 1, so 0x10 -> 33 = success.
set -euo pipefail
KERNEL="$1"; shift
ISO="$(dirname "$KERNEL")/$(basename "$KERNEL").iso"
scripts/mkiso.sh "$KERNEL" "$ISO"
set +e
timeout "${QEMU_TIMEOUT:-30}" qemu-system-x86_64 -cdrom "$ISO" -serial stdio -display none \
    -device isa-debug-exit,iobase=0xf4,iosize=0x04 -no-reboot -m 256M
rc=$?
set -e
[ "$rc" -eq 33 ] && exit 0
exit "$rc"
