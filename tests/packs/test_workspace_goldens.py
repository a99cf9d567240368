"""A workspace's own detectors, golden-tested: ``pack test --workspace`` on docs/examples/declarative.

The example is a team's declarative detectors written from docs/detector-authoring.md alone (no Python),
with must-fire and must-stay-silent cases; these tests run it as a user would, then break it to show the
cases can fail, and check that a workspace's cases cannot read outside it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sbcore.cli import main
from sbcore.testing.golden_cases import GoldenError
from sbcore.testing.workspace_goldens import load_workspace_cases

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "declarative"
DETECTOR = Path(".second-brain/detectors/untested-python-edits.yaml")
CASES = Path(".second-brain/goldens/untested-python-edits")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    shutil.copytree(EXAMPLE, copy)
    return copy


def test_the_documented_example_passes_its_goldens(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pack", "test", "--workspace", str(EXAMPLE), "-v"]) == 0
    out = capsys.readouterr().out
    assert "PASSED untested-python-edits/installing-pytest-is-not-a-run" in out
    assert "PASSED migration-retried-blind/fixed-between-failures" in out
    assert out.rstrip().endswith("7 passed")


def test_the_example_cases_cover_both_labels_for_each_detector() -> None:
    cases = load_workspace_cases(EXAMPLE)
    labels = {(case.detector, case.label) for case in cases}
    for detector in ("untested-python-edits", "migration-retried-blind"):
        assert {(detector, "must_fire"), (detector, "must_stay_silent")} <= labels
    assert {case.pack for case in cases} == {"workspace"}


def test_a_detector_that_stops_checking_absence_fails_its_silent_cases(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    detector = workspace / DETECTOR
    lines = detector.read_text().splitlines(keepends=True)
    detector.write_text("".join(line for line in lines if not line.lstrip().startswith("absent:")))
    assert main(["pack", "test", "--workspace", str(workspace)]) == 1
    out = capsys.readouterr().out
    assert "FAILED untested-python-edits/tests-ran-after-edit" in out
    assert "expected silence, but the detector advised" in out
    assert "PASSED" not in out  # passing cases are listed with -v only


def test_k_selects_cases(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pack", "test", "--workspace", str(workspace), "-k", "migration-retried", "-v"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("2 passed")


def test_a_workspace_without_cases_says_where_they_go(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pack", "test", "--workspace", str(tmp_path)]) == 1
    assert ".second-brain/goldens/<detector>/<case>.yaml" in capsys.readouterr().err


def test_a_case_cannot_read_a_transcript_outside_the_workspace(workspace: Path) -> None:
    (workspace / CASES / "escape.yaml").write_text(
        "description: Reads a transcript outside the repository.\n"
        "label: must_stay_silent\n"
        "transcript: {path: ../../../../outside.jsonl}\n"
    )
    (workspace / CASES / "corpus.yaml").write_text(
        "description: Reads the shared corpus.\n"
        "label: must_stay_silent\n"
        "transcript: {path: 'shared:a.jsonl'}\n"
    )
    with pytest.raises(GoldenError) as info:
        load_workspace_cases(workspace)
    assert [(Path(c.source.path).name, c.key) for c in info.value.chains] == [
        ("corpus.yaml", "transcript.path"),
        ("escape.yaml", "transcript.path"),
    ]


def test_an_interleaved_case_cannot_read_transcripts_or_a_checkout_outside_the_workspace(
    workspace: Path,
) -> None:
    (workspace / CASES / "escape-one.yaml").write_text(
        "description: Interleaves a transcript outside the repository.\n"
        "label: must_stay_silent\n"
        "interleave: {transcripts: [a.jsonl, ../../../../outside.jsonl]}\n"
    )
    (workspace / CASES / "escape-two.yaml").write_text(
        "description: Places edits in a checkout outside the repository.\n"
        "label: must_stay_silent\n"
        "interleave: {transcripts: [a.jsonl, b.jsonl], checkout: /home}\n"
    )
    # a recall index of notes from anywhere would quote them (a workspace detector's fallback, a CI log)
    (workspace / CASES / "escape-three.yaml").write_text(
        "description: Indexes notes outside the repository.\n"
        "label: must_stay_silent\n"
        "notes: ../../../../notes\n"
        "observations: [{kind: text, text: hello}]\n"
    )
    with pytest.raises(GoldenError) as info:
        load_workspace_cases(workspace)
    assert [(Path(c.source.path).name, c.key) for c in info.value.chains] == [
        ("escape-one.yaml", "interleave.transcripts[1]"),
        ("escape-three.yaml", "notes"),
        ("escape-two.yaml", "interleave.checkout"),
    ]


def test_a_case_file_linked_from_outside_is_refused(
    workspace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "secret.yaml"
    outside.write_text("description: not the repo's\nlabel: must_fire\nobservations: []\n")
    (workspace / CASES / "linked.yaml").symlink_to(outside)
    assert main(["pack", "test", "--workspace", str(workspace)]) == 1
    assert "leads outside the workspace" in capsys.readouterr().err


def test_a_declarative_trigger_is_not_overridden_through_params(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = workspace / CASES / "edit-then-turn-ends.yaml"
    case.write_text(case.read_text() + "config:\n  trigger: {params: {at_least: 2}}\n")
    assert main(["pack", "test", "--workspace", str(workspace), "-k", "edit-then"]) == 1
    out = capsys.readouterr().out
    assert "the case's config overrides are refused" in out
    assert "this detector's trigger is declarative: override trigger.match (the whole check)" in out
