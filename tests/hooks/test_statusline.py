"""The status line: the line it prints from the status file and the turn-end report, failing open, and
``install --statusline`` composing with the user's own status line and ``uninstall`` restoring it."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hook_helpers import ROOT

from sbcore.cli import main as cli
from sbcore.hooks.statusline import main as statusline
from sbcore.state import turns
from sbcore.worker.status import StatusFile

SESSION = "0e9c6f5a-7b1d-4e2a-9c3f-5d8e1a2b3c4d"
ADVISED = {
    "detector": "repeat-failure",
    "label": "advise",
    "headline": "The same pytest command failed three times unchanged, and again",
    "gate": {"action": "deliver_agent", "reason": "passed"},
    "advice_id": "a1",
}
SILENT = {"detector": "default", "label": "silent", "headline": None}


def _line(payload: bytes | dict[str, Any]) -> tuple[int, str]:
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    out = io.StringIO()
    status = statusline(io.BytesIO(raw), out)
    return status, out.getvalue()


def _data() -> Path:
    return Path(os.environ["SBCORE_DATA_DIR"])


def _worker_status(**fields: Any) -> None:
    status = StatusFile(_data(), SESSION, host="test")
    status.update(**{"state": "watching", "pid": os.getpid(), **fields})


def _budget(fraction: float, *, task: int = 1000, last: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"budget": {"task": task, "hour": 10, "hour_fraction": fraction}, "last": last}


def test_no_status_file_means_not_watching() -> None:
    assert _line({"session_id": SESSION}) == (0, "SB not watching\n")


@pytest.mark.parametrize("payload", [b"", b"not json", b"[1, 2]", b'{"session_id": 7}', b"\xff\xfe"])
def test_bad_input_prints_nothing_and_exits_0(payload: bytes) -> None:
    assert _line(payload) == (0, "")


def test_a_corrupt_status_file_reads_as_not_watching() -> None:
    path = _data() / "status" / f"{SESSION}.json"
    path.parent.mkdir(parents=True)
    path.write_text("{broken")
    assert _line({"session_id": SESSION}) == (0, "SB not watching\n")


def test_the_last_turn_its_advisory_and_the_budget() -> None:
    _worker_status(
        last_pass={"number": 4, "turn_end": True, "started_at": time.time(), "verdicts": [ADVISED, SILENT]},
        policy=_budget(0.837),
    )
    report = {"session_id": SESSION, "task_id": SESSION, "pass": 4, "at": time.time()}
    verdicts = [ADVISED, SILENT]
    turns.write(_data(), {**report, "verdicts": verdicts, "line": turns.outcome(verdicts)}, pending=False)
    status, out = _line({"session_id": SESSION, "workspace": {"current_dir": "/x"}})
    assert status == 0
    assert out == (
        'SB watching · last turn: repeat-failure advised "The same pytest command failed three times unch…" '
        "· budget 84%\n"
    )


def test_a_later_pass_than_the_turn_end_is_shown_instead() -> None:
    verdicts = [SILENT]
    report = {"session_id": SESSION, "task_id": SESSION, "pass": 2, "at": time.time() - 60}
    turns.write(_data(), {**report, "verdicts": verdicts, "line": "all silent"}, pending=False)
    _worker_status(
        state="thinking",
        last_pass={"number": 3, "turn_end": False, "started_at": time.time(), "verdicts": [SILENT]},
        policy=_budget(1.0),
    )
    assert _line({"session_id": SESSION})[1] == "SB thinking · pass 3: all silent · budget 100%\n"


def test_a_spent_budget_and_a_dead_worker_are_said() -> None:
    _worker_status(
        policy=_budget(0.0, last={"type": "hold", "reason": "budget exhausted"}), pid=2**22 + 12345
    )
    assert _line({"session_id": SESSION})[1] == "SB stopped · budget spent\n"


def test_the_outcome_line_names_who_advised_and_who_was_held() -> None:
    held = {**ADVISED, "detector": "standard-questions", "gate": {"action": "drop", "reason": "cooldown"}}
    assert turns.outcome([SILENT]) == "all silent"
    assert (
        turns.outcome([ADVISED, held, SILENT]) == "repeat-failure advised; standard-questions held (cooldown)"
    )
    late = {"detector": "default", "label": "timed out", "headline": None}
    assert turns.outcome([SILENT, late]) == "default timed out"


# -- install --statusline / uninstall ---------------------------------------------------------------------


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    root = tmp_path / "checkout"
    shutil.copytree(ROOT / ".claude-plugin", root / ".claude-plugin")
    shutil.copytree(ROOT / "plugin", root / "plugin", ignore=shutil.ignore_patterns("python-path"))
    return root


@pytest.fixture
def claude(tmp_path: Path) -> Path:
    """A ``claude`` whose every ``plugin`` step succeeds (the status line is install's own doing)."""
    program = tmp_path / "claude"
    program.write_text('#!/bin/sh\necho \'{"outcome": "ok", "message": "done"}\'\n')
    program.chmod(0o755)
    return program


def _settings() -> Path:
    return Path(os.environ["CLAUDE_CONFIG_DIR"]) / "settings.json"


def _run_status_command(command: str, tmp_path: Path) -> str:
    """The settings' statusLine command, run as Claude Code runs it: a shell, the JSON on stdin."""
    env = {**os.environ, "SBCORE_PYTHON": sys.executable}
    payload = json.dumps({"session_id": SESSION, "cwd": str(tmp_path)})
    done = subprocess.run(
        ["/bin/sh", "-c", command], input=payload, capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_install_composes_with_the_users_status_line_and_uninstall_restores_it_exactly(
    checkout: Path, claude: Path, tmp_path: Path
) -> None:
    theirs = {"type": "command", "command": "printf 'mine: %s' \"$(cat | head -c 14)\"", "padding": 2}
    before = {"model": "sonnet", "statusLine": theirs, "enabledPlugins": {"x@y": True}}
    _settings().parent.mkdir(parents=True)
    _settings().write_text(json.dumps(before, indent=2) + "\n")
    original = _settings().read_bytes()

    assert cli(["install", "--repo", str(checkout), "--claude", str(claude), "--statusline"]) == 0
    installed = json.loads(_settings().read_text())
    assert list(installed) == list(before), "every other key kept, in its place"
    line = installed["statusLine"]
    assert line["padding"] == 2 and line["type"] == "command" and line["refreshInterval"] == 5
    assert str(checkout / "plugin" / "bin" / "sb-statusline") in line["command"]
    assert _run_status_command(line["command"], tmp_path) == 'mine: {"session_id": · SB not watching\n'

    assert cli(["install", "--repo", str(checkout), "--claude", str(claude), "--statusline"]) == 0
    assert json.loads(_settings().read_text())["statusLine"] == line, "installing twice does not nest"

    assert cli(["uninstall", "--repo", str(checkout), "--claude", str(claude)]) == 0
    assert _settings().read_bytes() == original


def test_without_a_status_line_install_adds_ours_and_uninstall_removes_it(
    checkout: Path, claude: Path, tmp_path: Path
) -> None:
    _settings().parent.mkdir(parents=True)
    _settings().write_text(json.dumps({"model": "sonnet"}, indent=2) + "\n")
    original = _settings().read_bytes()
    assert cli(["install", "--repo", str(checkout), "--claude", str(claude), "--statusline"]) == 0
    command = json.loads(_settings().read_text())["statusLine"]["command"]
    assert "--then" not in command
    assert _run_status_command(command, tmp_path) == "SB not watching\n"
    assert cli(["uninstall", "--repo", str(checkout), "--claude", str(claude)]) == 0
    assert _settings().read_bytes() == original


def test_a_status_line_changed_after_install_is_left_alone(
    checkout: Path, claude: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(["install", "--repo", str(checkout), "--claude", str(claude), "--statusline"]) == 0
    changed = {"statusLine": {"type": "command", "command": "echo theirs now"}}
    _settings().write_text(json.dumps(changed))
    assert cli(["uninstall", "--repo", str(checkout), "--claude", str(claude)]) == 0
    assert json.loads(_settings().read_text()) == changed
    assert "changed after install: left as it is" in capsys.readouterr().out


def test_a_broken_settings_file_is_named_not_overwritten(
    checkout: Path, claude: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _settings().parent.mkdir(parents=True)
    _settings().write_text("{oops")
    assert cli(["install", "--repo", str(checkout), "--claude", str(claude), "--statusline"]) == 1
    assert f"{_settings()}: not JSON" in capsys.readouterr().err
    assert _settings().read_text() == "{oops"
