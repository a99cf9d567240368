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
import time
from pathlib import Path

from sbcore.deliver.mailbox import Mailbox
from sbcore.hooks.cli_session import (
    CliSession,
    PointerError,
    belongs_to,
    pointer_path,
    read_pointer,
    stale_pointers,
)
from sbcore.worker.lifecycle import ParentWatch
from sbcore.worker.status import StatusFile

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


class Departure:
    """This session's side of following the CLI: ``leaving`` once the CLI is in another session (the
    session ends its task at the first moment no pass runs), ``moved_to`` once it has left."""

    def __init__(self, follower: Follower | None, session_id: str) -> None:
        self.follower = follower
        self.session_id = session_id
        self.leaving: CliSession | None = None
        self.moved_to: CliSession | None = None
        """Set when the session is left because the CLI moved on to another one (``run`` then returns)."""

    def check(self, running: str = "") -> None:
        """Notice that the CLI is now in another session (or back in this one before it was left);
        ``running`` names a pass in flight, for the log."""
        pointer = self.follower.current() if self.follower is not None else None
        if pointer is None:
            return
        if pointer.session_id == self.session_id:
            if self.leaving is not None:
                log.info("the CLI is back in session %s: staying", self.session_id)
                self.leaving = None
            return
        if self.leaving is not None and self.leaving.session_id == pointer.session_id:
            self.leaving = pointer
            return
        self.leaving = pointer
        log.info(
            "the CLI moved to session %s (session start: %s): leaving session %s%s",
            pointer.session_id,
            pointer.source or "unknown",
            self.session_id,
            running,
        )

    def leave(self, mailbox: Mailbox, status: StatusFile, passes: int) -> None:
        """End this session's task for good: nothing it left may be delivered, then hand over.

        Its undelivered advice is withdrawn (each removal recorded in the task's history with the reason),
        and the status file says the worker left and for which session, so a reader knows no worker
        serves it now.
        """
        pointer = self.leaving
        if pointer is None:
            return
        why = f"the conversation moved to session {pointer.session_id} ({pointer.source or 'session start'})"
        if mailbox.path.exists():
            try:
                removed = mailbox.sweep_on_start(time.time(), lambda advice: f"its task ended: {why}")
            except OSError as error:  # MailboxBusy is one
                log.warning("advice of the ended task not withdrawn: %s", error)
            else:
                for item in removed:
                    log.info("withdrew %s (%s): %s", item.advice.id, item.reason, item.text)
        log.info("left session %s: %s", self.session_id, why)
        status.update(
            state="exited",
            detail=f"left: {why}",
            passes=passes,
            exit={"reason": "session_changed", "at": time.time(), "session_id": pointer.session_id},
        )
        self.moved_to = pointer
