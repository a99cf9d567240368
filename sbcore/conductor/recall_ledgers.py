"""Recall's second source of the observer's own: the ledgers of this workspace's other tasks.

A finished task's ledger (:mod:`sbcore.state.ledger`) is the shortest account of what it was about and how it
went: its goal, the neutral summaries its compactions wrote, and what became of the advice it was given. That
is what a later task hitting the same error wants to be pointed at, so each ledger of the workspace becomes
one chunk, handle ``task:<id>``, region ``tasks``: heading the goal, body the summaries and one line per
adjudicated advisory (``advice <id>: <verdict>``, with its headline when the ledger still has it).

Never the current task's own ledger: recall is about the past, and the window already holds this task.

The ledger's text is already redacted (the goal is a projected prompt, the summaries were written over the
redacted window), and it is redacted again here, as every chunk is, so no later change upstream can leak into
the index. Incremental like the notes: a ledger's stamp is its ``touched_at`` and byte size, so an unchanged
ledger costs one row read; a ledger that is swept or forgotten leaves the index at the next refresh.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from sbcore.observe.redact import redact
from sbcore.state import db
from sbcore.state import ledger as store
from sbcore.state.recall import Entry, RecallStore, Stamp

LEDGER_PREFIX = "ledger:"
TASK_REGION = "tasks"


@dataclass
class LedgersRefreshed:
    """What a refresh of the ledger sources did."""

    present: set[str] = field(default_factory=set)
    indexed: list[str] = field(default_factory=list)
    unchanged: int = 0
    problems: list[str] = field(default_factory=list)


def refresh_ledgers(
    index: RecallStore, data: Path, workspace: str, current_task: str | None, stamps: dict[str, Stamp]
) -> LedgersRefreshed:
    """Index the ledgers of ``workspace``'s tasks other than ``current_task`` found in ``data``'s database."""
    done = LedgersRefreshed()
    path = db.db_path(data)
    if not path.exists():
        return done
    try:
        conn = db.connect(path, readonly=True)
    except sqlite3.Error as error:
        done.problems.append(f"ledgers: {error}")
        return done
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'ledger_task'").fetchone():
            return done
        rows = conn.execute(
            "SELECT task_id, touched_at, bytes FROM ledger_task WHERE workspace = ? AND task_id != ? "
            "ORDER BY task_id",
            (workspace, current_task or ""),
        ).fetchall()
        for row in rows:
            source = LEDGER_PREFIX + row["task_id"]
            old = stamps.get(source)
            mtime_ns, size = int(float(row["touched_at"]) * 1e9), int(row["bytes"])
            done.present.add(source)
            if old is not None and (old.mtime_ns, old.size) == (mtime_ns, size):
                done.unchanged += 1
                continue
            ledger = store.load(conn, row["task_id"])
            if ledger is None:  # swept between the two reads
                done.present.discard(source)
                continue
            entry = ledger_entry(ledger)
            digest = hashlib.sha256(f"{entry.heading}\n{entry.body}".encode()).hexdigest()
            if old is not None and old.sha256 == digest:
                index.restamp(source, Stamp(mtime_ns, size, digest))
                continue
            index.replace(source, Stamp(mtime_ns, size, digest), [entry] if entry.body or ledger.goal else [])
            done.indexed.append(source)
    except sqlite3.Error as error:
        done.problems.append(f"ledgers: {error}")
    finally:
        conn.close()
    return done


def ledger_entry(ledger: store.Ledger) -> Entry:
    """The chunk a task's ledger becomes: its goal as the heading, its summaries and advice verdicts below."""
    headlines = {note.key: note.text for note in ledger.advice if note.state == "open" and note.text}
    lines = list(ledger.facts)
    for note in ledger.advice:
        if note.state != "adjudicated" or not note.text:
            continue
        headline = headlines.get(note.key)
        said = f"advice {note.key} ({note.detector}): {note.text}"
        lines.append(f"{said}: {headline}" if headline else said)
    return Entry(
        handle=f"task:{ledger.task_id}",
        region=TASK_REGION,
        kind="task",
        heading=redact(ledger.goal or f"task {ledger.task_id}"),
        body=redact("\n".join(lines)),
    )
