"""Following the CLI: after ``/clear`` the conversation has a new session id, and the worker goes with it.

Claude Code keeps the monitor (the worker) across ``/clear`` but starts a new
session — new transcript, events and mailbox. The SessionStart hook leaves a
pointer (``workers/cli-<pid>.json``); these tests write it with the hook's own
writer, for a dummy process standing in for the CLI, and watch real worker
processes follow it.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from worker_helpers import World, finish_gate_advice, holder_pid, passes_since, turn_end_pass_since, wait_for

from sbcore.deliver.mailbox import Mailbox
from sbcore.hooks.cli_session import CliSession, pointer_path, process_start, write_pointer
from sbcore.worker.lifecycle import SessionLock

CLEARED = "5f0c6a1e-0000-4000-8000-0000000c1ea2"


def _point(world: World, cli: int, session: World, source: str) -> None:
    """What the SessionStart hook writes when the CLI ``cli`` starts ``session``."""
    session.event("session_start", source=source, transcript_path=str(session.transcript))
    write_pointer(
        world.data,
        CliSession(
            cli_pid=cli,
            cli_start=process_start(cli),
            session_id=session.session,
            source=source,
            transcript_path=str(session.transcript),
            cwd=str(world.project),
            at=time.time(),
        ),
    )


def _lock_free(world: World, session: str) -> bool:
    """Whether nobody holds the session's lock (taken and given back at once to find out)."""
    lock = SessionLock(world.data, session)
    if not lock.try_acquire(host="test"):
        return False
    lock.release()
    return True


def _status(world: World, session: str) -> dict[str, Any]:
    from sbcore.worker.status import read_status

    return read_status(world.data, session) or {}


def _history(world: World, task: str) -> list[dict[str, Any]]:
    path = world.data / "history" / f"{task}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _log(world: World, session: str) -> str:
    path = world.data / "logs" / f"worker-{session}.log"
    return path.read_text() if path.exists() else ""


def test_after_clear_the_worker_leaves_the_old_session_and_observes_the_new_one(world: World) -> None:
    parent = world.dummy_parent()
    _point(world, parent.pid, world, "startup")
    worker = world.start_worker(parent=parent.pid)
    wait_for(lambda: (world.status() or {}).get("state") == "watching", what="the worker")
    Mailbox(world.session, world.data).post(finish_gate_advice(world, "fg-old"))

    cleared = World(world.root, session=CLEARED)
    cleared.append(cleared.records.prompt("now the other thing"))
    _point(world, parent.pid, cleared, "clear")

    new = wait_for(
        lambda: (doc := _status(world, CLEARED)).get("state") == "watching" and doc, what="the new session"
    )
    assert new["pid"] == worker.pid
    assert (new["followed_from"], new["source"]) == (world.session, "clear")
    assert new["task_id"] == CLEARED, "the session /clear opened is a new task, not an epoch of one"
    assert holder_pid(cleared) == worker.pid
    assert _lock_free(world, world.session), "the old session's lock was released"

    old = _status(world, world.session)
    assert old["state"] == "exited" and not old["alive"]
    assert old["exit"]["reason"] == "session_changed"
    assert old["exit"]["session_id"] == CLEARED
    assert world.mailbox() == [], "advice of the cleared task is withdrawn"
    (swept,) = [record for record in world.history() if record.get("stage") == "sweep"]
    assert swept["reason"] == "revalidated_out"
    assert f"its task ended: the conversation moved to session {CLEARED} (clear)" in swept["text"]

    # The new transcript is read from its start, and what happens there is advised there.
    cleared.append(*cleared.records.failing())
    (advice,) = wait_for(lambda: cleared.mailbox(), what="the new session's advisory")
    assert advice.kind == "repeat-failure"
    assert advice.task_id == CLEARED
    # The advisory is posted while the pass concludes; the status file is written right after it.
    wait_for(lambda: _status(world, CLEARED).get("observed", 0) >= 7, what="the status after that pass")

    # The log moved with the session.
    assert f"following the CLI to session {CLEARED}" in _log(world, world.session)
    assert f"followed from session {world.session} (session start: clear)" in _log(world, CLEARED)

    parent.kill()
    assert worker.wait(timeout=10) == 0
    assert worker.stdout is not None and worker.stdout.read() == b""
    assert _status(world, CLEARED)["exit"]["reason"] == "parent_gone"
    assert not pointer_path(world.data, parent.pid).exists(), "the pointer goes with its CLI"


