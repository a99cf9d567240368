"""The index: built incrementally in the data directory, from notes it only reads, redacted."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from recall_helpers import index_file

from sbcore.conductor.recall_index import RecallSettings, refresh_workspace, scratch_index
from sbcore.paths import data_dir
from sbcore.state.recall import SEARCHES_REMEMBERED, RecallReader, query_terms


def _bump(path: Path) -> None:
    """Move the file's modification time without changing its content."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))


def test_the_index_lives_in_the_data_directory_not_the_repository(
    workspace: Path, settings: RecallSettings
) -> None:
    before = sorted(p.relative_to(workspace) for p in workspace.rglob("*"))
    done = refresh_workspace(workspace, settings)
    assert sorted(done.indexed) == ["CLAUDE.md", "docs/decisions/0007-pool.md"]
    assert sorted(p.relative_to(workspace) for p in workspace.rglob("*")) == before
    path = index_file(workspace)
    assert path.parent == data_dir() / "recall" and path.is_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_a_refresh_reads_only_what_changed(workspace: Path, settings: RecallSettings) -> None:
    refresh_workspace(workspace, settings)
    again = refresh_workspace(workspace, settings)
    assert (again.indexed, again.restamped, again.unchanged) == ([], [], 2)

    _bump(workspace / "CLAUDE.md")  # touched, same content: re-hashed, not re-chunked
    touched = refresh_workspace(workspace, settings)
    assert (touched.indexed, touched.restamped) == ([], ["CLAUDE.md"])

    (workspace / "CLAUDE.md").write_text("# Working here\n\n## Deploys\n\nUse the blue-green script.\n")
    changed = refresh_workspace(workspace, settings)
    assert changed.indexed == ["CLAUDE.md"]
    reader = RecallReader(index_file(workspace))
    assert [hit.handle for hit in reader.search(["blue"])] == ["CLAUDE.md#deploys"]
    assert reader.search(["integration"]) == []  # the old section is gone

    (workspace / "CLAUDE.md").unlink()
    removed = refresh_workspace(workspace, settings)
    assert removed.removed == ["CLAUDE.md"]
    assert reader.search(["blue"]) == []


def test_sources_the_globs_stop_naming_are_dropped(workspace: Path, settings: RecallSettings) -> None:
    refresh_workspace(workspace, settings)
    narrower = RecallSettings(sources=("CLAUDE.md",), advisories=False)
    assert refresh_workspace(workspace, narrower).removed == ["docs/decisions/0007-pool.md"]


def test_chunks_are_redacted_before_they_are_stored(workspace: Path, settings: RecallSettings) -> None:
    secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    (workspace / "AGENTS.md").write_text(f"# Release\n\nPush with the release token {secret}.\n")
    refresh_workspace(workspace, settings)
    assert secret.encode() not in index_file(workspace).read_bytes()
    [hit] = RecallReader(index_file(workspace)).search(["release"])
    assert "[REDACTED:github-pat]" in hit.body


def test_binary_and_oversized_files_are_skipped(workspace: Path) -> None:
    (workspace / "docs" / "decisions" / "blob.md").write_bytes(b"# x\n\x00\x01")
    (workspace / "docs" / "decisions" / "huge.md").write_text("# big\n" + "word " * 600)
    done = refresh_workspace(workspace, RecallSettings(advisories=False, max_file_bytes=1024))
    assert "docs/decisions/blob.md" not in done.indexed
    assert "docs/decisions/huge.md" not in done.indexed
    assert any("binary" in problem for problem in done.problems)
    assert any("huge.md" in problem and "limit" in problem for problem in done.problems)


def test_the_observers_resolved_advisories_are_a_source(workspace: Path) -> None:
    """Until the durable ledger lands, resolved advisories come from the advice history files."""
    history = data_dir() / "history"
    history.mkdir(parents=True)
    mine, other = str(workspace), "/elsewhere"

    def gate(advice_id: str, where: str, headline: str) -> dict[str, object]:
        envelope = {"id": advice_id, "workspace": where, "headline": headline, "body": "Pin the pool size."}
        return {"stage": "gate", "advice_id": advice_id, "detector": "repeat-failure", "advice": envelope}

    records = [
        gate("a1", mine, "TooManyConnections keeps failing pytest"),
        gate("a2", mine, "Unresolved advisory about flaky tests"),
        gate("a3", other, "TooManyConnections in another repo"),
        {"stage": "outcome", "advice_id": "a1", "verdict": "adopted", "evidence": ["set max_size=5"]},
        {"stage": "outcome", "advice_id": "a3", "verdict": "adopted", "evidence": []},
    ]
    (history / "task-1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    done = refresh_workspace(workspace, RecallSettings())
    assert "history:task-1.jsonl" in done.indexed
    found = RecallReader(index_file(workspace)).search(query_terms("toomanyconnections flaky"))
    hits = [hit for hit in found if hit.kind == "advisory"]  # the decision record matches too
    assert [(hit.handle, hit.region) for hit in hits] == [("advice:a1", "advisories")]
    assert "outcome: adopted (set max_size=5)" in hits[0].body
    assert refresh_workspace(workspace, RecallSettings()).indexed == []  # unchanged history: not re-read


def test_max_files_counts_only_files_that_are_there(workspace: Path) -> None:
    (workspace / "CLAUDE.md").unlink()  # named by the defaults, absent: must not take the one place
    done = refresh_workspace(workspace, RecallSettings(advisories=False, max_files=1))
    assert done.indexed == ["docs/decisions/0007-pool.md"]
    (workspace / "docs" / "decisions" / "0008-more.md").write_text("# More\n\ntext\n")
    capped = refresh_workspace(workspace, RecallSettings(advisories=False, max_files=1))
    assert any("recall.max_files" in problem for problem in capped.problems)


def test_a_frozen_reader_asks_the_index_once_per_question_and_a_live_one_every_time(
    workspace: Path, settings: RecallSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    refresh_workspace(workspace, settings)
    opened: list[Path] = []
    connect = RecallReader.connect

    def counting(self: RecallReader) -> sqlite3.Connection:
        opened.append(self.path)
        return connect(self)

    monkeypatch.setattr(RecallReader, "connect", counting)
    live, frozen = RecallReader(index_file(workspace)), RecallReader(index_file(workspace), frozen=True)
    first = frozen.search(["pool", "integration"], limit=4)
    assert first and first == live.search(["pool", "integration"], limit=4)
    assert [frozen.search(["pool", "integration"], limit=4) for _ in range(3)] == [first] * 3
    assert frozen.search(["pool", "integration"], limit=1) == first[:1]  # another limit, another question
    assert len(opened) == 3  # the frozen reader's two questions and the live reader's one

    (workspace / "CLAUDE.md").write_text("# Working here\n\n## Pools\n\nThe pool is sized by PGBOUNCER.\n")
    refresh_workspace(workspace, settings)
    assert live.search(["pgbouncer"])  # a live reader sees what the indexer added between passes
    for n in range(SEARCHES_REMEMBERED + 10):
        frozen.search([f"word{n}"])
    assert len(frozen._answers or ()) == SEARCHES_REMEMBERED


def test_a_replays_scratch_index_is_frozen(workspace: Path, settings: RecallSettings) -> None:
    with scratch_index(workspace, settings) as reader:
        assert reader is not None and reader._answers is not None
        found = reader.search(["pool"])
        assert found and found == RecallReader(reader.path).search(["pool"])
