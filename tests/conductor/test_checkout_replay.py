"""The triggers know the project from its checkout: a replay given one (``--checkout``, a labelled case's
``checkout``) reads it as the session found it (issue 22, item 2)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from sbcore.cli import main
from tests.worker.worker_helpers import Records


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))


def session(tmp_path: Path) -> Path:
    """Code edited and the turn handed over; nothing the session shows says the project has tests."""
    r = Records("s-checkout", "/home/dev/shop", start=datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    call_id, edit = r.call(
        "Edit", {"file_path": "/home/dev/shop/src/cart.gleam", "old_string": "a - b", "new_string": "a + b"}
    )
    records: list[dict[str, Any]] = [
        r.prompt("Fix the cart total."),
        edit,
        r.result(call_id, "The file was updated."),
        r.say("Fixed the total; done."),
    ]
    records[-1]["message"]["stop_reason"] = "end_turn"
    records.append({**r._base("system"), "subtype": "turn_duration", "durationMs": 1000})
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def asked(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    code = main(["replay", "--json", "--detectors", "standard-questions", *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    (replayed,) = json.loads(out)["sessions"]
    return [
        result["feedback"]["headline"]
        for one in replayed["passes"]
        for result in one["results"]
        if result["detector"] == "standard-questions" and result["verdict"] == "advise"
    ]


def test_a_checkout_with_tests_makes_the_question_apply_that_the_session_never_showed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = session(tmp_path)
    assert asked(capsys, str(transcript)) == []  # the session alone shows no tests
    checkout = tmp_path / "shop"
    (checkout / "test").mkdir(parents=True)
    (checkout / "gleam.toml").write_text('name = "shop"\n')
    (checkout / "test" / "cart_test.gleam").write_text("pub fn total_test() { todo }\n")
    headlines = asked(capsys, "--checkout", str(checkout), str(transcript))
    assert len(headlines) == 1 and "tests_run" in headlines[0]


def test_a_checkout_that_is_not_a_folder_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--checkout", str(tmp_path / "missing"), str(session(tmp_path))]) == 2
    assert "is not a folder" in capsys.readouterr().err
