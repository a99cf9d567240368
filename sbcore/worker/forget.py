"""``second-brain forget``: drop what the observer holds about a session, a task, or everything — now.

What goes: the session's spool (the observations), events, gate history, mailbox, status, turn reports, log
and background file; the ledger rows of its tasks and their rows in the cross-task index, the pass journal
and the outcome records (:mod:`sbcore.worker.forget_rows` says why none is kept as a counter); and the chunks
the recall indexes took from its tasks (their advice history and ledgers). With ``--all``: every session's,
every ledger, every row of those tables, the soak logs and the recall indexes.
A worker holding a session must also drop its in-memory window, or its next pass would write it all back.
So for a live session the command leaves ``workers/<session>.forget-request`` (as ``second-brain run`` leaves
a run request) and waits for the worker's answer, ``workers/<session>.forget-done``: the worker drops its
window, pacer and gate memory, deletes the session's files itself (between passes, so nothing is rewritten
after), resets its read positions, and reports what it removed. Transcript offsets stay, so what was
forgotten is not read from the transcript again; a session no worker holds is deleted by the command itself.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore import paths
from sbcore.conductor.recall_index import source_task
from sbcore.state import db
from sbcore.state import ledger as store
from sbcore.state.recall import RecallStore
from sbcore.worker import forget_rows
from sbcore.worker.lifecycle import workers_dir
from sbcore.worker.retention import RECALL_DIR, inventory, is_live, remove

log = logging.getLogger("sbcore.worker")

LIVE_KEEP = frozenset({"offsets", "workers"})
"""What forgetting a live session leaves: read positions and the worker's own lock and state."""
MACHINE_DIRS = ("soak", RECALL_DIR)
"""Folders of observer-held content that belong to no one session, removed by ``--all``."""


@dataclass
class ForgetReport:
    """What a forget removed."""

    sessions: list[str] = field(default_factory=list)
    tasks: list[str] = field(default_factory=list)
    files: int = 0
    bytes: int = 0
    by_worker: list[str] = field(default_factory=list)
    """Sessions whose live worker did the forgetting (and dropped its window)."""
    problems: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)
    """Rows deleted beside the ledgers, by table (cross-task index, journal, outcomes, recall sources)."""

    def merge(self, other: ForgetReport) -> None:
        self.sessions += other.sessions
        self.tasks += other.tasks
        for table, count in other.rows.items():
            self.rows[table] = self.rows.get(table, 0) + count
        self.files += other.files
        self.bytes += other.bytes
        self.by_worker += other.by_worker
        self.problems += other.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "tasks": self.tasks,
            "files": self.files,
            "bytes": self.bytes,
            "by_worker": self.by_worker,
            "problems": self.problems,
            "rows": self.rows,
        }

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> ForgetReport:
        return cls(
            sessions=[str(s) for s in body.get("sessions") or []],
            tasks=[str(t) for t in body.get("tasks") or []],
            files=int(body.get("files") or 0),
            bytes=int(body.get("bytes") or 0),
            by_worker=[str(s) for s in body.get("by_worker") or []],
            problems=[str(p) for p in body.get("problems") or []],
            rows={str(k): int(v) for k, v in (body.get("rows") or {}).items()},
        )


def request_path(data: Path, session_id: str) -> Path:
    return workers_dir(data) / f"{paths.safe_name(session_id)}.forget-request"


def done_path(data: Path, session_id: str) -> Path:
    return workers_dir(data) / f"{paths.safe_name(session_id)}.forget-done"


def forget_files(data: Path, session_id: str, *, live: bool) -> ForgetReport:
    """Delete ``session_id``'s files and its tasks' ledgers (``live``: keep what its worker still needs)."""
    report = ForgetReport(sessions=[session_id])
    files = inventory(data).get(paths.safe_name(session_id))
    if files is not None:
        kept = [p for p in files.paths if p.parent.name in LIVE_KEEP] if live else []
        report.files = len(files.paths) - len(kept)
        if live:
            report.bytes += _empty_logs(files.paths)
        report.bytes += remove(files, keep=LIVE_KEEP | {"logs"} if live else frozenset())
    report.tasks = _drop_ledgers(data, session_id, report)
    report.bytes += _drop_recall_sources(data, lambda task: _of_session(task, session_id), report)
    return report


def _empty_logs(found: list[Path]) -> int:
    """Truncate a live worker's log in place: it keeps writing to the open file (``O_APPEND``), now empty."""
    freed = 0
    for path in found:
        if path.parent.name != "logs":
            continue
        try:
            freed += path.lstat().st_size
            os.truncate(path, 0)
        except OSError:
            continue
    return freed


def _drop_ledgers(data: Path, session_id: str | None, report: ForgetReport) -> list[str]:
    path = db.db_path(data)
    if not path.exists():
        return []
    try:
        with db.opened(path) as conn:
            _scrubbing(conn)
            store.prepare(conn)
            if session_id is None:
                removed = store.delete_all(conn, "forgotten (second-brain forget --all)")
                report.rows.update(forget_rows.drop_all(conn))
            else:
                removed = store.delete(
                    conn, store.tasks_of(conn, session_id), "forgotten (second-brain forget)"
                )
                report.rows.update(forget_rows.drop_session(conn, session_id))
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            if session_id is None:
                conn.execute("VACUUM")  # nothing of the deleted rows is left in free pages
    except db.SchemaMismatch as error:
        if session_id is not None:
            report.problems.append(f"ledgers: {error}")
            return []
        # everything, and this release cannot read the tables to delete rows from: the whole file goes
        for suffix in ("", "-wal", "-shm"):
            sidecar = path.with_name(path.name + suffix)
            with contextlib.suppress(FileNotFoundError):
                report.bytes += sidecar.stat().st_size
                sidecar.unlink()
                report.files += 1
        return []
    except sqlite3.Error as error:
        report.problems.append(f"ledgers: {error}")
        return []
    return [removal.task_id for removal in removed]


