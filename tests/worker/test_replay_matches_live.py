"""Replay shows what the live worker did on the same session: the same task splits, the same gate decisions.

A session recorded as the worker saw it (the transcript, and the Stop hook's turn ends), whose user sets a
new goal midway, is served by the live worker (in process, offline); then the same transcript is replayed.
Both split the session at the same prompt into the same tasks (the rule is one:
``sbcore.conductor.new_goal.GoalSplit``), and the gate's decisions, task by task, carry the same actions
and reasons.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from worker_helpers import GOAL, NEW_GOAL, WORK, World, drive, make_session, until

from sbcore.conductor.replay import Replayer
from sbcore.config import find_workspace, load_config
from sbcore.gate.history import History
from sbcore.pace.clock import epoch_seconds
from sbcore.packs.manager import get_plugin_manager
from sbcore.testing.fake_provider import FakeProvider
from sbcore.testing.scripts import feedback


@pytest.fixture(autouse=True)
def _private_env(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.apply_env(monkeypatch)


def _turn(world: World, prompt: str, steps: list[tuple[str, str]], command: str, final: str) -> list[Any]:
    """One turn as the CLI records it: the prompt, narrated edits, the tests run, the final message (which
    ends the turn: ``stop_reason: end_turn``)."""
    records = world.records
    out: list[dict[str, Any]] = [records.prompt(prompt)]
    for said, path in steps:
        call_id, call = records.call("Edit", {"file_path": path, "old_string": "a", "new_string": "b"})
        out += [records.say(said), call, records.result(call_id, "The file has been updated.")]
    out += records.bash(command, "Exit code 0\n4 passed in 0.12s")
    last = records.say(final)
    last["message"]["stop_reason"] = "end_turn"
    return [*out, last]


def _gate_decisions(world: World, task: str) -> list[tuple[str, str, str, str]]:
    records, _ = History.for_task(task, world.data).read(0)
    return [(task, r["detector"], r["action"], r["reason"]) for r in records if r.get("stage") == "gate"]


def _answers() -> list[Any]:
    """The model's answers, recorded, one a turn: the same for the live worker and for the replay."""
    return [
        feedback("advise", headline="Retry the upload with jitter", confidence=0.8, dedup_key="jitter"),
        feedback("advise", headline="Stream the invoice export", confidence=0.5, dedup_key="stream"),
    ]


def test_replay_splits_the_session_where_the_worker_did_and_the_gate_decides_alike(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="sbcore.worker")
    # Passes at turn ends only, so that both read the same episodes: the worker reads a turn in whatever
    # batches its ticks catch, replay a record at a time, and volume, a failure or a trigger would start a
    # pass at a different record in each. What is compared is where the session splits and what the gate
    # decides.
    world.write_config(
        "loop:\n  min_interval_s: 10\n  salience_per_hour: 0\n  trigger_chars: 1000000\n"
        "  max_interval_s: 86400\n"
    )
    first, second = world.session, f"{world.session}~1"
    done = "The uploads now retry with backoff."
    exported = "The invoice export is in place."
    with FakeProvider() as fake:
        for key, value in fake.env("anthropic").items():
            monkeypatch.setenv(key, value)
        fake.script("default", *_answers())
        session = make_session(world)

        async def scenario() -> None:
            world.append(*_turn(world, GOAL, WORK, "pytest tests/test_upload.py -q", done))
            world.event("turn_end", last_assistant_message=done, stop_hook_active=False)
            await until(
                lambda: session.record.last and session.record.last["turn_end"], 60, what="the first turn"
            )
            mark = session.record.passes
            world.append(*_turn(world, NEW_GOAL, WORK[:1], "pytest tests/test_export.py -q", exported))
            world.event("turn_end", last_assistant_message=exported, stop_hook_active=False)
            await until(lambda: session.task_id == second, 60, what="the new goal's task")
            await until(
                lambda: (
                    session.record.passes > mark
                    and session._flight is None
                    and session.record.last["turn_end"]
                ),
                60,
                what="the new task's turn-end pass",
            )

        drive(session, scenario)
        assert session.host.observer is not None
        live_start = session.state.task_since
        live = _gate_decisions(world, first) + _gate_decisions(world, second)
        live_passes = [p["reason"] for p in session.record.recent]

        fake.script("default", *_answers())  # the same recorded answers, for the replay
        manager = get_plugin_manager()
        replayer = Replayer(
            config=load_config(find_workspace(world.project)),
            detectors=[d for d in session.host.observer.definitions if d.enabled],
            provider=session.host.observer.provider,
            triggers=manager.registry.triggers,
            environment=manager.template_environment(),
        )
        replayed = asyncio.run(replayer.replay_file(world.transcript))

    assert {task for task, *_ in live} == {first, second}, "the live worker decided in both tasks"
    (start,) = replayed.task_starts
    assert start["task"] == second
    assert epoch_seconds(start["at"]) == live_start, "split at the same prompt"
    assert f"new task {second}: {start['why']}" in caplog.text, "for the same reason"
    assert [str(r.episode.decision.reason) for r in replayed.reports] == live_passes
    decisions = [
        (v.decision.task_id, v.decision.detector, v.decision.action, v.decision.reason)
        for report in replayed.reports
        for v in report.verdicts
        if v.decision is not None
    ]
    assert decisions == live
