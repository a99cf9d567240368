"""A detector that raises is a failure the exit status and the terminal say once, not a silent verdict."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from sbcore.cli import main
from sbcore.packs.registry import TriggerSpec

CASES = Path(__file__).parent.parent / "think" / "replay_cases"
LOOP = CASES / "rf-npm-cosmetic-loop.jsonl"  # `npm test` fails three times: repeat-failure's fallback fires


@pytest.fixture
def checklist_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    """The standard-questions trigger raises every time it is asked (a pack's bug); the others work."""
    real = TriggerSpec.invoke

    def invoke(
        self: TriggerSpec, observations: Sequence[Any], params: Mapping[str, Any], *a: Any, **k: Any
    ) -> Any:
        if self.name == "standard_questions":
            raise ValueError("boom in a pack's trigger")
        return real(self, observations, params, *a, **k)

    monkeypatch.setattr(TriggerSpec, "invoke", invoke)


@pytest.mark.usefixtures("checklist_raises")
def test_a_raising_trigger_exits_non_zero_with_one_line_and_its_tracebacks_in_a_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["replay", str(LOOP), str(CASES / "rf-long-fix-loop.jsonl")])
    out, err = capsys.readouterr()
    assert code == 1
    assert "Traceback (most recent" not in out + err
    lines = err.splitlines()
    errors = [line for line in lines if line.startswith("Error: ")]
    assert len(errors) == 1
    assert errors[0].startswith("Error: standard-questions failed in ")
    assert "trigger standard_questions failed: ValueError: boom in a pack's trigger" in errors[0]
    log = Path(lines[lines.index(errors[0]) + 1].split(": ", 1)[1])
    text = log.read_text()
    assert text.count("Traceback (most recent call last)") == 1  # each distinct traceback once
    assert "boom in a pack's trigger" in text
    assert log.stat().st_mode & 0o777 == 0o600
    # the other detectors still ran and were reported
    assert "repeat-failure       delivered" in out
    log.unlink()


@pytest.mark.usefixtures("checklist_raises")
def test_the_json_document_names_the_failure_and_the_exit_status_says_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["replay", "--json", str(LOOP)])
    out, err = capsys.readouterr()
    assert code == 1
    raised = json.loads(out)["summary"]["raised"]
    assert list(raised) == ["standard-questions"] and raised["standard-questions"]["passes"] >= 1
    assert "Traceback (most recent" not in err
    Path(err.strip().splitlines()[-1].split(": ", 1)[1]).unlink()


def test_a_clean_replay_writes_no_log_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(LOOP)]) == 0
    assert "Error:" not in capsys.readouterr().err
