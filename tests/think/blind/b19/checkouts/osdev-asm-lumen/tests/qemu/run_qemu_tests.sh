#!/bin/sh
# Boot the kernel with lumen.tests=1 on the command line and scrape the serial log.
ISO="${1:-build/lumen.iso}"
LOG=build/serial-test.log
TIMEOUT="${TIMEOUT:-20}"
echo "[harness] booting $ISO (timeout ${TIMEOUT}s)"
echo "[harness] waiting for 'TESTS DONE' on serial"
rm -f "$LOG"
timeout "$TIMEOUT" qemu-system-x86_64 -cdrom "$ISO" -serial file:"$LOG" -display none \
    -no-reboot -m 128M -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
    -boot d -append "lumen.tests=1" >/dev/null 2>&1
grep -E '^test_' "$LOG" || true
pass=$(grep -c ' PASS$' "$LOG")
fail=$(grep -cE ' (FAIL|TIMEOUT)' "$LOG")
echo "[harness] $pass passed, $fail failed"
grep -q 'TESTS DONE' "$LOG" || { echo "[harness] no 'TESTS DONE' marker"; exit 1; }
[ "$fail" -eq 0 ]
