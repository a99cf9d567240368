"""A labelled range is judged with its history; cases carry a family and a split (issue 22, items 3 and 7)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from sbcore.cli import main
from sbcore.conductor.replay import LabelError, family_scores, load_labels
from tests.worker.worker_helpers import Records

LOOP = "Exit code 1\nerror: Unknown record field `totl` in src/cart.gleam:14"


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))


def transcript(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    """Two failures of one loop, a line to cut at, its third failure, then a second loop's three failures."""
    r = Records("s-range", "/home/dev/shop", start=datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    records: list[dict[str, Any]] = [r.prompt("The cart tests fail; fix them.")]
    records += r.bash("gleam test", LOOP, error=True)
    records += r.bash("gleam test", LOOP, error=True)
    marks = {"third": len(records) + 1}
    records += r.bash("gleam test", LOOP, error=True)
    records += r.bash("ls src", "cart.gleam")
    marks["after_loop"] = len(records) + 1
    records += [r.say("Looking at something else now."), *r.bash("cat gleam.toml", 'name = "shop"')]
    marks["end"] = len(records)
    path = tmp_path / "range.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path, marks


def score(capsys: pytest.CaptureFixture[str], labels: Path) -> dict[str, Any]:
    code = main(["replay", "--labels", str(labels), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    return document


def write_labels(path: Path, cases: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"cases": cases}))  # JSON is YAML
    return path


def test_a_range_is_judged_with_the_records_before_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, marks = transcript(tmp_path)
    labels = write_labels(
        tmp_path / "labels.yaml",
        [
            # the loop's third failure is in the range: with its two earlier failures as history, it fires
            {
                "id": "third-in-range",
                "transcript": path.name,
                "lines": [marks["third"], marks["end"]],
                "detector": "repeat-failure",
                "expect": "fire",
            },
            # after the loop: its advisory was delivered in the history, which is not scored
            {
                "id": "after-the-loop",
                "transcript": path.name,
                "lines": [marks["after_loop"], marks["end"]],
                "detector": "repeat-failure",
                "expect": "silent",
            },
        ],
    )
    scored = score(capsys, labels)["repeat-failure"]
    assert (scored["tp"], scored["fp"], scored["fn"], scored["tn"]) == (1, 0, 0, 1), scored


def test_cases_carry_a_family_and_a_split_and_are_scored_per_family(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, marks = transcript(tmp_path)
    (tmp_path / "checkouts" / "shop").mkdir(parents=True)
    labels = write_labels(
        tmp_path / "labels.yaml",
        [
            {
                "id": "a",
                "transcript": path.name,
                "detector": "repeat-failure",
                "expect": "fire",
                "family": "gleam",
                "split": "tuning",
                "checkout": "checkouts/shop",
            },
            {
                "id": "b",
                "transcript": path.name,
                "lines": [marks["after_loop"], marks["end"]],
                "detector": "repeat-failure",
                "expect": "silent",
                "family": "gleam",
                "split": "never-tuned",
            },
            {"id": "c", "transcript": path.name, "detector": "repeat-failure", "expect": "fire"},
        ],
    )
    loaded = {case.id: case for case in load_labels(labels)}
    assert loaded["a"].checkout == tmp_path / "checkouts" / "shop" and loaded["c"].family == ""
    rows = score(capsys, labels)["by_family"]
    assert [(r["split"], r["family"], r["cases"], r["tp"], r["tn"]) for r in rows] == [
        ("-", "-", 1, 1, 0),
        ("never-tuned", "gleam", 1, 0, 1),
        ("tuning", "gleam", 1, 1, 0),
    ]
    code = main(["replay", "--labels", str(labels)])
    out = capsys.readouterr().out
    assert code == 0 and "never-tuned" in out.splitlines()[-2]
    assert family_scores(list(loaded.values()), {}) == []  # nothing scored, nothing to report


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ({"split": "heldout"}, "split must be one of tuning, held-out, never-tuned, not 'heldout'"),
        ({"checkout": "no-such-dir"}, "is not a directory"),
    ],
)
def test_a_bad_split_or_checkout_names_the_file_and_the_case(
    tmp_path: Path, extra: dict[str, str], problem: str
) -> None:
    path, _ = transcript(tmp_path)
    case = {"id": "x", "transcript": path.name, "detector": "repeat-failure", "expect": "fire", **extra}
    labels = write_labels(tmp_path / "labels.yaml", [case])
    with pytest.raises(LabelError, match=problem) as info:
        load_labels(labels)
    assert str(labels) in str(info.value) and "(x)" in str(info.value)
