"""The monitor-hosted worker in the real interactive CLI: it starts with the session and leaves with it.

Claude Code starts the plugin's monitor (``monitors/monitors.json``) when the
TUI opens; the monitor's command is ``bin/sb-worker`` with the plugin's data,
root and project directories as arguments, which becomes ``second-brain
worker``. These tests look at that process from outside (``/proc``), at the
status file and lock it keeps, and at what the CLI sent the fake provider.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable

import pytest
from tui_harness import (
    PLUGIN_ROOT,
    WORKER_POLL_S,
    Tui,
    TuiWorld,
    ancestors,
    monitor_events,
    read_proc,
    wait_for,
)

from sbcore.testing import FakeProvider, text

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_the_monitor_starts_one_silent_worker_that_exits_on_slash_exit(
    start_tui: Callable[[], Tui], world: TuiWorld, fake: FakeProvider
) -> None:
    fake.script_primary(text("SB-TUI-HELLO: nothing to do here."))
    tui = start_tui()
    tui.wait_screen(r"1 monitor")

    worker = tui.wait_worker()
    session = tui.session_id()
    # The monitor's command (the manifest's, substituted): the three directories are arguments, because
    # monitors get none of them in their environment; sb-worker hands them to `second-brain worker`.
    command = world.monitor_command()
    assert command[1:] == [
        "--data",
        str(world.data),
        "--root",
        str(PLUGIN_ROOT),
        "--project",
        str(world.project),
    ]
    assert worker.argv[-len(command) + 1 :] == tuple(command[1:])
    assert "worker" in worker.argv
    assert tui.cli_pid in ancestors(worker.pid), "the worker runs under the CLI (it is the monitor's process)"
    assert "CLAUDE_PLUGIN_DATA" not in worker.env

    status = wait_for(
        lambda: (doc := world.status(session)) and doc.get("state") == "watching" and doc,
        20,
        "the worker's status to say it is watching",
        explain=tui.explain,
    )
    assert status["pid"] == worker.pid
    assert status["host"] == "monitor"
    assert status["plugin_root"] == str(PLUGIN_ROOT)
    assert world.lock_owners(session) == {worker.pid}

    mark = time.time()
    tui.submit("say hello")
    tui.wait_screen(r"SB-TUI-HELLO")
    # The turn ends; the worker judges it (a turn-end pass) and, with nothing to say, says nothing.
    judged = wait_for(
        lambda: world.turn_end_pass_since(session, mark),
        30,
        "the worker's turn-end pass",
        explain=tui.explain,
    )
    assert str(judged["wake"]).startswith("none:"), judged
    assert not [r for r in tui.main_requests() if monitor_events(r)], "the worker printed a line"
    assert "Monitor event" not in tui.screen()

    tui.exit()
    wait_for(
        lambda: not world.workers(), WORKER_POLL_S + 5, "the worker to exit after /exit", explain=tui.explain
    )
    final = world.status(session) or {}
    assert final.get("state") == "exited"
    assert final["exit"]["reason"] in ("sigterm", "parent_gone", "stdout_broken")
    assert world.lock_owners(session) == set()


def test_a_sigkilled_cli_leaves_no_worker_behind(
    start_tui: Callable[[], Tui], world: TuiWorld, fake: FakeProvider
) -> None:
    tui = start_tui()
    worker = tui.wait_worker()
    session = tui.session_id()
    wait_for(lambda: (world.status(session) or {}).get("state") == "watching", 20, "a watching worker")

    tui.kill(signal.SIGKILL)
    # Claude Code cannot stop its monitor now: the worker must notice the CLI is gone by itself, within
    # its poll interval (plus the moment a loaded machine needs to schedule it and tear down).
    wait_for(
        lambda: not world.processes(),
        WORKER_POLL_S + 3,
        "every process of the session (the worker and its monitor wrapper included) to be gone",
        explain=lambda: "\n".join(f"{p.pid} {' '.join(p.argv)[:160]}" for p in world.processes()),
    )
    final = world.status(session) or {}
    assert final.get("pid") == worker.pid
    assert final.get("exit", {}).get("reason") == "parent_gone"


def test_two_workers_for_one_session_one_stands_by_and_takes_over(
    start_tui: Callable[[], Tui], world: TuiWorld, fake: FakeProvider
) -> None:
    tui = start_tui()
    session = tui.wait_watching()
    first = tui.wait_worker()
    monitor = read_proc(first.ppid)
    assert monitor is not None, "the monitor's shell (the worker's parent) is gone"

    # A second monitor for the same session, started the way Claude Code starts one: the manifest's
    # command line with the environment Claude Code gave the monitor, stdout a pipe.
    second = subprocess.Popen(
        world.monitor_command(),
        env=dict(monitor.env),
        cwd=world.project,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for(
            lambda: f"{second.pid} INFO sbcore.worker: standing by" in world.worker_log(session),
            20,
            "the second worker to stand by",
            explain=tui.explain,
        )
        assert {proc.pid for proc in world.workers()} == {first.pid, second.pid}
        assert world.lock_owners(session) == {first.pid}, "exactly one worker holds the session"
        assert (world.status(session) or {}).get("pid") == first.pid

        os.kill(first.pid, signal.SIGKILL)
        wait_for(
            lambda: world.lock_owners(session) == {second.pid},
            WORKER_POLL_S + 3,
            "the standby to take the session over within its poll interval",
            explain=tui.explain,
        )
        status = wait_for(
            lambda: (doc := world.status(session)) and doc.get("pid") == second.pid and doc,
            10,
            "the new worker's status",
            explain=tui.explain,
        )
        assert status["state"] in ("watching", "thinking")
        assert "took over the session" in world.worker_log(session)
        assert world.lock_holder(session) == second.pid, "the lock file names its new holder"
        assert [proc.pid for proc in world.workers()] == [second.pid]

        # The session ends: the standby was never the CLI's monitor, so nobody sends it SIGTERM; it
        # leaves because the CLI process (CLAUDE_PID) is gone.
        tui.exit()
        assert second.wait(timeout=WORKER_POLL_S + 5) == 0
        out, err = second.communicate(timeout=5)
        assert out == b"", "a standby and its takeover print nothing on the monitor channel"
        assert err == b""
        assert (world.status(session) or {}).get("exit", {}).get("reason") == "parent_gone"
    finally:
        if second.poll() is None:
            second.kill()
        second.communicate(timeout=5)
