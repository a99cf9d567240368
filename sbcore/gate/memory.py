"""What the gate remembers, per task: the advisories it admitted or remembers dropping, suppressed keys.

A fold over the task's history file (:meth:`sbcore.gate.fold.Fold.apply`); the rules of
:mod:`sbcore.gate.rules` read it, the gate writes it. Standard library only, like the rest of the gate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from sbcore.gate.advice import Advice, normalise_key
from sbcore.gate.history import History
from sbcore.gate.uptake import OutcomeRecord

Route = Literal["agent", "human"]
"""Who an advisory is for: the agent (and the user, in the same words), or the user alone."""


@dataclass
class Remembered:
    """An advisory the gate remembers within a task."""

    advice: Advice
    key: str
    tokens: frozenset[str]
    route: Route
    state: Literal["pending", "delivered", "dropped", "soaked"]
    """``soaked``: a soaking detector's would-deliver or remembered drop; it dedups that detector's own later
    answers only, so soaking never changes what another detector may say."""
    admitted_at: float
    fork_id: str = ""
    """The id its detector's forks see it under (see :mod:`sbcore.gate.uptake`); empty: the advisory's own."""


@dataclass
class TaskMemory:
    """What the gate remembers of one task: its advisories, suppressed keys, finish-gate firings, and the
    outcome records of what it delivered to the agent (keyed by detector and the id its forks see)."""

    entries: dict[str, Remembered] = field(default_factory=dict)
    suppressed: dict[str, str] = field(default_factory=dict)  # normalised key -> why
    finish_firings: dict[str, float] = field(default_factory=dict)  # record identity -> time
    outcomes: dict[tuple[str, str], OutcomeRecord] = field(default_factory=dict)
    observed: int = 0
    """Observations the gate has been told of in this task (the adjudication window counts them)."""
    history: History | None = None
    offset: int = 0

    def outcome_of(self, advice_id: str) -> OutcomeRecord | None:
        """The outcome record the delivery of ``advice_id`` opened, if it did."""
        return next((record for record in self.outcomes.values() if record.advice_id == advice_id), None)

    def find(self, detector: str, given: str) -> Remembered | None:
        """The advisory a verdict of ``detector`` names by ``given``: the gate's own id, else the id its forks
        were shown (the most recent of the detector's advisories listed under it), else its normalised key."""
        if given in self.entries:
            return self.entries[given]
        mine = [entry for entry in reversed(self.entries.values()) if entry.advice.kind == detector]
        listed = next((entry for entry in mine if entry.fork_id == given), None)
        if listed is not None:
            return listed
        key = normalise_key(given)
        return next((entry for entry in mine if entry.key == key), None)
