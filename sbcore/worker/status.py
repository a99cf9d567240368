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
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sbcore import __version__
from sbcore.state import document, status_line
from sbcore.state.status import VERSION, process_alive, status_path

if TYPE_CHECKING:
    from sbcore.conductor.pipeline import PassReport

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


RECENT_PASSES = 32
"""Passes listed in the status file (``recent_passes``), so a reader can find "a pass of this kind since"."""


@dataclass
class PassLog:
    """What the worker's loop and passes came to, as the status file shows it: ticks and observations read,
    passes (the last one whole, the recent ones in brief), the gate's decisions by reason, and the detectors
    demoted for advice not landing."""

    ticks: int = 0
    """Loop cycles completed (a test waits for some to pass instead of sleeping)."""
    observed: int = 0
    passes: int = 0
    last: dict[str, Any] | None = None
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=RECENT_PASSES))
    decisions: dict[str, int] = field(default_factory=dict)
    demotions: list[dict[str, Any]] = field(default_factory=list)


def pass_entry(
    report: PassReport, *, started_at: float, done_at: float, request: str | None, error: str | None
) -> dict[str, Any]:
    """The status file's ``last_pass``: what the pass read, what each detector said and the gate made of
    it, what it cost, and the ``run`` request it answered."""
    episode, result = report.episode, report.result
    entry: dict[str, Any] = {
        "number": episode.number,
        "reason": episode.decision.reason,
        "detail": episode.decision.detail,
        "turn_end": episode.turn_end,
        "started_at": started_at,
        "duration_s": round(done_at - started_at, 3),
        "observations": len(episode.observations),
        "chars": episode.chars,
        "tokens": report.tokens,
        "verdicts": [verdict.to_json() for verdict in report.verdicts],
        "skipped": [] if result is None else [{"detector": d, "why": why} for d, why in result.skipped],
        "request": request,
        "error": error,
    }
    if result is not None and result.offline_because:
        entry["offline_because"] = result.offline_because
    if result is not None and result.cost_usd is not None:
        entry["cost_usd"] = round(result.cost_usd, 6)
    return entry


def recent_entry(last: Mapping[str, Any], *, seq: int, task_id: str, done_at: float) -> dict[str, Any]:
    """A pass as ``recent_passes`` lists it (so a reader can find "a pass of this kind since")."""
    return {
        "seq": seq,
        "task_id": task_id,
        "number": last["number"],
        "reason": last["reason"],
        "turn_end": last["turn_end"],
        "started_at": last["started_at"],
        "finished_at": done_at,
        "observations": last["observations"],
        "tokens": last["tokens"],
        "cost_usd": last.get("cost_usd"),
        "wake": last.get("wake"),
    }


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
