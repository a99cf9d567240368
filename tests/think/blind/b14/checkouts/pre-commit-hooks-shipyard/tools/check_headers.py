"""Fail if a Python file lacks the SPDX header."""
import sys

HEADER = "# SPDX-License-Identifier: Apache-2.0"


def main(argv: list[str]) -> int:
    bad = [p for p in argv if not open(p).readline().startswith(HEADER)]
    for p in bad:
        print(f"{p}: missing SPDX header")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
