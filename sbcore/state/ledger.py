"""The durable task ledger: what a worker's window distilled about one task, kept in the one database.

The window's ledger block (goal, the compaction summaries, what was advised) lives in a worker's memory, so a
worker that is SIGKILLed, restarted or replaced by a standby used to start its task cold. Here it is written
to ``sbcore.db`` after every pass and read back when a worker takes a task up again, so the rebuilt window
starts from the same judgment (design: "The ledger is per task, and it expires").

Keys follow the design's task identity: a task id is the session id, then ``<session>~<epoch>`` for each
boundary inside the session (``/clear`` opens a new session, so a new ledger; a fork copies the ledger under
the new task id and both go on independently; a resume reads the same key again). Advice is kept with its
state: ``open`` (given, not yet judged), ``adjudicated`` (a detector reported what became of it) and
``suppressed`` (an evidenced rejection: not to be said again in this task).

Expiry is explicit (:func:`sweep`): a ledger untouched for the TTL goes, then the least recently touched
beyond the per-workspace count and the total byte cap, never a task a live worker holds, and every deletion
is returned so the caller logs it. Deleting a ledger is always safe: it is derived state.

Standard library only, and nothing of sbcore but :mod:`sbcore.state.db`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from sbcore.state.db import Schema, ensure

AdviceState = Literal["open", "adjudicated", "suppressed"]

MAX_FACTS = 60
"""Compaction summaries kept per task (the window's own cap); the oldest go first."""
MAX_ADVICE = 200
"""Advice notes kept per task; the oldest of each state beyond it go first."""
MAX_TEXT = 2000
"""Longest goal, fact or advice text stored (one compaction summary is at most 1,200 characters)."""

SCHEMA = Schema(
    name="ledger",
    version=1,
    ddl="""
    CREATE TABLE IF NOT EXISTS ledger_task (
        task_id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL,
        workspace TEXT NOT NULL,
        goal TEXT,
        passes INTEGER NOT NULL DEFAULT 0,
        compactions INTEGER NOT NULL DEFAULT 0,
        forked_from TEXT,
        created_at REAL NOT NULL,
        touched_at REAL NOT NULL,
        bytes INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX IF NOT EXISTS ledger_task_session ON ledger_task (session_id);
    CREATE INDEX IF NOT EXISTS ledger_task_touched ON ledger_task (touched_at);
    CREATE TABLE IF NOT EXISTS ledger_fact (
        task_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (task_id, seq)
    );
    CREATE TABLE IF NOT EXISTS ledger_advice (
        task_id TEXT NOT NULL,
        key TEXT NOT NULL,
        detector TEXT NOT NULL,
        state TEXT NOT NULL,
        text TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (task_id, key, state)
    );
    """,
    tables=("ledger_task", "ledger_fact", "ledger_advice"),
)


@dataclass(frozen=True)
class AdviceNote:
    """Advice the task has seen: its key (dedup key or advice id), who raised it, and its state."""

    key: str
    detector: str
    state: AdviceState
    text: str
    at: float


@dataclass
class Ledger:
    """One task's durable judgment."""

    task_id: str
    session_id: str
    workspace: str
    goal: str | None = None
    facts: list[str] = field(default_factory=list)
    advice: list[AdviceNote] = field(default_factory=list)
    passes: int = 0
    compactions: int = 0
    forked_from: str | None = None
    created_at: float = 0.0
    touched_at: float = 0.0

    @property
    def size(self) -> int:
        """Bytes of text the ledger holds (what the byte cap counts)."""
        texts = [self.goal or "", *self.facts, *(f"{a.key}{a.text}" for a in self.advice)]
        return sum(len(text.encode("utf-8", "replace")) for text in texts)

    def empty(self) -> bool:
        return not self.goal and not self.facts and not self.advice


@dataclass(frozen=True)
class Removal:
    """A ledger the sweep or ``forget`` deleted, and why (the caller logs every one)."""

    task_id: str
    workspace: str
    why: str
    bytes: int


def prepare(conn: sqlite3.Connection) -> sqlite3.Connection:
    """``conn`` with the ledger's tables in place (returns it, for chaining)."""
    ensure(conn, SCHEMA)
    return conn


def save(conn: sqlite3.Connection, ledger: Ledger, now: float) -> None:
    """Write ``ledger`` whole (its facts and advice within their caps), touching it at ``now``."""
    facts = [_cut(fact) for fact in ledger.facts][-MAX_FACTS:]
    advice = _capped(ledger.advice)
    goal = _cut(ledger.goal) if ledger.goal else None
    kept = Ledger(
        ledger.task_id,
        ledger.session_id,
        ledger.workspace,
        goal,
        facts,
        advice,
        ledger.passes,
        ledger.compactions,
        ledger.forked_from,
    )
    with conn:
        row = conn.execute(
            "SELECT created_at FROM ledger_task WHERE task_id = ?", (ledger.task_id,)
        ).fetchone()
        created = float(row[0]) if row is not None else (ledger.created_at or now)
        conn.execute(
            "INSERT OR REPLACE INTO ledger_task (task_id, session_id, workspace, goal, passes, compactions, "
            "forked_from, created_at, touched_at, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                ledger.task_id,
                ledger.session_id,
                ledger.workspace,
                goal,
                ledger.passes,
                ledger.compactions,
                ledger.forked_from,
                created,
                now,
                kept.size,
            ),
        )
        conn.execute("DELETE FROM ledger_fact WHERE task_id = ?", (ledger.task_id,))
        conn.executemany(
            "INSERT INTO ledger_fact (task_id, seq, text) VALUES (?, ?, ?)",
            [(ledger.task_id, seq, text) for seq, text in enumerate(facts)],
        )
        conn.execute("DELETE FROM ledger_advice WHERE task_id = ?", (ledger.task_id,))
        conn.executemany(
            "INSERT OR REPLACE INTO ledger_advice (task_id, key, detector, state, text, at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(ledger.task_id, a.key, a.detector, a.state, _cut(a.text), a.at) for a in advice],
        )


