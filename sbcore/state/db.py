"""The observer's one embedded database: durable state that outlives a worker (ledger, index, uptake).

Files in the data directory suit what one writer replaces whole (status, hot snapshot). What must survive a
SIGKILL, be shared by every worker on the machine and be queried by age or size — task ledgers, the cross-task
index, advisory outcomes — lives in one SQLite file instead: ``sbcore.db`` in the data directory, WAL so
readers never wait for a writer, 0600 like every file the observer writes (it holds projected content).

Each room that keeps tables here declares them as a :class:`Schema` (a name, a version and the DDL) and calls
:func:`ensure`; a schema whose stored version differs is rebuilt, because everything here is a cache of what
the observer saw or a record it can lose without harm — never the user's data. Passes read through
:func:`connect` with ``readonly=True`` (``mode=ro``), so a pass provably cannot write.

Standard library only, and nothing of sbcore but :mod:`sbcore.paths`; the hooks never open it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sbcore.paths import FILE_MODE, data_dir, ensure_private_dir
from sbcore.problems import SbcoreError

DB_NAME = "sbcore.db"
BUSY_TIMEOUT_MS = 2000
"""How long a writer waits for another worker's write before giving up (never on the hook path)."""


def db_path(root: Path | None = None) -> Path:
    """Where the database lives: ``sbcore.db`` in ``root`` (default: the data directory)."""
    return (root if root is not None else data_dir()) / DB_NAME


@dataclass(frozen=True)
class Schema:
    """One room's tables: ``ddl`` is run (a script of ``CREATE … IF NOT EXISTS``) when ``version`` is new."""

    name: str
    version: int
    ddl: str
    tables: tuple[str, ...]
    """The tables ``ddl`` creates (dropped when a rebuildable room's stored version is older)."""
    migrations: Mapping[int, str] = field(default_factory=dict)
    """SQL taking the tables from version ``k`` to ``k + 1``, by ``k``: an older stored version is migrated
    step by step when every step is here."""
    rebuildable: bool = False
    """Whether the tables only cache what can be read again (the recall index): an older stored version
    with no migration is then rebuilt empty; any other room's is refused rather than lose its rows."""


def connect(path: Path | None = None, *, readonly: bool = False) -> sqlite3.Connection:
    """A connection to the database at ``path`` (default :func:`db_path`).

    Writable connections create the file 0600 in a 0700 directory and switch it to WAL; read-only ones open
    it with ``mode=ro`` and fail (``sqlite3.OperationalError``) when it does not exist yet.
    """
    target = path if path is not None else db_path()
    if readonly:
        conn = sqlite3.connect(f"{target.as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    else:
        ensure_private_dir(target.parent)
        if not target.exists():
            with contextlib.suppress(FileExistsError):
                os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, FILE_MODE))
        conn = sqlite3.connect(target, timeout=BUSY_TIMEOUT_MS / 1000)
        conn.execute("PRAGMA journal_mode=WAL")
        _tighten_sidecars(target)
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    conn.row_factory = sqlite3.Row
    return conn


def _tighten_sidecars(target: Path) -> None:
    """The WAL and shared-memory files SQLite creates get the process umask; make them 0600 too."""
    for suffix in ("", "-wal", "-shm"):
        sidecar = target.with_name(target.name + suffix)
        with contextlib.suppress(OSError):
            if (sidecar.stat().st_mode & 0o777) != FILE_MODE:
                os.chmod(sidecar, FILE_MODE)


class SchemaMismatch(SbcoreError, sqlite3.DatabaseError):
    """The stored tables are of a version this sbcore neither reads nor migrates: it refuses rather than
    erase them, and says what to run."""


def ensure(conn: sqlite3.Connection, schema: Schema) -> None:
    """Create ``schema``'s tables; migrate an older stored version step by step, rebuild a rebuildable one,
    and refuse anything else (:class:`SchemaMismatch`, naming what to run), a newer version included:
    going back to an older sbcore must not erase what the newer one keeps, nor an upgrade a user's rows."""
    with conn:
        conn.execute("CREATE TABLE IF NOT EXISTS sb_schema (name TEXT PRIMARY KEY, version INTEGER NOT NULL)")
        row = conn.execute("SELECT version FROM sb_schema WHERE name = ?", (schema.name,)).fetchone()
        if row is not None and row[0] == schema.version:
            return
        stored = None if row is None else int(row[0])
        if stored is not None and stored > schema.version:
            raise SchemaMismatch(
                f"{schema.name} tables are version {stored}, written by a newer sbcore than this one "
                f"(which reads {schema.version}): upgrade sbcore (and run `second-brain install`) to keep "
                "them, or run `second-brain forget --all` to start them over"
            )
        steps = range(stored, schema.version) if stored is not None else range(0)
        if stored is not None and all(step in schema.migrations for step in steps):
            for step in steps:
                conn.executescript(schema.migrations[step])
        elif stored is not None and not schema.rebuildable:
            raise SchemaMismatch(
                f"{schema.name} tables are version {stored} and this sbcore reads {schema.version} with no "
                "migration between them: run `second-brain forget --all` to start them over (the rows are "
                "lost), or go back to the sbcore that wrote them"
            )
        elif stored is not None:
            for table in schema.tables:
                conn.execute(f'DROP TABLE IF EXISTS "{table}"')
    conn.executescript(schema.ddl)
    with conn:
        conn.execute(
            "INSERT INTO sb_schema (name, version) VALUES (?, ?) "
            "ON CONFLICT(name) DO UPDATE SET version = excluded.version",
            (schema.name, schema.version),
        )


@contextlib.contextmanager
def opened(path: Path | None = None, *, readonly: bool = False) -> Iterator[sqlite3.Connection]:
    """:func:`connect`, closed on exit (a ``with`` block commits or rolls back only a transaction)."""
    conn = connect(path, readonly=readonly)
    try:
        yield conn
    finally:
        conn.close()
