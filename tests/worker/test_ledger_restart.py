"""The durable ledger through the real worker process: SIGKILL, restart, the window rebuilt; then ``forget``.

A worker killed mid-session and started again must begin its next pass from the task's ledger (the goal) and
the recent observations (read back from the spool), not cold; ``second-brain forget`` must empty both, in the
database, on disk and in the live worker's memory.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from typing import Any

from worker_helpers import World, drive, make_session, until, wait_for

from sbcore.state import db
from sbcore.state import ledger as store
from sbcore.testing.fake_provider import FakeProvider

GOAL = "make the widget parser accept unicode identifiers"
FAILING = "pytest tests/test_widgets.py -q"


def _requests_after(fake: FakeProvider, seq: int) -> list[dict[str, Any]]:
    return [r.body for r in fake.requests if r.seq > seq and r.detector and isinstance(r.body, dict)]


def _text(body: dict[str, Any], index: int | None = None) -> str:
    messages = body.get("messages") or []
    chosen = messages if index is None else messages[index : index + 1]
    return json.dumps(chosen)


def _ledger_rows(world: World) -> list[tuple[str, str | None]]:
    path = world.data / "sbcore.db"
    if not path.exists():
        return []
    with sqlite3.connect(path) as conn:
        try:
            return list(conn.execute("SELECT task_id, goal FROM ledger_task"))
        except sqlite3.OperationalError:
            return []


def _last_seq(fake: FakeProvider) -> int:
    return max((r.seq for r in fake.requests), default=0)


def test_a_killed_worker_restarts_from_the_ledger_and_recent_observations_and_forget_empties_them(
    world: World,
) -> None:
    records = world.records
    with FakeProvider() as fake:
        env = fake.env("anthropic")
        parent = world.dummy_parent()
        first = world.start_worker(parent=parent.pid, stdout=subprocess.DEVNULL, **env)
        world.append(records.prompt(GOAL), *records.failing(FAILING))
        wait_for(
            lambda: [row for row in _ledger_rows(world) if row[1] and "unicode" in row[1]], 60, "the ledger"
        )
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)

        mark = _last_seq(fake)
        world.start_worker(parent=parent.pid, stdout=subprocess.DEVNULL, **env)
        world.append(records.prompt("now also cover the error message"))
        after = wait_for(lambda: _requests_after(fake, mark), 60, "a pass of the restarted worker")
        body = after[0]
        assert GOAL in _text(body, 0), (
            "the rebuilt window's first message is the ledger, with the task's goal"
        )
        restored = _text(body)
        assert "restored after a restart" in restored
        assert FAILING in restored, "the recent observations from before the kill are in the window"

        done = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from sbcore.cli import main; sys.exit(main())",
                "forget",
                "--session",
                world.session,
                "--data",
                str(world.data),
            ],
            capture_output=True,
            text=True,
            env=world.env(),
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert "in-memory window dropped by the live worker" in done.stdout
        assert world.session in done.stdout
        assert _ledger_rows(world) == [] or all(GOAL not in (goal or "") for _, goal in _ledger_rows(world))
        assert not (world.data / "spool" / f"{world.session}.jsonl").exists()
        assert not (world.data / "history" / f"{world.session}.jsonl").exists()

        mark = _last_seq(fake)
        time.sleep(0.2)
        world.append(records.prompt("one more thing: keep it short"))
        later = wait_for(lambda: _requests_after(fake, mark), 60, "a pass after forget")
        text = _text(later[0])
        assert "keep it short" in text
        assert GOAL not in text and FAILING not in text, "the live worker's window was dropped"


def test_a_fork_copies_the_ledger_to_the_new_task_and_a_clear_starts_an_empty_one(world: World) -> None:
    session = make_session(world)
    records = world.records

    def ledger(task: str) -> store.Ledger | None:
        with db.opened(db.db_path(world.data)) as conn:
            return store.load(store.prepare(conn), task)

    async def scenario() -> None:
        world.append(records.prompt(GOAL), *records.failing(FAILING))
        await until(lambda: ledger(world.session), what="the first task's ledger")
        world.event("session_start", source="fork", transcript_path=str(world.transcript))
        await until(lambda: session.task_id.endswith("~1"), what="the forked task")
        world.event("session_start", source="clear", transcript_path=str(world.transcript))
        await until(lambda: session.task_id.endswith("~2"), what="the task after /clear")

    drive(session, scenario)
    forked = ledger(f"{world.session}~1")
    assert forked is not None and forked.goal == GOAL and forked.forked_from == world.session
    assert session.host.observer is not None and session.host.observer.engine.window.goal is None
    original = ledger(world.session)
    assert original is not None and original.goal == GOAL, "the original side keeps its own ledger"
