"""Stop: the turn-end record and the immediate finish gate."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hook_helpers import NOW, Answer, Env

from sbcore.deliver.channels import GATE_OFF
from sbcore.deliver.framing import frame_for_agent, frame_for_user
from sbcore.gate.history import History
from sbcore.hooks.events import (
    WORKER_LAUNCHER,
    WORKER_MONITOR_DESCRIPTION,
    WORKER_MONITOR_NAME,
    is_worker_monitor,
)

PLUGIN = Path(__file__).resolve().parents[2] / "plugin"

Call = Callable[..., Answer]


def _history(env: Env, task: str = "task-1") -> list[dict[str, object]]:
    return History.for_task(task, env.data).read()[0]


def _finish_records(env: Env) -> list[tuple[object, object]]:
    return [(r["action"], r["reason"]) for r in _history(env) if r["stage"] == "finish_gate"]


def test_fires_with_an_evidenced_confident_finish_gate_advisory(env: Env, call: Call) -> None:
    advice = env.post(finish_gate=True)
    body = call("Stop").json
    assert set(body) == {"decision", "reason", "systemMessage"}
    assert body["decision"] == "block"
    assert body["reason"] == frame_for_agent(advice)
    message = body["systemMessage"]
    assert "finish gate" in message and "standard-questions" in message
    assert frame_for_user(advice) in message
    assert body["reason"] in message
    assert GATE_OFF in message
    assert env.mailbox.pending() == []
    assert _finish_records(env) == [("fire", "fire")]
    assert [r["reason"] for r in _history(env) if r["stage"] == "claim"] == ["claimed"]


def test_never_when_stop_hook_active(env: Env, call: Call) -> None:
    env.post(finish_gate=True)
    assert call("Stop", env.payload("Stop", stop_hook_active=True)).stdout == ""
    assert len(env.mailbox.pending()) == 1


@pytest.mark.parametrize("value", [True, "true", 1, {"x": 1}])
def test_anything_but_a_clear_no_counts_as_active(env: Env, call: Call, value: object) -> None:
    env.post(finish_gate=True)
    assert call("Stop", env.payload("Stop", stop_hook_active=value)).stdout == ""


def test_holds_while_the_payload_reports_background_tasks(env: Env, call: Call) -> None:
    env.post(finish_gate=True)
    payload = env.payload("Stop", background_tasks=[{"id": "b7u", "type": "bash", "description": "npm test"}])
    assert call("Stop", payload).stdout == ""
    assert _finish_records(env) == [("hold", "background_work")]
    (record,) = [r for r in _history(env) if r["stage"] == "finish_gate"]
    assert "bash b7u (npm test)" in str(record["text"])


def _worker_monitor(root: str = "/home/me/.claude/plugins/cache/sbcore/second-brain/0.1.0") -> dict[str, str]:
    """The plugin's own monitor as Claude Code 2.1.328 lists it in ``background_tasks`` (seen in the TUI)."""
    return {
        "id": "bgs2i7hwi",
        "type": "shell",
        "status": "running",
        "description": WORKER_MONITOR_DESCRIPTION,
        "command": f'"{root}/bin/sb-worker" --data "/home/me/.claude/plugins/data/second-brain-sbcore" '
        f'--root "{root}" --project "/home/me/project"',
    }


def test_the_plugins_own_worker_monitor_is_not_background_work(env: Env, call: Call) -> None:
    env.post(finish_gate=True)
    answer = call("Stop", env.payload("Stop", background_tasks=[_worker_monitor()]))
    assert answer.json["decision"] == "block"
    assert _finish_records(env) == [("fire", "fire")]


def test_other_work_beside_the_worker_monitor_still_holds(env: Env, call: Call) -> None:
    env.post(finish_gate=True)
    other = {
        "id": "b7u",
        "type": "shell",
        "status": "running",
        "description": "npm test",
        "command": "npm test",
    }
    assert call("Stop", env.payload("Stop", background_tasks=[_worker_monitor(), other])).stdout == ""
    (record,) = [r for r in _history(env) if r["stage"] == "finish_gate"]
    assert record["reason"] == "background_work"
    assert "shell b7u (npm test)" in str(record["text"])
    assert "bgs2i7hwi" not in str(record["text"])


