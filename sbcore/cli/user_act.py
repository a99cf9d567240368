"""Commands that widen what the observer may do must be the user's own act.

A hostile CLAUDE.md can talk the agent into running any command it is allowed
to run, so ``second-brain trust`` and ``config set`` of a capability key into
a layer that applies at once (global, local) refuse unless a person is at an
interactive terminal: stdin and stdout both TTYs, and no sign of running
inside a Claude Code session. The CLI gives its children ``CLAUDECODE=1``,
``CLAUDE_PID`` and the session's ``CLAUDE_CODE_*`` variables (listed below;
the ``CLAUDE_CODE_*`` settings a user exports in their own shell, such as
``CLAUDE_CODE_USE_BEDROCK``, are not signs); the observer's own processes
carry ``SBCORE_OBSERVER``. The agent's Bash tool has no TTY either.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TextIO

SESSION_MARKERS: tuple[str, ...] = (
    "CLAUDECODE",
    "CLAUDE_PID",
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CODE_SESSION_ATTENDED",
    "CLAUDE_CODE_CHILD_SESSION",
    "CLAUDE_CODE_CHILD_NOTES_DIR",
    "CLAUDE_CODE_MESSAGING_SOCKET",
    "CLAUDE_CODE_MESSAGING_TOKEN",
    "SBCORE_OBSERVER",
)
"""Variables only a Claude Code session (or the observer) sets in its children's environment."""


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def refusal(
    stdin: TextIO | None = None, stdout: TextIO | None = None, env: Mapping[str, str] | None = None
) -> str | None:
    """Why this process cannot stand for the user right now, or None when it can."""
    env = os.environ if env is None else env
    inside = [name for name in SESSION_MARKERS if name in env]
    if inside:
        return (
            f"this runs inside a Claude Code or observer session ({', '.join(inside[:3])} set): "
            "it must be your own act, so run it yourself in a terminal outside Claude Code"
        )
    if not (_is_tty(stdin or sys.stdin) and _is_tty(stdout or sys.stdout)):
        return "it needs an interactive terminal (stdin and stdout): run it yourself in a terminal"
    return None
