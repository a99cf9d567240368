"""What the observer keeps per session, and how it goes: the sweep (by age and total size) and deletion.

Every session leaves files in the data directory — events, spool, history (one file per task), the worker's
log, status and state, mailbox, background launches, transcript offsets — and every task a ledger row in the
database. Nothing of it is the user's data: it is what the observer saw, derived and redacted, and deleting
any of it only makes the observer colder. So expiry is explicit (design, "Garbage collection"):

- the files of a session untouched for ``ledger.files_ttl_days`` go;
- then, while the data directory is larger than ``ledger.data_max_bytes``, the files of the least recently
  touched sessions go;
- the ledgers follow ``ledger.ttl_days``, ``ledger.max_per_workspace`` and ``ledger.max_bytes``
  (:func:`sbcore.state.ledger.sweep`), and a session whose files went takes its ledger rows with it;
- a session whose files went takes its rows in the cross-task index, the pass journal and the outcome
  records with it; journal and outcome rows older than ``ledger.files_ttl_days`` go too, and cross-task
  index rows older than ``index.ttl_s`` (:mod:`sbcore.worker.forget_rows`);
- a workspace's recall index (``recall/<workspace>.db`` and its ``-wal``/``-shm``) not used for
  ``ledger.files_ttl_days`` goes: every refresh touches it, so an index a worker uses never ages;
- a session a live worker holds (its lock is held) is never touched, and every deletion is logged.

Every worker sweeps when it starts and every ``ledger.sweep_interval_s`` while it runs, off its tick (in a
thread): a sweep that only ran at install would never run.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import shutil
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sbcore.state import db
from sbcore.state import ledger as store
from sbcore.worker import forget_rows

if TYPE_CHECKING:
    from sbcore.config import EffectiveConfig

log = logging.getLogger("sbcore.worker")

SESSION_DIRS = (
    "events",
    "spool",
    "history",
    "logs",
    "mailbox",
    "status",
    "turns",
    "background",
    "offsets",
    "workers",
)
"""The data directory's per-session folders (``<dir>/<session>…``; history is per task, ``<session>~<n>``)."""
RECALL_DIR = "recall"
"""The recall indexes, one SQLite file per workspace (with its ``-wal`` and ``-shm``)."""
RECALL_SIDECARS = ("", "-wal", "-shm")
NOT_SESSIONS = ("cli-", "hooks.")
"""Names in those folders that belong to no session: the CLI pointers, the hooks' own log."""


@dataclass
class SessionFiles:
    """One session's files: where they are, how big, and when any of them last changed."""

    key: str
    paths: list[Path] = field(default_factory=list)
    bytes: int = 0
    touched: float = 0.0


def session_key(name: str) -> str | None:
    """The session a file or folder name in :data:`SESSION_DIRS` belongs to (None: to no session)."""
    if name.startswith(NOT_SESSIONS):
        return None
    name = name.removeprefix("worker-")
    return name.split(".", 1)[0].split("~", 1)[0] or None


def inventory(data: Path) -> dict[str, SessionFiles]:
    """Every session that has files in ``data``, with their total size and newest change."""
    found: dict[str, SessionFiles] = {}
    for folder in SESSION_DIRS:
        try:
            entries = list(os.scandir(data / folder))
        except OSError:
            continue
        for entry in entries:
            key = session_key(entry.name)
            if key is None:
                continue
            size, touched = _measure(entry)
            item = found.setdefault(key, SessionFiles(key))
            item.paths.append(Path(entry.path))
            item.bytes += size
            item.touched = max(item.touched, touched)
    return found


def _measure(entry: os.DirEntry[str]) -> tuple[int, float]:
    try:
        if entry.is_dir(follow_symlinks=False):
            size, touched = 0, 0.0  # a folder's own time is when it was made; its files say when it was used
            for child in os.scandir(entry.path):
                status = child.stat(follow_symlinks=False)
                size, touched = size + status.st_size, max(touched, status.st_mtime)
            return size, touched or entry.stat(follow_symlinks=False).st_mtime
        status = entry.stat(follow_symlinks=False)
        return status.st_size, status.st_mtime
    except OSError:
        return 0, 0.0


def is_live(data: Path, session: str) -> bool:
    """Whether a worker holds ``session``'s lock right now (the kernel's word, not a pid guess)."""
    path = data / "workers" / f"{session}.lock"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def remove(files: SessionFiles, *, keep: frozenset[str] = frozenset()) -> int:
    """Delete a session's files except those in the folders ``keep`` names; returns the bytes freed.

    ``forget`` on a session a worker holds keeps ``offsets`` (so what was forgotten is not read from the
    transcript again) and ``workers`` (the lock and the worker's own state, which it resets itself).
    """
    freed = 0
    for path in files.paths:
        if path.parent.name in keep:
            continue
        try:
            if path.is_dir() and not path.is_symlink():
                freed += sum(child.lstat().st_size for child in path.iterdir())
                shutil.rmtree(path)
            else:
                freed += path.lstat().st_size
                path.unlink()
        except FileNotFoundError:
            continue
        except OSError as error:
            log.warning("could not delete %s: %s", path, error)
    return freed


@dataclass(frozen=True)
class Limits:
    """The sweep's knobs (``ledger.*``) as plain values."""

    files_ttl_s: float
    data_max_bytes: int
    ledger: store.SweepLimits
    index_ttl_s: float = 1800.0
    """``index.ttl_s``: cross-task index rows older than this are dead."""

    @classmethod
    def from_config(cls, config: EffectiveConfig) -> Limits:
        group = config.group("ledger")
        return cls(
            index_ttl_s=float(config.get("index.ttl_s")),
            files_ttl_s=float(group["files_ttl_days"]) * 86400,
            data_max_bytes=int(group["data_max_bytes"]),
            ledger=store.SweepLimits(
                ttl_s=float(group["ttl_days"]) * 86400,
                max_per_workspace=int(group["max_per_workspace"]),
                max_bytes=int(group["max_bytes"]),
            ),
        )


