"""Projection goldens: hand-written transcripts in, observations out, byte for byte.

Each case covers part of the contract (see the transcript it names): ``basics`` (text,
prompts, Read/Grep/Glob, Bash heredoc and literal elision, an error head, dropped
bookkeeping, a split message, a duplicated record), ``edits`` (anchors, shared
context, MultiEdit, NotebookEdit, Write), ``harness`` (everything the harness and the
plugin inject), ``agents`` (reports, sidechains, background launches) and ``misc``
(secrets, grouped locators, MCP and other tools).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from projection_cases import materialise, normalise, project_case, transcript_lines
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from sbcore.observe.config import ProjectionConfig
from sbcore.observe.project import Projector

CASES = [
    pytest.param("basics", False, id="basics"),
    pytest.param("edits", False, id="edits"),
    pytest.param("harness", False, id="harness"),
    pytest.param("agents", False, id="agents"),
    pytest.param("agents", True, id="agents-with-sidechains"),
    pytest.param("misc", False, id="misc"),
]


@pytest.mark.parametrize(("name", "sidechain"), CASES)
def test_rendering(name: str, sidechain: bool, tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    observations, _ = project_case(name, tmp_path, ProjectionConfig(include_sidechain=sidechain))
    assert "\n\n".join(obs.text for obs in observations) == snapshot


@pytest.mark.parametrize(("name", "sidechain"), CASES)
def test_json(name: str, sidechain: bool, tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    observations, projector = project_case(name, tmp_path, ProjectionConfig(include_sidechain=sidechain))
    document = {"observations": [obs.to_json() for obs in observations], "usage": projector.usage}
    assert document == snapshot(extension_class=JSONSnapshotExtension)


@pytest.mark.parametrize(("name", "sidechain"), CASES)
def test_fast_path_changes_nothing(name: str, sidechain: bool, tmp_path: Path) -> None:
    """``feed_lines`` skips records unparsed; the result must equal parsing every record."""
    config = ProjectionConfig(include_sidechain=sidechain)
    materialise(tmp_path)
    lines = transcript_lines(name, tmp_path)
    fast = Projector(config)
    slow = Projector(config)
    records = [json.loads(line) for line in lines if line.strip()]
    assert [o.to_json() for o in fast.feed_lines(lines)] == [o.to_json() for o in slow.feed(records)]
    assert fast.usage == slow.usage


def test_fast_path_skips_successful_results(tmp_path: Path) -> None:
    materialise(tmp_path)
    projector = Projector()
    projector.feed_lines(transcript_lines("basics", tmp_path))
    # four successful results (a Bash result is read for its outcome only when it holds a failure
    # mark), progress, a file-history snapshot, a system record, summary, last-prompt, a queue
    # operation and the thinking-only record are never parsed
    assert projector.stats.skipped_unparsed == 11


@pytest.mark.parametrize(("name", "sidechain"), CASES)
def test_incremental_feeding_matches_one_pass(name: str, sidechain: bool, tmp_path: Path) -> None:
    """The worker feeds a transcript slice by slice; the slicing must not show."""
    config = ProjectionConfig(include_sidechain=sidechain)
    materialise(tmp_path)
    lines = transcript_lines(name, tmp_path)
    whole = Projector(config).feed_lines(lines)
    projector = Projector(config)
    pieces = []
    for start in range(0, len(lines), 3):
        pieces.extend(projector.feed_lines(lines[start : start + 3]))
    assert normalise(pieces, tmp_path) == normalise(whole, tmp_path)
