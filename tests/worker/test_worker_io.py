"""What the worker says and to whom: nothing on stdout but a deliberate wake line; ``second-brain run``.

The stdout of a monitor-hosted worker is a channel into the agent's
conversation (each line a model turn), so these tests hold the worker to
silence over a long session, and check the one line it may print.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from worker_helpers import World, finish_gate_advice, holder_pid, turn_end_pass_since, wait_for

from sbcore.deliver.mailbox import Mailbox
from sbcore.observe.project import ADVISORY_SENTINEL
from sbcore.worker.worker_state import WorkerState

CLI = [sys.executable, "-c", "import sys; from sbcore.cli import main; sys.exit(main())"]
CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "transcripts"


def _run_cli(world: World, *args: str) -> subprocess.CompletedProcess[str]:
    command = [*CLI, "run", "--session", world.session, "--data", str(world.data)]
    command += ["--project", str(world.project), "--transcript", str(world.transcript), *args]
    return subprocess.run(command, env=world.env(), capture_output=True, text=True, timeout=120)


@pytest.mark.corpus
def test_a_long_session_replayed_through_the_worker_leaves_stdout_empty(world: World) -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    source = max(CORPUS.glob("*.jsonl"), key=lambda path: path.stat().st_size)
    lines = [line.rstrip(b"\n") + b"\n" for line in source.read_bytes().splitlines()]
    parent = world.dummy_parent()
    worker = world.start_worker(parent=parent.pid)
    wait_for(lambda: holder_pid(world) == worker.pid, what="the worker to hold the session")
    offsets = world.data / "offsets" / world.session / "main.json"
    chunk = max(1, len(lines) // 20)
    for start in range(0, len(lines), chunk):
        world.transcript.parent.mkdir(parents=True, exist_ok=True)
        with open(world.transcript, "ab") as handle:
            handle.write(b"".join(lines[start : start + chunk]))
        world.event("turn_end", last_assistant_message=f"chunk {start} done", stop_hook_active=False)
        size = world.transcript.stat().st_size
        wait_for(
            lambda s=size: offsets.exists() and f'"offset": {s},' in offsets.read_text(),
            60,
            "the tail to read the chunk",
        )
    # One more, live turn after the replayed ones: its turn-end pass is the event that says the worker has
    # judged everything it was given (the replayed turn ends may fold into fewer passes than there were).
    mark = time.time()
    world.append(world.records.prompt("that was the replay"), world.records.say("replay judged"))
    world.event("turn_end", last_assistant_message="replay judged", stop_hook_active=False)
    wait_for(lambda: turn_end_pass_since(world.status(), mark), 60, "the live turn's turn-end pass")
    parent.kill()
    assert worker.wait(timeout=10) == 0
    assert worker.stdout is not None and worker.stdout.read() == b""
    assert worker.stderr is not None and worker.stderr.read() == b""
    log = world.log()
    assert "model provider offline" in log, "the provider announcement goes to the log"
    status = world.status() or {}
    assert status["observed"] > 100


def test_after_a_turn_end_pass_a_waiting_finish_gate_advisory_becomes_one_wake_line(world: World) -> None:
    parent = world.dummy_parent()
    worker = world.start_worker(parent=parent.pid)
    wait_for(lambda: (world.status() or {}).get("state") == "watching", what="the worker")
    Mailbox(world.session, world.data).post(finish_gate_advice(world))
    world.append(world.records.prompt("edit app.py"))
    world.event("turn_end", last_assistant_message="I edited app.py.", stop_hook_active=False)
    wait_for(lambda: not world.mailbox(), what="the advisory to be claimed")
    parent.kill()
    assert worker.wait(timeout=5) == 0
    assert worker.stdout is not None
    out = worker.stdout.read().decode()
    assert out.count("\n") == 1, out
    assert out.startswith(ADVISORY_SENTINEL)
    assert "Tests were not run after editing app.py" in out
    fired = [r for r in world.history() if r.get("stage") == "finish_gate"]
    assert [r["action"] for r in fired] == ["fire"]


def test_no_wake_after_a_stop_that_followed_a_continued_turn(world: World) -> None:
    parent = world.dummy_parent()
    worker = world.start_worker(parent=parent.pid)
    wait_for(lambda: (world.status() or {}).get("state") == "watching", what="the worker")
    Mailbox(world.session, world.data).post(finish_gate_advice(world))
    world.append(world.records.prompt("edit app.py"))
    mark = time.time()
    world.event("turn_end", last_assistant_message="Edited again.", stop_hook_active=True)
    done = wait_for(lambda: turn_end_pass_since(world.status(), mark), what="the turn-end pass")
    assert done["wake"] == "none: the turn was already continued once"
    parent.kill()
    assert worker.wait(timeout=5) == 0
    assert worker.stdout is not None and worker.stdout.read() == b""
    assert [a.id for a in world.mailbox()] == ["fg-1"]


def test_a_headless_worker_never_claims_what_it_could_not_deliver(world: World) -> None:
    parent = world.dummy_parent()
    worker = world.start_worker(parent=parent.pid, stdout=subprocess.DEVNULL)
    wait_for(lambda: (world.status() or {}).get("state") == "watching", what="the worker")
    Mailbox(world.session, world.data).post(finish_gate_advice(world))
    world.append(world.records.prompt("edit app.py"))
    mark = time.time()
    world.event("turn_end", last_assistant_message="Done.", stop_hook_active=False)
    done = wait_for(lambda: turn_end_pass_since(world.status(), mark), what="the turn-end pass")
    assert done["wake"] == "none: no monitor channel"
    parent.kill()
    assert worker.wait(timeout=5) == 0
    assert [a.id for a in world.mailbox()] == ["fg-1"]


def test_run_without_a_worker_catches_up_passes_once_and_queues_the_advice(world: World) -> None:
    world.append(world.records.prompt("make it pass"), *world.records.failing())
    result = _run_cli(world)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("pass 1 (manual) over 7 observations")
    assert re.search(r"^  repeat-failure +advise ", result.stdout, re.M), result.stdout
    assert "-> deliver_agent (passed)" in result.stdout
    assert [a.kind for a in world.mailbox()] == ["repeat-failure"]
    assert WorkerState.load(world.data, world.session).spool_offset > 0
    again = _run_cli(world, "--json")
    assert again.returncode == 0
    import json

    report: dict[str, Any] = json.loads(again.stdout)
    assert report["number"] == 1 and report["observations"] == 0, "a second run starts where the first ended"


def test_run_asks_a_running_worker_for_the_pass(world: World) -> None:
    parent = world.dummy_parent()
    worker = world.start_worker(parent=parent.pid)
    world.append(world.records.prompt("make it pass"))
    wait_for(lambda: (world.status() or {}).get("passes") == 1, what="the worker's first pass")
    result = _run_cli(world)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("pass 2 (manual)")
    assert (world.status() or {}).get("pid") == worker.pid
    parent.kill()
    assert worker.wait(timeout=5) == 0


def test_run_says_no_when_muted(world: World) -> None:
    world.write_config("mute:\n  all: true\n")
    world.append(world.records.prompt("make it pass"))
    result = _run_cli(world)
    assert result.returncode == 1
    assert "no pass: muted" in result.stdout


def test_run_needs_a_session(world: World) -> None:
    env = {key: value for key, value in world.env().items() if key != "CLAUDE_CODE_SESSION_ID"}
    result = subprocess.run(
        [*CLI, "run", "--data", str(world.data), "--project", str(world.project)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=os.fspath(world.project),
    )
    assert result.returncode == 2
    assert "no session" in result.stderr
