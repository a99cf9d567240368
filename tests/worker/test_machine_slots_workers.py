"""Eight real workers on one machine, two pass slots: never more than two passes in flight, none lost.

Each worker is its own process serving its own session, all sharing one data directory (so one set of
machine-wide slot files), talking to the loopback fake provider, which answers every request after a delay
so that passes overlap. A pass's in-flight interval is what its worker wrote in ``recent_passes``: it starts
after the slot is taken and ends before the slot is freed, so the overlap of these intervals is at most the
overlap of the slot leases themselves.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from worker_helpers import FAST_CONFIG, World, passes_since, wait_for

from sbcore.pace.machine import Slots
from sbcore.testing.fake_provider import FakeProvider

WORKERS = 8
CAP = 2
ROUNDS = 3
LATENCY_MS = 400  # long enough that eight passes due at once cannot all fit through two slots serially
TIMEOUT_S = 180.0  # eight interpreters starting on a loaded two-core machine


def _max_overlap(intervals: list[tuple[float, float]]) -> int:
    """The most intervals open at one moment (an end sorts before a start at the same instant)."""
    events = sorted([(start, 1) for start, _ in intervals] + [(end, -1) for _, end in intervals])
    live = peak = 0
    for _, step in events:
        live += step
        peak = max(peak, live)
    return peak


def _settled(world: World) -> dict[str, Any] | None:
    """The status once every observation the worker read went into a pass that finished."""
    status = world.status()
    if not status or status.get("state") == "thinking":
        return None
    covered = sum(int(entry["observations"]) for entry in status.get("recent_passes", []))
    pending = (status.get("policy") or {}).get("pending")
    return status if pending == 0 and covered == status.get("observed", -1) > 0 else None


def _worlds(root: Path) -> list[World]:
    data = root / "data"
    made = []
    for n in range(WORKERS):
        world = World(root / f"session-{n}", session=f"5f0c6a1e-0000-4000-8000-{n:012d}")
        world.data = data  # one data directory: the slot files are shared, as on one machine
        world.write_config(FAST_CONFIG + f"  max_concurrent_passes: {CAP}\n")
        made.append(world)
    return made


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_eight_workers_with_two_slots_run_at_most_two_passes_at_once_and_lose_none(tmp_path: Path) -> None:
    worlds = _worlds(tmp_path)
    try:
        with FakeProvider(latency_ms=LATENCY_MS) as fake:
            for world in worlds:
                world.start_worker(stdout=subprocess.DEVNULL, **fake.env("anthropic"))
            for step in range(ROUNDS):
                mark = time.time()
                for n, world in enumerate(worlds):
                    records = world.records
                    command = f"pytest tests/test_part{n}.py -k step{step} -q"
                    world.append(
                        records.prompt(f"part {n}, step {step}: make test_part{n} pass"),
                        *records.failing(command, times=1),
                    )
                for world in worlds:
                    wait_for(
                        lambda w=world, since=mark: passes_since(w.status(), since),
                        TIMEOUT_S,
                        f"a pass of {world.session} in round {step + 1}",
                    )
            statuses = [
                wait_for(lambda w=world: _settled(w), TIMEOUT_S, f"{world.session} caught up")
                for world in worlds
            ]
            slots = Slots(tmp_path / "data" / "pace" / "slots", CAP)
            leases = [slots.try_acquire() for _ in range(CAP)]  # while the workers live: none kept a slot
            assert all(leases), "no slot is left held once every pass is over"
            for lease in leases:
                assert lease is not None and lease.release()
    finally:
        for world in worlds:
            world.cleanup()

    intervals = [
        (float(entry["started_at"]), float(entry["finished_at"]))
        for status in statuses
        for entry in status["recent_passes"]
    ]
    assert all(status["passes"] >= ROUNDS for status in statuses), "every session's passes ran"
    assert len(intervals) == sum(status["passes"] for status in statuses)
    assert _max_overlap(intervals) <= CAP
    assert _max_overlap(intervals) == CAP, "two passes were in flight together at some point"
    held = sum(int(status["policy"]["holds"].get("slots busy", 0)) for status in statuses)
    assert held > 0, "some pass was held for a slot (the cap bound, it was not merely never reached)"
