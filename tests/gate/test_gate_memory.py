"""The gate's memory stays bounded over a long task, and dedup, suppression and the rate window still work.

A worker may serve one task for days, and the gate remembers per task what dedup needs,
per session what the rate window needs; each is bounded to what can still matter.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from gate_helpers import FakeClock, make_settings

from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.answer import GateInput
from sbcore.gate.fold import ADVISORIES_KEPT, HOUR, SUPPRESSED_KEPT, TASKS_KEPT
from sbcore.gate.gate import Gate
from sbcore.gate.history import Reason, make_record


class World:
    """A gate on a fake clock with its mailbox, in a private data directory."""

    def __init__(self, data: Path, *, history: bool = True, **settings: Any) -> None:
        self.data = data
        self.clock = FakeClock()
        self.settings = make_settings(**settings)
        self.mailbox = Mailbox("s1", data)
        self.ids = (f"adv{n}" for n in itertools.count(1))
        self.history = history
        self.gate = self.new_gate()

    def new_gate(self) -> Gate:
        return Gate(
            self.settings,
            session_id="s1",
            workspace="/work/repo",
            clock=self.clock,
            data=self.data,
            history=self.history,
            new_id=lambda: next(self.ids),
        )

    def advise(self, n: int, *, task: str = "t1", confidence: float = 0.9) -> Reason:
        """Finding number ``n``: its own key and words, so findings differ from one another."""
        answer = GateInput(
            "standard-questions",
            task,
            {
                "verdict": "advise",
                "headline": f"Finding {n} about module{n}",
                "confidence": confidence,
                "dedup_key": f"finding-{n}",
                "evidence": [f"Edit module{n}.py"],
            },
            generated_at=self.clock.now,
        )
        return self.gate.submit(answer, self.mailbox, timeout=0.5).reason

    def claim(self) -> list[str]:
        claimed = self.mailbox.claim(self.clock.now, for_agent=True)
        self.gate.sync()
        return [advice.id for advice in claimed]


def test_a_task_remembers_its_most_recent_advisories_and_never_forgets_a_waiting_one(tmp_path: Path) -> None:
    world = World(tmp_path, gate__rate_per_hour=0)  # every agent advisory is held back, and remembered
    assert world.advise(0, confidence=0.5) is Reason.HUMAN_ONLY  # waits in the mailbox for the user
    for n in range(1, ADVISORIES_KEPT + 60):
        world.clock.advance(1)
        assert world.advise(n) is Reason.RATE_LIMITED

    entries = world.gate._fold.tasks["t1"].entries
    assert len(entries) == ADVISORIES_KEPT
    assert "adv1" in entries and entries["adv1"].state == "pending"
    assert world.advise(ADVISORIES_KEPT + 59) is Reason.DUPLICATE_KEY  # the recent ones still dedup
    assert world.advise(1) is Reason.RATE_LIMITED  # the oldest was forgotten: held back again, not a repeat

    restored = world.new_gate()
    restored.memory("t1")
    assert list(restored._fold.tasks["t1"].entries) == list(entries)


def test_the_rate_window_keeps_only_deliveries_that_can_still_count(tmp_path: Path) -> None:
    world = World(tmp_path, gate__rate_per_hour=2, gate__cooldown_s=0)
    for n in range(12):
        assert world.advise(n) is Reason.PASSED
        assert all(world.clock.now - at < HOUR for at in world.gate._fold.slots.values())
        assert world.claim() == [f"adv{n + 1}"]
        world.clock.advance(2000)  # two deliveries an hour, at most
    assert len(world.gate._fold.slots) == 2

    assert world.advise(100) is Reason.PASSED
    world.claim()
    assert world.advise(101) is Reason.RATE_LIMITED  # the delivery 2000 s ago and this one fill the hour


def test_a_cooldown_longer_than_the_hour_keeps_its_delivery(tmp_path: Path) -> None:
    world = World(tmp_path, gate__rate_per_hour=60, gate__cooldown_s=7200)
    assert world.advise(0) is Reason.PASSED
    world.claim()
    world.clock.advance(HOUR + 1000)
    assert world.advise(1) is Reason.COOLDOWN
    world.clock.advance(3000)
    assert world.advise(2) is Reason.PASSED


def test_suppressed_keys_are_bounded_and_the_latest_still_suppress(tmp_path: Path) -> None:
    world = World(tmp_path, history=False)
    for n in range(SUPPRESSED_KEPT + 50):
        world.gate.apply(
            make_record(
                "outcome",
                at=world.clock.now,
                task_id="t1",
                session_id="s1",
                detector="standard-questions",
                advice_id=f"old{n}",
                action=None,
                reason=None,
                text="rejected",
                dedup_key=f"finding-{n}",
                verdict="rejected",
                evidence=["the agent said no"],
            )
        )
    assert len(world.gate._fold.tasks["t1"].suppressed) == SUPPRESSED_KEPT
    assert world.advise(SUPPRESSED_KEPT + 49) is Reason.SUPPRESSED
    assert world.advise(0) is Reason.PASSED  # the oldest suppression lapsed


def test_only_recent_tasks_stay_in_memory_and_a_returning_task_is_restored(tmp_path: Path) -> None:
    world = World(tmp_path, gate__rate_per_hour=60, gate__cooldown_s=0)
    for task in range(TASKS_KEPT + 4):
        assert world.advise(task, task=f"t{task}") is Reason.PASSED
        assert world.claim() == [f"adv{task + 1}"]
        assert len(world.gate._fold.tasks) <= TASKS_KEPT
    assert "t0" not in world.gate._fold.tasks
    assert world.advise(0, task="t0") is Reason.DUPLICATE_KEY  # folded again from its history file
    assert list(world.gate._fold.tasks)[-1] == "t0"
