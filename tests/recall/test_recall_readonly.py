"""A pass only reads: the notes and the index file are byte-for-byte the same after it, and SQLite refuses
a write through the connection the pass reads with."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from pathlib import Path

import pytest
from recall_helpers import FAILING, index_file

from sbcore.conductor.scratch import detector_case
from sbcore.observe.model import Observation
from sbcore.packs.catalogue import assemble_catalogue
from sbcore.packs.manager import get_plugin_manager
from sbcore.state.recall import RecallWindow
from sbcore.think.tools.dispatch import Grant, Toolbox
from sbcore.think.tools.recall import RECALL


def _failing_session() -> list[Observation]:
    return [
        Observation(
            kind="tool", tool="Bash", tool_use_id="t1", args={"command": "pytest -q"}, text="pytest -q"
        ),
        Observation(kind="error", tool="Bash", tool_use_id="t1", text=f"Exit code 1\n{FAILING}"),
    ]


def _digests(workspace: Path) -> dict[str, str]:
    """SHA-256 of every note, of the index file and of its write-ahead log (absent counts as empty).

    SQLite may create an empty ``-wal`` and the ``-shm`` coordination file when a read-only connection
    opens a WAL database; what the index holds is the database file plus the log's content.
    """
    index = index_file(workspace)
    wal = index.with_name(index.name + "-wal")
    files = {str(p): p.read_bytes() for p in sorted(workspace.rglob("*")) if p.is_file()}
    files[str(index)] = index.read_bytes()
    files[str(wal)] = wal.read_bytes() if wal.exists() else b""
    return {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}


def test_a_pass_leaves_the_notes_and_the_index_unchanged(workspace: Path, window: RecallWindow) -> None:
    manager = get_plugin_manager()
    recall = assemble_catalogue(manager).get("recall")
    assert recall is not None
    before = _digests(workspace)
    result = asyncio.run(detector_case(recall.definition, _failing_session(), recall=window))
    assert result.feedback is not None and result.feedback["verdict"] == "advise"  # the pass did recall
    assert _digests(workspace) == before
    for sidecar in index_file(workspace).parent.iterdir():  # whoever created them, they stay private
        assert sidecar.stat().st_mode & 0o077 == 0, sidecar


def test_a_write_through_the_pass_connection_fails(window: RecallWindow) -> None:
    conn = window.reader.connect()
    try:
        assert conn.execute("SELECT count(*) FROM recall_chunks").fetchone()[0] > 0
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("DELETE FROM recall_chunks")
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("CREATE TABLE sneaky (x)")
    finally:
        conn.close()


def test_the_reader_never_creates_an_index(tmp_path: Path) -> None:
    from sbcore.state.recall import RecallReader

    missing = tmp_path / "recall" / "none.db"
    assert RecallReader(missing).search(["anything"]) == []
    assert not missing.exists()


def test_the_recall_tool_answers_a_granted_detector_with_handles(
    workspace: Path, window: RecallWindow
) -> None:
    toolbox = Toolbox(root=workspace, recall=window.reader)
    result = asyncio.run(
        toolbox.dispatch("d", Grant.parse([RECALL]), RECALL, {"query": "TooManyConnections pool", "limit": 2})
    )
    assert not result.is_error
    assert result.text.splitlines()[0].startswith(
        "docs/decisions/0007-pool.md#fix-for-psycopg-toomanyconnections"
    )


def test_the_recall_tool_is_refused_without_a_grant(workspace: Path, window: RecallWindow) -> None:
    toolbox = Toolbox(root=workspace, recall=window.reader)
    result = asyncio.run(toolbox.dispatch("d", Grant.parse(["Read"]), RECALL, {"query": "pool"}))
    assert result.refused


def test_the_recall_tool_output_is_redacted(workspace: Path, window: RecallWindow) -> None:
    """The chunks were redacted when indexed; dispatch redacts the result again, like Read's."""
    conn = sqlite3.connect(index_file(workspace))  # plant a secret the indexer would have redacted
    with conn:
        conn.execute(
            "INSERT INTO recall_chunks (handle, source, region, kind, heading, body) VALUES "
            "('x.md#k', 'x.md', '(root)', 'note', 'Keys', 'deploy key AKIAIOSFODNN7EXAMPLE')"
        )
    conn.close()
    toolbox = Toolbox(root=workspace, recall=window.reader)
    result = asyncio.run(toolbox.dispatch("d", Grant.parse([RECALL]), RECALL, {"query": "deploy key"}))
    assert "AKIAIOSFODNN7EXAMPLE" not in result.text
    assert "[REDACTED:aws-access-key-id]" in result.text