@pytest.mark.parametrize(
    ("entry", "ours"),
    [
        (_worker_monitor(), True),
        (_worker_monitor(root="/opt/plugins/with space/second-brain"), True),
        ({"id": "m1", "type": "shell", "command": "/usr/lib/sb/bin/sb-worker --data /d"}, True),
        ({"id": "m1", "type": "monitor", "name": WORKER_MONITOR_NAME}, True),
        ({"id": "m1", "type": "shell", "description": WORKER_MONITOR_DESCRIPTION}, True),
        ({"id": "b1", "type": "shell", "command": "tail -f /tmp/sb-worker.log"}, False),
        ({"id": "b2", "type": "shell", "command": '"/x/bin/sb-worker-helper" run'}, False),
        ({"id": "b3", "type": "shell", "command": ""}, False),
        ({"id": "b4", "type": "bash", "description": "npm test"}, False),
    ],
)
def test_what_counts_as_the_worker_monitor(entry: dict[str, str], ours: bool) -> None:
    assert is_worker_monitor(entry) is ours


def test_the_monitor_identity_matches_the_manifest() -> None:
    (monitor,) = json.loads((PLUGIN / "monitors" / "monitors.json").read_text())
    assert monitor["name"] == WORKER_MONITOR_NAME
    assert monitor["description"] == WORKER_MONITOR_DESCRIPTION
    assert monitor["command"].startswith(f'"${{CLAUDE_PLUGIN_ROOT}}/bin/{WORKER_LAUNCHER}" ')
    assert is_worker_monitor({"command": monitor["command"]})


def _launches(env: Env, *launched_at: float) -> None:
    path = env.data / "background" / f"{env.session}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    launches = [{"id": f"toolu_{n}", "kind": "bash", "launched_at": at} for n, at in enumerate(launched_at)]
    path.write_text(json.dumps({"v": 1, "launches": launches}))


def test_holds_while_a_launch_the_worker_saw_is_settling(env: Env, call: Call) -> None:
    env.post(finish_gate=True)
    _launches(env, NOW - 100)
    assert call("Stop").stdout == ""
    assert _finish_records(env) == [("hold", "background_work")]


def test_a_launch_past_its_settle_window_no_longer_holds(env: Env, call: Call) -> None:
    env.post(finish_gate=True)
    _launches(env, NOW - 601)
    assert call("Stop").json["decision"] == "block"


def test_settle_window_comes_from_the_hot_snapshot(env: Env, call: Call) -> None:
    env.post(finish_gate=True)
    _launches(env, NOW - 100)
    env.hot({"finish_gate": {"background_settle_s": 60}})
    assert call("Stop").json["decision"] == "block"


@pytest.mark.parametrize("content", ["{", '{"v": 1, "launches": [{"id": 1}]}', '{"v": 1, "launches": {}}'])
def test_unreadable_background_state_means_silence(env: Env, call: Call, content: str) -> None:
    env.post(finish_gate=True)
    path = env.data / "background" / f"{env.session}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    answer = call("Stop")
    assert answer.stdout == ""
    assert "background" in answer.log
    assert _finish_records(env) == [("hold", "background_work")]


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"evidence": ()}, "no_evidence"),
        ({"confidence": 0.7}, "below_floor"),
    ],
)
def test_holds_without_evidence_or_confidence(
    env: Env, call: Call, changes: dict[str, object], reason: str
) -> None:
    env.post(finish_gate=True, **changes)
    assert call("Stop").stdout == ""
    assert _finish_records(env) == [("hold", reason)]
    assert len(env.mailbox.pending()) == 1


def test_ordinary_and_human_only_advice_never_continue_a_turn(env: Env, call: Call) -> None:
    env.post()
    env.post(finish_gate=True, human_only=True)
    assert call("Stop").stdout == ""
    assert _finish_records(env) == [("hold", "no_candidate")]
    assert len(env.mailbox.pending()) == 2


def test_once_per_interval_per_task(env: Env, call: Call) -> None:
    env.post(finish_gate=True)
    assert call("Stop").stdout
    env.post(finish_gate=True, dedup_key="another")
    assert call("Stop", now=NOW + 60).stdout == ""
    assert _finish_records(env)[-1] == ("hold", "too_soon")
    env.now = NOW + 3601
    env.post(finish_gate=True, dedup_key="a third")
    assert call("Stop", now=NOW + 3601).json["decision"] == "block"
    assert [action for action, _ in _finish_records(env)] == ["fire", "hold", "fire"]


