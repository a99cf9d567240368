"""The gate's rules: an ordered list of small functions, each of which may stop an advisory.

:meth:`sbcore.gate.gate.Gate.decide` builds the advisory's envelope and a :class:`Case`, then asks each
rule of :data:`RULES` in turn; the first that returns a :class:`Stop` decides (a drop, recorded with its
reason code), and an advisory no rule stops is admitted. A rule may also shape the case for the rules after
it — the floors rule sets the route — which is why the order is the contract. The order, and why:

1. mute first, so a muted detector's output shapes nothing that happens after the unmute;
2. the validity clock, then the floors (which choose agent or user-only);
3. suppression and duplicates, against the task's memory;
4. staleness before the rate, so ``rate_limited`` means "a live advisory held back", never "something
   already handled".

A new rule is one function here and one place in :data:`RULES`, with its reason code in
:class:`~sbcore.gate.history.Reason` (a meta-test asserts every code is produced by some simulation).
Standard library only, like the rest of the gate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from sbcore.gate.advice import Advice, stale_reason
from sbcore.gate.answer import GateInput
from sbcore.gate.history import Reason
from sbcore.gate.memory import Remembered, Route, TaskMemory


class Settings(Protocol):
    """The gate settings the rules read (:class:`sbcore.gate.gate.GateSettings` fits)."""

    @property
    def mute_all(self) -> bool: ...

    @property
    def disabled_detectors(self) -> frozenset[str]: ...

    @property
    def human_floor(self) -> float: ...

    def agent_floor(self, detector: str) -> float: ...


class Gate(Protocol):
    """What a rule may ask of the gate that asks it (:class:`sbcore.gate.gate.Gate` fits)."""

    @property
    def settings(self) -> Settings: ...

    def duplicate_of(
        self,
        task: TaskMemory,
        key: str,
        words: frozenset[str],
        route: Route,
        target: Remembered | None,
        *,
        detector: str = "",
    ) -> tuple[Reason, str] | None: ...

    def held_back(self, now: float) -> tuple[Reason, str] | None: ...

    def inherits_slot(self, target: Remembered | None) -> bool: ...


@dataclass
class Case:
    """One advisory being judged: what the rules read, and the route they settle."""

    answer: GateInput
    now: float
    task: TaskMemory
    advice: Advice
    key: str
    words: frozenset[str]
    target: Remembered | None
    """A waiting advisory of the same detector and key, which this one would supersede."""
    floor: float = 0.0
    route: Route = "agent"
    soak: bool = False
    """The detector soaks: what is admitted is logged, never queued, and it spends no rate slot."""


@dataclass(frozen=True)
class Stop:
    """A rule's verdict: drop the advisory, with this reason. ``remember``: the gate keeps it in the
    task's memory (so a rediscovery does not burn the rate again)."""

    reason: Reason
    text: str
    remember: bool = False


Rule = Callable[["Gate", Case], Stop | None]


def muted(gate: Gate, case: Case) -> Stop | None:
    if gate.settings.mute_all:
        return Stop(Reason.MUTED, "mute.all is on")
    if case.answer.detector in gate.settings.disabled_detectors:
        return Stop(Reason.DETECTOR_MUTED, f"detector {case.answer.detector} is disabled")
    return None


def expired(gate: Gate, case: Case) -> Stop | None:
    if case.advice.expired_by(case.now) == "advice_ttl":
        age = case.now - case.advice.generated_at
        return Stop(Reason.EXPIRED_TTL, f"generated {age:g} s ago, validity {case.advice.ttl:g} s")
    return None


def floors(gate: Gate, case: Case) -> Stop | None:
    """Below the human floor: dropped; below the agent floor: for the user alone (sets the route)."""
    case.floor = gate.settings.agent_floor(case.answer.detector)
    human_floor = min(gate.settings.human_floor, case.floor)
    confidence = case.advice.confidence
    if confidence < human_floor:
        return Stop(
            Reason.BELOW_HUMAN_FLOOR, f"confidence {confidence:g} is below the human floor {human_floor:g}"
        )
    case.route = "agent" if confidence >= case.floor else "human"
    case.advice = case.advice.with_changes(human_only=case.route == "human")
    return None


def suppressed(gate: Gate, case: Case) -> Stop | None:
    why = case.task.suppressed.get(case.key)
    return None if why is None else Stop(Reason.SUPPRESSED, f"key {case.key!r}: {why}")


def duplicate(gate: Gate, case: Case) -> Stop | None:
    found = gate.duplicate_of(
        case.task, case.key, case.words, case.route, case.target, detector=case.answer.detector
    )
    return None if found is None else Stop(*found)


def stale(gate: Gate, case: Case) -> Stop | None:
    why = stale_reason(case.advice, case.answer.observations_since())
    return None if why is None else Stop(Reason.STALE, why, remember=True)


def rate(gate: Gate, case: Case) -> Stop | None:
    """Agent route only, and not for an advisory that takes over a waiting one's slot, nor for a soaking
    detector's: the rate window is the session's delivery budget, which soaking neither spends nor awaits."""
    if case.route != "agent" or case.soak or gate.inherits_slot(case.target):
        return None
    held = gate.held_back(case.now)
    return None if held is None else Stop(*held, remember=True)


RULES: tuple[Rule, ...] = (muted, expired, floors, suppressed, duplicate, stale, rate)
"""The gate's rules, in the order they are asked."""
