"""Calibration: each detector's uptake against its confidence, kept durably, and when it earns a demotion.

Every closed outcome record (:mod:`sbcore.gate.uptake`) becomes a row of ``uptake_outcomes`` in the one
database (:mod:`sbcore.state.db`), so uptake outlives the worker and the task and can be read per detector
over any span by ``second-brain stats``. From those rows, :func:`judge` decides whether a detector is
persistently not landing — among its last ``calibration.min_outcomes`` judged records in a workspace since
its last demotion, the acted share is at most ``calibration.max_uptake`` — and how to demote it, one step at a
time (an ``unjudged`` record, one nothing could have judged, such as an offline fallback's, never counts):

1. raise its agent floor: ``detectors.<id>.confidence_floor`` becomes its current floor plus
   ``calibration.floor_step`` (capped at 1), so only its surer findings reach the agent;
2. if it keeps not landing after that, mute it: ``detectors.<id>.enabled`` false.

The step is a key of the user's own local layer (this user, this workspace; never the workspace's committed
layer), written by the worker, so ``second-brain config show`` names it and ``second-brain config reset
detectors.<id>`` undoes it. Each demotion is a row of ``uptake_demotions``; only outcomes closed after the
latest one count towards the next, so a reset starts the detector afresh. :func:`demotion_notice` is the
sentence the user is told, once (``announced_at`` records that it was).

Standard library only; the hooks never import this module (they never open the database).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from sbcore.gate.uptake import UPTAKES, OutcomeRecord
from sbcore.state.db import Schema, ensure

SCHEMA = Schema(
    name="uptake",
    version=1,
    ddl="""
