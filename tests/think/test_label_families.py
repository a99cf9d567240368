"""Labelled cases carry a family and a split; ``replay --labels`` scores them per (split, family) too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbcore.cli import main
from sbcore.conductor.labels import LabelError, load_labels
from sbcore.testing.case_sources import load_sources

CASES = Path(__file__).parent / "replay_cases"
LOOP = CASES / "rf-long-fix-loop.jsonl"  # repeat-failure delivers: tsc fails six times
DOCS = CASES / "sq-docs-only.jsonl"  # no failure at all


def labels(tmp_path: Path, name: str, *cases: str) -> Path:
    path = tmp_path / name
    path.write_text("cases:\n" + "".join(f"  - {{{case}}}\n" for case in cases))
    return path


def test_family_split_and_checkout_are_read(tmp_path: Path) -> None:
    (tmp_path / "start").mkdir()
    path = labels(
        tmp_path,
        "l.yaml",
        f"id: a, transcript: {LOOP}, detector: repeat-failure, expect: fire, family: node, split: held-out,"
        " checkout: start",
        f"id: b, transcript: {DOCS}, detector: repeat-failure, expect: silent",
    )
    a, b = load_labels(path)
    assert (a.family, a.split, a.checkout) == ("node", "held-out", tmp_path / "start")
    assert (b.family, b.split, b.checkout) == ("", "", None)


def test_an_unknown_split_names_the_file_and_the_case(tmp_path: Path) -> None:
    path = labels(
        tmp_path, "l.yaml", f"id: a, transcript: {LOOP}, detector: repeat-failure, expect: fire, split: x"
    )
    with pytest.raises(LabelError) as raised:
        load_labels(path)
    problem = raised.value.problem
    assert (problem.file, problem.line, problem.context, problem.key) == (
        str(path),
        2,
        ("case 'a' (cases[0])",),
        "split",
    )
    assert problem.problem == "must be one of tuning, held-out, never-tuned, not 'x'"
    assert str(raised.value).splitlines() == [
        f"==> File {path}:2",
        "==> At case 'a' (cases[0])",
        "==> At key: split",
        "=====> must be one of tuning, held-out, never-tuned, not 'x'",
    ]


def test_a_checkout_must_be_a_directory(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    path = labels(
        tmp_path, "l.yaml", f"id: a, transcript: {LOOP}, detector: repeat-failure, expect: fire, checkout: f"
    )
    with pytest.raises(LabelError, match=r"At key: checkout\n=====> .*/f is not a directory"):
        load_labels(path)


def test_an_id_in_two_files_is_an_error_naming_both(tmp_path: Path) -> None:
    one = labels(tmp_path, "one.yaml", f"id: a, transcript: {LOOP}, detector: repeat-failure, expect: fire")
    two = labels(tmp_path, "two.yaml", f"id: a, transcript: {DOCS}, detector: repeat-failure, expect: silent")
    with pytest.raises(
        LabelError, match=r"two\.yaml:2\n.*\n==> At key: id\n=====> case id 'a' is also a case of .*one\.yaml"
    ):
        load_sources([one, two])


def test_replay_labels_scores_per_split_and_family(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = labels(
        tmp_path,
        "one.yaml",
        f"id: loop, transcript: {LOOP}, detector: repeat-failure, expect: fire, family: node, split: tuning",
        f"id: docs, transcript: {DOCS}, detector: repeat-failure, expect: fire, family: docs, split: tuning",
    )
    two = labels(
        tmp_path,
        "two.yaml",
        f"id: quiet, transcript: {DOCS}, detector: repeat-failure, expect: silent, family: node,"
        " split: held-out",
        f"id: plain, transcript: {DOCS}, detector: repeat-failure, expect: silent",
    )
    assert main(["replay", "--labels", str(one), str(two)]) == 0
    out = capsys.readouterr().out.splitlines()
    table = out[out.index("") + 1 :]
    heading = ["split", "/", "family", "cases", "tp", "fp", "fn", "tn", "precision", "recall"]
    assert table[0].split() == heading
    rows = {" ".join(line.split()[:3]): line.split()[3:] for line in table[1:] if not line.startswith(" ")}
    assert rows == {
        "- / -": ["1", "0", "0", "0", "1", "n/a", "n/a"],
        "held-out / node": ["1", "0", "0", "0", "1", "n/a", "n/a"],
        "tuning / docs": ["1", "0", "0", "1", "0", "n/a", "0.00"],
        "tuning / node": ["1", "1", "0", "0", "0", "1.00", "1.00"],
    }
    assert "  wrong: docs: expected fire: its trigger repeat_failure never matched" in table
    assert main(["replay", "--json", "--labels", str(one), str(two)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["repeat-failure"]["tp"] == 1 and document["repeat-failure"]["tn"] == 2
    assert document["by_family"][-1] == {
        "split": "tuning",
        "family": "node",
        "cases": 1,
        "tp": 1,
        "fp": 0,
        "fn": 0,
        "tn": 0,
        "precision": 1.0,
        "recall": 1.0,
        "wrong": [],
    }
    assert [(f["split"], f["family"]) for f in document["by_family"]] == [
        (None, None),
        ("held-out", "node"),
        ("tuning", "docs"),
        ("tuning", "node"),
    ]


def test_replay_reports_a_bad_labels_file_as_located_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = labels(tmp_path, "l.yaml", f"id: a, transcript: {LOOP}, detector: repeat-failure, expect: often")
    assert main(["replay", "--labels", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "second-brain replay: the labels cannot be scored:",
        f"==> File {path}:2",
        "==> At case 'a' (cases[0])",
        "==> At key: expect",
        "=====> must be fire or silent, not 'often'",
    ]
    assert main(["replay", "--labels", str(path), "--json"]) == 2
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert problems == [
        {
            "file": str(path),
            "line": 2,
            "context": ["case 'a' (cases[0])"],
            "key": "expect",
            "problem": "must be fire or silent, not 'often'",
            "fix": None,
            "severity": "error",
        }
    ]
