"""What the worker reads of its session: the hooks' events, the transcript tailed into the spool, the spool.

The transcript is projected as it is tailed (:class:`sbcore.observe.spool.Tail`, durable offsets) and
the spool is read back from the worker's own durable offset, so what the session passes on is exactly what
was spooled, once. Both offsets are committed only after the pass that covered them
(:attr:`SessionInput.offsets`), so observations a crash caught waiting are offered again, not lost.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from sbcore.hooks.events import events_path
from sbcore.observe.model import Observation
from sbcore.observe.project import Projector
from sbcore.observe.reader import FileId, read_records
from sbcore.observe.spool import Spool, Tail
from sbcore.worker import locate
from sbcore.worker.worker_state import WorkerState, request_path

log = logging.getLogger("sbcore.worker")

MAX_TAIL_STEPS = 16
"""Transcript batches moved per tick at most (4 MiB each), so a huge backlog cannot starve the loop."""
SPOOL_READ_BYTES = 4 * 1024 * 1024

Offsets = tuple[tuple[int, FileId | None], int]
"""Where the spool (offset, file) and the events file have been read to."""


class SessionInput:
    """The reading side of one session: its events, its transcript, its spool."""

    def __init__(
        self, session_id: str, data: Path, cwd: Path, transcript: Path | None, state: WorkerState
    ) -> None:
        self.session_id = session_id
        self.data = data
        self.cwd = cwd
        self.spool = Spool(session_id, data)
        self.transcript = transcript
        self.projector: Projector | None = None  # set when the worker becomes active
        self.tail: Tail | None = None
        self.request: str | None = None
        """A ``second-brain run`` request waiting for its pass (its nonce)."""
        self._events_read = state.events_offset
        self._spool_read: tuple[int, FileId | None] = (state.spool_offset, state.spool_file)

    @property
    def offsets(self) -> Offsets:
        """What has been read so far: a pass commits these once it has judged it."""
        return self._spool_read, self._events_read

    @property
    def spool_read(self) -> tuple[int, FileId | None]:
        return self._spool_read

    def events(self) -> list[dict[str, Any]]:
        """The hooks' events recorded for this session since the last read."""
        result = read_records(events_path(self.data, self.session_id), self._events_read)
        self._events_read = result.offset
        return [r for r in result.records if r.get("session_id") in (None, self.session_id)]

    def run_request(self) -> str | None:
        """A ``second-brain run`` request just written (it is taken: :attr:`request` holds it until a pass
        answers it), or None."""
        path = request_path(self.data, self.session_id)
        try:
            nonce = path.read_text().strip() or "run"
            path.unlink()
        except FileNotFoundError:
            return None
        log.info("pass requested (%s)", nonce)
        self.request = nonce
        return nonce

    def follow(self) -> Path | None:
        """Tail the transcript into the spool (a bounded number of batches). Returns the transcript's path
        the first time it is found, so the caller can say where it reads; None otherwise."""
        found = None
        if self.tail is None:
            path = self.transcript or locate.find_transcript(self.session_id)
            if path is None:
                candidate = locate.derived_transcript(self.session_id, self.cwd)
                path = candidate if candidate.exists() else None
            if path is None:
                return None  # not written yet (a -p session writes it after the first prompt)
            self.transcript = found = path
            self.tail = Tail(self.session_id, path, self._project, if_missing="start", data=self.data)
        for _ in range(MAX_TAIL_STEPS):
            step = self.tail.step()
            if step.gap:
                log.warning("%s", step.gap)
            if step.stats.bytes_read == 0:
                break
        return found

    def spooled(self) -> list[Observation]:
        """The observations spooled since the last read, in order."""
        offset, file_id = self._spool_read
        found: list[Observation] = []
        while True:
            read = self.spool.read(offset, max_bytes=SPOOL_READ_BYTES, expect=file_id)
            if read.stats.gap:
                log.warning("spool %s was %s: reading on from its end", self.spool.path, read.stats.gap)
            found.extend(read.observations)
            file_id = read.file_id or file_id
            if read.offset == offset:
                break
            offset = read.offset
        self._spool_read = (offset, file_id)
        return found

    def forget(self) -> None:
        """The session's files were deleted: read everything from the start again."""
        self._spool_read = (0, None)
        self._events_read = 0

    def _project(self, records: list[dict[str, Any]]) -> list[Observation]:
        assert self.projector is not None
        return self.projector.feed(records)
