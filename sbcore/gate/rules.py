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

A new rule is one function here, of the :class:`Case` alone, and one place in :data:`RULES`, with its
reason code in :class:`~sbcore.gate.history.Reason` (a meta-test asserts every code is produced by some
simulation). The case carries everything a rule reads: the settings, the task's memory, the session's rate
slots; the rules own the dedup and rate logic, and the gate knows none of it.
Standard library only, like the rest of the gate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from sbcore.gate.advice import Advice, stale_reason
from sbcore.gate.answer import GateInput
from sbcore.gate.fold import HOUR
from sbcore.gate.history import Reason
from sbcore.gate.memory import Remembered, Route, TaskMemory
from sbcore.gate.similarity import similarity


class Settings(Protocol):
    """The gate settings the rules read (:class:`sbcore.case.settings.GateSettings` fits)."""

    @property
    def mute_all(self) -> bool: ...

    @property
    def disabled_detectors(self) -> frozenset[str]: ...

    @property
    def human_floor(self) -> float: ...

    @property
    def dedup_threshold(self) -> float: ...

    @property
    def rate_per_hour(self) -> int: ...

    @property
    def cooldown_s(self) -> float: ...

    def agent_floor(self, detector: str) -> float: ...


@dataclass
class Case:
    """One advisory being judged: what the rules read, and the route they settle."""

    answer: GateInput
    now: float
    settings: Settings
    task: TaskMemory
    slots: Mapping[str, float]
    """The session's agent deliveries that weigh on the rate window and the cooldown: id -> when."""
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


Rule = Callable[[Case], Stop | None]


def muted(case: Case) -> Stop | None:
    if case.settings.mute_all:
        return Stop(Reason.MUTED, "mute.all is on")
    if case.answer.detector in case.settings.disabled_detectors:
        return Stop(Reason.DETECTOR_MUTED, f"detector {case.answer.detector} is disabled")
    return None


def expired(case: Case) -> Stop | None:
    if case.advice.expired_by(case.now) == "advice_ttl":
        age = case.now - case.advice.generated_at
        return Stop(Reason.EXPIRED_TTL, f"generated {age:g} s ago, validity {case.advice.ttl:g} s")
    return None


def floors(case: Case) -> Stop | None:
    """Below the human floor: dropped; below the agent floor: for the user alone (sets the route)."""
    case.floor = case.settings.agent_floor(case.answer.detector)
    human_floor = min(case.settings.human_floor, case.floor)
    confidence = case.advice.confidence
    if confidence < human_floor:
        return Stop(
            Reason.BELOW_HUMAN_FLOOR, f"confidence {confidence:g} is below the human floor {human_floor:g}"
        )
    case.route = "agent" if confidence >= case.floor else "human"
    case.advice = case.advice.with_changes(human_only=case.route == "human")
    return None


def suppressed(case: Case) -> Stop | None:
    why = case.task.suppressed.get(case.key)
    return None if why is None else Stop(Reason.SUPPRESSED, f"key {case.key!r}: {why}")


def duplicate(case: Case) -> Stop | None:
    """The same normalised key as a remembered advisory, or headline and body too similar to one.

    What blocks: any dropped advisory; one for the agent (a user-only one blocks only user-only repeats,
    so a repeat confident enough for the agent gets its chance); a soaked one only for its own detector;
    never the waiting advisory this one would supersede."""
    blocking = [
        entry
        for entry in case.task.entries.values()
        if entry is not case.target
        and (entry.state != "soaked" or entry.advice.kind == case.answer.detector)
        and (entry.state == "dropped" or entry.route == "agent" or case.route == "human")
    ]
    for entry in blocking:
        if entry.key == case.key:
            return Stop(Reason.DUPLICATE_KEY, f"key {case.key!r} already {entry.state} as {entry.advice.id}")
    threshold = case.settings.dedup_threshold
    for entry in blocking:
        score = similarity(case.words, entry.tokens)
        if score >= threshold:
            return Stop(
                Reason.DUPLICATE_SIMILAR,
                f"{score:.2f} similar to {entry.state} advisory {entry.advice.id} (threshold {threshold:g})",
            )
    return None


def stale(case: Case) -> Stop | None:
    why = stale_reason(case.advice, case.answer.observations_since())
    return None if why is None else Stop(Reason.STALE, why, remember=True)


def rate(case: Case) -> Stop | None:
    """Agent route only, and not for an advisory that takes over a waiting one's slot, nor for a soaking
    detector's: the rate window is the session's delivery budget, which soaking neither spends nor awaits."""
    if case.route != "agent" or case.soak or inherits_slot(case):
        return None
    settings, now = case.settings, case.now
    recent = [at for at in case.slots.values() if now - at < HOUR]
    if len(recent) >= settings.rate_per_hour:
        text = f"{len(recent)} agent advisories in the last hour (gate.rate_per_hour)"
        return Stop(Reason.RATE_LIMITED, text, remember=True)
    if case.slots:
        since = now - max(case.slots.values())
        if since < settings.cooldown_s:
            text = f"{since:g} s since the last agent advisory, cooldown {settings.cooldown_s:g} s"
            return Stop(Reason.COOLDOWN, text, remember=True)
    return None


def inherits_slot(case: Case) -> bool:
    """Whether the advisory supersedes one that holds a rate slot, and so takes it over (the rate is not
    charged again)."""
    return case.target is not None and case.target.advice.id in case.slots


RULES: tuple[Rule, ...] = (muted, expired, floors, suppressed, duplicate, stale, rate)
"""The gate's rules, in the order they are asked."""
