"""Scoring labelled cases is something CI can gate on: paths that travel, thresholds, a baseline, and an
exit status that tells the truth with one line per problem."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import sbcore
from sbcore.cli import main
from sbcore.packs.registry import TriggerSpec

CASES = Path(__file__).parent.parent / "think" / "replay_cases"
LOOP = CASES / "rf-npm-cosmetic-loop.jsonl"  # `npm test` fails three times: repeat-failure delivers
QUIET = CASES / "sq-docs-only.jsonl"  # no failure at all


def suite(root: Path) -> Path:
    """A labels file with relative transcripts and its own corpus folder: one right fire, one right
    silent, one wrong (a fire that does not come)."""
    (root / "cases").mkdir(parents=True)
    (root / "corpus").mkdir()
    shutil.copy(LOOP, root / "cases" / "loop.jsonl")
    shutil.copy(QUIET, root / "corpus" / "quiet.jsonl")
    labels = root / "labels.yaml"
    labels.write_text(
        "corpus: corpus\n"
        "cases:\n"
        "  - {id: loop, transcript: cases/loop.jsonl, detector: repeat-failure, expect: fire}\n"
        "  - {id: quiet, transcript: 'corpus:quiet.jsonl', detector: repeat-failure, expect: silent}\n"
        "  - {id: missed, transcript: 'corpus:quiet.jsonl', detector: repeat-failure, expect: fire}\n"
    )
    return labels


def scores(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    code = main(["replay", "--json", "--labels", *args])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out else {}, err


def test_relative_paths_score_the_same_from_anywhere_and_from_a_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    labels = suite(tmp_path / "here")
    monkeypatch.chdir(tmp_path)
    _, first, _ = scores(capsys, str(labels))
    elsewhere = tmp_path / "else" / "where"
    elsewhere.mkdir(parents=True)
    monkeypatch.chdir(elsewhere)
    _, again, _ = scores(capsys, str(labels))
    copy = tmp_path / "copy"
    shutil.copytree(tmp_path / "here", copy)
    _, copied, _ = scores(capsys, str(copy / "labels.yaml"))
    counts = {k: first["repeat-failure"][k] for k in ("tp", "fp", "fn", "tn")}
    assert counts == {"tp": 1, "fp": 0, "fn": 1, "tn": 1}
    for other in (again, copied):
        assert other["repeat-failure"] == first["repeat-failure"]
        assert [c["right"] for c in other["by_case"]] == [c["right"] for c in first["by_case"]]


def test_a_missing_transcript_is_an_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = suite(tmp_path)
    (tmp_path / "corpus" / "quiet.jsonl").unlink()
    code = main(["replay", "--labels", str(labels)])
    err = capsys.readouterr().err
    assert code == 2
    lines = err.strip().splitlines()
    assert lines[0] == "second-brain replay: the labels cannot be scored:" and "Traceback" not in err
    assert lines[2:4] == ["==> At case 'quiet' (cases[1])", "==> At key: transcript"]
    assert lines[4].startswith("=====> no transcript ") and "quiet.jsonl" in lines[4]
    assert lines[5] == "hint: pass --corpus DIR if it is elsewhere"
    nameless = tmp_path / "nameless.yaml"
    nameless.write_text(
        "cases:\n  - {id: c, transcript: 'corpus:x.jsonl', detector: repeat-failure, expect: fire}\n"
    )
    assert main(["replay", "--labels", str(nameless), "--corpus", str(tmp_path / "nowhere")]) == 2
    assert "no transcript" in capsys.readouterr().err


def test_each_wrong_case_says_what_decided_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    labels = suite(tmp_path)
    assert main(["replay", "--labels", str(labels)]) == 0
    out = capsys.readouterr().out
    assert "  wrong: missed: expected fire: its trigger repeat_failure never matched" in out.splitlines()
    _, document, _ = scores(capsys, str(labels))
    by_case = {c["id"]: c for c in document["by_case"]}
    assert by_case["loop"]["right"] and by_case["loop"]["why"].startswith("delivered at line ")
    assert by_case["missed"]["right"] is False


def test_fail_under_exits_one_with_a_line_per_threshold_missed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = str(suite(tmp_path))
    code, _, err = scores(capsys, labels, "--fail-under", "precision=0.9", "--fail-under", "recall=0.5")
    assert (code, err) == (0, "")
    code, _, err = scores(capsys, labels, "--fail-under", "repeat-failure.recall=0.8")
    assert code == 1
    assert err.splitlines() == ["Below threshold: repeat-failure: recall 0.50 is under 0.80"]
    code, _, err = scores(capsys, labels, "--fail-under", "standard-questions.recall=0.8")
    assert code == 1 and "standard-questions: recall not measured" in err
    assert main(["replay", "--labels", labels, "--fail-under", "recall>0.8"]) == 2
    err = capsys.readouterr().err
    assert "write METRIC=VALUE or DETECTOR.METRIC=VALUE" in err and len(err.splitlines()) == 1


def test_a_regression_against_the_baseline_exits_one_naming_the_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    labels = str(suite(tmp_path / "suite"))
    code, document, _ = scores(capsys, labels)
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps(document))
    assert scores(capsys, labels, "--baseline", str(baseline))[0] == 0
    # a known change: a workspace floor that keeps repeat-failure's fallback (confidence 0.75) from anyone
    ws = tmp_path / "ws"
    (ws / ".second-brain").mkdir(parents=True)
    (ws / ".second-brain" / "config.yaml").write_text("gate:\n  human_floor: 0.8\n  confidence_floor: 0.8\n")
    monkeypatch.chdir(ws)
    code, _, err = scores(capsys, labels, "--baseline", str(baseline))
    assert code == 1
    lines = err.splitlines()
    assert "Regression: repeat-failure: recall 0.00, was 0.50 in the baseline" in lines
    assert any(
        line.startswith("Regression: loop: right in the baseline, wrong now (expected fire: ")
        for line in lines
    )
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["replay", "--labels", labels, "--baseline", str(bad)]) == 2
    assert "not a saved labels result" in capsys.readouterr().err


def test_a_detector_that_raises_fails_the_scoring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = TriggerSpec.invoke

    def invoke(
        self: TriggerSpec, observations: Sequence[Any], params: Mapping[str, Any], *a: Any, **k: Any
    ) -> Any:
        if self.name == "repeat_failure":
            raise RuntimeError("a pack bug")
        return real(self, observations, params, *a, **k)

    monkeypatch.setattr(TriggerSpec, "invoke", invoke)
    code = main(["replay", "--labels", str(suite(tmp_path))])
    err = capsys.readouterr().err
    assert code == 1
    errors = [line for line in err.splitlines() if line.startswith("Error: ")]
    assert errors == [
        "Error: repeat-failure failed in 3 cases: trigger repeat_failure failed: RuntimeError: a pack bug"
    ]
    assert "Traceback (most recent" not in err
    Path(err.splitlines()[-1].split(": ", 1)[1]).unlink()


def test_results_carry_versions_and_a_fingerprint_of_what_ran(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    labels = suite(tmp_path / "suite")
    monkeypatch.chdir(tmp_path)
    _, first, _ = scores(capsys, str(labels))
    assert (first["schema_version"], first["sbcore_version"]) == (1, sbcore.__version__)
    copy = tmp_path / "copy"
    shutil.copytree(tmp_path / "suite", copy)
    assert scores(capsys, str(copy / "labels.yaml"))[1]["fingerprint"] == first["fingerprint"]
    ws = tmp_path / "ws"
    (ws / ".second-brain").mkdir(parents=True)
    (ws / ".second-brain" / "config.yaml").write_text(
        "detectors:\n  repeat-failure:\n    confidence_floor: 0.8\n"
    )
    monkeypatch.chdir(ws)
    changed = scores(capsys, str(labels))[1]["fingerprint"]
    assert changed.startswith("sha256:") and changed != first["fingerprint"]
    assert main(["replay", "--json", str(LOOP)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert list(replayed)[:3] == ["schema_version", "sbcore_version", "fingerprint"]


def test_an_ab_of_two_configurations_lists_exactly_the_verdicts_that_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A known change: a floor above the fallback's confidence (0.75) keeps repeat-failure's advice from
    everyone, so exactly the case that fired stops firing; the silent ones stay as they were."""
    labels = str(suite(tmp_path / "suite"))
    b = tmp_path / "b"
    (b / ".second-brain").mkdir(parents=True)
    (b / ".second-brain" / "config.yaml").write_text("gate:\n  human_floor: 0.8\n  confidence_floor: 0.8\n")
    code, document, _ = scores(capsys, labels, "--compare-workspace", str(b))
    assert code == 0
    compared = document["compare"]
    assert [(c["id"], c["a_fired"], c["b_fired"], c["b_right"]) for c in compared["changed"]] == [
        ("loop", True, False, False)
    ]
    assert compared["changed"][0]["b_why"] == "advised, but the gate dropped it (1 below_human_floor)"
    assert compared["deltas"]["repeat-failure"] == {"precision": None, "recall": -0.5}
    assert compared["b_fingerprint"] != document["fingerprint"]
    assert compared["b_scores"]["repeat-failure"]["tp"] == 0

    assert main(["replay", "--labels", labels, "--compare-workspace", str(b)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "Changed verdicts: 1" in out
    assert any(
        line.startswith("  loop (repeat-failure, expected fire): A fired, B silent, now wrong")
        for line in out
    )

    same = scores(capsys, labels, "--compare-workspace", str(tmp_path / "suite"))[1]["compare"]
    assert same["changed"] == []  # the same settings on both sides: nothing moves
