"""Run a command at a pseudo-terminal, as a person at a terminal would.

``second-brain trust`` and ``config set`` of a capability key into a layer
that applies at once insist on an interactive terminal
(:mod:`sbcore.config.user_act`). Tests and harnesses that stand in for the user
drive them through a pty from the standard library's :mod:`pty`, with typed
``answer`` lines, and read back everything the command printed.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class TerminalRun:
    """What a command did at the pty: its exit status and the screen's text (stdout and stderr)."""

    returncode: int
    output: str


def at_terminal(
    command: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path | None = None,
    answer: str = "",
    timeout: float = 60.0,
) -> TerminalRun:
    """Run ``command`` with stdin, stdout and stderr on a fresh pty; type ``answer`` into it."""
    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen(
            list(command),
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env=dict(env),
            cwd=cwd,
            start_new_session=True,
        )
    finally:
        os.close(follower)
    if answer:
        os.write(leader, answer.encode())
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.1)
            if ready:
                try:
                    data = os.read(leader, 65536)
                except OSError:  # EIO: the other side closed
                    break
                if not data:
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                break
        else:
            proc.kill()
        code = proc.wait(timeout=10)
    finally:
        os.close(leader)
    return TerminalRun(code, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n"))
