"""The drain hooks and the turn-end report: shown once beside the advice, never to the agent."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from hook_helpers import Answer, Env

from sbcore.deliver.framing import frame_for_user
from sbcore.state import turns

Call = Callable[..., Answer]


def _report(env: Env, **item: Any) -> None:
    verdict = {"detector": "repeat-failure", "label": "advise", "headline": "It failed 3 times", **item}
    body = {"session_id": env.session, "task_id": "t", "pass": 5, "at": 1.0, "verdicts": [verdict]}
    turns.write(env.data, {**body, "line": turns.outcome([verdict])}, pending=True)


def test_the_report_rides_with_the_advice_it_names_once(env: Env, call: Call) -> None:
    advice = env.post()
    _report(
        env,
        gate={"action": "deliver_agent", "reason": "passed"},
        advice_id=advice.id,
        text=frame_for_user(advice),
    )
    answer = call("UserPromptSubmit").json
    message = answer["systemMessage"]
    assert re.match(
        r"Second Brain, on the turn that ended at \d\d:\d\d \(pass 5\): repeat-failure advised\.", message
    )
    assert message.count(frame_for_user(advice)) == 1, "the advisory delivered beside it is not repeated"
    assert "on the turn that ended at" not in answer["hookSpecificOutput"]["additionalContext"]
    assert call("UserPromptSubmit").stdout == ""


def test_a_subagent_or_a_mute_leaves_it_waiting(env: Env, call: Call) -> None:
    _report(env)
    assert call("PostToolUse", env.payload("PostToolUse", agent_id="a1")).stdout == ""
    (env.config / "config.yaml").parent.mkdir(parents=True, exist_ok=True)
    from sbcore.config.hot import write_hot_snapshot

    (env.config / "config.yaml").write_text("mute:\n  all: true\n")
    write_hot_snapshot(env.project, data=env.data)
    assert call("PostToolUse").stdout == ""
    assert turns.pending_path(env.data, env.session).exists()


def test_an_unreadable_report_is_logged_and_removed(env: Env, call: Call) -> None:
    path = turns.pending_path(env.data, env.session)
    path.parent.mkdir(parents=True)
    path.write_text('{"v": 99}')
    answer = call("PostToolUse")
    assert (answer.status, answer.stdout) == (0, "")
    assert "turn-end report" in answer.log and "unsupported version 99" in answer.log
    assert not path.exists() and list(path.parent.iterdir()) == []
