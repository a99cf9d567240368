"""A structural trigger is asked at every failure, not only in paced passes (issue 22, item 1).

Earlier errors spend the hourly allowance of early passes; a loop that follows must still be advised on
within one tool call of its third failure, not at the next paced pass when it may be over.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from sbcore.cli import main
from tests.worker.worker_helpers import Records


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def passes(capsys: pytest.CaptureFixture[str], transcript: Path, *extra: str) -> list[dict[str, Any]]:
    code = main(["replay", "--json", "--detectors", "repeat-failure", *extra, str(transcript)])
    out, err = capsys.readouterr()
    assert code == 0, err
    (session,) = json.loads(out)["sessions"]
    found: list[dict[str, Any]] = session["passes"]
    return found


def test_a_loop_is_advised_on_at_its_third_failure_with_the_early_passes_spent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))
    r = Records("s-loop", "/home/dev/shop", start=datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    records = [r.prompt("The cart tests fail; fix them.")]
    for number in range(8):  # eight different one-off failures: more than the hour's early passes
        records += r.bash(f"cat notes/missing-{number}.md", f"cat: notes/missing-{number}.md: No such file")
        records[-1]["message"]["content"][0]["is_error"] = True
    loop = "Exit code 1\nerror: Unknown record field `totl` in src/cart.gleam:14"
    for _ in range(3):
        records += r.bash("gleam test", loop, error=True)
    third_failure = records[-1]["timestamp"]
    records += r.bash("cat gleam.toml", 'name = "shop"')  # the next tool call
    next_call = records[-2]["timestamp"]
    records += [r.say("Still failing; looking closer.")]
    transcript = write(tmp_path / "loop.jsonl", records)

    found = passes(capsys, transcript)
    salience = [one for one in found if one["reason"] == "salience"]
    assert len(salience) == 6  # the allowance (loop.salience_per_hour) was spent by the earlier errors
    delivered = [
        one
        for one in found
        for result in one["results"]
        if result["detector"] == "repeat-failure"
        and (result.get("gate") or {}).get("action") == "deliver_agent"
    ]
    assert [one["reason"] for one in delivered] == ["trigger"]
    assert third_failure <= delivered[0]["timestamp"] < next_call
