"""The new-goal boundary through the worker's loop: a follow-up stays in the task, a new goal starts one.

In process and offline: the session's goal, a few narrated steps of work, a follow-up prompt (no boundary),
then a prompt setting a different piece of work, which gets a new task id (``<session>~1``), its own ledger
and a fresh window, while the first task's ledger is kept as it was.
"""

from __future__ import annotations

from typing import Any

import pytest
from worker_helpers import GOAL, NEW_GOAL, WORK, World, drive, make_session, until

from sbcore.state import db
from sbcore.state import ledger as store
from sbcore.testing.fake_provider import FakeProvider

FOLLOW_UP = "Cap the S3 upload retries at five attempts and log each timeout"


@pytest.fixture(autouse=True)
def _private_env(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.apply_env(monkeypatch)


def _steps(world: World, steps: list[tuple[str, str]]) -> list[dict[str, Any]]:
    records = world.records
    out: list[dict[str, Any]] = []
    for said, path in steps:
        call_id, call = records.call("Edit", {"file_path": path, "old_string": "a", "new_string": "b"})
        out += [records.say(said), call, records.result(call_id, "The file has been updated.")]
    return out


def _ledger(world: World, task: str) -> store.Ledger | None:
    with db.opened(db.db_path(world.data)) as conn:
        return store.load(store.prepare(conn), task)


def test_a_follow_up_stays_in_the_task_and_a_new_goal_starts_a_new_one(world: World) -> None:
    session = make_session(world)
    records = world.records
    first = world.session
    second = f"{world.session}~1"

    async def scenario() -> None:
        world.append(records.prompt(GOAL), *_steps(world, WORK), *records.failing(times=1))
        await until(lambda: _ledger(world, first), what="the first task's ledger")
        mark = session.record.passes
        world.append(records.prompt(FOLLOW_UP), *records.failing(times=1))
        await until(
            lambda: session.record.passes > mark and session._flight is None, what="the follow-up's pass"
        )
        assert session.task_id == first, "a follow-up is the same task"
        world.append(records.prompt(NEW_GOAL), *records.failing("pytest tests/test_export.py", times=1))
        await until(lambda: session.task_id == second, what="the new goal's task")
        await until(lambda: _ledger(world, second), what="the new task's ledger")

    drive(session, scenario)
    kept = _ledger(world, first)
    assert kept is not None and kept.goal == GOAL, "the first task's ledger is kept, its goal unchanged"
    started = _ledger(world, second)
    assert started is not None and started.goal == NEW_GOAL
    assert session.host.observer is not None
    history = [obs.text for obs in session.host.observer.engine.history]
    assert history[0] == f"[prompt] {NEW_GOAL}", "the new task's window starts at the new goal"
    assert not any(GOAL in text or FOLLOW_UP in text for text in history)
    assert session.state.epoch == 1 and session.state.task_since > 0

    restarted = make_session(world)  # a worker restarted on the session: the new task, from its own work

    async def settle() -> None:
        await until(lambda: restarted.host.observer is not None, what="the restarted worker's window")

    drive(restarted, settle)
    assert restarted.task_id == second and restarted.host.observer is not None
    restored = [obs.text for obs in restarted.host.observer.engine.history]
    assert f"[prompt] {NEW_GOAL}" in restored
    assert not any(GOAL in text or FOLLOW_UP in text for text in restored), "not the previous task's tail"


def test_with_new_goal_off_the_session_stays_one_task(world: World) -> None:
    world.write_config("loop:\n  min_interval_s: 10\n  salience_per_hour: 120\nledger:\n  new_goal: false\n")
    session = make_session(world)
    records = world.records

    async def scenario() -> None:
        world.append(records.prompt(GOAL), *_steps(world, WORK), *records.failing(times=1))
        await until(lambda: _ledger(world, world.session), what="the task's ledger")
        mark = session.record.passes
        world.append(records.prompt(NEW_GOAL), *records.failing("pytest tests/test_export.py", times=1))
        await until(
            lambda: session.record.passes > mark and session._flight is None, what="the new prompt's pass"
        )

    drive(session, scenario)
    assert session.task_id == world.session and session.state.epoch == 0


def test_a_new_goal_read_while_a_pass_runs_waits_for_it_then_starts_the_task(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = world.records
    first, second = world.session, f"{world.session}~1"
    with FakeProvider(latency_ms=3000) as fake:
        for key, value in fake.env("anthropic").items():
            monkeypatch.setenv(key, value)
        session = make_session(world)

        async def scenario() -> None:
            world.append(records.prompt(GOAL), *_steps(world, WORK))
            await until(lambda: _ledger(world, first), 60, what="the first task's ledger")
            world.append(*records.failing(times=1))
            await until(lambda: session._flight is not None, 60, what="a pass in flight")
            final = "The export endpoint is in place."
            world.append(records.prompt(NEW_GOAL), records.say(final))
            world.event("turn_end", last_assistant_message=final, stop_hook_active=False)
            await until(lambda: session.feed.goal_split.waiting, 60, what="the new goal read during the pass")
            assert session._flight is not None and session.task_id == first, "the running pass ends its task"
            await until(lambda: session.task_id == second, 60, what="the new task after the pass")
            await until(
                lambda: session._flight is None and session.record.last and session.record.last["turn_end"],
                60,
                what="the new task's turn-end pass",
            )

        drive(session, scenario)
    assert session.host.observer is not None
    history = [obs.text for obs in session.host.observer.engine.history]
    assert history[0] == f"[prompt] {NEW_GOAL}", "the held prompt went to the new task, not the old"
    kept = _ledger(world, first)
    assert kept is not None and kept.goal == GOAL
    turn_ends = [entry for entry in session.record.recent if entry["turn_end"]]
    assert [entry["task_id"] for entry in turn_ends] == [second], "the new goal's turn is judged in it"
