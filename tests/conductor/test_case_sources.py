"""One vocabulary of labelled cases and one runner: labels files, golden case files and folders of both
score together through ``replay --labels``, the shipped ones as before."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from sbcore.cli import main
from sbcore.conductor.labels import LabelError
from sbcore.testing.case_sources import GoldenJudge, load_sources
from sbcore.testing.golden_cases import GoldenError, load_cases
from sbcore.testing.goldens import GoldenRunner

ROOT = Path(__file__).resolve().parents[2]
GOLDENS = ROOT / "goldens"
LOOP = ROOT / "tests" / "think" / "replay_cases" / "rf-npm-cosmetic-loop.jsonl"  # repeat-failure delivers

# A golden case's inline observations, written again as a case of a labels file.
OBSERVED_LOOP = """\
  - id: observed-loop
    detector: repeat-failure
    expect: fire
    family: node
    why: one npm test command retried under cosmetic variations, the same TypeError each time
    observations:
      - {kind: tool, tool: Bash, tool_use_id: t1, args: {command: "cd /work/web && npm test 2>&1 | tail -40"}}
      - {kind: error, tool: Bash, tool_use_id: t1, text: "Exit code 1\\nTypeError: x is undefined"}
      - {kind: tool, tool: Edit, tool_use_id: e1, args: {file_path: /work/web/src/list.tsx}}
      - {kind: tool, tool: Bash, tool_use_id: t2, args: {command: npm test}}
      - {kind: error, tool: Bash, tool_use_id: t2, text: "Exit code 1\\nTypeError: x is undefined"}
      - {kind: tool, tool: Edit, tool_use_id: e2, args: {file_path: /work/web/src/list.tsx}}
      - {kind: tool, tool: Bash, tool_use_id: t3, args: {command: "npm test   # once more"}}
      - {kind: error, tool: Bash, tool_use_id: t3, text: "Exit code 1\\nTypeError: x is undefined"}
"""


def scored(capsys: pytest.CaptureFixture[str], *sources: str) -> tuple[int, dict[str, Any], str]:
    code = main(["replay", "--json", "--labels", *sources])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out else {}, err


def test_the_shipped_goldens_score_as_the_golden_kit_judges_them(capsys: pytest.CaptureFixture[str]) -> None:
    """Every shipped golden case loads as a labelled case, and the runner's verdict on it is the golden
    kit's: right exactly when its check passes."""
    shipped = load_cases(GOLDENS)
    cases = load_sources([GOLDENS / "builtin"])
    assert sorted(case.id for case in cases) == sorted(case.id for case in shipped)
    runner, judge = GoldenRunner(), GoldenJudge()
    for case in cases:
        assert case.golden is not None
        judged = judge(case)
        outcome = runner.run(case.golden).outcome
        assert (outcome == "passed") == (judged.right is True and not judged.failure), case.id
    code, document, err = scored(capsys, str(GOLDENS / "builtin"))
    assert code == 0, err
    assert sum(each["right"] is True for each in document["by_case"]) == len(shipped)
    assert document["repeat-failure"]["fn"] == document["repeat-failure"]["fp"] == 0


def labels_with_both(root: Path) -> Path:
    """A labels file holding a replayed transcript case and a case written in the golden vocabulary."""
    (root / "cases").mkdir(parents=True)
    shutil.copy(LOOP, root / "cases" / "loop.jsonl")
    labels = root / "labels.yaml"
    labels.write_text(
        "cases:\n"
        "  - {id: replayed-loop, transcript: cases/loop.jsonl, detector: repeat-failure, expect: fire}\n"
        "  - {id: replayed-range, transcript: {path: cases/loop.jsonl, records: '1-3'},\n"
        "     label: must_stay_silent, detector: repeat-failure, description: the first attempt is no loop}\n"
        + OBSERVED_LOOP
    )
    return labels


def test_a_labels_file_holds_cases_of_both_vocabularies_and_scores_the_same_from_anywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    labels = labels_with_both(tmp_path / "here")
    monkeypatch.chdir(tmp_path)
    code, first, err = scored(capsys, str(labels))
    assert code == 0, err
    by_id = {each["id"]: each for each in first["by_case"]}
    assert set(by_id) == {"replayed-loop", "replayed-range", "observed-loop"}
    assert all(each["right"] for each in by_id.values()), by_id
    assert by_id["observed-loop"]["family"] == "node"
    assert "decided by fallback" in by_id["observed-loop"]["why"]
    elsewhere = tmp_path / "else" / "where"
    elsewhere.mkdir(parents=True)
    monkeypatch.chdir(elsewhere)
    copy = tmp_path / "copy"
    shutil.copytree(tmp_path / "here", copy)
    _, copied, _ = scored(capsys, str(copy / "labels.yaml"))
    counts = ("tp", "fp", "fn", "tn")
    assert {k: copied["repeat-failure"][k] for k in counts} == {k: first["repeat-failure"][k] for k in counts}
    assert first["repeat-failure"]["tp"] == 2 and first["repeat-failure"]["tn"] == 1