@dataclass
class SweepReport:
    """What one sweep found and did."""

    sessions: int = 0
    removed_sessions: list[tuple[str, str]] = field(default_factory=list)
    removed_ledgers: list[store.Removal] = field(default_factory=list)
    removed_rows: dict[str, int] = field(default_factory=dict)
    """Journal, outcome and cross-task index rows deleted, by table."""
    removed_recall: list[str] = field(default_factory=list)
    """The recall index files (by workspace key) that aged out."""
    bytes_before: int = 0
    bytes_after: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        return (
            f"sweep: {len(self.removed_sessions)} of {self.sessions} sessions and "
            f"{len(self.removed_ledgers)} ledgers removed, {sum(self.removed_rows.values())} rows, "
            f"{len(self.removed_recall)} recall indexes; "
            f"{self.bytes_before:,} -> {self.bytes_after:,} bytes in {self.seconds:.2f} s"
        )


def sweep(data: Path, limits: Limits, *, now: float | None = None, keep: Iterable[str] = ()) -> SweepReport:
    """Expire old sessions' files and ledgers (see the module docstring); ``keep``: sessions never touched."""
    started = time.monotonic()
    now = time.time() if now is None else now
    sessions = inventory(data)
    report = SweepReport(sessions=len(sessions))
    spared = set(keep) | {key for key in sessions if is_live(data, key)}
    _checkpoint(data)
    database = _db_size(data)
    report.bytes_before = sum(item.bytes for item in sessions.values()) + database
    total = report.bytes_before
    gone: list[str] = []
    oldest_first = sorted(sessions.values(), key=lambda item: item.touched)
    for item in oldest_first:
        if item.key in spared:
            continue
        if now - item.touched > limits.files_ttl_s:
            why = f"untouched for {(now - item.touched) / 86400:.1f} days (ledger.files_ttl_days)"
        elif total > limits.data_max_bytes:
            why = f"data directory over {limits.data_max_bytes:,} bytes (ledger.data_max_bytes)"
        else:
            continue
        total -= remove(item)
        gone.append(item.key)
        report.removed_sessions.append((item.key, why))
    for key, why in report.removed_sessions:
        log.info("sweep: removed the files of session %s: %s", key, why)
    report.removed_ledgers = _sweep_ledgers(data, now, limits, gone, spared, report.removed_rows)
    _sweep_recall(data, now, limits.files_ttl_s, report.removed_recall)
    for removal in report.removed_ledgers:
        log.info(
            "sweep: removed the ledger of task %s (%s): %s", removal.task_id, removal.workspace, removal.why
        )
    report.bytes_after = total - database + _db_size(data)
    report.seconds = time.monotonic() - started
    return report


def _sweep_ledgers(
    data: Path, now: float, limits: Limits, gone: list[str], spared: set[str], rows: dict[str, int]
) -> list[store.Removal]:
    path = db.db_path(data)
    if not path.exists():
        return []
    try:
        with db.opened(path) as conn:
            store.prepare(conn)
            removed: list[store.Removal] = []
            for key in gone:
                removed += store.delete(conn, store.tasks_of(conn, key), "its session's files were swept")
            removed += store.sweep(conn, now, limits.ledger, spared)
            for key in gone:
                _count(rows, forget_rows.drop_session(conn, key))
            _count(
                rows,
                forget_rows.expire(
                    conn, now, rows_ttl_s=limits.files_ttl_s, index_ttl_s=limits.index_ttl_s, spared=spared
                ),
            )
            for table, count in rows.items():
                if count:
                    log.info("sweep: removed %d rows of %s", count, table)
            if removed or any(rows.values()):
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return removed
    except sqlite3.Error as error:
        log.warning("sweep: ledgers not swept: %s", error)
        return []


def _count(into: dict[str, int], counts: dict[str, int]) -> None:
    for table, count in counts.items():
        into[table] = into.get(table, 0) + count


def _sweep_recall(data: Path, now: float, ttl_s: float, removed: list[str]) -> None:
    """Delete the recall indexes no refresh touched for ``ttl_s`` (they are caches: the next refresh of a
    workspace that comes back rebuilds its index from the notes)."""
    for path in sorted((data / RECALL_DIR).glob("*.db")):
        files = [path.with_name(path.name + suffix) for suffix in RECALL_SIDECARS]
        sizes, touched = 0, 0.0
        for item in files:
            with contextlib.suppress(OSError):
                status = item.lstat()
                sizes, touched = sizes + status.st_size, max(touched, status.st_mtime)
        if now - touched <= ttl_s:
            continue
        for item in files:
            item.unlink(missing_ok=True)
        removed.append(path.stem)
        log.info(
            "sweep: removed the recall index %s (%d bytes): unused for %.1f days (ledger.files_ttl_days)",
            path.name,
            sizes,
            (now - touched) / 86400,
        )


def _checkpoint(data: Path) -> None:
    """Fold the write-ahead log back into the database, so its size is not counted twice (or left to grow)."""
    path = db.db_path(data)
    if not path.exists():
        return
    try:
        with db.opened(path) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as error:
        log.warning("sweep: database checkpoint skipped: %s", error)


def _db_size(data: Path) -> int:
    path = db.db_path(data)
    size = 0
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            size += path.with_name(path.name + suffix).stat().st_size
    return size
