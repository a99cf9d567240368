"""The soak log: what soaking detectors would have delivered, kept for labelling and the soak report.

A detector in ``mode: soak`` runs and is gated like any other, but what the gate admits for it is never
queued (:meth:`sbcore.gate.gate.Gate.decide`); the pipeline writes it here instead, one JSON object per line,
so that ``second-brain label`` can show each would-fire with its context and ``second-brain soak report``
can count them (docs/soak.md).

The live worker writes ``<data>/soak/<workspace-key>.jsonl`` (0600, directories 0700, each record one
``O_APPEND`` write through :func:`sbcore.paths.open_private`, which never follows a symbolic link). The file
is rotated by size: past :data:`MAX_BYTES` it becomes ``.1.jsonl``, the older ones shift up, and only
:data:`ROTATIONS` are kept. Each record carries the detector, headline, body, confidence, dedup key, route,
the gate's reason, session, task, time, the transcript (path and last line, when the driver knows them) and
``context``: the texts of the last :data:`CONTEXT_KEPT` observations up to the pass — already redacted and
capped by the projection, so nothing lands here that the observer does not already hold.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sbcore import paths
from sbcore.gate.gate import GateDecision
from sbcore.observe.model import Observation

log = logging.getLogger("sbcore.conductor")

VERSION = 1
MAX_BYTES = 1 << 20
"""Size past which the live soak log is rotated."""
ROTATIONS = 4
"""Rotated files kept beside the live one (``.1`` newest … ``.4`` oldest)."""
CONTEXT_KEPT = 6
"""Observations before the would-fire kept as its context."""


def soak_path(workspace: str | os.PathLike[str], data: Path | None = None) -> Path:
    """The soak log of ``workspace`` under ``data`` (default: the user's data directory)."""
    return (data or paths.data_dir()) / "soak" / f"{paths.workspace_key(workspace)}.jsonl"


def make_record(
    decision: GateDecision,
    observations: Sequence[Observation],
    *,
    at: float,
    session: str,
    transcript: str | None = None,
    line: int | None = None,
) -> dict[str, Any]:
    """One would-deliver, from the gate's ``soak`` decision and the observations the pass read."""
    advice = decision.advice
    if advice is None:
        raise ValueError("a soaked decision always carries its advisory")
    record: dict[str, Any] = {
        "v": VERSION,
        "at": at,
        "time": datetime.fromtimestamp(at, tz=UTC).isoformat(timespec="seconds"),
        "session": session,
        "task": decision.task_id,
        "detector": decision.detector,
        "advice_id": advice.id,
        "headline": advice.headline,
        "body": advice.body,
        "confidence": advice.confidence,
        "dedup_key": advice.dedup_key,
        "route": "human" if advice.human_only else "agent",
        "reason": str(decision.reason),
        "context": [observation.text for observation in observations[-CONTEXT_KEPT:]],
    }
    if transcript is not None:
        record["transcript"] = transcript
    if line is not None:
        record["line"] = line
    return record


def hours_record(session: str, active_s: float, *, transcript: str | None = None) -> dict[str, Any]:
    """How long ``session`` was active (a replay knows; the live log measures first to last record)."""
    record: dict[str, Any] = {"v": VERSION, "kind": "hours", "session": session, "active_s": active_s}
    if transcript is not None:
        record["transcript"] = transcript
    return record


class SoakLog:
    """One soak log file and its rotations."""

    def __init__(self, path: Path, *, max_bytes: int = MAX_BYTES, rotations: int = ROTATIONS) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.rotations = rotations

    def write(self, record: dict[str, Any]) -> None:
        """Append one record (rotating first when the file is full); a failure is logged, never raised."""
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        try:
            self._rotate_if_full()
            paths.append_private(self.path, line.encode() + b"\n", line_start=True)
        except OSError as error:
            log.warning("soak log %s not written: %s", self.path, error)

    def files(self) -> list[Path]:
        """The log's files, oldest first (the rotations, then the live one)."""
        rotated = [self._rotated(n) for n in range(self.rotations, 0, -1)]
        return [path for path in [*rotated, self.path] if path.is_file()]

    def read(self) -> Iterator[dict[str, Any]]:
        """Every readable record, oldest first; a line that is not a JSON object is skipped and logged."""
        for path in self.files():
            fd = paths.open_private(path, os.O_RDONLY)
            with os.fdopen(fd, "rb") as handle:
                for number, raw in enumerate(handle, 1):
                    if not raw.strip():
                        continue
                    try:
                        value = json.loads(raw)
                    except ValueError:
                        value = None
                    if isinstance(value, dict) and ("detector" in value or value.get("kind") == "hours"):
                        yield value
                    else:
                        log.warning("%s:%d: skipping an unreadable soak record", path, number)

    def _rotated(self, number: int) -> Path:
        return self.path.with_name(f"{self.path.stem}.{number}{self.path.suffix}")

    def _rotate_if_full(self) -> None:
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return
        if size < self.max_bytes:
            return
        self._rotated(self.rotations).unlink(missing_ok=True)
        for number in range(self.rotations - 1, 0, -1):
            if self._rotated(number).is_file():
                os.replace(self._rotated(number), self._rotated(number + 1))
        os.replace(self.path, self._rotated(1))
