"""Which session a Claude Code process is in now: the pointer SessionStart leaves for the worker.

In the interactive CLI, ``/clear`` (and ``/resume``) moves the conversation
to another session id — a new transcript, new events, a new mailbox — while
the plugin's monitor, and so the worker, keeps running with the session id it
was started with. Nothing in the worker's environment changes; only the hooks
see the new id. So the SessionStart hook writes, for the CLI process it runs
under (``CLAUDE_PID``), which session that process is in now, and the worker
of that process follows it. One small atomic write per session start, off
the per-tool hot path.

``<data>/workers/cli-<pid>.json`` (0600)::

    {"v": 1, "cli_pid": 1234, "cli_start": "987654", "session_id": "...",
     "source": "startup|resume|clear|compact|fork", "transcript_path": "...", "cwd": "...", "at": <POSIX s>}

``cli_start`` is the process's start time (``/proc/<pid>/stat`` field 22), so
a pointer a dead CLI left behind is never taken for a new process that
happens to get the same pid. It is null where ``/proc`` cannot be read.

Standard library only: the SessionStart hook imports this.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sbcore.problems import SbcoreError
from sbcore.state import document

VERSION = 1
PREFIX = "cli-"


class PointerError(SbcoreError):
    """A pointer file exists but cannot be used (unreadable, not JSON, the wrong shape)."""


@dataclass(frozen=True)
class CliSession:
    """What one pointer says: the CLI process, and the session it is in since ``at``."""

    cli_pid: int
    cli_start: str | None
    session_id: str
    source: str | None = None
    transcript_path: str | None = None
    cwd: str | None = None
    at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "cli_pid": self.cli_pid,
            "cli_start": self.cli_start,
            "session_id": self.session_id,
            "source": self.source,
            "transcript_path": self.transcript_path,
            "cwd": self.cwd,
            "at": self.at,
        }

    @classmethod
    def from_json(cls, body: Any) -> CliSession:
        """Parse a pointer document; :class:`PointerError` names what is wrong with it."""
        if not isinstance(body, dict) or body.get("v") != VERSION:
            raise PointerError(f"not a version-{VERSION} pointer")
        pid, session, at = body.get("cli_pid"), body.get("session_id"), body.get("at")
        if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
            raise PointerError("'cli_pid' is not a process id")
        if not isinstance(session, str) or not session.strip():
            raise PointerError("'session_id' is missing")
        if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
            raise PointerError("'at' is not a time")
        return cls(
            cli_pid=pid,
            cli_start=_optional(body, "cli_start"),
            session_id=session,
            source=_optional(body, "source"),
            transcript_path=_optional(body, "transcript_path"),
            cwd=_optional(body, "cwd"),
            at=float(at),
        )


def _optional(body: Mapping[str, Any], key: str) -> str | None:
    value = body.get(key)
    if value is None or isinstance(value, str):
        return value
    raise PointerError(f"{key!r} is not a string")


def pointer_path(data: Path, cli_pid: int) -> Path:
    """``<data>/workers/cli-<pid>.json``."""
    return data / "workers" / f"{PREFIX}{cli_pid}.json"


def cli_pid_from(environ: Mapping[str, str]) -> int | None:
    """``CLAUDE_PID`` as a process id, or None when it is absent or not one."""
    raw = environ.get("CLAUDE_PID", "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else None


def proc_stat(pid: int) -> tuple[str, str] | None:
    """(state, start time) from ``/proc/<pid>/stat``; None if it cannot be read."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is parenthesised and may contain spaces and parentheses.
    rest = raw[raw.rfind(")") + 2 :].split()
    return (rest[0], rest[19]) if len(rest) > 19 else None


def process_start(pid: int) -> str | None:
    """The start time of process ``pid`` (clock ticks since boot, as text); None if unknown."""
    found = proc_stat(pid)
    return found[1] if found else None


def write_pointer(data: Path, pointer: CliSession) -> None:
    """Replace the CLI's pointer atomically (0600): a reader sees the old session or the new one."""
    document.write(pointer_path(data, pointer.cli_pid), pointer.to_json(), version=VERSION, compact=True)


def read_pointer(data: Path, cli_pid: int) -> CliSession | None:
    """The CLI's pointer; None when there is none, :class:`PointerError` when it is unusable."""
    path = pointer_path(data, cli_pid)
    try:
        body = document.read(path, version=VERSION)
    except document.DocumentError as error:
        raise PointerError(str(error)) from error
    if body is None:
        return None
    try:
        pointer = CliSession.from_json(body)
    except PointerError as error:
        raise PointerError(f"{path}: {error}") from error
    if pointer.cli_pid != cli_pid:
        raise PointerError(f"{path}: names process {pointer.cli_pid}")
    return pointer


def belongs_to(pointer: CliSession, cli_start: str | None) -> bool:
    """Whether ``pointer`` was written under the process that started at ``cli_start`` (not a reused pid).

    When either start time is unknown the pid has to do.
    """
    return pointer.cli_start is None or cli_start is None or pointer.cli_start == cli_start


def stale_pointers(data: Path) -> list[Path]:
    """Pointer files whose CLI process is gone (or whose pid now belongs to another process)."""
    try:
        candidates = sorted((data / "workers").glob(f"{PREFIX}*.json"))
    except OSError:
        return []
    stale: list[Path] = []
    for path in candidates:
        raw = path.stem[len(PREFIX) :]
        if not raw.isdigit():
            continue
        try:
            pointer = read_pointer(data, int(raw))
        except PointerError:
            stale.append(path)
            continue
        if pointer is not None and not _running(pointer):
            stale.append(path)
    return stale


def _running(pointer: CliSession) -> bool:
    """Whether the pointer's CLI process still runs (a zombie does not; a reused pid is another process)."""
    found = proc_stat(pointer.cli_pid)
    if found is not None:
        return found[0] not in ("Z", "X") and belongs_to(pointer, found[1])
    if Path("/proc/self/stat").exists():
        return False  # /proc works, and has no such process
    try:  # no /proc at all: the pid has to do
        os.kill(pointer.cli_pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True
