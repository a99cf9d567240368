"""A replay with no checkout takes the project as the session's own listings showed it
(``sbcore/conductor/listings.py``): live, the observer reads the workspace, so a question that applies once
the project has tests applies in replay when a Glob's result showed them."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from test_checkout_replay import asked

from sbcore.api import UNKNOWN
from sbcore.conductor.listings import listed_project
from tests.worker.worker_helpers import Records


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))


def records(listed: str, *, tool: str = "Glob", error: bool = False) -> list[dict[str, Any]]:
    """A listing answered with ``listed``, then code edited and the turn handed over with nothing run."""
    r = Records("s-listed", "/home/dev/shop", start=datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    glob_id, glob = r.call(tool, {"pattern": "**/*.zorp"})
    edit_id, edit = r.call(
        "Edit", {"file_path": "/home/dev/shop/src/cart.zorp", "old_string": "a - b", "new_string": "a + b"}
    )
    result = r.result(glob_id, listed)
    if error:
        result["message"]["content"][0]["is_error"] = True
    out: list[dict[str, Any]] = [
        r.prompt("Fix the cart total."),
        glob,
        result,
        edit,
        r.result(edit_id, "The file was updated."),
        r.say("Fixed the total; done."),
    ]
    out[-1]["message"]["stop_reason"] = "end_turn"
    out.append({**r._base("system"), "subtype": "turn_duration", "durationMs": 1000})
    return out


def write(tmp_path: Path, lines: list[dict[str, Any]]) -> Path:
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in lines))
    return path


LISTED = "\n".join(
    (
        "/home/dev/shop/src/cart.zorp",
        "/home/dev/shop/spec/cart_spec.zorp",
        "/etc/passwd",
        "/home/dev/shop/../x_test.zorp",
    )
)


def test_the_paths_a_glob_listed_under_the_sessions_folder_are_the_project() -> None:
    facts = listed_project((json.dumps(record) for record in records(LISTED)), "/home/dev/shop")
    assert facts.paths == ("src", "src/cart.zorp", "spec", "spec/cart_spec.zorp")
    assert facts.tests == ("spec", "spec/cart_spec.zorp") and facts.truncated
    # another tool's result, a failed listing, a folder no listing named: nothing is known
    assert listed_project((json.dumps(r) for r in records(LISTED, tool="Read")), "/home/dev/shop") is UNKNOWN
    assert listed_project((json.dumps(r) for r in records(LISTED, error=True)), "/home/dev/shop") is UNKNOWN
    assert listed_project((json.dumps(r) for r in records(LISTED)), "/home/dev/other") is UNKNOWN
    assert listed_project(["not json", "{}", "[" * 100_000 + "]" * 100_000], "/home/dev/shop") is UNKNOWN


def test_a_replay_with_no_checkout_asks_what_the_sessions_listing_shows_the_project_can_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    headlines = asked(capsys, str(write(tmp_path, records(LISTED))))
    assert len(headlines) == 1 and "tests_run" in headlines[0]
    # the same session whose listing showed no tests: the question does not apply
    assert asked(capsys, str(write(tmp_path, records("/home/dev/shop/src/cart.zorp")))) == []
