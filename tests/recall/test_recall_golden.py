"""A golden case's ``notes``: indexed for the case, and a clear failure when the directory is missing."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from sbcore.testing.golden_cases import load_case
from sbcore.testing.goldens import GoldenRunner

GOLDENS = Path(__file__).resolve().parents[2] / "goldens" / "builtin" / "recall"


def test_a_case_naming_a_missing_notes_directory_fails_clearly(tmp_path: Path) -> None:
    case_dir = tmp_path / "goldens" / "builtin" / "recall"
    case_dir.mkdir(parents=True)
    path = case_dir / "missing.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            description: Notes that are not there.
            label: must_stay_silent
            notes: nowhere
            observations:
              - {kind: tool, tool: Bash, tool_use_id: t1, args: {command: pytest}}
              - {kind: error, tool: Bash, tool_use_id: t1, text: "E boom"}
            """
        )
    )
    result = GoldenRunner().run(load_case(path))
    assert result.outcome == "failed"
    assert "no notes directory" in result.reason and "nowhere" in result.reason


def test_the_notes_of_a_case_are_read_not_written(tmp_path: Path) -> None:
    copy = tmp_path / "goldens" / "builtin" / "recall"
    shutil.copytree(GOLDENS, copy)
    before = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    result = GoldenRunner().run(load_case(copy / "past-fix-for-failing-error.yaml"))
    assert result.outcome == "passed", result.reason
    assert {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()} == before
