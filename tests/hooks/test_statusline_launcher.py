"""plugin/bin/sb-statusline: the worker's pre-rendered line is printed without Python while it is fresh,
and it is the line Python would print; anything stale, odd or missing goes to Python."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hook_helpers import ROOT

from sbcore.state import status_line, turns
from sbcore.worker import turn_report
from sbcore.worker.status import StatusFile

LAUNCHER = ROOT / "plugin" / "bin" / "sb-statusline"
SESSION = "5b2e7c1d-9a3f-4e6b-8d0c-1f2a3b4c5d6e"
ADVISED = {
    "detector": "repeat-failure",
    "label": "advise",
    "headline": "The same cargo test failed three times, nothing changed between",
    "gate": {"action": "deliver_agent", "reason": "passed"},
    "advice_id": "a1",
}
SILENT = {"detector": "default", "label": "silent", "headline": None}


@pytest.fixture
def python_flag(tmp_path: Path) -> Path:
    """Where the fake interpreter leaves its mark when the launcher starts it."""
    return tmp_path / "python-started"


@pytest.fixture
def fake_python(tmp_path: Path, python_flag: Path) -> Path:
    """An interpreter that records it was started and prints a line of its own."""
    program = tmp_path / "fake-python"
    program.write_text(f"#!/bin/sh\ncat >/dev/null\n: >'{python_flag}'\necho 'from python'\n")
    program.chmod(0o755)
    return program


def _data() -> Path:
    return Path(os.environ["SBCORE_DATA_DIR"])


def _launch(payload: str, python: Path | str, *extra: str) -> str:
    env = {**os.environ, "SBCORE_PYTHON": str(python)}
    done = subprocess.run(
        ["/bin/sh", str(LAUNCHER), *extra],
        input=payload.encode(),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    return done.stdout.decode()


def _python_line() -> str:
    """What ``python -P -m sbcore.hooks.statusline`` prints for SESSION."""
    done = subprocess.run(
        [sys.executable, "-P", "-m", "sbcore.hooks.statusline"],
        input=json.dumps({"session_id": SESSION}).encode(),
        capture_output=True,
        timeout=60,
        check=True,
    )
    return done.stdout.decode()


def _status(**fields: Any) -> StatusFile:
    status = StatusFile(_data(), SESSION, host="test")
    status.update(**{"state": "watching", "pid": os.getpid(), **fields})
    return status


def _turn(verdicts: list[dict[str, Any]]) -> None:
    report = {"session_id": SESSION, "task_id": SESSION, "pass": 4, "at": time.time()}
    turn_report.record(_data(), {**report, "verdicts": verdicts, "line": turns.outcome(verdicts)}, show=False)


def _budget(fraction: float) -> dict[str, Any]:
    return {"budget": {"task": 1000, "hour": 10, "hour_fraction": fraction}, "last": None}


SCENARIOS = {
    "watching, no pass yet": lambda: _status(policy=_budget(1.0)),
    "a turn advised": lambda: (
        _status(
            last_pass={"number": 4, "turn_end": True, "started_at": time.time(), "verdicts": [ADVISED]},
            policy=_budget(0.42),
        ),
        _turn([ADVISED, SILENT]),
    ),
    "a later pass than the turn": lambda: (
        _turn([SILENT]),
        _status(
            state="thinking",
            last_pass={"number": 5, "turn_end": False, "started_at": time.time() + 1, "verdicts": [SILENT]},
        ),
    ),
    "the worker said it exited": lambda: _status(state="exited", pid=2**22 + 4321),
}


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_a_fresh_line_is_printed_without_python_and_is_the_line_python_prints(
    scenario: str, fake_python: Path, python_flag: Path
) -> None:
    SCENARIOS[scenario]()
    assert status_line.line_path(_data(), SESSION).stat().st_mode & 0o777 == 0o600
    fast = _launch(json.dumps({"session_id": SESSION, "cwd": "/x", "model": {"id": "m"}}), fake_python)
    assert not python_flag.exists(), "no Python started"
    assert fast.startswith("SB ")
    assert fast == _python_line()


def test_no_status_file_is_not_watching_without_python(fake_python: Path, python_flag: Path) -> None:
    assert _launch(json.dumps({"session_id": SESSION}), fake_python) == "SB not watching\n"
    assert not python_flag.exists()


@pytest.mark.parametrize(
    "payload",
    [
        '{\n  "session_id" :\n    "%s",\n  "cwd": "/x"\n}\n',  # pretty-printed, spaces around the colon
        '{"cwd": "/a \\"session_id\\": \\"other\\"", "session_id": "%s"}',  # the key's text inside a string
    ],
)
def test_the_session_id_is_read_from_any_spelling_of_the_json(
    payload: str, fake_python: Path, python_flag: Path
) -> None:
    _status(policy=_budget(0.5))
    assert _launch(payload % SESSION, fake_python) == "SB watching · budget 50%\n"
    assert not python_flag.exists()


def test_a_dead_worker_goes_to_python_which_says_stopped(fake_python: Path, python_flag: Path) -> None:
    _status(pid=2**22 + 12345, policy=_budget(0.5))
    assert _launch(json.dumps({"session_id": SESSION}), fake_python) == "from python\n"
    assert python_flag.exists()
    assert _python_line() == "SB stopped · budget 50%\n"


def test_a_document_written_without_its_line_is_newer_and_goes_to_python(
    fake_python: Path, python_flag: Path
) -> None:
    """A writer that renders no line (an older sbcore, a crash between the two writes)."""
    _status(policy=_budget(0.5))
    line = status_line.line_path(_data(), SESSION)
    old = time.time() - 30
    os.utime(line, (old, old))
    assert _launch(json.dumps({"session_id": SESSION}), fake_python) == "from python\n"


def test_a_turn_report_newer_than_the_line_goes_to_python(fake_python: Path, python_flag: Path) -> None:
    _status(policy=_budget(0.5))
    line = status_line.line_path(_data(), SESSION)
    old = time.time() - 30
    os.utime(line, (old, old))
    os.utime(_data() / "status" / f"{SESSION}.json", (old, old))
    turns.write(_data(), {"session_id": SESSION, "at": time.time(), "line": "all silent"}, pending=False)
    assert _launch(json.dumps({"session_id": SESSION}), fake_python) == "from python\n"


@pytest.mark.parametrize(
    "payload",
    [
        "",
        "not json",
        '{"session_id": "../../etc/passwd"}',
        '{"session_id": 7}',
        '{"session_id": "' + SESSION,  # the string never closes
        '{"session_id": "' + "a" * 201 + '"}',
    ],
)
def test_anything_odd_goes_to_python(payload: str, fake_python: Path, python_flag: Path) -> None:
    _status(policy=_budget(0.5))
    assert _launch(payload, fake_python) == "from python\n"
    assert python_flag.exists()


def test_a_line_file_that_is_not_the_workers_goes_to_python(fake_python: Path, python_flag: Path) -> None:
    _status(policy=_budget(0.5))
    line = status_line.line_path(_data(), SESSION)
    line.write_text("$(touch /tmp/owned)\nSB watching\n")
    assert _launch(json.dumps({"session_id": SESSION}), fake_python) == "from python\n"
    assert not Path("/tmp/owned").exists()


def test_composes_with_the_users_own_line_without_python(fake_python: Path, python_flag: Path) -> None:
    _status(policy=_budget(0.5))
    theirs = "printf 'mine: %s' \"$(head -c 14)\""
    out = _launch(json.dumps({"session_id": SESSION}), fake_python, "--then", theirs)
    assert out == 'mine: {"session_id": · SB watching · budget 50%\n'
    assert not python_flag.exists()
