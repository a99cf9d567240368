"""The CLI's session pointer: SessionStart says which session the CLI process is in now, for its worker."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hook_helpers import NOW, Answer, Env

from sbcore.hooks.cli_session import (
    CliSession,
    PointerError,
    belongs_to,
    pointer_path,
    process_start,
    read_pointer,
    stale_pointers,
    write_pointer,
)

Call = Callable[..., Answer]
NEW_SESSION = "7a1b2c3d-0000-4000-8000-00000000c1ea"


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> int:
    """The CLI process the hooks run under: this test process, as ``CLAUDE_PID``."""
    monkeypatch.setenv("CLAUDE_PID", str(os.getpid()))
    return os.getpid()


def test_session_start_points_the_cli_at_its_session(env: Env, call: Call, cli: int) -> None:
    call("SessionStart", env.payload("SessionStart", source="startup"))
    path = pointer_path(env.data, cli)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert json.loads(path.read_text()) == {
        "v": 1,
        "cli_pid": cli,
        "cli_start": process_start(cli),
        "session_id": env.session,
        "source": "startup",
        "transcript_path": str(env.project / f"{env.session}.jsonl"),
        "cwd": str(env.project),
        "at": NOW,
    }


def test_after_clear_the_pointer_names_the_new_session(env: Env, call: Call, cli: int) -> None:
    call("SessionStart", env.payload("SessionStart", source="startup"))
    cleared = {**env.payload("SessionStart", source="clear"), "session_id": NEW_SESSION}
    cleared["transcript_path"] = str(env.project / f"{NEW_SESSION}.jsonl")
    call("SessionStart", cleared, now=NOW + 60)
    pointer = read_pointer(env.data, cli)
    assert pointer is not None
    assert (pointer.session_id, pointer.source, pointer.at) == (NEW_SESSION, "clear", NOW + 60)
    assert pointer.transcript_path == cleared["transcript_path"]


def test_no_pointer_without_claude_pid(env: Env, call: Call) -> None:
    call("SessionStart")
    assert [event["event"] for event in env.events()] == ["session_start"]
    assert not (env.data / "workers").exists()


def test_no_pointer_in_a_headless_session(
    env: Env, call: Call, cli: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ATTENDED", "0")
    monkeypatch.setattr(subprocess, "Popen", lambda *args, **kwargs: None)
    env.hot({"headless": {"observe": True}})
    call("SessionStart")
    assert [event["event"] for event in env.events()] == ["session_start"]
    assert not pointer_path(env.data, cli).exists()


def test_no_pointer_for_a_workspace_that_is_not_enrolled(env: Env, call: Call, cli: int) -> None:
    env.hot({"enable": {"default": False}})
    call("SessionStart")
    assert not pointer_path(env.data, cli).exists()


def test_a_pointer_that_cannot_be_written_is_logged_not_raised(env: Env, call: Call, cli: int) -> None:
    env.data.mkdir(parents=True, exist_ok=True)
    (env.data / "workers").write_text("not a directory")
    answer = call("SessionStart")
    assert (answer.status, answer.stdout) == (0, "")
    assert "could not record the CLI's session" in answer.log
    assert [event["event"] for event in env.events()] == ["session_start"]


@pytest.mark.parametrize(
    "content",
    [
        "{",
        "[]",
        '{"v": 2, "cli_pid": 1, "session_id": "s", "at": 1}',
        '{"v": 1, "cli_pid": "1", "session_id": "s", "at": 1}',
        '{"v": 1, "cli_pid": 1, "session_id": "", "at": 1}',
        '{"v": 1, "cli_pid": 1, "session_id": "s", "at": "now"}',
        '{"v": 1, "cli_pid": 1, "session_id": "s", "at": 1, "source": 3}',
        '{"v": 1, "cli_pid": 2, "session_id": "s", "at": 1}',
    ],
)
def test_an_unusable_pointer_says_what_is_wrong_with_it(tmp_path: Path, content: str) -> None:
    path = pointer_path(tmp_path, 1)
    path.parent.mkdir(parents=True)
    path.write_text(content)
    with pytest.raises(PointerError, match=str(path)):
        read_pointer(tmp_path, 1)


def test_a_missing_pointer_is_none(tmp_path: Path) -> None:
    assert read_pointer(tmp_path, 1) is None


def test_a_reused_pid_is_told_apart_by_its_start_time() -> None:
    pointer = CliSession(cli_pid=10, cli_start="500", session_id="s")
    assert belongs_to(pointer, "500")
    assert not belongs_to(pointer, "501")
    assert belongs_to(pointer, None), "without /proc the pid has to do"
    assert belongs_to(CliSession(cli_pid=10, cli_start=None, session_id="s"), "501")


def test_pointers_of_cli_processes_that_are_gone_are_stale(tmp_path: Path) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    mine = os.getpid()
    write_pointer(tmp_path, CliSession(cli_pid=mine, cli_start=process_start(mine), session_id="live"))
    write_pointer(tmp_path, CliSession(cli_pid=gone.pid, cli_start="1", session_id="dead"))
    reused = CliSession(cli_pid=os.getppid(), cli_start="0", session_id="reused")
    write_pointer(tmp_path, reused)
    broken = pointer_path(tmp_path, 999_999_999)
    broken.write_text("{")
    stale = {path.name for path in stale_pointers(tmp_path)}
    assert stale == {f"cli-{gone.pid}.json", f"cli-{os.getppid()}.json", broken.name}
