"""The rows beside the ledgers that ``forget`` and the sweep drop: cross-task index, pass journal, outcomes.

The ledger (:mod:`sbcore.state.ledger`) is not the only room of ``sbcore.db`` that holds what a session
was about. The cross-task index (``xtask_tasks``, ``xtask_regions``) carries a live task's goal line, the
paths its prompts named and the regions it edited; the pass journal (``journal_passes``) each detector's
headline and the gate's sentence; the outcome records (``uptake_outcomes``) the dedup key and the evidence
quoted from the transcript. All of that is session content, so a forgotten session or task loses every one
of those rows, and the rows of a session whose files the sweep removed go with them. No row is kept as an
anonymous counter: what would stay countable without content (tokens, verdict classes) is not worth a second
schema, and ``stats`` simply no longer counts what was forgotten.

The demotions (``uptake_demotions``) are per workspace and detector, carry counts and a configuration key,
never a session's words, and record a change already written to the user's own configuration: they stay,
except under ``forget --all``, which leaves none of these tables a row.

A table that does not exist (its room never ran here) is skipped, never created.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from sbcore.state.taskindex import TaskIndex

BY_SESSION: dict[str, tuple[str, str]] = {
    "xtask_tasks": ("session", "task"),
    "xtask_regions": ("", "task"),
    "journal_passes": ("session_id", "task_id"),
    "uptake_outcomes": ("session_id", "task_id"),
}
"""Each content-bearing table: its session column ('' when it has none) and its task column."""
EVERYTHING = (*BY_SESSION, "uptake_demotions")
"""What ``forget --all`` empties."""
AGED: dict[str, str] = {"journal_passes": "at", "uptake_outcomes": "closed_at"}
"""The tables the sweep ages by their own time column (the index ages its own rows, see :func:`expire`)."""


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _of_session(task_column: str) -> str:
    """A task of the session ``?``: its id is the session's, or ``<session>~<n>``."""
    return f"({task_column} = ? OR substr({task_column}, 1, length(?) + 1) = ? || '~')"


def drop_session(conn: sqlite3.Connection, session_id: str) -> dict[str, int]:
    """Delete every row of ``session_id`` and its tasks from the content-bearing tables; counts by table."""
    present = _tables(conn)
    gone: dict[str, int] = {}
    with conn:
        for table, (session_column, task_column) in BY_SESSION.items():
            if table not in present:
                continue
            where = _of_session(task_column)
            params: tuple[str, ...] = (session_id, session_id, session_id)
            if session_column:
                where = f"({session_column} = ? OR {where})"
                params = (session_id, *params)
            gone[table] = conn.execute(f"DELETE FROM {table} WHERE {where}", params).rowcount
    return gone


def drop_tasks(conn: sqlite3.Connection, task_ids: Iterable[str]) -> dict[str, int]:
    """Delete the rows of exactly ``task_ids`` from the content-bearing tables; counts by table."""
    present = _tables(conn)
    gone: dict[str, int] = {}
    with conn:
        for task_id in task_ids:
            for table, (_, task_column) in BY_SESSION.items():
                if table in present:
                    deleted = conn.execute(f"DELETE FROM {table} WHERE {task_column} = ?", (task_id,))
                    gone[table] = gone.get(table, 0) + deleted.rowcount
    return gone


def drop_all(conn: sqlite3.Connection) -> dict[str, int]:
    """Empty every table :data:`EVERYTHING` names that exists here; counts by table."""
    present = _tables(conn)
    with conn:
        return {
            table: conn.execute(f"DELETE FROM {table}").rowcount for table in EVERYTHING if table in present
        }


def expire(
    conn: sqlite3.Connection, now: float, *, rows_ttl_s: float, index_ttl_s: float, spared: Iterable[str] = ()
) -> dict[str, int]:
    """The sweep's share: journal and outcome rows older than ``rows_ttl_s`` (but a spared session's), and
    cross-task index rows older than ``index_ttl_s``.

    The index deletes its own expired rows only while some worker publishes into it; a data directory no
    session uses any more would keep a killed worker's goal line for good without this.
    """
    present = _tables(conn)
    keep = sorted(set(spared))
    gone: dict[str, int] = {}
    with conn:
        for table, column in AGED.items():
            if table not in present:
                continue
            session_column, task_column = BY_SESSION[table]
            clause = f"{column} < ?"
            params: list[float | str] = [now - rows_ttl_s]
            for session in keep:
                clause += f" AND NOT ({session_column} = ? OR {_of_session(task_column)})"
                params += [session, session, session, session]
            gone[table] = conn.execute(f"DELETE FROM {table} WHERE {clause}", params).rowcount
    if "xtask_tasks" in present:
        gone["xtask"] = TaskIndex(conn).sweep(now, index_ttl_s)
    return gone
