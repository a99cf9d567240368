"""The one database: private files, WAL, schema versions, and read-only connections that cannot write."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest

from sbcore.state import db

NOTES = db.Schema(
    name="notes",
    version=1,
    ddl="CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);",
    tables=("notes",),
)


def test_the_database_and_its_sidecars_are_private_and_in_wal(tmp_path: Path) -> None:
    path = tmp_path / "data" / db.DB_NAME
    with db.opened(path) as conn:
        db.ensure(conn, NOTES)
        with conn:
            conn.execute("INSERT INTO notes (body) VALUES ('x')")
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        for name in (db.DB_NAME, db.DB_NAME + "-wal", db.DB_NAME + "-shm"):
            assert stat.S_IMODE((path.parent / name).stat().st_mode) == 0o600, name
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_a_schema_is_created_once_and_a_cache_rebuilt_when_its_version_changes(tmp_path: Path) -> None:
    path = tmp_path / db.DB_NAME
    cache = db.Schema(**{**NOTES.__dict__, "rebuildable": True})
    with db.opened(path) as conn:
        db.ensure(conn, cache)
        with conn:
            conn.execute("INSERT INTO notes (body) VALUES ('kept')")
        db.ensure(conn, cache)
        assert conn.execute("SELECT count(*) FROM notes").fetchone()[0] == 1
        newer = db.Schema(
            name="notes",
            version=2,
            ddl="CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body TEXT, tag TEXT);",
            tables=("notes",),
            rebuildable=True,
        )
        db.ensure(conn, newer)
        assert conn.execute("SELECT count(*) FROM notes").fetchone()[0] == 0
        assert "tag" in [row[1] for row in conn.execute("PRAGMA table_info(notes)")]


def test_an_upgrade_migrates_the_rows_step_by_step_or_refuses_to_lose_them(tmp_path: Path) -> None:
    path = tmp_path / db.DB_NAME
    with db.opened(path) as conn:
        db.ensure(conn, NOTES)
        with conn:
            conn.execute("INSERT INTO notes (body) VALUES ('a user''s row')")
        skipping = db.Schema("notes", 3, NOTES.ddl, ("notes",), migrations={2: "SELECT 1;"})
        with pytest.raises(db.SchemaMismatch, match=r"version 1 and this sbcore reads 3 with no migration"):
            db.ensure(conn, skipping)
        assert conn.execute("SELECT count(*) FROM notes").fetchone()[0] == 1, "nothing erased"
        migrated = db.Schema(
            "notes",
            3,
            "CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body TEXT, tag TEXT, seen INTEGER);",
            ("notes",),
            migrations={
                1: "ALTER TABLE notes ADD COLUMN tag TEXT;",
                2: "ALTER TABLE notes ADD COLUMN seen INTEGER;",
            },
        )
        db.ensure(conn, migrated)
        rows = [tuple(row) for row in conn.execute("SELECT body, tag, seen FROM notes")]
        assert rows == [("a user's row", None, None)]
        db.ensure(conn, migrated)  # once at its version, nothing runs again


def test_an_older_sbcore_refuses_a_newer_schema_and_erases_nothing(tmp_path: Path) -> None:
    """Going back to an older release must not rebuild (and so empty) the newer one's tables."""
    newer = db.Schema(name="notes", version=2, ddl=NOTES.ddl, tables=("notes",))
    path = tmp_path / db.DB_NAME
    with db.opened(path) as conn:
        db.ensure(conn, newer)
        with conn:
            conn.execute("INSERT INTO notes (body) VALUES ('the newer one keeps this')")
        with pytest.raises(db.SchemaMismatch, match=r"second-brain forget --all") as refused:
            db.ensure(conn, NOTES)
        assert isinstance(refused.value, sqlite3.DatabaseError)  # the callers' sqlite3 handling applies
        assert "version 2, written by a newer sbcore than this one (which reads 1)" in str(refused.value)
        assert [tuple(row) for row in conn.execute("SELECT body FROM notes")] == [
            ("the newer one keeps this",)
        ]


def test_a_read_only_connection_cannot_write_and_never_creates_the_file(tmp_path: Path) -> None:
    path = tmp_path / db.DB_NAME
    with pytest.raises(sqlite3.OperationalError):
        db.connect(path, readonly=True)
    assert not path.exists()
    with db.opened(path) as conn:
        db.ensure(conn, NOTES)
    with db.opened(path, readonly=True) as reader:
        assert reader.execute("SELECT count(*) FROM notes").fetchone()[0] == 0
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            reader.execute("INSERT INTO notes (body) VALUES ('no')")


def test_the_default_path_is_in_the_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path))
    assert db.db_path() == tmp_path / db.DB_NAME


def test_forget_all_clears_a_database_a_newer_sbcore_wrote(tmp_path: Path) -> None:
    """The refusal names `second-brain forget --all`, which must work where this release cannot read the
    tables."""
    from sbcore.state import ledger
    from sbcore.worker.forget import forget_all

    data = tmp_path / "data"
    newer = db.Schema(ledger.SCHEMA.name, ledger.SCHEMA.version + 1, ledger.SCHEMA.ddl, ledger.SCHEMA.tables)
    with db.opened(db.db_path(data)) as conn:
        db.ensure(conn, newer)
    report = forget_all(data)
    assert report.problems == []
    assert not db.db_path(data).exists()
    with db.opened(db.db_path(data)) as conn:
        db.ensure(conn, ledger.SCHEMA)  # this release starts over with its own tables
