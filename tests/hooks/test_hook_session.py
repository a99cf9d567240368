"""SessionStart and SubagentStop: what they record, and when a headless session gets a worker."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hook_helpers import NOW, ROOT, Answer, Env

from sbcore.hooks import session_start

Call = Callable[..., Answer]


class FakePopen:
    """Records how the worker would have been started."""

    calls: list[tuple[list[str], dict[str, Any]]]

    def __init__(self, command: list[str], **options: Any) -> None:
        FakePopen.calls.append((command, options))


@pytest.fixture
def popen(monkeypatch: pytest.MonkeyPatch) -> type[FakePopen]:
    FakePopen.calls = []
    monkeypatch.setattr(subprocess, "Popen", FakePopen)
    return FakePopen


@pytest.mark.parametrize("source", ["startup", "resume", "clear", "compact", "fork"])
def test_session_start_records_the_task_identity_signal(
    env: Env, call: Call, popen: type[FakePopen], source: str
) -> None:
    answer = call("SessionStart", env.payload("SessionStart", source=source, model="claude-opus-5-5"))
    assert (answer.status, answer.stdout, answer.log) == (0, "", "")
    (event,) = env.events()
    assert event == {
        "v": 1,
        "at": NOW,
        "session_id": env.session,
        "event": "session_start",
        "source": source,
        "transcript_path": str(env.project / f"{env.session}.jsonl"),
        "cwd": str(env.project),
        "model": "claude-opus-5-5",
    }
    assert popen.calls == []  # interactive: the monitor hosts the worker


def test_headless_session_gets_no_worker_and_no_record_by_default(
    env: Env, call: Call, popen: type[FakePopen], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ATTENDED", "0")
    monkeypatch.setenv("CLAUDE_CODE_ENTRYPOINT", "sdk-cli")
    call("SessionStart")
    call("UserPromptSubmit")
    call("Stop")
    assert env.events() == []
    assert popen.calls == []


def test_headless_observe_starts_a_detached_worker(
    env: Env, call: Call, popen: type[FakePopen], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ATTENDED", "0")
    monkeypatch.setenv("CLAUDE_PLUGIN_ROOT", "/opt/plugin")
    env.hot({"headless": {"observe": True}})
    call("SessionStart")
    ((command, options),) = popen.calls
    assert command[:4] == [sys.executable, "-P", "-c", session_start.WORKER_BOOT]
    assert command[4:] == [
        "worker",
        "--host",
        "headless",
        "--session",
        env.session,
        "--data",
        str(env.data),
        "--root",
        "/opt/plugin",
        "--project",
        str(env.project),
    ]
    assert options["start_new_session"] is True
    assert options["stdin"] == options["stdout"] == options["stderr"] == subprocess.DEVNULL
    assert options["env"]["SBCORE_OBSERVER"] == "1"
    assert options["env"]["CLAUDE_CODE_SESSION_ID"] == env.session
    assert options["cwd"] == str(env.project)
    assert [event["event"] for event in env.events()] == ["session_start"]


def test_headless_entry_point_without_attendance_flag(
    env: Env, call: Call, popen: type[FakePopen], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_CODE_SESSION_ATTENDED")
    monkeypatch.setenv("CLAUDE_CODE_ENTRYPOINT", "sdk-ts")
    env.hot({"headless": {"observe": True}})
    call("SessionStart")
    assert len(popen.calls) == 1


def test_compaction_does_not_start_a_second_worker(
    env: Env, call: Call, popen: type[FakePopen], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ATTENDED", "0")
    env.hot({"headless": {"observe": True}})
    call("SessionStart", env.payload("SessionStart", source="compact"))
    assert popen.calls == []


def test_worker_boot_reaches_the_cli() -> None:
    result = subprocess.run(
        [sys.executable, "-P", "-c", session_start.WORKER_BOOT, "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout.startswith("sbcore ")


def test_a_failed_start_is_logged(env: Env, call: Call, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise PermissionError("no exec")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ATTENDED", "0")
    env.hot({"headless": {"observe": True}})
    answer = call("SessionStart")
    assert (answer.status, answer.stdout) == (0, "")
    assert "could not start the headless worker: no exec" in answer.log


def test_unenrolled_workspace_records_nothing(env: Env, call: Call, popen: type[FakePopen]) -> None:
    env.hot({"enable": {"default": False}})
    for event in ("SessionStart", "UserPromptSubmit", "PostToolUse", "SubagentStop", "Stop"):
        assert call(event).stdout == ""
    assert env.events() == []
    assert not (env.data / "events").exists()


def test_subagent_report_is_recorded(env: Env, call: Call) -> None:
    answer = call("SubagentStop")
    assert (answer.status, answer.stdout) == (0, "")
    (event,) = env.events()
    assert event == {
        "v": 1,
        "at": NOW,
        "session_id": env.session,
        "event": "subagent_report",
        "agent_id": "a1",
        "agent_type": "general-purpose",
        "last_assistant_message": "Found 3 call sites.",
        "agent_transcript_path": "/x/agent-a1.jsonl",
    }


@pytest.mark.parametrize("agent_type", [None, "", "   ", 7])
def test_subagent_stop_without_agent_type_is_dropped(env: Env, call: Call, agent_type: object) -> None:
    payload = env.payload("SubagentStop")
    if agent_type is None:
        del payload["agent_type"]
    else:
        payload["agent_type"] = agent_type
    answer = call("SubagentStop", payload)
    assert (answer.status, answer.stdout, answer.log) == (0, "", "")
    assert env.events() == []


def test_subagent_stop_never_answers_even_with_mail(env: Env, call: Call) -> None:
    env.post(finish_gate=True)
    assert call("SubagentStop").stdout == ""
    assert len(env.mailbox.pending()) == 1
