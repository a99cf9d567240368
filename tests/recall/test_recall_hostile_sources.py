"""A repository cannot point recall outside itself: hostile ``recall.sources`` index nothing outside."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from recall_helpers import index_file

from sbcore.conductor.recall_index import RecallSettings, refresh_workspace
from sbcore.config import load_config
from sbcore.config.layers import global_path
from sbcore.jail import Jail
from sbcore.state.recall import RecallReader

SECRET_WORD = "zanzibarquokka"
"""A word only the files outside the workspace hold: the index must never contain it."""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "notes.md").write_text(f"# Keys\n\n{SECRET_WORD} private key notes\n")
    (home / "notes.md").write_text(f"# Diary\n\n{SECRET_WORD} diary\n")
    monkeypatch.setenv("HOME", str(home))
    (tmp_path / "sibling").mkdir()
    (tmp_path / "sibling" / "plan.md").write_text(f"# Plan\n\n{SECRET_WORD} sibling\n")
    return home


def _indexed(workspace: Path) -> list[str]:
    reader = RecallReader(index_file(workspace))
    with reader.connect() as conn:
        return sorted(row[0] for row in conn.execute("SELECT source FROM recall_files"))


def test_hostile_globs_index_nothing_outside(workspace: Path, home: Path) -> None:
    decisions = workspace / "docs" / "decisions"
    (decisions / "home").symlink_to(home, target_is_directory=True)  # ** must not wander through it
    (decisions / "leak.md").symlink_to(home / "notes.md")  # a file link leading outside
    (workspace / "AGENTS.md").symlink_to(home / ".ssh" / "notes.md")
    (decisions / "inside.md").symlink_to(decisions / "0007-pool.md")  # inside to inside keeps working
    hostile = (
        "/etc/*",
        "/etc/passwd",
        "../../**",
        "../sibling/*.md",
        "docs/../../sibling/*.md",
        "~/*",
        "~/.ssh/*",
        "**/*.md",
        "docs/decisions/home/**",
        "AGENTS.md",
    )
    done = refresh_workspace(workspace, RecallSettings(sources=hostile, advisories=False))
    sources = _indexed(workspace)
    assert sources == ["CLAUDE.md", "docs/decisions/0007-pool.md"]
    jail = Jail(workspace)
    assert all(jail.contains(workspace / source) for source in sources)
    assert SECRET_WORD.encode() not in index_file(workspace).read_bytes()
    assert RecallReader(index_file(workspace)).search([SECRET_WORD]) == []
    refused = "\n".join(done.problems)
    for glob in ("/etc/*", "/etc/passwd", "../../**", "../sibling/*.md", "docs/../../sibling/*.md", "~/*"):
        assert repr(glob) in refused


def test_the_schema_refuses_them_with_file_line_and_key(workspace: Path) -> None:
    layer = workspace / ".second-brain"
    layer.mkdir()
    (layer / "config.yaml").write_text(
        textwrap.dedent(
            """\
            recall:
              sources:
                - CLAUDE.md
                - /etc/*
                - ../../**
            """
        )
    )
    problems = [p for p in load_config(workspace).problems if p.key and p.key.startswith("recall")]
    assert {(p.line, p.key) for p in problems} == {(4, "recall.sources.1"), (5, "recall.sources.2")}
    assert all(p.file == layer / "config.yaml" for p in problems)
    assert all("relative to the workspace root" in p.message for p in problems)


def test_extra_sources_from_the_repository_are_held_back_until_trusted(workspace: Path, home: Path) -> None:
    layer = workspace / ".second-brain"
    layer.mkdir()
    (layer / "config.yaml").write_text("recall:\n  extra_sources: ['~/*.md']\n")
    assert RecallSettings.from_config(load_config(workspace)).extra_sources == ()
    refresh_workspace(workspace, RecallSettings.from_config(load_config(workspace)))
    assert SECRET_WORD.encode() not in index_file(workspace).read_bytes()


def test_the_users_own_layer_may_add_notes_elsewhere(workspace: Path, home: Path) -> None:
    global_path().parent.mkdir(parents=True, exist_ok=True)
    global_path().write_text("recall:\n  extra_sources: ['~/notes.md']\n")
    settings = RecallSettings.from_config(load_config(workspace))
    assert settings.extra_sources == ("~/notes.md",)
    refresh_workspace(workspace, settings)
    [hit] = RecallReader(index_file(workspace)).search([SECRET_WORD])
    assert hit.handle == "~/notes.md#diary"


def test_a_workspace_that_cannot_be_a_jail_indexes_nothing_and_says_why() -> None:
    done = refresh_workspace(Path("/"), RecallSettings(advisories=False))
    assert done.indexed == [] and "filesystem root" in done.problems[0]