def load(conn: sqlite3.Connection, task_id: str) -> Ledger | None:
    """The ledger of ``task_id``; None when there is none."""
    row = conn.execute("SELECT * FROM ledger_task WHERE task_id = ?", (task_id,)).fetchone()
    if row is None:
        return None
    facts = [
        r[0] for r in conn.execute("SELECT text FROM ledger_fact WHERE task_id = ? ORDER BY seq", (task_id,))
    ]
    advice = [
        AdviceNote(r[0], r[1], r[2], r[3], float(r[4]))
        for r in conn.execute(
            "SELECT key, detector, state, text, at FROM ledger_advice WHERE task_id = ? ORDER BY at, key",
            (task_id,),
        )
        if r[2] in ("open", "adjudicated", "suppressed")
    ]
    return Ledger(
        task_id=row["task_id"],
        session_id=row["session_id"],
        workspace=row["workspace"],
        goal=row["goal"],
        facts=facts,
        advice=advice,
        passes=int(row["passes"]),
        compactions=int(row["compactions"]),
        forked_from=row["forked_from"],
        created_at=float(row["created_at"]),
        touched_at=float(row["touched_at"]),
    )


def fork(conn: sqlite3.Connection, source: str, target: str, session_id: str, now: float) -> bool:
    """Copy ``source``'s ledger to ``target`` (a fork: both go on independently); False if there is none."""
    ledger = load(conn, source)
    if ledger is None:
        return False
    ledger.task_id, ledger.session_id, ledger.forked_from, ledger.created_at = target, session_id, source, now
    save(conn, ledger, now)
    return True


def tasks_of(conn: sqlite3.Connection, session_id: str) -> list[str]:
    """Every task id recorded for ``session_id``."""
    return [r[0] for r in conn.execute("SELECT task_id FROM ledger_task WHERE session_id = ?", (session_id,))]


def delete(conn: sqlite3.Connection, task_ids: Iterable[str], why: str) -> list[Removal]:
    """Delete the ledgers of ``task_ids`` (those that exist), saying ``why``."""
    removed: list[Removal] = []
    with conn:
        for task_id in task_ids:
            row = conn.execute(
                "SELECT workspace, bytes FROM ledger_task WHERE task_id = ?", (task_id,)
            ).fetchone()
            if row is None:
                continue
            for table in ("ledger_task", "ledger_fact", "ledger_advice"):
                conn.execute(f"DELETE FROM {table} WHERE task_id = ?", (task_id,))
            removed.append(Removal(task_id, row[0], why, int(row[1])))
    return removed


def delete_all(conn: sqlite3.Connection, why: str) -> list[Removal]:
    """Delete every ledger."""
    ids = [r[0] for r in conn.execute("SELECT task_id FROM ledger_task")]
    return delete(conn, ids, why)


@dataclass(frozen=True)
class SweepLimits:
    """The ``ledger.*`` expiry knobs, as plain values."""

    ttl_s: float
    max_per_workspace: int
    max_bytes: int


def sweep(
    conn: sqlite3.Connection, now: float, limits: SweepLimits, active: Collection[str] = ()
) -> list[Removal]:
    """Expire ledgers: TTL on dormancy, then count per workspace and total bytes, oldest touch first.

    ``active`` are task ids (or session ids) a live worker holds: never deleted, whatever their age.
    """
    rows = [
        (r["task_id"], r["session_id"], r["workspace"], float(r["touched_at"]), int(r["bytes"]))
        for r in conn.execute(
            "SELECT task_id, session_id, workspace, touched_at, bytes FROM ledger_task "
            "ORDER BY touched_at DESC"
        )
    ]
    live = set(active)
    doomed: dict[str, str] = {}
    per_workspace: dict[str, int] = {}
    total = 0
    for task_id, session_id, workspace, touched, size in rows:  # newest first
        if task_id in live or session_id in live:
            per_workspace[workspace] = per_workspace.get(workspace, 0) + 1
            total += size
            continue
        if now - touched > limits.ttl_s:
            doomed[task_id] = f"untouched for {(now - touched) / 86400:.1f} days (ledger.ttl_days)"
            continue
        count = per_workspace.get(workspace, 0)
        if count >= limits.max_per_workspace:
            doomed[task_id] = (
                f"more than {limits.max_per_workspace} ledgers in {workspace} (ledger.max_per_workspace)"
            )
            continue
        if total + size > limits.max_bytes:
            doomed[task_id] = f"ledgers over {limits.max_bytes:,} bytes (ledger.max_bytes)"
            continue
        per_workspace[workspace] = count + 1
        total += size
    removed: list[Removal] = []
    for why in sorted(set(doomed.values())):
        removed += delete(conn, [task for task, reason in doomed.items() if reason == why], why)
    return removed


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _capped(advice: Sequence[AdviceNote]) -> list[AdviceNote]:
    """The newest :data:`MAX_ADVICE` notes, one per (key, state)."""
    unique: dict[tuple[str, str], AdviceNote] = {}
    for note in sorted(advice, key=lambda a: a.at):
        unique[(note.key, note.state)] = note
    return list(unique.values())[-MAX_ADVICE:]
