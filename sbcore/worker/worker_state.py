"""What a worker keeps on disk between runs, and where ``second-brain run`` asks it for a pass.

A worker that restarts (the CLI reloaded its plugins, the machine slept) resumes from here instead of
re-reading the whole session: how far the spool and the events file were read, the task boundaries
seen, the current task's spending, and the one-time notices already given.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from sbcore import paths
from sbcore.observe.reader import FileId
from sbcore.state import document
from sbcore.worker.lifecycle import workers_dir

log = logging.getLogger("sbcore.worker")


@dataclass
class WorkerState:
    """``<data>/workers/<session>.state.json`` (0600): where a restarted worker resumes.

    ``spool_offset`` is the end of what completed passes covered;
    ``events_offset`` how far the events file was read; ``epoch`` counts the
    task boundaries seen in this session (``/clear``, a fork, a new goal) and ``epoch_at``
    when the last one was (so a re-read event is not counted twice); ``task_since``
    when the current task began if a new goal began it (the spool before it is the
    previous task's, so a restart does not restore it); ``task_used``
    the tokens the current task has spent, so a restart keeps its budget;
    ``trust_told`` the digest of the untrusted workspace layer the user was
    last told about (:mod:`sbcore.worker.notice`), so it is said once;
    ``told`` the keys of the one-time notices already queued for the user
    (:mod:`sbcore.deliver.notices`: a spent budget, an auto-mute).
    """

    path: Path
    spool_offset: int = 0
    spool_file: FileId | None = None
    events_offset: int = 0
    epoch: int = 0
    epoch_at: float = 0.0
    task_since: float = 0.0
    task_used: int = 0
    trust_told: str = ""
    told: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, data: Path, session_id: str) -> WorkerState:
        path = workers_dir(data) / f"{paths.safe_name(session_id)}.state.json"
        try:
            body = document.read(path, version=1)
            if body is None:
                return cls(path)
            file_id = body.get("spool_file")
            return cls(
                path,
                spool_offset=int(body["spool_offset"]),
                spool_file=FileId(*file_id) if isinstance(file_id, list) and len(file_id) == 4 else None,
                events_offset=int(body["events_offset"]),
                epoch=int(body.get("epoch", 0)),
                epoch_at=float(body.get("epoch_at", 0.0)),
                task_since=float(body.get("task_since", 0.0)),
                task_used=max(0, int(body.get("task_used", 0))),
                trust_told=str(body.get("trust_told", "")),
                told=[str(key) for key in body.get("told", []) if isinstance(key, str)],
            )
        except (ValueError, KeyError, TypeError) as error:  # a DocumentError is a ValueError
            log.warning(
                "worker state %s unusable (%s): starting from the beginning of the spool", path, error
            )
            return cls(path)

    def save(self) -> None:
        body = {
            "spool_offset": self.spool_offset,
            "spool_file": list(self.spool_file) if self.spool_file else None,
            "events_offset": self.events_offset,
            "epoch": self.epoch,
            "epoch_at": self.epoch_at,
            "task_since": self.task_since,
            "task_used": self.task_used,
            "trust_told": self.trust_told,
            "told": self.told,
        }
        document.write(self.path, body, version=1)


def request_path(data: Path, session_id: str) -> Path:
    """Where ``second-brain run`` asks a running worker for a pass now."""
    return workers_dir(data) / f"{paths.safe_name(session_id)}.run-request"
