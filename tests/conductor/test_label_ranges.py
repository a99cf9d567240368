"""A labelled range is judged with its history (issue 22, item 3), through the command line."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from sbcore.cli import main
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