def test_no_wake_for_a_task_cleared_while_its_turn_end_pass_ran(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sbcore.testing.fake_provider import FakeProvider

    with FakeProvider(latency_ms=1500) as fake:  # every fork answers late: the pass is in flight for long
        parent = world.dummy_parent()
        _point(world, parent.pid, world, "startup")
        worker = world.start_worker(parent=parent.pid, **fake.env("anthropic"))
        wait_for(lambda: (world.status() or {}).get("state") == "watching", what="the worker")
        world.append(world.records.prompt("edit app.py"))
        wait_for(lambda: passes_since(world.status(), 0, reason="salience"), 30, "the prompt's pass")
        Mailbox(world.session, world.data).post(finish_gate_advice(world, "fg-old"))
        world.append(world.records.say("I edited app.py."))
        world.event("turn_end", last_assistant_message="I edited app.py.", stop_hook_active=False)
        wait_for(
            lambda: (doc := world.status() or {}).get("state") == "thinking" and "turn_end" in doc["detail"],
            30,
            "the turn-end pass in flight",
        )
        turn_end_started = float(_status(world, world.session)["updated_at"]) - 1.0

        cleared = World(world.root, session=CLEARED)
        _point(world, parent.pid, cleared, "clear")
        wait_for(lambda: _status(world, CLEARED).get("state") == "watching", 30, "the new session")

        old = _status(world, world.session)
        finished = turn_end_pass_since(old, turn_end_started)
        assert finished, "the pass in flight finished before the session was left"
        assert str(finished["wake"]).startswith("none: the task ended")
        assert not [record for record in world.history() if record.get("stage") == "finish_gate"]
        assert world.mailbox() == []
        assert "no wake, the task of this pass ended" in _log(world, world.session)
        parent.kill()
        assert worker.wait(timeout=10) == 0
        assert worker.stdout is not None and worker.stdout.read() == b"", "no wake line"


def test_a_standby_follows_too_and_never_takes_the_left_session(world: World) -> None:
    parent = world.dummy_parent()
    _point(world, parent.pid, world, "startup")
    first = world.start_worker(parent=parent.pid)
    wait_for(lambda: holder_pid(world) == first.pid, what="the first worker to hold the session")
    second = world.start_worker(parent=parent.pid)
    wait_for(lambda: f"{second.pid} INFO sbcore.worker: standing by" in world.log(), what="the standby")

    cleared = World(world.root, session=CLEARED)
    _point(world, parent.pid, cleared, "clear")
    holder = wait_for(
        lambda: (pid := holder_pid(cleared)) in (first.pid, second.pid) and pid, what="the new session held"
    )
    other = second if holder == first.pid else first
    wait_for(
        lambda: f"{other.pid} INFO sbcore.worker: standing by" in _log(world, CLEARED),
        what="the other worker to stand by for the new session",
    )
    # Both workers have turned to the new session (one holds it, one stands by for it): neither looks back.
    assert _lock_free(world, world.session), "nobody took the session that was left"
    assert "took over the session" not in world.log()
    assert _status(world, world.session)["pid"] == first.pid
    assert first.poll() is None and second.poll() is None

    (first if holder == first.pid else second).kill()
    wait_for(lambda: holder_pid(cleared) == other.pid, what="the standby to take the new session over")
    assert _lock_free(world, world.session)
    parent.kill()
    assert other.wait(timeout=10) == 0


def test_a_pointer_left_by_an_earlier_process_with_the_same_pid_is_ignored(world: World) -> None:
    parent = world.dummy_parent()
    stale = CliSession(cli_pid=parent.pid, cli_start="1", session_id=CLEARED, source="clear", at=1.0)
    write_pointer(world.data, stale)
    worker = world.start_worker(parent=parent.pid)
    wait_for(lambda: (world.status() or {}).get("state") == "watching", what="the worker")
    # A watching worker has swept the pointers at start, before its first look at where the CLI is.
    assert holder_pid(world) == worker.pid
    assert _status(world, CLEARED) == {}
    assert not pointer_path(world.data, parent.pid).exists(), "a starting worker sweeps stale pointers"
    parent.kill()
    assert worker.wait(timeout=10) == 0


def test_compaction_rewrites_the_pointer_but_the_session_stays(world: World) -> None:
    parent = world.dummy_parent()
    _point(world, parent.pid, world, "startup")
    worker = world.start_worker(parent=parent.pid)
    wait_for(lambda: (world.status() or {}).get("state") == "watching", what="the worker")
    _point(world, parent.pid, world, "compact")
    wait_for(
        lambda: f"the CLI's session pointer: session {world.session} (session start: compact)" in world.log(),
        what="the worker to read the pointer compaction rewrote",
    )
    status = world.status() or {}
    assert (status.get("state"), status.get("pid")) == ("watching", worker.pid)
    assert "the CLI moved" not in world.log()
    parent.kill()
    assert worker.wait(timeout=10) == 0
