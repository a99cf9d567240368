"""Outcome records: opened by a delivery to the agent, keyed by the id the fork sees, closed by an evidenced
verdict or by the adjudication window, and folded back identically by a restarted gate."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from gate_helpers import FakeClock, make_settings

from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.answer import GateInput
from sbcore.gate.gate import Gate
from sbcore.gate.history import History, Reason
from sbcore.gate.uptake import classify


class World:
    def __init__(self, data: Path, **settings: Any) -> None:
        self.data = data
        self.clock = FakeClock()
        self.settings = make_settings(**settings)
        self.mailbox = Mailbox("s1", data)
        self.ids = (f"adv{n}" for n in itertools.count(1))
        self.gate = self.new_gate()

    def new_gate(self) -> Gate:
        return Gate(
            self.settings,
            session_id="s1",
            workspace="/w",
            clock=self.clock,
            data=self.data,
            new_id=lambda: next(self.ids),
        )

    def answer(self, feedback: dict[str, Any], *, fork_id: str | None = None) -> Reason:
        answer = GateInput("default", "t1", feedback, generated_at=self.clock.now, fork_id=fork_id)
        return self.gate.submit(answer, self.mailbox, timeout=0.5).reason

    def advise(self, n: int, *, confidence: float = 0.9) -> Reason:
        feedback = {
            "verdict": "advise",
            "headline": f"Finding {n} about module{n}",
            "confidence": confidence,
            "dedup_key": f"Finding {n}",
            "evidence": [f"Edit module{n}.py"],
        }
        return self.answer(feedback, fork_id=f"Finding {n}")

    def verdict(self, fork_id: str, verdict: str, *evidence: str) -> None:
        outcome = {"advice_id": fork_id, "verdict": verdict, "evidence": list(evidence)}
        self.answer({"verdict": "silent", "outcomes": [outcome]})

    def deliver(self) -> None:
        self.mailbox.claim(self.clock.now, for_agent=True)
        self.gate.sync()

    def history(self) -> list[dict[str, Any]]:
        return History.for_task("t1", self.data).read(0)[0]

    def uptakes(self, gate: Gate | None = None) -> dict[str, str | None]:
        return {record.fork_id: record.uptake for record in (gate or self.gate).outcomes("t1")}


def test_a_verdict_naming_the_id_the_fork_saw_closes_the_record_of_the_delivered_advisory(
    tmp_path: Path,
) -> None:
    world = World(tmp_path, gate__cooldown_s=0)
    assert world.advise(1) is Reason.PASSED
    assert world.gate.outcomes("t1") == [], "nothing is open until the agent has been shown it"
    world.deliver()
    world.verdict("Finding 1", "adopted")  # no citation: mentioned, still open
    assert world.uptakes() == {"Finding 1": None}
    world.verdict("Finding 1", "adopted", "Bash: pytest tests/test_module1.py after delivery")
    (record,) = world.gate.outcomes("t1")
    assert (record.advice_id, record.uptake, record.closed_by) == ("adv1", "acted", "verdict")
    assert [item.advice_id for _, item in world.gate.take_closed()] == ["adv1"]
    assert world.gate.live_ids("t1", "default") == set()


def test_an_unmentioned_advisory_closes_as_ignored_when_the_window_lapses_in_observations(
    tmp_path: Path,
) -> None:
    world = World(tmp_path, gate__cooldown_s=0, adjudication__window_observations=5)
    world.advise(1)
    world.advise(2)
    world.deliver()
    assert world.gate.live_ids("t1", "default") == {"Finding 1", "Finding 2"}
    world.gate.asked("t1", "default")  # a model fork of the detector ran, shown both
    world.verdict("Finding 2", "no_evidence")
    world.gate.observe("t1", 4)
    assert world.gate.adjudicate("t1") == []
    world.gate.observe("t1", 1)
    assert [record.fork_id for record in world.gate.adjudicate("t1")] == ["Finding 1", "Finding 2"]
    assert world.uptakes() == {"Finding 1": "ignored", "Finding 2": "no_evidence"}
    lapses = [r for r in world.history() if r.get("closed_by") == "window"]
    window = "within the adjudication window (5 observations since delivery, window 5)"
    assert [r["text"] for r in lapses] == [
        f"ignored: no evidenced verdict {window}",
        f"no_evidence: no evidenced verdict {window}",
    ]
    # a restarted gate folds the same records back
    assert world.uptakes(world.new_gate()) == {"Finding 1": "ignored", "Finding 2": "no_evidence"}


def test_the_window_also_lapses_in_seconds_and_a_late_verdict_changes_nothing(tmp_path: Path) -> None:
    world = World(tmp_path, adjudication__window_seconds=600)
    world.advise(1)
    world.deliver()
    world.gate.asked("t1", "default")
    world.clock.advance(599)
    assert world.gate.adjudicate("t1") == []
    world.clock.advance(1)
    assert [record.uptake for record in world.gate.adjudicate("t1")] == ["ignored"]
    world.verdict("Finding 1", "rejected", "[text] not doing that")
    assert world.uptakes() == {"Finding 1": "ignored"}
    last = world.history()[-2]  # the outcome, then the silent answer carrying it
    assert last["text"].endswith("(its outcome was already closed as ignored)")
    # the rejection is still evidence against the finding: its key is suppressed
    world.clock.advance(3600)
    assert world.advise(1) is Reason.SUPPRESSED


def test_human_only_advice_opens_no_outcome_record(tmp_path: Path) -> None:
    world = World(tmp_path)
    assert world.advise(1, confidence=0.5) is Reason.HUMAN_ONLY
    world.mailbox.claim(world.clock.now, for_agent=True, human_channel=True)
    world.gate.sync()
    assert world.gate.outcomes("t1") == []


def test_classify_needs_evidence() -> None:
    assert classify("adopted", ["x"]) == "acted"
    assert classify("already_handled", ["x"]) == "acted"
    assert classify("contradicted", ["x"]) == "rejected"
    assert classify("rejected", []) is None
    assert classify("no_evidence", ["x"]) is None


def test_a_resolved_answer_with_evidence_closes_its_advisory_as_acted_on(tmp_path: Path) -> None:
    world = World(tmp_path)
    world.advise(1)
    world.deliver()
    world.answer({"verdict": "resolved", "dedup_key": "Finding 1"})  # no citation: stays open
    assert world.uptakes() == {"Finding 1": None}
    world.answer({"verdict": "resolved", "dedup_key": "finding-1", "evidence": ["pytest ran at 14:09"]})
    (record,) = world.gate.outcomes("t1")
    assert (record.uptake, record.verdict, record.evidence) == ("acted", "resolved", ("pytest ran at 14:09",))
    world.answer({"verdict": "resolved", "dedup_key": "Finding 9", "evidence": ["x"]})  # nothing of its own
    assert [r["fork_id"] for r in world.history() if r.get("stage") == "outcome"] == [
        "Finding 1",
        "finding-1",
    ]


def test_an_advisory_nothing_could_judge_closes_as_unjudged_not_ignored(tmp_path: Path) -> None:
    """Offline, a fallback delivers advice and no model fork ever runs to judge it: its lapse is no evidence
    that it did not land (issue 22)."""
    world = World(tmp_path, gate__cooldown_s=0, adjudication__window_observations=3)
    world.advise(1)
    world.deliver()
    world.gate.observe("t1", 3)
    assert [record.uptake for record in world.gate.adjudicate("t1")] == ["unjudged"]
    (lapse,) = [r for r in world.history() if r.get("closed_by") == "window"]
    assert lapse["text"].startswith("unjudged: no evidenced verdict")
    assert world.uptakes(world.new_gate()) == {"Finding 1": "unjudged"}  # folded back the same
    world.advise(2)
    world.deliver()
    world.gate.asked("t1", "default")  # asked once, it can be judged: a lapse now is "ignored"
    world.gate.observe("t1", 3)
    assert [record.uptake for record in world.gate.adjudicate("t1")] == ["ignored"]
