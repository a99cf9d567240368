"""plugin/bin/sb-worker and plugin/bin/second-brain: what they pass on, and how they behave unbound."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hook_helpers import ROOT

BIN = ROOT / "plugin" / "bin"


@pytest.fixture
def recorder(tmp_path: Path) -> tuple[Path, Path]:
    """An interpreter stand-in that records its argv and the variables the launchers set."""
    record = tmp_path / "record.json"
    program = tmp_path / "record.py"
    program.write_text(
        "import json, os, sys\n"
        "keep = {k: v for k, v in os.environ.items() if k.startswith(('SBCORE_', 'CLAUDE_CODE_SESSION'))}\n"
        f"json.dump({{'argv': sys.argv[1:], 'env': keep}}, open({str(record)!r}, 'w'))\n"
    )
    script = tmp_path / "record-python"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{program}" "$@"\n')
    script.chmod(0o755)
    return script, record


def _clean_env(**extra: str) -> dict[str, str]:
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("SBCORE_", "CLAUDE"))
    }
    environment.update(extra)
    return environment


def test_worker_launcher_runs_the_worker_command_as_an_observer(recorder: tuple[Path, Path]) -> None:
    python, record = recorder
    arguments = ["--data", "/d", "--root", "/r", "--project", "/p"]
    result = subprocess.run(
        [str(BIN / "sb-worker"), *arguments],
        env=_clean_env(SBCORE_PYTHON=str(python)),
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, b"")
    seen = json.loads(record.read_text())
    assert seen["argv"][0] == "-P"
    assert seen["argv"][1] == "-c"
    assert seen["argv"][3:] == ["worker", *arguments]
    assert seen["env"]["SBCORE_OBSERVER"] == "1"


def test_unbound_worker_launcher_waits_silently_for_the_cli_to_go(tmp_path: Path) -> None:
    launcher = tmp_path / "sb-worker"
    shutil.copy2(BIN / "sb-worker", launcher)
    cli = subprocess.Popen(["sleep", "60"])
    worker = subprocess.Popen(
        [str(launcher), "--data", str(tmp_path / "data")],
        env=_clean_env(CLAUDE_PID=str(cli.pid)),
        stdout=subprocess.PIPE,
    )
    try:
        time.sleep(1)
        assert worker.poll() is None  # a monitor that exits is announced to the session
        cli.kill()
        cli.wait()
        assert worker.wait(timeout=20) == 0
        assert worker.stdout is not None
        assert worker.stdout.read() == b""
    finally:
        for process in (cli, worker):
            if process.poll() is None:
                process.kill()
                process.wait()
        if worker.stdout is not None:
            worker.stdout.close()
    log = (tmp_path / "data" / "logs" / "hooks.log").read_text()
    assert "no Python interpreter bound" in log and "dormant" in log


def test_cli_launcher_carries_the_plugin_data_dir_and_session(recorder: tuple[Path, Path]) -> None:
    python, record = recorder
    result = subprocess.run(
        [str(BIN / "second-brain"), "--plugin-data", "/plugin/data", "--session", "s-1", "config", "show"],
        env=_clean_env(SBCORE_PYTHON=str(python)),
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 0
    seen = json.loads(record.read_text())
    assert seen["argv"][3:] == ["config", "show"]
    assert seen["env"]["SBCORE_DATA_DIR"] == "/plugin/data"
    assert seen["env"]["CLAUDE_CODE_SESSION_ID"] == "s-1"


def test_cli_launcher_keeps_what_the_environment_already_says(recorder: tuple[Path, Path]) -> None:
    python, record = recorder
    subprocess.run(
        [str(BIN / "second-brain"), "--plugin-data", "", "--session", "s-1", "run"],
        env=_clean_env(SBCORE_PYTHON=str(python), CLAUDE_CODE_SESSION_ID="from-env", SBCORE_DATA_DIR="/mine"),
        timeout=30,
        check=True,
    )
    seen = json.loads(record.read_text())
    assert seen["argv"][3:] == ["run"]
    assert seen["env"]["SBCORE_DATA_DIR"] == "/mine"
    assert seen["env"]["CLAUDE_CODE_SESSION_ID"] == "from-env"


def test_unbound_cli_launcher_says_what_to_do(tmp_path: Path) -> None:
    launcher = tmp_path / "second-brain"
    shutil.copy2(BIN / "second-brain", launcher)
    result = subprocess.run(
        [str(launcher), "config"], env=_clean_env(), capture_output=True, text=True, check=False
    )
    assert result.returncode == 1
    assert "second-brain install" in result.stderr
