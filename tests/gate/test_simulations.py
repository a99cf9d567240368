"""Gate simulations: scripted advisory streams on a simulated clock, delivery decisions out. No model.

Each scenario drives a real gate, mailbox and history (in a temporary data
directory) through a script — answers from detectors, observations arriving,
time passing, drains claiming, a worker restarting — and asserts what became of
every advisory. ``test_every_reason_code_is_simulated`` runs them all and checks
that each gate reason code and each finish-gate reason code was produced by at
least one, so a new branch cannot land without a simulation.
"""

from __future__ import annotations

import fcntl
import itertools
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gate_helpers import FakeClock, make_settings

from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.advice import Advice, stale_reason
from sbcore.gate.answer import GateInput
from sbcore.gate.finish import FinishGateDecision, FinishReason
from sbcore.gate.gate import Gate, GateDecision
from sbcore.gate.history import History, Reason

Trail = list[tuple[str, str | None, str | None]]


class Sim:
    """One session: a gate on a fake clock, its mailbox, the observations the agent produced."""

    def __init__(self, data: Path, **settings: Any) -> None:
        self.data = data
        self.clock = FakeClock()
        self.settings = make_settings(**settings)
        self.observations: list[tuple[float, str]] = []
        self.mailbox = Mailbox("s1", data)
        self._ids = (f"adv{n}" for n in itertools.count(1))
        self.gate = self._new_gate()

    def _new_gate(self) -> Gate:
        return Gate(
            self.settings,
            session_id="s1",
            workspace="/work/repo",
            clock=self.clock,
            data=self.data,
            new_id=lambda: next(self._ids),
        )

    # -- the script -----------------------------------------------------------------------------

    def answer(
        self,
        detector: str = "standard-questions",
        *,
        task: str = "t1",
        age: float = 0.0,
        **feedback: Any,
    ) -> GateInput:
        """A detector answer generated ``age`` seconds ago; feedback fields override an advise.

        Without ``headline`` it is the stock finding about services/foo.py; a
        caller that names another headline and no body gets no body, so
        distinct findings do not share words by accident.
        """
        if "headline" in feedback:
            feedback.setdefault("body", "")
        body = {
            "verdict": "advise",
            "headline": "Tests were not run after editing services/foo.py",
            "body": "services/foo.py changed and no test command followed; run the suite before finishing.",
            "confidence": 0.9,
            "dedup_key": "tests-not-run:services/foo",
            "evidence": ["Edit services/foo.py"],
        } | feedback
        generated_at = self.clock.now - age
        return GateInput(
            detector,
            task,
            body,
            observations_since=lambda: [text for at, text in self.observations if at > generated_at],
            generated_at=generated_at,
        )

    def advise(self, detector: str = "standard-questions", **kwargs: Any) -> GateDecision:
        return self.gate.submit(self.answer(detector, **kwargs), self.mailbox, timeout=0.05)

    def observe(self, text: str) -> None:
        self.observations.append((self.clock.now, text))

    def wait(self, seconds: float) -> None:
        self.clock.advance(seconds)

    def drain(self, *, for_agent: bool = True, human_channel: bool = True) -> list[str]:
        """A drain hook's claim, re-checking staleness against the observations after each generation."""

        def recheck(advice: Advice) -> str | None:
            return stale_reason(advice, [text for at, text in self.observations if at > advice.generated_at])

        claimed = self.mailbox.claim(
            self.clock.now, for_agent=for_agent, human_channel=human_channel, recheck=recheck
        )
        return [advice.id for advice in claimed]

    def restart(self, revalidate: Callable[[Advice], str | None] | None = None) -> None:
        """The worker dies and a new one starts: a fresh gate from history, and a mailbox sweep."""
        self.mailbox.sweep_on_start(self.clock.now, revalidate)
        self.gate = self._new_gate()

    def finish(
        self, *, background: tuple[str, ...] = (), stop_hook_active: bool = False
    ) -> FinishGateDecision:
        return self.gate.finish_gate(
            self.mailbox.pending(), task_id="t1", background=background, stop_hook_active=stop_hook_active
        )

    # -- what happened --------------------------------------------------------------------------

    def records(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for path in sorted((self.data / "history").glob("*.jsonl")):
            found.extend(History(path).read()[0])
        return found

    def trail(self, task: str = "t1") -> Trail:
        records, _ = History.for_task(task, self.data).read()
        return [
            (record["stage"], record["advice_id"], record["reason"])
            for record in records
            if record["stage"] not in ("outcome", "finish_gate")
        ]


SCENARIOS: dict[str, Callable[[Path], Sim]] = {}


def scenario(func: Callable[[Path], Sim]) -> Callable[[Path], Sim]:
    SCENARIOS[func.__name__] = func
    return func


def reasons(*decisions: GateDecision) -> list[str]:
    return [str(decision.reason) for decision in decisions]


# -- no advisory ----------------------------------------------------------------------------------


@scenario
def silent_answers_and_empty_advice(data: Path) -> Sim:
    sim = Sim(data)
    silent = sim.advise(verdict="silent")
    resolved = sim.advise(verdict="resolved")
    headless = sim.advise(headline="   \u200b ")
    assert reasons(silent, resolved, headless) == ["not_advise", "not_advise", "no_headline"]
    assert all(decision.advice is None for decision in (silent, resolved, headless))
    assert sim.mailbox.pending() == []
    return sim


# -- mute ------------------------------------------------------------------------------------------


@scenario
def mute_leaves_no_trace(data: Path) -> Sim:
    sim = Sim(data, mute__all=True, **{"detectors__repeat-failure": {"enabled": False}})
    muted = sim.advise()
    sim.gate.settings = make_settings(**{"detectors__repeat-failure": {"enabled": False}})
    disabled = sim.advise("repeat-failure", dedup_key="same-failure:pytest")
    sim.gate.settings = make_settings()
    after_unmute = sim.advise()  # nothing of the muted answers is remembered
    assert reasons(muted, disabled, after_unmute) == ["muted", "detector_muted", "passed"]
    assert sim.drain() == ["adv3"]
    return sim


# -- floors and human-only routing ---------------------------------------------------------------


@scenario
def floors_route_between_agent_user_and_nobody(data: Path) -> Sim:
    sim = Sim(data, **{"detectors__repeat-failure": {"confidence_floor": 0.4}})
    hunch = sim.advise(confidence=0.2, dedup_key="k-hunch", headline="A vague hunch about caching")
    human = sim.advise(confidence=0.5, dedup_key="k-human", headline="Maybe the migration needs a down step")
    agent = sim.advise(confidence=0.6, dedup_key="k-agent", headline="The lockfile was not regenerated")
    sim.wait(400)
    # The detector's own floor (0.4) overrides gate.confidence_floor (0.6).
    own_floor = sim.advise(
        "repeat-failure", confidence=0.5, dedup_key="k-own", headline="Same test failed 3x"
    )
    assert reasons(hunch, human, agent, own_floor) == ["below_human_floor", "human_only", "passed", "passed"]
    assert human.advice is not None and human.advice.human_only
    assert agent.advice is not None and not agent.advice.human_only
    # An async hook (its systemMessage reaches the model) must not take the human-only one.
    assert sim.drain(human_channel=False) == ["adv3", "adv4"]
    assert [advice.id for advice in sim.mailbox.pending()] == ["adv2"]
    # A synchronous drain can show it to the user alone.
    assert sim.drain(human_channel=True) == ["adv2"]
    return sim


@scenario
def surer_repeats_escalate(data: Path) -> Sim:
    sim = Sim(data)
    unsure = sim.advise(confidence=0.2)
    human = sim.advise(confidence=0.5)  # a floor drop is not remembered: a surer repeat gets its chance
    assert sim.drain() == ["adv2"]
    agent = sim.advise(confidence=0.8)  # the user saw it; now the agent may be told
    human_again = sim.advise(confidence=0.5, dedup_key="other-key")  # same words, same rank: a repeat
    assert reasons(unsure, human, agent, human_again) == [
        "below_human_floor",
        "human_only",
        "passed",
        "duplicate_similar",
    ]
    return sim


# -- dedup and suppression -------------------------------------------------------------------------


@scenario
def dedup_across_detectors_and_rephrasings(data: Path) -> Sim:
    sim = Sim(data)
    first = sim.advise()
    same_key = sim.advise("default", dedup_key="Tests Not Run:services/foo", headline="Run the tests")
    rephrased = sim.advise(
        "default",
        dedup_key="unverified-edit",
        headline="After editing services/foo.py the tests were not run",
        body="No test command followed the services/foo.py change; run the suite before finishing.",
    )
    distinct = sim.advise(
        "default",
        dedup_key="version-not-bumped",
        headline="The version in pyproject.toml was not bumped",
        body="The changelog names 1.4.0 but pyproject.toml still says 1.3.2.",
    )
    assert reasons(first, same_key, rephrased, distinct)[:3] == [
        "passed",
        "duplicate_key",
        "duplicate_similar",
    ]
    assert distinct.reason is Reason.COOLDOWN  # distinct, so it reached the rate check
    return sim


@scenario
def dedup_spans_dropped_advice(data: Path) -> Sim:
    sim = Sim(data, gate__rate_per_hour=1, gate__cooldown_s=0)
    first = sim.advise(dedup_key="k1", headline="The lockfile was not regenerated")
    held = sim.advise(dedup_key="k2")
    again = sim.advise(dedup_key="k2")  # rediscovered: a duplicate, not another rate-limit hit
    assert reasons(first, held, again) == ["passed", "rate_limited", "duplicate_key"]
    return sim


@scenario
def rejected_advice_suppresses_its_key(data: Path) -> Sim:
    sim = Sim(data)
    sim.advise()
    assert sim.drain() == ["adv1"]
    sim.wait(600)
    unevidenced = sim.advise(
        verdict="silent", outcomes=[{"advice_id": "adv1", "verdict": "rejected", "evidence": []}]
    )
    evidenced = sim.advise(
        verdict="still_open",
        outcomes=[
            {"advice_id": "adv1", "verdict": "rejected", "evidence": ["user: no, the tests need a GPU"]},
            {"advice_id": "zzz", "verdict": "adopted", "evidence": ["Bash: pytest"]},
        ],
    )
    again = sim.advise(headline="Run the GPU tests", body="Different words, same finding.")
    other_task = sim.advise(task="t2")  # suppression is task-scoped
    assert reasons(unevidenced, evidenced, again, other_task) == [
        "not_advise",
        "not_advise",
        "suppressed",
        "passed",
    ]
    outcomes = [record["text"] for record in sim.records() if record["stage"] == "outcome"]
    assert outcomes == [
        "rejected without evidence: not acted on",
        "rejected: key 'tests-not-run:services/foo' suppressed for the rest of the task",
        "adopted: advisory zzz is not known in this task",
    ]
    return sim


# -- staleness -------------------------------------------------------------------------------------


@scenario
def stale_at_gate_time(data: Path) -> Sim:
    sim = Sim(data)
    sim.observe("Bash: pytest -q services/foo")  # before generation: does not count
    sim.wait(30)
    live = sim.advise(age=10, stale_if=[r"pytest\b"])
    assert sim.drain() == ["adv1"]
    sim.observe("Bash: pytest -q services/bar")
    stale = sim.advise(age=20, dedup_key="k2", headline="Bar is untested", stale_if=[r"pytest\b.*bar"])
    literal = sim.advise(
        age=5,
        dedup_key="k3",
        headline="Run the (unit) tests",
        body="Nothing about bar.",
        stale_if=["(unit"],
    )
    assert reasons(live, stale, literal) == ["passed", "stale", "cooldown"]
    assert "matched literally" not in literal.text  # the note rides on deliveries only
    assert stale.text == "stale_if 'pytest\\\\b.*bar' matched 'pytest -q services/bar'"
    return sim


@scenario
def stale_at_claim_time(data: Path) -> Sim:
    sim = Sim(data)
    queued = sim.advise(stale_if=[r"pytest"])
    sim.wait(5)
    sim.observe("Bash: pytest services/foo")  # the agent did it before any drain ran
    assert sim.drain() == []
    sim.wait(400)
    again = sim.advise()  # already handled: remembered, so not raised again
    assert reasons(queued, again) == ["passed", "duplicate_key"]
    assert sim.trail()[1] == ("claim", "adv1", "stale_at_claim")
    return sim


@scenario
def invalid_stale_if_is_noted_on_delivery(data: Path) -> Sim:
    sim = Sim(data)
    decision = sim.advise(stale_if=["tests (unit"])
    assert decision.reason is Reason.PASSED
    assert "stale_if 'tests (unit' is not a usable regex: matched literally" in decision.text
    sim.wait(1)
    sim.observe("ran tests (unit and integration)")
    assert sim.drain() == []
    return sim


# -- rate limit and cooldown ------------------------------------------------------------------------


@scenario
def rate_limit_is_a_sliding_hour(data: Path) -> Sim:
    sim = Sim(data, gate__rate_per_hour=2, gate__cooldown_s=0)
    first = sim.advise(dedup_key="k1", headline="The lockfile was not regenerated")
    assert sim.drain() == ["adv1"]
    sim.wait(1200)
    second = sim.advise(dedup_key="k2", headline="A migration has no down step")
    assert sim.drain() == ["adv2"]
    sim.wait(1200)
    third = sim.advise(dedup_key="k3", headline="The changelog was not updated")
    sim.wait(1300)  # the first delivery is now 3700 s old: out of the window
    fourth = sim.advise(dedup_key="k4", headline="The README example is out of date")
    assert reasons(first, second, third, fourth) == ["passed", "passed", "rate_limited", "passed"]
    return sim


@scenario
def cooldown_runs_from_the_last_delivery(data: Path) -> Sim:
    sim = Sim(data, gate__cooldown_s=300)
    first = sim.advise(dedup_key="k1", headline="The lockfile was not regenerated")
    sim.wait(100)
    assert sim.drain() == ["adv1"]  # delivered at +100
    sim.wait(250)  # +350: 350 s since admission, 250 s since delivery
    early = sim.advise(dedup_key="k2", headline="A migration has no down step")
    sim.wait(60)
    later = sim.advise(dedup_key="k3", headline="The changelog was not updated")
    human = sim.advise(
        dedup_key="k4", headline="Consider a smaller PR", confidence=0.4
    )  # no cooldown for the user
    assert reasons(first, early, later, human) == ["passed", "cooldown", "passed", "human_only"]
    return sim


# -- the two clocks ---------------------------------------------------------------------------------


@scenario
def both_expiry_clocks(data: Path) -> Sim:
    sim = Sim(data, gate__cooldown_s=0)
    dead_on_arrival = sim.advise(age=900)  # the pass took longer than the validity clock
    slow_pass = sim.advise(age=500, dedup_key="k-ttl", headline="The lockfile was not regenerated")
    fresh = sim.advise(dedup_key="k-queue", headline="A migration has no down step")
    sim.wait(400)  # slow_pass: 900 s since generation; fresh: 400 s in the queue
    assert sim.drain() == ["adv3"]
    fresh_again = sim.advise(dedup_key="k-idle", headline="The changelog was not updated")
    sim.wait(600)  # nobody drains for the queue timeout
    assert sim.drain() == []
    # Expiry freed both keys: each finding may be raised again.
    ttl_again = sim.advise(dedup_key="k-ttl", headline="The lockfile was not regenerated")
    queue_again = sim.advise(dedup_key="k-idle", headline="The changelog was not updated")
    assert reasons(dead_on_arrival, slow_pass, fresh, fresh_again, ttl_again, queue_again) == [
        "expired_ttl",
        "passed",
        "passed",
        "passed",
        "passed",
        "passed",
    ]
    assert [step for step in sim.trail() if step[0] == "claim"] == [
        ("claim", "adv3", "claimed"),
        ("claim", "adv2", "expired_ttl"),
        ("claim", "adv4", "expired_queue"),
    ]
    return sim


@scenario
def an_undrained_advisory_lapses_in_memory_too(data: Path) -> Sim:
    sim = Sim(data, gate__cooldown_s=0)
    first = sim.advise()
    sim.wait(601)  # no drain ever ran, so no expiry was recorded; the gate's own clocks free the key
    second = sim.advise()
    assert reasons(first, second) == ["passed", "passed"]
    # The worker's post finds the undrained one expired and records which clock caught it.
    assert sim.trail() == [
        ("gate", "adv1", "passed"),
        ("gate", "adv2", "passed"),
        ("post", "adv1", "expired_queue"),
    ]
    return sim


# -- supersede ----------------------------------------------------------------------------------------


@scenario
def newer_advice_supersedes_in_place(data: Path) -> Sim:
    sim = Sim(data, gate__rate_per_hour=1)
    first = sim.advise(body="Tests were not run after the first edit.")
    sim.wait(60)
    newer = sim.advise(body="Tests were not run after either edit to services/foo.py.")  # no new rate slot
    other_detector = sim.advise("default")  # same key from another detector: a duplicate, not a supersede
    assert reasons(first, newer, other_detector) == ["passed", "supersedes", "duplicate_key"]
    assert newer.advice is not None and newer.advice.supersedes == "adv1"
    assert sim.drain() == ["adv2"]
    assert sim.trail()[:4] == [
        ("gate", "adv1", "passed"),
        ("gate", "adv2", "supersedes"),
        ("post", "adv1", "superseded"),
        ("gate", "adv3", "duplicate_key"),
    ]
    return sim


@scenario
def supersede_loses_the_race_with_a_drain(data: Path) -> Sim:
    sim = Sim(data)
    sim.advise()
    decision = sim.gate.decide(sim.answer(body="A newer wording."))  # the gate still thinks adv1 waits
    assert decision.reason is Reason.SUPERSEDES and decision.advice is not None
    assert sim.drain() == ["adv1"]  # a hook claims adv1 before the worker posts adv2
    followed = sim.gate.posted(sim.mailbox.post(decision.advice, now=sim.clock.now))
    assert followed is not None and followed.reason is Reason.SUPERSEDE_TARGET_GONE
    assert sim.mailbox.pending() == []
    sim.wait(400)
    again = sim.advise()  # adv1 was delivered: a repeat is a duplicate
    assert again.reason is Reason.DUPLICATE_KEY
    return sim


@scenario
def a_busy_mailbox_is_a_recorded_drop(data: Path) -> Sim:
    sim = Sim(data)
    sim.mailbox.directory.mkdir(parents=True, exist_ok=True)
    fd = os.open(sim.mailbox.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        failed = sim.advise()
    finally:
        os.close(fd)
    retried = sim.advise()  # nothing was queued, so nothing blocks the retry
    assert reasons(failed, retried) == ["post_failed", "passed"]
    return sim


# -- restarts and tasks -----------------------------------------------------------------------------


@scenario
def a_restarted_worker_remembers(data: Path) -> Sim:
    sim = Sim(data, gate__rate_per_hour=2, gate__cooldown_s=0)
    sim.advise(dedup_key="k1", headline="The lockfile was not regenerated")
    sim.advise(dedup_key="k2", headline="A migration has no down step")
    sim.advise(dedup_key="k3", headline="The changelog was not updated", confidence=0.5)
    assert sim.drain() == ["adv1", "adv2", "adv3"]
    sim.advise(dedup_key="k4", headline="The README example is out of date", confidence=0.5)
    sim.advise(dedup_key="k5", headline="Consider a smaller pull request", confidence=0.5)
    sim.wait(700)
    sim.restart(revalidate=lambda advice: "obsolete" if advice.dedup_key == "k5" else None)
    repeat = sim.advise(dedup_key="k1", headline="The lockfile was not regenerated")
    over_rate = sim.advise(dedup_key="k6", headline="A flaky test was skipped rather than fixed")
    assert reasons(repeat, over_rate) == ["duplicate_key", "rate_limited"]
    sweep = [step for step in sim.trail() if step[0] == "sweep"]
    assert sweep == [("sweep", "adv4", "expired_queue"), ("sweep", "adv5", "expired_queue")]
    return sim


@scenario
def sweep_revalidates_what_survived(data: Path) -> Sim:
    sim = Sim(data, gate__cooldown_s=0)
    sim.advise(dedup_key="k1", headline="The lockfile was not regenerated")
    sim.advise(dedup_key="k2", headline="A migration has no down step")
    sim.restart(revalidate=lambda advice: "mute.all is on" if advice.dedup_key == "k2" else None)
    assert sim.trail()[-1] == ("sweep", "adv2", "revalidated_out")
    again = sim.advise(dedup_key="k2", headline="A migration has no down step")  # revalidation freed the key
    assert again.reason is Reason.PASSED
    assert sim.drain() == ["adv1", "adv3"]
    return sim


# -- the finish gate ----------------------------------------------------------------------------------


@scenario
def finish_gate_fires_once_with_evidence(data: Path) -> Sim:
    sim = Sim(data, gate__cooldown_s=0, finish_gate__per_task_cap=2, finish_gate__min_interval_s=3600)
    assert sim.finish().reason is FinishReason.NO_CANDIDATE
    sim.advise(finish_gate=True, evidence=[], dedup_key="k1", headline="Deploy was never run")
    assert sim.finish().reason is FinishReason.NO_EVIDENCE
    sim.advise(
        finish_gate=True,
        confidence=0.7,
        evidence=["version bumped in pyproject.toml"],
        dedup_key="k2",
        headline="Version bumped, no release tag created",
    )
    assert sim.finish().reason is FinishReason.BELOW_FLOOR  # 0.7 < finish_gate.confidence_floor 0.8
    sim.advise(
        finish_gate=True,
        confidence=0.95,
        evidence=["Edit CHANGELOG.md", "no `make deploy` observed"],
        dedup_key="k3",
        headline="Changelog updated but deploy never ran",
    )
    assert sim.finish(background=("Bash: npm run watch",)).reason is FinishReason.BACKGROUND_WORK
    assert sim.finish(stop_hook_active=True).reason is FinishReason.STOP_HOOK_ACTIVE
    fired = sim.finish()
    assert fired.fire and fired.advice is not None and fired.advice.id == "adv3"
    assert sim.finish().reason is FinishReason.TOO_SOON
    sim.wait(3600)
    sim.advise(finish_gate=True, evidence=["e"], dedup_key="k4", headline="Docs not rebuilt after API change")
    assert sim.finish().fire
    sim.wait(3600)
    assert sim.finish().reason is FinishReason.CAP_REACHED
    sim.gate.settings = make_settings(mute__all=True)
    assert sim.finish().reason is FinishReason.MUTED
    sim.gate.settings = make_settings(finish_gate__enabled=False)
    assert sim.finish().reason is FinishReason.DISABLED
    return sim


# -- the runs -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario(name: str, tmp_path: Path) -> None:
    sim = SCENARIOS[name](tmp_path / "data")
    records = sim.records()
    assert records, "every scenario leaves a history"
    assert all(record["reason"] or record["stage"] == "outcome" for record in records)


def test_every_reason_code_is_simulated(tmp_path: Path) -> None:
    gate_reasons: set[str] = set()
    finish_reasons: set[str] = set()
    for name, run in SCENARIOS.items():
        for record in run(tmp_path / name).records():
            target = finish_reasons if record["stage"] == "finish_gate" else gate_reasons
            if record["reason"] is not None:
                target.add(record["reason"])
    assert {str(reason) for reason in Reason} - gate_reasons == set()
    assert {str(reason) for reason in FinishReason} - finish_reasons == set()


def test_a_restored_gate_decides_like_the_one_it_replaces(tmp_path: Path) -> None:
    """Memory is a fold over the history: a fresh gate on a copy of the files answers as the live one does."""
    sim = Sim(tmp_path / "data", gate__rate_per_hour=2, gate__cooldown_s=120)
    script: list[dict[str, Any]] = [
        {"dedup_key": "k1", "headline": "The lockfile was not regenerated"},
        {"dedup_key": "k2", "headline": "A migration has no down step", "confidence": 0.5},
        {"dedup_key": "k3", "headline": "The changelog was not updated"},
        {"dedup_key": "k4", "headline": "The README example is out of date", "stale_if": ["README"]},
    ]
    for step in script:
        sim.advise(**step)
        sim.wait(130)
        sim.observe("Edit README.md")
        sim.drain()
    sim.advise(
        verdict="silent",
        outcomes=[{"advice_id": "adv3", "verdict": "contradicted", "evidence": ["CHANGELOG.md was updated"]}],
    )
    shutil.copytree(sim.data, tmp_path / "copy")
    restored = Gate(
        sim.settings, session_id="s1", workspace="/work/repo", clock=sim.clock, data=tmp_path / "copy"
    )
    amnesiac = Gate(sim.settings, session_id="s1", workspace="/work/repo", clock=sim.clock, history=False)
    probes: list[dict[str, Any]] = [
        {"dedup_key": "k1", "headline": "The lockfile was not regenerated"},  # delivered
        {"dedup_key": "k-2", "headline": "A migration has no down step", "confidence": 0.5},  # similar
        {"dedup_key": "k3", "headline": "Update the changelog"},  # suppressed
        {"dedup_key": "k4", "headline": "The README example is out of date"},  # stale at claim
        {"dedup_key": "k5", "headline": "A flaky test was skipped"},  # rate: 2 delivered this hour
    ]
    live = [sim.gate.decide(sim.answer(**probe)).reason for probe in probes]
    assert live == ["duplicate_key", "duplicate_similar", "suppressed", "duplicate_key", "rate_limited"]
    assert [restored.decide(sim.answer(**probe)).reason for probe in probes] == live
    assert [amnesiac.decide(sim.answer(**probe)).reason for probe in probes[:1]] == ["passed"]
