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

An agent can shed all of that: clean its environment (``env -i``) and allocate a pseudo-terminal
(``script``, Python's ``pty``). What it cannot shed is where its process comes from. So the check also
walks the process's ancestry, and that of its terminal session's leader, and refuses when a Claude Code
CLI or an observer worker is among them. It lives here, below the commands, because
:func:`sbcore.config.trust.grant` asks it too: calling the library is no way around it.

What remains (docs/privacy.md says so): a process that double-forks away from its parents and opens a
terminal of its own has no such ancestor left, and any process of the user's can write the approval
file or the configuration directly. These checks make the agent's easy paths fail; they are not a
sandbox.
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
    found = session_ancestor(os.getpid())
    if found is not None:
        return (
            f"it was started from within {found}: it must be your own act, so run it yourself in a "
            "terminal outside Claude Code"
        )
    return None


ANCESTRY_LIMIT = 128
"""Parents walked at most (a process tree is never that deep; a loop in /proc could not run forever)."""


def session_ancestor(pid: int) -> str | None:
    """A Claude Code CLI or an observer worker among the ancestors of ``pid`` or of its session's leader
    (``claude`` (pid 4242)), or None. Linux only: where /proc is not there, nothing is found."""
    stat = _stat(pid)
    if stat is None:
        return None
    starts = [stat[0]] + ([stat[1]] if stat[1] not in (0, pid) else [])
    for start in starts:
        current, steps = start, 0
        while current > 1 and steps < ANCESTRY_LIMIT:
            what = _what_runs(current)
            if what is not None:
                return f"{what} (pid {current})"
            parent = _stat(current)
            if parent is None:
                break
            current, steps = parent[0], steps + 1
    return None


def _stat(pid: int) -> tuple[int, int] | None:
    """``(parent pid, session id)`` of ``pid`` from /proc, or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            raw = handle.read().decode("utf-8", "replace")
    except OSError:
        return None
    fields = raw.rsplit(")", 1)[-1].split()  # the name in parentheses may hold spaces and parentheses
    try:
        return int(fields[1]), int(fields[3])
    except (IndexError, ValueError):
        return None


def _what_runs(pid: int) -> str | None:
    """ "a Claude Code CLI" or "an observer worker" when ``pid`` is one, else None."""
    try:
        with open(f"/proc/{pid}/comm", "rb") as handle:
            comm = handle.read().decode("utf-8", "replace").strip()
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            argv = handle.read().decode("utf-8", "replace").split("\0")[:4]
    except OSError:
        return None
    names = {os.path.basename(arg) for arg in argv[:2]}
    if comm == "claude" or "claude" in names or any("claude-code/cli" in arg for arg in argv):
        return "a Claude Code CLI"
    if "sb-worker" in names or any(arg == "sbcore.worker" or "sbcore.worker" in arg for arg in argv):
        return "an observer worker"
    return None