def _scrubbing(conn: sqlite3.Connection) -> None:
    """Have SQLite overwrite what it deletes through ``conn``, so a forgotten row's text is not left in free
    pages of the shared database (which ``forget`` of one session does not rebuild)."""
    conn.execute("PRAGMA secure_delete=ON")


def forget_task(data: Path, task_id: str) -> ForgetReport:
    """Delete one task's history and ledger (its session's observations are per session: ``--session``)."""
    report = ForgetReport(tasks=[])
    history = data / "history" / f"{paths.safe_name(task_id)}.jsonl"
    try:
        report.bytes += history.lstat().st_size
        history.unlink()
        report.files += 1
    except FileNotFoundError:
        pass
    except OSError as error:
        report.problems.append(f"{history}: {error}")
    try:
        with db.opened(db.db_path(data)) as conn:
            _scrubbing(conn)
            report.tasks = [r.task_id for r in store.delete(store.prepare(conn), [task_id], "forgotten")]
            report.rows.update(forget_rows.drop_tasks(conn, [task_id]))
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as error:
        report.problems.append(f"ledgers: {error}")
    names = (task_id, paths.safe_name(task_id))
    report.bytes += _drop_recall_sources(data, lambda task: task in names, report)
    return report


def _drop_recall_sources(data: Path, forgotten: Callable[[str], bool], report: ForgetReport) -> int:
    """Drop, from every workspace's recall index, the chunks taken from a forgotten task (its advice history,
    its ledger); returns how many bytes the index files shrank by."""
    freed = 0
    for path in sorted((data / RECALL_DIR).glob("*.db")):
        before = _size_with_sidecars(path)
        try:
            with RecallStore(path) as recall:
                dropped = [s for s in recall.stamps() if (task := source_task(s)) and forgotten(task)]
                for source in dropped:
                    recall.drop(source)
                if dropped:
                    recall.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                    recall.conn.execute("VACUUM")  # the dropped chunks' text must not linger in free pages
        except sqlite3.Error as error:
            report.problems.append(f"{path}: {error}")
            continue
        report.rows["recall_chunks"] = report.rows.get("recall_chunks", 0) + len(dropped)
        freed += max(0, before - _size_with_sidecars(path))
    return freed


def _of_session(task: str, session_id: str) -> bool:
    """Whether ``task`` (an id, or an id as a file name) is ``session_id``'s or one of its ``~<n>`` tasks."""
    safe = paths.safe_name(session_id)
    return task in (session_id, safe) or task.startswith((f"{session_id}~", f"{safe}-"))


def _size_with_sidecars(path: Path) -> int:
    size = 0
    for suffix in ("", "-wal", "-shm"):
        try:
            size += path.with_name(path.name + suffix).stat().st_size
        except OSError:
            continue
    return size


def ask_worker(data: Path, session_id: str, timeout: float) -> ForgetReport | None:
    """Have ``session_id``'s live worker forget; None when no worker holds it (or it did not answer)."""
    if not is_live(data, session_id):
        return None
    done = done_path(data, session_id)
    done.unlink(missing_ok=True)
    nonce = f"{os.getpid()}-{time.time_ns()}"
    paths.write_private(request_path(data, session_id), nonce.encode() + b"\n")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            body = json.loads(done.read_bytes())
        except (OSError, ValueError):
            body = None
        if isinstance(body, dict) and body.get("request") == nonce:
            done.unlink(missing_ok=True)
            return ForgetReport.from_json(body)
        if not is_live(data, session_id):
            break
        time.sleep(0.05)
    request_path(data, session_id).unlink(missing_ok=True)
    return None


def answer(data: Path, session_id: str, nonce: str, report: ForgetReport) -> None:
    """The worker's reply to a forget request."""
    body = {"request": nonce, **report.to_json()}
    paths.write_private(done_path(data, session_id), json.dumps(body).encode())


def forget(data: Path, session_id: str, *, timeout: float = 10.0) -> ForgetReport:
    """Forget one session: through its live worker when there is one, else directly."""
    report = ask_worker(data, session_id, timeout)
    if report is not None:
        return report
    report = forget_files(data, session_id, live=is_live(data, session_id))
    if is_live(data, session_id):
        report.problems.append(f"the worker of {session_id} did not answer: its in-memory window may remain")
    return report


def forget_all(data: Path, *, timeout: float = 10.0) -> ForgetReport:
    """Forget every session, every ledger, and the soak logs."""
    report = ForgetReport()
    for key in sorted(inventory(data)):
        report.merge(forget(data, key, timeout=timeout))
    report.tasks += _drop_ledgers(data, None, report)
    for folder in MACHINE_DIRS:
        target = data / folder
        if target.is_dir():
            for child in target.iterdir():
                report.files += 1
                report.bytes += child.lstat().st_size
            shutil.rmtree(target, ignore_errors=True)
    return report
