"""The monitor-hosted worker in the real interactive CLI: it starts with the session and leaves with it.

Claude Code starts the plugin's monitor (``monitors/monitors.json``) when the
TUI opens; the monitor's command is ``bin/sb-worker`` with the plugin's data,
root and project directories as arguments, which becomes ``second-brain
worker``. These tests look at that process from outside (``/proc``), at the
status file and lock it keeps, and at what the CLI sent the fake provider.
"""

from __future__ import annotations

import signal
from collections.abc import Callable

import pytest
from tui_harness import PLUGIN_ROOT, WORKER_POLL_S, Tui, TuiWorld, ancestors, monitor_events, wait_for

from sbcore.testing import FakeProvider, text

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

def _argument(argv: tuple[str, ...], flag: str) -> str | None:
    return argv[argv.index(flag) + 1] if flag in argv and argv.index(flag) + 1 < len(argv) else None


def test_the_monitor_starts_one_silent_worker_that_exits_on_slash_exit(
    start_tui: Callable[..., Tui], world: TuiWorld, fake: FakeProvider
) -> None:
    fake.script_primary(text("SB-TUI-HELLO: nothing to do here."))
    tui = start_tui()
    tui.wait_screen(r"1 monitor")

    worker = tui.wait_worker()
    session = tui.session_id()
    # The monitor passes the three directories as arguments (monitors get none of them in their environment).
    assert _argument(worker.argv, "--data") == str(world.data)
    assert _argument(worker.argv, "--root") == str(PLUGIN_ROOT)
    assert _argument(worker.argv, "--project") == str(world.project)
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

    tui.submit("say hello")
    tui.wait_screen(r"SB-TUI-HELLO")
    # The turn ends; the worker judges it (a turn-end pass) and, with nothing to say, says nothing.
    wait_for(
        lambda: ((world.status(session) or {}).get("last_pass") or {}).get("turn_end"),
        20,
        "the worker's turn-end pass",
        explain=tui.explain,
    )
    assert not [r for r in tui.main_requests() if monitor_events(r)], "the worker printed a line"
    assert "Monitor event" not in tui.screen()

    tui.exit()
    wait_for(lambda: not world.workers(), WORKER_POLL_S + 5, "the worker to exit after /exit", explain=tui.explain)
    final = world.status(session) or {}
    assert final.get("state") == "exited"
    assert final["exit"]["reason"] in ("sigterm", "parent_gone", "stdout_broken")
    assert world.lock_owners(session) == set()


def test_a_sigkilled_cli_leaves_no_worker_behind(
    start_tui: Callable[..., Tui], world: TuiWorld, fake: FakeProvider
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