CREATE TABLE IF NOT EXISTS uptake_outcomes (
    advice_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    workspace TEXT NOT NULL,
    detector TEXT NOT NULL,
    fork_id TEXT NOT NULL,
    dedup_key TEXT NOT NULL,
    confidence REAL NOT NULL,
    delivered_at REAL NOT NULL,
    closed_at REAL NOT NULL,
    uptake TEXT NOT NULL,
    verdict TEXT,
    evidence TEXT NOT NULL,
    PRIMARY KEY (task_id, advice_id)
);
CREATE INDEX IF NOT EXISTS uptake_outcomes_by_detector ON uptake_outcomes (workspace, detector, closed_at);
CREATE TABLE IF NOT EXISTS uptake_demotions (
    workspace TEXT NOT NULL,
    detector TEXT NOT NULL,
    at REAL NOT NULL,
    action TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    reason TEXT NOT NULL,
    announced_at REAL,
    PRIMARY KEY (workspace, detector, at)
);
""",
    tables=("uptake_outcomes", "uptake_demotions"),
)

BANDS: tuple[tuple[float, float], ...] = ((0.0, 0.6), (0.6, 0.8), (0.8, 1.01))
"""Confidence bands the calibration table reports uptake in (the last one includes 1.0)."""


@dataclass(frozen=True)
class CalibrationSettings:
    """``calibration.*``: whether outcomes may demote a detector, and when (the schema owns the defaults)."""

    enabled: bool
    min_outcomes: int
    max_uptake: float
    floor_step: float

    @classmethod
    def from_mapping(cls, group: Mapping[str, Any]) -> CalibrationSettings:
        return cls(
            enabled=bool(group["enabled"]),
            min_outcomes=int(group["min_outcomes"]),
            max_uptake=float(group["max_uptake"]),
            floor_step=float(group["floor_step"]),
        )


@dataclass(frozen=True)
class Demotion:
    """One step down for a detector: the local-layer key to set, to what, and why."""

    workspace: str
    detector: str
    at: float
    action: Literal["floor_raised", "muted"]
    key: str
    value: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "detector": self.detector,
            "at": self.at,
            "action": self.action,
            "key": self.key,
            "value": self.value,
            "reason": self.reason,
        }


def record_outcomes(
    conn: sqlite3.Connection,
    closed: Iterable[tuple[str, OutcomeRecord]],
    *,
    workspace: str,
    session_id: str,
) -> int:
    """Keep closed outcome records (idempotent: a record folded again by a restarted gate, perhaps of a
    resumed task in another session, leaves the row its first closing wrote)."""
    rows = [
        (
            record.advice_id,
            task_id,
            session_id,
            workspace,
            record.detector,
            record.fork_id,
            record.dedup_key,
            record.confidence,
            record.delivered_at,
            record.closed_at if record.closed_at is not None else record.delivered_at,
            record.uptake,
            record.verdict,
            json.dumps(list(record.evidence), ensure_ascii=False),
        )
        for task_id, record in closed
        if record.uptake is not None
    ]
    if rows:
        ensure(conn, SCHEMA)
        with conn:
            conn.executemany("INSERT OR IGNORE INTO uptake_outcomes VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    return len(rows)


def uptake_counts(
    conn: sqlite3.Connection, *, since: float | None = None, task_id: str | None = None
) -> dict[str, dict[str, int]]:
    """Closed outcomes per detector and uptake class (every class present, zero when none)."""
    clauses, params = _where(since, task_id)
    found: dict[str, dict[str, int]] = {}
    if not _has_tables(conn):
        return found
    query = f"SELECT detector, uptake, COUNT(*) FROM uptake_outcomes {clauses} GROUP BY detector, uptake"
    for detector, uptake, count in conn.execute(query, params):
        found.setdefault(detector, dict.fromkeys(UPTAKES, 0))[uptake] = int(count)
    return found


def calibration_table(conn: sqlite3.Connection, *, since: float | None = None) -> dict[str, dict[str, Any]]:
    """Per detector: closed outcomes, acted share, mean confidence acted vs not, uptake by confidence band."""
    if not _has_tables(conn):
        return {}
    clauses, params = _where(since, None)
    rows = conn.execute(f"SELECT detector, confidence, uptake FROM uptake_outcomes {clauses}", params)
    grouped: dict[str, list[tuple[float, bool]]] = {}
    for detector, confidence, uptake in rows:
        if uptake == "unjudged":
            continue  # nothing could judge it: it says nothing of confidence against uptake
        grouped.setdefault(detector, []).append((float(confidence), uptake == "acted"))
    table: dict[str, dict[str, Any]] = {}
    for detector, items in sorted(grouped.items()):
        acted = [c for c, hit in items if hit]
        missed = [c for c, hit in items if not hit]
        bands = []
        for low, high in BANDS:
            inside = [hit for c, hit in items if low <= c < high]
            if inside:
                bands.append(
                    {
                        "confidence": f"{low:.1f}-{min(high, 1.0):.1f}",
                        "outcomes": len(inside),
                        "acted": sum(inside),
                        "uptake": round(sum(inside) / len(inside), 3),
                    }
                )
        table[detector] = {
            "outcomes": len(items),
            "uptake": round(len(acted) / len(items), 3),
            "mean_confidence_acted": _mean(acted),
            "mean_confidence_not_acted": _mean(missed),
            "bands": bands,
        }
    return table


def judge(
    conn: sqlite3.Connection,
    *,
    workspace: str,
    detector: str,
    settings: CalibrationSettings,
    floor: float,
    enabled: bool,
    now: float,
) -> Demotion | None:
    """The next demotion ``detector`` has earned in ``workspace`` (:func:`remember` it once applied), or None.

    ``floor`` is its agent floor now and ``enabled`` whether it runs: a muted detector has nothing left to
    lose, and a floor already at 1 is raised no further (the next step mutes).
    """
    if not settings.enabled or not enabled:
        return None
    ensure(conn, SCHEMA)
    last = conn.execute(
        "SELECT at, action FROM uptake_demotions WHERE workspace = ? AND detector = ? "
        "ORDER BY at DESC LIMIT 1",
        (workspace, detector),
    ).fetchone()
    since = float(last["at"]) if last is not None else float("-inf")
    recent = [
        row["uptake"]
        for row in conn.execute(
            "SELECT uptake FROM uptake_outcomes WHERE workspace = ? AND detector = ? AND closed_at > ? "
            "AND uptake != 'unjudged' ORDER BY closed_at DESC LIMIT ?",
            (workspace, detector, since, settings.min_outcomes),
        )
    ]
    if len(recent) < settings.min_outcomes:
        return None
    acted = sum(1 for uptake in recent if uptake == "acted")
    if acted / len(recent) > settings.max_uptake:
        return None
    tally = ", ".join(f"{sum(1 for u in recent if u == name)} {name}" for name in UPTAKES if name in recent)
    reason = f"{acted} of its last {len(recent)} delivered advisories acted on ({tally})"
    raised = last is not None and last["action"] == "floor_raised"
    if raised or floor >= 1.0:
        demotion = Demotion(
            workspace, detector, now, "muted", f"detectors.{detector}.enabled", "false", reason
        )
    else:
        value = f"{min(1.0, round(floor + settings.floor_step, 3)):g}"
        demotion = Demotion(
            workspace,
            detector,
            now,
            "floor_raised",
            f"detectors.{detector}.confidence_floor",
            value,
            reason,
        )
    return demotion


def remember(conn: sqlite3.Connection, demotion: Demotion) -> None:
    """Record ``demotion`` once it is applied: later judgments count only outcomes closed after it."""
    ensure(conn, SCHEMA)
    with conn:
        conn.execute(
            "INSERT OR REPLACE INTO uptake_demotions VALUES (?,?,?,?,?,?,?,NULL)",
            (
                demotion.workspace,
                demotion.detector,
                demotion.at,
                demotion.action,
                demotion.key,
                demotion.value,
                demotion.reason,
            ),
        )


def demotions(conn: sqlite3.Connection, *, workspace: str | None = None) -> list[Demotion]:
    """Every recorded demotion (of ``workspace``, or all), oldest first."""
    if not _has_tables(conn):
        return []
    query = "SELECT * FROM uptake_demotions"
    params: tuple[Any, ...] = ()
    if workspace is not None:
        query, params = query + " WHERE workspace = ?", (workspace,)
    return [
        Demotion(
            row["workspace"],
            row["detector"],
            row["at"],
            row["action"],
            row["key"],
            row["value"],
            row["reason"],
        )
        for row in conn.execute(query + " ORDER BY at", params)
    ]


def unannounced(conn: sqlite3.Connection, *, workspace: str) -> list[Demotion]:
    """Demotions of ``workspace`` the user has not been told about yet."""
    if not _has_tables(conn):
        return []
    rows = conn.execute(
        "SELECT at FROM uptake_demotions WHERE workspace = ? AND announced_at IS NULL", (workspace,)
    )
    pending = {float(row["at"]) for row in rows}
    return [item for item in demotions(conn, workspace=workspace) if item.at in pending]


def mark_announced(conn: sqlite3.Connection, demotion: Demotion, *, now: float) -> None:
    """The user was told about ``demotion``: it is never announced again."""
    with conn:
        conn.execute(
            "UPDATE uptake_demotions SET announced_at = ? WHERE workspace = ? AND detector = ? AND at = ?",
            (now, demotion.workspace, demotion.detector, demotion.at),
        )


def demotion_notice(demotion: Demotion) -> str:
    """What the user is told, once, when a detector is demoted: what changed, why, and how to undo it."""
    change = (
        f"its agent floor is now {demotion.value}"
        if demotion.action == "floor_raised"
        else "it is muted in this workspace"
    )
    return (
        f"Second Brain demoted detector {demotion.detector}: {demotion.reason}, so {change} "
        f"({demotion.key} in your local layer). Undo it with "
        f"`second-brain config reset {demotion.key}`."
    )


def _where(since: float | None, task_id: str | None) -> tuple[str, tuple[Any, ...]]:
    clauses: list[str] = []
    params: list[Any] = []
    if since is not None:
        clauses.append("closed_at >= ?")
        params.append(since)
    if task_id is not None:
        clauses.append("task_id = ?")
        params.append(task_id)
    return ("WHERE " + " AND ".join(clauses) if clauses else ""), tuple(params)


def _has_tables(conn: sqlite3.Connection) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'uptake_outcomes'"
    ).fetchone()
    return row is not None


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 3) if values else None
