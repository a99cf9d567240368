"""The pass journal: every concluded pass and every closed outcome, kept in the one database.

The status file holds the last pass and the history files hold the gate's decisions, but what a pass cost
(tokens by kind, the model that spent them) and what each detector concluded lived only in memory.
``second-brain stats`` needs them per session, task and rolling day or week, after the worker is gone,
so the pipeline hands each concluded pass here (:meth:`Journal.record`): one row of ``journal_passes``
per pass, and the outcome records that closed while it concluded go to :mod:`sbcore.gate.calibration`.

A journal is best effort: a database that cannot be written (locked past its timeout, a full disk) costs a
row, is logged, and never fails the pass.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from sbcore.gate import calibration
from sbcore.gate.uptake import OutcomeRecord
from sbcore.pace.episode import Episode
from sbcore.state import db
from sbcore.think.feedback import FeedbackResult, usage_json
from sbcore.think.pass_ import PassResult

log = logging.getLogger("sbcore.conductor")

SCHEMA = db.Schema(
    name="journal",
    version=1,
    ddl="""
CREATE TABLE IF NOT EXISTS journal_passes (
    session_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    workspace TEXT NOT NULL,
    number INTEGER NOT NULL,
    at REAL NOT NULL,
    reason TEXT NOT NULL,
    turn_end INTEGER NOT NULL,
    observations INTEGER NOT NULL,
    model TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cache_read_tokens INTEGER NOT NULL,
    cache_write_tokens INTEGER NOT NULL,
    detectors TEXT NOT NULL,
    error TEXT,
    PRIMARY KEY (session_id, task_id, number)
);
CREATE INDEX IF NOT EXISTS journal_passes_at ON journal_passes (at);
""",
    tables=("journal_passes",),
)


class Decided(Protocol):
    """A gate decision as the journal reads it (:class:`sbcore.gate.gate.GateDecision` fits)."""

    @property
    def action(self) -> str: ...

    @property
    def reason(self) -> str: ...

    @property
    def text(self) -> str: ...


class VerdictLike(Protocol):
    """One detector's answer and its fate (:class:`sbcore.conductor.pipeline.Verdict` fits)."""

    @property
    def result(self) -> FeedbackResult: ...

    @property
    def decision(self) -> Decided | None: ...

    @property
    def held(self) -> str | None: ...


class ReportLike(Protocol):
    """A concluded pass (:class:`sbcore.conductor.pipeline.PassReport` fits)."""

    @property
    def episode(self) -> Episode: ...

    @property
    def result(self) -> PassResult | None: ...

    @property
    def error(self) -> str | None: ...

    @property
    def verdicts(self) -> Sequence[VerdictLike]: ...

    @property
    def closed(self) -> Sequence[tuple[str, OutcomeRecord]]: ...


def detector_rows(report: ReportLike) -> list[dict[str, Any]]:
    """What each detector concluded in the pass (and the ones skipped, with why): the journal's view."""
    rows: list[dict[str, Any]] = []
    for verdict in report.verdicts:
        result = verdict.result
        feedback = result.feedback or {}
        row: dict[str, Any] = {
            "detector": result.detector,
            "status": result.status,
            "label": result.label,
            "headline": result.headline,
            "usage": usage_json(result.usage),
        }
        if isinstance(feedback.get("confidence"), int | float):
            row["confidence"] = float(feedback["confidence"])
        if verdict.held is not None:
            row["gate"] = {"action": "log_only", "reason": "untrusted_workspace", "text": verdict.held}
        elif verdict.decision is not None:
            decision = verdict.decision
            row["gate"] = {
                "action": str(decision.action),
                "reason": str(decision.reason),
                "text": decision.text,
            }
        rows.append(row)
    if report.result is not None:
        rows += [{"detector": name, "status": "skipped", "label": why} for name, why in report.result.skipped]
    return rows


class Journal:
    """Writes concluded passes and closed outcomes of one session into the database under ``data``."""

    def __init__(self, data: Path, *, workspace: str, model: str = "") -> None:
        self.path = db.db_path(data)
        self.workspace = workspace
        self.model = model
        """The model the passes run on (``offline`` without one); the driver updates it on a reload."""

    def record(self, report: ReportLike, *, task_id: str, session_id: str, at: float) -> None:
        """Keep the pass and the outcomes that closed with it (best effort: logged, never raised)."""
        try:
            with db.opened(self.path) as conn:
                self._write(conn, report, task_id=task_id, session_id=session_id, at=at)
        except (sqlite3.Error, OSError) as error:
            log.warning("pass %d not journalled: %s", report.episode.number, error)

    def _write(
        self, conn: sqlite3.Connection, report: ReportLike, *, task_id: str, session_id: str, at: float
    ) -> None:
        calibration.record_outcomes(conn, report.closed, workspace=self.workspace, session_id=session_id)
        db.ensure(conn, SCHEMA)
        result = report.result
        usage = usage_json(result.usage) if result is not None else usage_json_zero()
        episode = report.episode
        with conn:
            conn.execute(
                "INSERT OR REPLACE INTO journal_passes VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    session_id,
                    task_id,
                    self.workspace,
                    episode.number,
                    at,
                    episode.decision.reason,
                    int(episode.turn_end),
                    len(episode.observations),
                    self.model or "offline",
                    usage["input_tokens"],
                    usage["output_tokens"],
                    usage["cache_read_tokens"],
                    usage["cache_write_tokens"],
                    json.dumps(detector_rows(report), ensure_ascii=False),
                    report.error,
                ),
            )


def usage_json_zero() -> dict[str, int]:
    """No tokens: a pass that failed before any fork ran."""
    return {"input_tokens": 0, "output_tokens": 0, "cache_read_tokens": 0, "cache_write_tokens": 0}