def test_a_folder_of_labels_files_and_golden_cases_scores_them_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels_with_both(tmp_path / "suite")
    golden = tmp_path / "suite" / "builtin" / "repeat-failure"
    golden.mkdir(parents=True)
    shutil.copy(GOLDENS / "builtin" / "repeat-failure" / "success-resets-streak.yaml", golden)
    code, document, err = scored(capsys, str(tmp_path / "suite"))
    assert code == 0, err
    assert {each["id"] for each in document["by_case"]} == {
        "replayed-loop",
        "replayed-range",
        "observed-loop",
        "builtin/repeat-failure/success-resets-streak",
    }


def test_a_golden_case_whose_transcript_is_missing_is_an_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    case = tmp_path / "team" / "repeat-failure" / "gone.yaml"
    case.parent.mkdir(parents=True)
    case.write_text("description: a loop\nlabel: must_fire\ntranscript:\n  path: transcripts/gone.jsonl\n")
    assert main(["replay", "--labels", str(case)]) == 2
    err = capsys.readouterr().err
    assert "no transcript at" in err and "transcripts/gone.jsonl" in err and "Traceback" not in err
    # a shared corpus file that is not there is an error too, not a skipped case
    case.write_text("description: a loop\nlabel: must_fire\ntranscript:\n  path: shared:corpus/none.jsonl\n")
    monkeypatch.setenv("SBCORE_SHARED_DIR", str(tmp_path))
    code, document, _ = scored(capsys, str(case))
    assert code == 2
    assert document["problems"][0]["key"] == "transcript.path"
    assert "none.jsonl" in document["problems"][0]["problem"]


def test_an_unknown_key_of_a_labels_case_is_named_with_its_correction(tmp_path: Path) -> None:
    labels = tmp_path / "labels.yaml"
    shutil.copy(LOOP, tmp_path / "loop.jsonl")
    labels.write_text(
        "cases:\n"
        "  - id: loop\n"
        "    transcript: loop.jsonl\n"
        "    detector: repeat-failure\n"
        "    expect: fire\n"
        "    famliy: node\n"
    )
    with pytest.raises(LabelError) as raised:
        load_sources([labels])
    problem = raised.value.problem
    assert (problem.key, problem.line) == ("famliy", 6)
    assert "did you mean 'family'" in (problem.fix or "")


def test_a_case_in_the_golden_vocabulary_is_checked_as_a_golden_case_where_it_is_written(
    tmp_path: Path,
) -> None:
    labels = tmp_path / "labels.yaml"
    labels.write_text(
        "cases:\n"
        "  - id: fine\n"
        "    detector: repeat-failure\n"
        "    label: must_stay_silent\n"
        "    description: nothing failed\n"
        "    observations:\n"
        "      - {kind: text, text: done}\n"
        "  - id: broken\n"
        "    detector: repeat-failure\n"
        "    label: must_fire\n"
        "    description: a typo in an observation\n"
        "    observations:\n"
        "      - {kind: tool, tool: Bash}\n"
        "      - {knd: error, text: boom}\n"
    )
    with pytest.raises(GoldenError) as raised:
        load_sources([labels])
    problems = raised.value.problems
    assert problems[0].file == str(labels)
    assert problems[0].line == 14
    assert "knd" in raised.value.problems[0].render() or "knd" in str(raised.value)


def test_a_labels_only_key_in_a_golden_style_case_is_refused(tmp_path: Path) -> None:
    labels = tmp_path / "labels.yaml"
    labels.write_text(
        "cases:\n"
        "  - id: narrowed\n"
        "    detector: standard-questions\n"
        "    label: must_fire\n"
        "    description: one question\n"
        "    questions: [tests_run]\n"
        "    observations:\n"
        "      - {kind: text, text: done}\n"
    )
    with pytest.raises(LabelError) as raised:
        load_sources([labels])
    assert raised.value.problem.key == "questions"
    assert "golden case" in raised.value.problem.problem


def test_a_model_case_without_recorded_answers_is_pending_and_the_rest_are_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A golden case only a model could decide is counted as pending, not as silence, and does not keep
    its detector's other cases from being scored."""
    labels = tmp_path / "labels.yaml"
    labels.write_text(
        "cases:\n"
        "  - id: needs-a-model\n"
        "    detector: default\n"
        "    label: must_fire\n"
        "    description: the suite went green by deleting a test\n"
        "    observations:\n"
        "      - {kind: prompt, text: get the build green}\n"
        "      - {kind: tool, tool: Edit, args: {file_path: tests/test_tax.py}}\n"
    )
    shutil.copytree(GOLDENS / "builtin" / "default", tmp_path / "builtin" / "default")
    code, document, err = scored(capsys, str(labels), str(tmp_path / "builtin"))
    assert code == 0, err
    default = document["default"]
    assert default["pending"] == 1
    assert (default["tp"], default["fp"], default["fn"], default["tn"]) == (1, 0, 0, 1)
    pending = next(each for each in document["by_case"] if each["id"] == "needs-a-model")
    assert pending["fired"] is None
