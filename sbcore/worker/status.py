"""The status file: what the worker is doing, written through so anything can read it with no worker to ask.

There is no endpoint to query: ``/second-brain:stats``, the statusline and
``second-brain run`` read ``<data>/status/<session>.json`` (0600). The worker
rewrites it atomically after every pass, on every change of state (standby,
dormant, watching, thinking, muted) and as a heartbeat, so a reader can tell a
live worker from a stale file by ``updated_at``; on exit it says why. A file
left by a worker that died without a word still carries its last ``pid`` and
``updated_at``, and :func:`read_status` reports whether that process is alive.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from sbcore import __version__
from sbcore.state import document, status_line
from sbcore.state.status import VERSION, process_alive, status_path

__all__ = ["VERSION", "State", "StatusFile", "read_status", "status_path", "summarise_pass"]

State = Literal["starting", "standby", "dormant", "watching", "thinking", "muted", "exited"]


class StatusFile:
    """The worker's status document; :meth:`update` merges fields and rewrites the file."""

    def __init__(self, data: Path, session_id: str, **identity: Any) -> None:
        self.data = data
        self.path = status_path(data, session_id)
        now = time.time()
        self._doc: dict[str, Any] = {
            "v": VERSION,
            "session_id": session_id,
            "pid": os.getpid(),
            "version": __version__,
            "started_at": now,
            "updated_at": now,
            "state": "starting",
            **identity,
        }
        self.writes = 0

    @property
    def document(self) -> dict[str, Any]:
        return dict(self._doc)

    @property
    def state(self) -> State:
        state: State = self._doc["state"]
        return state

    def update(self, **fields: Any) -> None:
        """Merge ``fields`` into the document and write it (atomic rename, 0600), then its status-bar line."""
        self._doc.update(fields)
        self._doc["updated_at"] = time.time()
        document.write(self.path, self._doc, version=VERSION)
        status_line.refresh(self.data, self._doc["session_id"], doc=self._doc)
        self.writes += 1


def read_status(data: Path, session_id: str) -> dict[str, Any] | None:
    """The status document of ``session_id`` with ``alive`` added (is its worker running?); None if absent."""
    try:
        doc = document.read(status_path(data, session_id), version=VERSION)
    except document.DocumentError:
        return None
    if doc is None:
        return None
    doc["alive"] = doc.get("state") != "exited" and process_alive(doc.get("pid"))
    return doc


def summarise_pass(report: Mapping[str, Any]) -> str:
    """One line for logs and the status file: ``pass 3 (turn_end): repeat-failure advise "…"; 4 silent``."""
    verdicts = report.get("verdicts", [])
    loud = [
        f"{item['detector']} {item['label']}" + (f' "{item["headline"]}"' if item.get("headline") else "")
        for item in verdicts
        if item.get("label") != "silent"
    ]
    quiet = sum(1 for item in verdicts if item.get("label") == "silent")
    parts = [*loud, f"{quiet} silent"] if quiet or not loud else loud
    if report.get("offline_because"):
        parts.append(f"offline: {report['offline_because']}")
    return f"pass {report.get('number')} ({report.get('reason')}): " + "; ".join(parts)