def test_per_task_cap(env: Env, call: Call) -> None:
    env.hot({"finish_gate": {"per_task_cap": 1, "min_interval_s": 60}})
    env.post(finish_gate=True)
    assert call("Stop").stdout
    env.post(finish_gate=True, dedup_key="again")
    assert call("Stop", now=NOW + 120).stdout == ""
    assert _finish_records(env)[-1] == ("hold", "cap_reached")


@pytest.mark.parametrize(
    ("scope", "reason"),
    [
        ({"finish_gate": {"enabled": False}}, "disabled"),
        ({"mute": {"all": True}}, "muted"),
    ],
)
def test_disabled_or_muted(env: Env, call: Call, scope: dict[str, object], reason: str) -> None:
    env.post(finish_gate=True)
    env.hot(scope)
    assert call("Stop").stdout == ""
    assert _finish_records(env) == [("hold", reason)]


def test_switched_off_detector_cannot_continue_a_turn(env: Env, call: Call) -> None:
    env.post(finish_gate=True)
    env.hot({"detectors": {"standard-questions": {"enabled": False}}})
    assert call("Stop").stdout == ""
    assert _finish_records(env) == [("hold", "no_candidate")]


def test_detector_floor_from_the_snapshot(env: Env, call: Call) -> None:
    env.post(finish_gate=True, confidence=0.7)
    env.hot({"detectors": {"standard-questions": {"finish_gate_floor": 0.65}}})
    assert call("Stop").json["decision"] == "block"


def test_not_in_a_headless_session_without_headless_observation(
    env: Env, call: Call, monkeypatch: pytest.MonkeyPatch
) -> None:
    env.post(finish_gate=True)
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ATTENDED", "0")
    assert call("Stop").stdout == ""
    assert len(env.mailbox.pending()) == 1


def test_in_a_headless_session_that_opted_into_observation(
    env: Env, call: Call, monkeypatch: pytest.MonkeyPatch
) -> None:
    env.post(finish_gate=True)
    env.hot({"headless": {"observe": True}})
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ATTENDED", "0")
    assert call("Stop").json["decision"] == "block"
    assert env.mailbox.pending() == []


def test_unenrolled_workspace_never_blocks(env: Env, call: Call) -> None:
    env.post(finish_gate=True)
    env.hot({"enable": {"default": False}})
    assert call("Stop").stdout == ""
    assert env.events() == []


def test_advice_the_final_message_already_handled_is_dropped(env: Env, call: Call) -> None:
    env.post(finish_gate=True, stale_if=("(?i)deployed",))
    payload = env.payload("Stop", last_assistant_message="Bumped the version and deployed 1.3.0.")
    assert call("Stop", payload).stdout == ""
    assert env.mailbox.pending() == []
    assert [r["reason"] for r in _history(env) if r["stage"] == "claim"] == ["stale_at_claim"]


def test_turn_end_is_recorded_for_the_worker(env: Env, call: Call) -> None:
    call("Stop", env.payload("Stop", last_assistant_message="Done: 3 files changed."))
    (event,) = env.events()
    assert event["event"] == "turn_end"
    assert event["last_assistant_message"] == "Done: 3 files changed."
    assert event["stop_hook_active"] is False
    assert event["background_tasks"] == []


def test_turn_end_recorded_even_when_the_gate_fires(env: Env, call: Call) -> None:
    env.post(finish_gate=True)
    call("Stop")
    assert [event["event"] for event in env.events()] == ["turn_end"]


def test_the_last_message_is_stored_redacted(env: Env, call: Call) -> None:
    secret = "dapi" + "".join("0123456789abcdef"[(i * 5 + 3) % 16] for i in range(32))
    call("Stop", env.payload("Stop", last_assistant_message=f"Set DATABRICKS_TOKEN to {secret} and ran it."))
    (event,) = env.events()
    assert (
        event["last_assistant_message"] == "Set DATABRICKS_TOKEN to [REDACTED:databricks-token] and ran it."
    )
