"""The worker's life as a process: one per session, standby and takeover, and every way it must exit.

Each test runs real worker processes (``python -m sbcore.worker``) against a
private data directory, with a dummy process standing in for Claude Code.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from worker_helpers import World, holder_pid, iter_files, turn_end_pass_since, wait_for


def _watching(world: World) -> dict[str, object] | None:
    status = world.status()
    return status if status and status.get("state") in ("watching", "muted") else None


def _exit_reason(world: World) -> object:
    status = world.status() or {}
    return (status.get("exit") or {}).get("reason")


def test_a_second_worker_stands_by_silently_and_takes_over_when_the_holder_dies(world: World) -> None:
    parent = world.dummy_parent()
    first = world.start_worker(parent=parent.pid)
    wait_for(lambda: holder_pid(world) == first.pid and _watching(world), what="the first worker to hold")
    second = world.start_worker(parent=parent.pid)
    wait_for(lambda: "standing by" in world.log(), what="the second worker to stand by")
    assert second.poll() is None, "a worker that finds the session held must not exit"
    assert holder_pid(world) == first.pid

    first.send_signal(signal.SIGKILL)
    first.wait(timeout=5)
    killed_at = time.monotonic()
    wait_for(lambda: holder_pid(world) == second.pid, timeout=5, what="the standby to take over")
    assert time.monotonic() - killed_at < 2.0, "takeover should come within a poll interval or so"
    wait_for(lambda: (_watching(world) or {}).get("pid") == second.pid, what="the new holder's status")
    assert "took over the session" in world.log()

    parent.kill()
    assert second.wait(timeout=5) == 0
    assert second.stdout is not None and second.stdout.read() == b""
    assert first.stdout is not None and first.stdout.read() == b""


def test_a_standby_exits_with_the_session_without_ever_holding_it(world: World) -> None:
    parent = world.dummy_parent()
    first = world.start_worker(parent=parent.pid)
    wait_for(lambda: holder_pid(world) == first.pid, what="the first worker to hold")
    second = world.start_worker(parent=parent.pid)
    wait_for(lambda: "standing by" in world.log(), what="the standby")
    parent.kill()
    assert first.wait(timeout=5) == 0
    assert second.wait(timeout=5) == 0
    assert "exiting from standby: parent_gone" in world.log()


def test_it_exits_when_the_session_process_dies_even_as_an_unreaped_zombie(world: World) -> None:
    parent = world.dummy_parent()
    worker = world.start_worker(parent=parent.pid)
    wait_for(lambda: _watching(world), what="the worker to start watching")
    os.kill(parent.pid, signal.SIGKILL)  # not reaped: the pid stays a zombie until the fixture waits
    started = time.monotonic()
    assert worker.wait(timeout=5) == 0
    assert time.monotonic() - started < 2.0
    assert _exit_reason(world) == "parent_gone"
    assert (world.status() or {}).get("alive") is False


def test_it_watches_claude_pid_from_the_environment(world: World) -> None:
    parent = world.dummy_parent()
    worker = world.start_worker(CLAUDE_PID=str(parent.pid))
    wait_for(lambda: _watching(world), what="the worker to start watching")
    assert f"watching session process {parent.pid}" in world.log()
    parent.kill()
    parent.wait()
    assert worker.wait(timeout=5) == 0
    assert _exit_reason(world) == "parent_gone"


def test_sigterm_stops_it_promptly(world: World) -> None:
    parent = world.dummy_parent()
    worker = world.start_worker(parent=parent.pid)
    wait_for(lambda: _watching(world), what="the worker to start watching")
    worker.send_signal(signal.SIGTERM)
    assert worker.wait(timeout=3) == 0
    assert _exit_reason(world) == "sigterm"


def test_a_broken_stdout_stops_it_though_it_never_writes(world: World) -> None:
    parent = world.dummy_parent()
    read_end, write_end = os.pipe()
    worker = world.start_worker(parent=parent.pid, stdout=write_end)
    os.close(write_end)
    wait_for(lambda: _watching(world), what="the worker to start watching")
    assert worker.poll() is None
    os.close(read_end)  # the monitor's reader is gone
    assert worker.wait(timeout=3) == 0
    assert _exit_reason(world) == "stdout_broken"


def test_everything_it_spawns_carries_the_observer_marker(world: World, tmp_path: object) -> None:
    marker = world.root / "marker.txt"
    parent = world.dummy_parent()
    probe = textwrap.dedent(
        f"""
        import subprocess, sys
        from sbcore.worker import command, main

        class Probe(main.Session):
            async def run(self):
                subprocess.run(["sh", "-c", 'printf "%s" "$SBCORE_OBSERVER" > {marker}'], check=True)
                await super().run()

        main.Session = Probe
        sys.exit(command.main(sys.argv[1:]))
        """
    )
    command = [sys.executable, "-c", probe, *world.worker_command(parent=parent.pid)[3:]]
    worker = subprocess.Popen(command, env=world.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    world.procs.append(worker)
    wait_for(marker.exists, what="the spawned child")
    assert marker.read_text() == "1"
    parent.kill()
    assert worker.wait(timeout=5) == 0


def test_without_a_session_id_it_refuses_to_start(world: World) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sbcore.worker", "--data", str(world.data)],
        env=world.env(),
        capture_output=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert result.stdout == b""
    assert b"no session" in result.stderr


def test_state_it_writes_is_private(world: World) -> None:
    world.append(world.records.prompt("fix the failing test"), *world.records.failing())
    parent = world.dummy_parent()
    worker = world.start_worker(parent=parent.pid)
    wait_for(lambda: world.mailbox(), what="the repeat-failure advisory")
    mark = time.time()
    world.event("turn_end", last_assistant_message="I could not fix it.", stop_hook_active=False)
    wait_for(lambda: turn_end_pass_since(world.status(), mark), what="a turn-end pass")
    parent.kill()
    assert worker.wait(timeout=5) == 0
    checked = 0
    for path in iter_files(world.data):
        mode = path.stat().st_mode & 0o777
        if path.is_dir():
            assert mode == 0o700, f"{path} is {mode:o}"
        else:
            assert mode == 0o600, f"{path} is {mode:o}"
            checked += 1
    assert checked >= 8  # lock, state, status, log, spool, offsets, mailbox, history, hot snapshot


def test_with_no_usable_data_directory_it_stays_quiet_until_the_session_ends(world: World) -> None:
    blocker = world.root / "not-a-directory"
    blocker.write_text("")
    parent = world.dummy_parent()
    command = world.worker_command(parent=parent.pid)
    command[command.index("--data") + 1] = str(blocker / "data")
    errors = world.root / "worker.stderr"
    with open(errors, "wb") as stderr:
        worker = subprocess.Popen(command, env=world.env(), stdout=subprocess.PIPE, stderr=stderr)
    world.procs.append(worker)
    wait_for(lambda: b"cannot use the data directory" in errors.read_bytes(), what="the worker's complaint")
    assert worker.poll() is None, "exiting would be announced to the session"
    parent.kill()
    assert worker.wait(timeout=5) == 1
    assert worker.stdout is not None and worker.stdout.read() == b""
