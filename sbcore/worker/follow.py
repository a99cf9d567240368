"""Following the CLI from one session to the next: ``/clear`` keeps the monitor but changes the session id.

The worker is started for the session in its environment
(``CLAUDE_CODE_SESSION_ID``), but a monitor lives as long as the CLI process,
and in that time the conversation can move to other session ids (``/clear``
starts a new one; ``/resume`` switches to an old one). The SessionStart hook
writes which session the CLI is in now (:mod:`sbcore.hooks.cli_session`); a
:class:`Follower` reads that pointer for the worker, cheaply enough to ask every
tick: one ``stat``, and a read only when the file changed.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from sbcore.hooks.cli_session import (
    CliSession,
    PointerError,
    belongs_to,
    pointer_path,
    read_pointer,
    stale_pointers,
)
from sbcore.worker.lifecycle import ParentWatch

log = logging.getLogger("sbcore.worker")

_Signature = tuple[int, int, int]


class Follower:
    """Where the CLI process a worker serves says its conversation is now."""

    def __init__(self, data: Path, cli_pid: int, cli_start: str | None) -> None:
        self.data = data
        self.cli_pid = cli_pid
        self.cli_start = cli_start
        self.path = pointer_path(data, cli_pid)
        self._signature: _Signature | None = None
        self._pointer: CliSession | None = None

    @classmethod
    def of(cls, data: Path, parent: ParentWatch) -> Follower | None:
        """The follower for the CLI ``parent`` watches; None for a worker with no CLI (started by hand)."""
        cli = parent.cli
        return None if cli is None else cls(data, *cli)

    def current(self) -> CliSession | None:
        """The CLI's latest pointer written by this very process; None when there is none (yet)."""
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            self._signature, self._pointer = None, None
            return None
        except OSError as error:
            log.warning("the CLI's session pointer %s: %s", self.path, error)
            return self._pointer
        signature = (found.st_ino, found.st_mtime_ns, found.st_size)
        if signature == self._signature:
            return self._pointer
        self._signature = signature
        try:
            pointer = read_pointer(self.data, self.cli_pid)
        except PointerError as error:
            log.warning("the CLI's session pointer is unusable, ignored: %s", error)
            return self._pointer
        if pointer is not None and not belongs_to(pointer, self.cli_start):
            log.info("%s was left by an earlier process with pid %d: ignored", self.path, self.cli_pid)
            pointer = None
        elif pointer is not None:
            log.info(
                "the CLI's session pointer: session %s (session start: %s)",
                pointer.session_id,
                pointer.source or "unknown",
            )
        self._pointer = pointer
        return pointer

    def moved(self, session_id: str) -> CliSession | None:
        """The pointer, when it says the CLI is now in a session other than ``session_id``."""
        pointer = self.current()
        return pointer if pointer is not None and pointer.session_id != session_id else None

    def forget(self) -> None:
        """Remove the pointer: the CLI process is gone, and nobody will follow it again."""
        self.path.unlink(missing_ok=True)


def sweep_stale_pointers(data: Path) -> None:
    """Delete the pointers of CLI processes that are gone (a SIGKILLed CLI leaves its pointer behind)."""
    for path in stale_pointers(data):
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            log.warning("stale session pointer %s not removed: %s", path, error)
        else:
            log.info("removed the session pointer of a CLI that is gone: %s", path.name)
