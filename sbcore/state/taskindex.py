"""The live cross-task index: what each running task is about and which file regions it is editing.

Task isolation is the rule; this is its one exception (design, "The one thing that crosses tasks"). Every
worker publishes, for its current task, a one-line goal, the paths and symbols the user's prompts name, and
the file regions its Edit/Write calls touched; every worker reads the other live tasks back, so a structural
trigger can tell that two agents are editing the same lines, or that one is editing what the other's goal is
about. Nothing is remembered: a task's rows count only while they are younger than the index TTL, so a
crashed worker leaves nothing that outlives it, and a task that ends removes its rows at once.

What is shared stays minimal: task and session ids, workspace, working directory and git common directory,
the goal line, the named paths and symbols, regions (path, lines, time). Never the ledger, observations,
advisories or verdicts. The rows live in the observer's own database (:mod:`sbcore.state.db`): the user's
data directory for a live worker, a scratch file for replay, goldens and benches, so no driver but the live
worker ever writes the user's index.

Standard library only.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sbcore.state import db

SCHEMA = db.Schema(
    name="taskindex",
    version=1,
    rebuildable=True,  # read again from its sources (the notes; the live sessions) when rebuilt
    ddl="""
CREATE TABLE IF NOT EXISTS xtask_tasks (
    task TEXT PRIMARY KEY,
    session TEXT NOT NULL,
    workspace TEXT NOT NULL,
    cwd TEXT,
    git_dir TEXT,
    goal TEXT NOT NULL DEFAULT '',
    mentions TEXT NOT NULL DEFAULT '[]',
    seen_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS xtask_tasks_seen ON xtask_tasks (seen_at);
CREATE TABLE IF NOT EXISTS xtask_regions (
    task TEXT NOT NULL,
    ref TEXT NOT NULL,
    path TEXT NOT NULL,
    first_line INTEGER,
    last_line INTEGER,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS xtask_regions_task ON xtask_regions (task, at);
""",
    tables=("xtask_tasks", "xtask_regions"),
)


@dataclass(frozen=True)
class IndexedRegion:
    """Lines ``first``..``last`` (1-based, inclusive) of ``path`` edited at ``at`` (epoch seconds).

    ``path`` is relative to the task's workspace when the file is inside it (so two worktrees of one
    repository name a file alike), absolute otherwise. ``first``/``last`` are None when the edit could not
    be placed in the file (no line anchor): such a region counts as the whole file.
    """

    path: str
    first: int | None
    last: int | None
    at: float
    ref: str = ""
    """The tool call that made the edit (a failed call's region is withdrawn by it)."""

    @property
    def whole_file(self) -> bool:
        return self.first is None or self.last is None

    def describe(self) -> str:
        """``lines 40-52``, ``line 40``, or ``lines unknown`` for an edit that could not be placed."""
        if self.first is None or self.last is None:
            return "lines unknown"
        return f"line {self.first}" if self.first == self.last else f"lines {self.first}-{self.last}"


@dataclass(frozen=True)
class IndexedTask:
    """Another live task, as the index shows it to this one."""

    task: str
    session: str
    workspace: str
    cwd: str | None
    git_dir: str | None
    goal: str
    mentions: tuple[str, ...]
    seen_at: float
    regions: tuple[IndexedRegion, ...] = ()
    same_checkout: bool = True
    """Whether it works in this task's checkout (False: another worktree of the same repository)."""


@dataclass(frozen=True)
class Peers:
    """What a cross-task trigger sees: this task's workspace, the time of reading, the other live tasks."""

    workspace: str
    now: float
    tasks: tuple[IndexedTask, ...] = field(default=())


@dataclass(frozen=True)
class Whereabouts:
    """Where a task works: what decides which other tasks are its neighbours."""

    session: str
    workspace: str
    cwd: str | None = None
    git_dir: str | None = None
    """The repository's git common directory (shared by all its worktrees), when known."""


class TaskIndex:
    """The index's rows in one database connection (owned by the caller, see :meth:`open`)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        db.ensure(conn, SCHEMA)

    @classmethod
    def open(cls, path: Path) -> TaskIndex:
        """The index in the database at ``path`` (created 0600, WAL, see :func:`sbcore.state.db.connect`)."""
        return cls(db.connect(path))

    @classmethod
    def private(cls) -> TaskIndex:
        """An index in memory, seen by nobody else: for a driver that must not touch the user's (replay)."""
        conn = sqlite3.connect(":memory:")
        conn.row_factory = sqlite3.Row
        return cls(conn)

    def close(self) -> None:
        self.conn.close()

    # -- writing ------------------------------------------------------------------------------------------

    def publish(
        self,
        task: str,
        where: Whereabouts,
        now: float,
        *,
        goal: str = "",
        mentions: Sequence[str] = (),
        regions: Sequence[IndexedRegion] = (),
        withdrawn: Sequence[str] = (),
        max_regions: int = 200,
        max_mentions: int = 64,
    ) -> None:
        """Say ``task`` is alive at ``now``; set its goal if it has none yet, add mentions and regions.

        ``withdrawn`` are refs of edits that failed (they changed nothing). A task keeps its newest
        ``max_regions`` regions and ``max_mentions`` mentions.
        """
        with self.conn:
            row = self.conn.execute(
                "SELECT goal, mentions FROM xtask_tasks WHERE task = ?", (task,)
            ).fetchone()
            known: list[str] = _mentions(row["mentions"]) if row is not None else []
            for item in mentions:
                if item not in known:
                    known.append(item)
            known = known[-max_mentions:]
            kept_goal = row["goal"] if row is not None and row["goal"] else goal
            self.conn.execute(
                "INSERT INTO xtask_tasks (task, session, workspace, cwd, git_dir, goal, mentions, seen_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(task) DO UPDATE SET session = excluded.session, "
                "workspace = excluded.workspace, cwd = excluded.cwd, git_dir = excluded.git_dir, "
                "goal = excluded.goal, mentions = excluded.mentions, seen_at = excluded.seen_at",
                (
                    task,
                    where.session,
                    where.workspace,
                    where.cwd,
                    where.git_dir,
                    kept_goal,
                    json.dumps(known),
                    now,
                ),
            )
            self.conn.executemany(
                "INSERT INTO xtask_regions (task, ref, path, first_line, last_line, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(task, r.ref, r.path, r.first, r.last, r.at) for r in regions],
            )
            if withdrawn:
                self.conn.executemany(
                    "DELETE FROM xtask_regions WHERE task = ? AND ref = ?", [(task, ref) for ref in withdrawn]
                )
            if regions:
                self.conn.execute(
                    "DELETE FROM xtask_regions WHERE task = ? AND rowid NOT IN "
                    "(SELECT rowid FROM xtask_regions WHERE task = ? ORDER BY at DESC, rowid DESC LIMIT ?)",
                    (task, task, max_regions),
                )

    def leave(self, task: str) -> None:
        """``task`` is over (a new task began, the session ended): its rows go now, not at the TTL."""
        with self.conn:
            self.conn.execute("DELETE FROM xtask_regions WHERE task = ?", (task,))
            self.conn.execute("DELETE FROM xtask_tasks WHERE task = ?", (task,))

    def sweep(self, now: float, ttl_s: float) -> int:
        """Delete rows older than ``ttl_s``; how many went (readers skip them anyway: this bounds growth)."""
        cutoff = now - ttl_s
        with self.conn:
            gone = self.conn.execute("DELETE FROM xtask_regions WHERE at < ?", (cutoff,)).rowcount
            gone += self.conn.execute("DELETE FROM xtask_tasks WHERE seen_at < ?", (cutoff,)).rowcount
        return gone

    # -- reading ------------------------------------------------------------------------------------------

    def peers(self, task: str, where: Whereabouts, now: float, ttl_s: float) -> Peers:
        """The other live tasks in ``where``'s workspace, or in another worktree of its repository.

        A task is live while it published within ``ttl_s``; of its regions only those younger than
        ``ttl_s`` are shown.
        """
        cutoff = now - ttl_s
        rows = self.conn.execute(
            "SELECT * FROM xtask_tasks WHERE task != ? AND seen_at >= ? "
            "AND (workspace = ? OR (git_dir IS NOT NULL AND git_dir = ?)) ORDER BY seen_at DESC, task",
            (task, cutoff, where.workspace, where.git_dir),
        ).fetchall()
        tasks = []
        for row in rows:
            regions = self.conn.execute(
                "SELECT * FROM xtask_regions WHERE task = ? AND at >= ? ORDER BY at, rowid",
                (row["task"], cutoff),
            ).fetchall()
            tasks.append(
                IndexedTask(
                    task=row["task"],
                    session=row["session"],
                    workspace=row["workspace"],
                    cwd=row["cwd"],
                    git_dir=row["git_dir"],
                    goal=row["goal"],
                    mentions=tuple(_mentions(row["mentions"])),
                    seen_at=row["seen_at"],
                    regions=tuple(
                        IndexedRegion(r["path"], r["first_line"], r["last_line"], r["at"], r["ref"])
                        for r in regions
                    ),
                    same_checkout=row["workspace"] == where.workspace,
                )
            )
        return Peers(where.workspace, now, tuple(tasks))


def _mentions(raw: str) -> list[str]:
    try:
        value = json.loads(raw)
    except ValueError:
        return []
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []
