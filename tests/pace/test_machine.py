"""Machine-wide pacing: slots across processes, a dead holder's slot freed, the shared backoff and budget."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sbcore.observe.model import Observation
from sbcore.pace import Budget, BudgetSettings, Pacer, PaceSettings, SimulatedClock
from sbcore.pace.machine import (
    MachinePace,
    MachineSettings,
    Pressure,
    SharedBudget,
    Slots,
    backoff_delay,
    is_pressure,
)

# One process using the lease unit: take a slot (polling, never blocking), record the interval it was held.
WORKER = """
import json, sys, time
from pathlib import Path
from sbcore.pace.machine import Slots
slots = Slots(Path(sys.argv[1]), int(sys.argv[2]))
out = Path(sys.argv[3])
for _ in range(int(sys.argv[4])):
    while (lease := slots.try_acquire()) is None:
        time.sleep(0.005)
    start = time.monotonic()
    time.sleep(0.03)
    end = time.monotonic()
    lease.release()
    with open(out, "a") as handle:
        handle.write(json.dumps([start, end]) + "\\n")
"""


def _max_overlap(intervals: list[tuple[float, float]]) -> int:
    events = sorted([(start, 1) for start, _ in intervals] + [(end, -1) for _, end in intervals])
    live = peak = 0
    for _, step in events:
        live += step
        peak = max(peak, live)
    return peak


def test_eight_processes_with_two_slots_never_hold_more_than_two(tmp_path: Path) -> None:
    out = tmp_path / "held.jsonl"
    procs = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path / "slots"), "2", str(out), "6"])
        for _ in range(8)
    ]
    for proc in procs:
        assert proc.wait(timeout=120) == 0
    intervals = [tuple(json.loads(line)) for line in out.read_text().splitlines()]
    assert len(intervals) == 48
    assert _max_overlap(intervals) == 2  # reached, never exceeded (end-before-start order on ties)


def test_a_killed_holders_slot_frees_itself_and_a_live_one_is_never_stolen(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from sbcore.pace.machine import Slots\n"
            "lease = Slots(Path(sys.argv[1]), 1).try_acquire(); print('held', flush=True); time.sleep(60)",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
    slots = Slots(tmp_path, 1)
    assert slots.try_acquire() is None
    owner = json.loads((tmp_path / "slot-0.lock").read_text())
    assert owner["pid"] == holder.pid and owner["start"]
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=10)
    holder.stdout.close()
    lease = slots.try_acquire()
    assert lease is not None
    assert lease.release() and not lease.release()


def test_backoff_climbs_from_one_second_to_five_minutes_with_jitter() -> None:
    rng = random.Random(7)
    for level in range(1, 15):
        ceiling = min(300.0, 2 ** (level - 1))
        for _ in range(50):
            assert ceiling / 2 <= backoff_delay(level, 1.0, 300.0, rng) <= ceiling
    assert is_pressure("RateLimited: HTTP 429 from http://x: slow down")
    assert is_pressure("ServerError: HTTP 529 from http://x: overloaded_error")
    assert not is_pressure("RequestRejected: HTTP 401") and not is_pressure(None)


def test_pressure_is_shared_and_relieved(tmp_path: Path) -> None:
    one = Pressure(tmp_path / "p.json", 1.0, 300.0, random.Random(1))
    other = Pressure(tmp_path / "p.json", 1.0, 300.0)
    now = time.time()
    first = one.push(now)
    second = one.push(now)
    assert 0.5 <= first <= 1.0 and 1.0 <= second <= 2.0
    assert other.until() == pytest.approx(now + second)
    other.relieve()
    assert one.until() == 0


def test_the_hourly_budget_counts_every_worker(tmp_path: Path) -> None:
    a, b = SharedBudget(tmp_path / "u.json", 1000), SharedBudget(tmp_path / "u.json", 1000)
    now = time.time()
    a.charge(now - 4000, 900)  # left the hour
    a.charge(now - 100, 600)
    b.charge(now, 500)
    assert a.used(now) == 1100
    assert a.frees_at(now) == pytest.approx(now - 100 + 3600)


def _pacer(tmp_path: Path, clock: SimulatedClock, **settings: float) -> Pacer:
    machine = MachinePace(tmp_path, MachineSettings(**settings))  # type: ignore[arg-type]
    budget = Budget(BudgetSettings(), clock)
    return Pacer(PaceSettings(min_interval_s=0), clock, budget, machine=machine)


def _error() -> Observation:
    return Observation(kind="error", text="[error] boom", timestamp="2026-01-01T00:00:00Z")


def test_the_pacer_holds_while_slots_are_busy_keeps_its_input_and_frees_its_slot_at_finish(
    tmp_path: Path,
) -> None:
    clock = SimulatedClock(0.0)
    one, two = (
        _pacer(tmp_path, clock, max_concurrent_passes=1),
        _pacer(tmp_path, clock, max_concurrent_passes=1),
    )
    one.offer([_error()])
    two.offer([_error()])
    assert one.start().number == 1
    held = two.check()
    assert held.reason == "slots busy" and two.status().pending == 1
    one.finish(10, pressure=False)
    episode = two.start()
    assert len(episode.observations) == 1, "nothing offered while held was lost"
    two.finish(0, pressure=True)
    one.offer([_error()])
    assert one.check().reason == "backoff"


def test_the_machine_budget_holds_every_pacer(tmp_path: Path) -> None:
    clock = SimulatedClock(0.0)
    pacer = _pacer(tmp_path, clock, tokens_per_hour=100)
    pacer.offer([_error()])
    pacer.start()
    pacer.finish(150)
    other = _pacer(tmp_path, clock, tokens_per_hour=100)
    other.offer([_error()])
    held = other.check()
    assert held.reason == "machine budget" and held.until is not None
