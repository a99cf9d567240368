"""What the gate remembers, per task: the advisories it admitted or remembers dropping, suppressed keys.

A fold over the task's history file (:meth:`sbcore.gate.gate.Gate.apply`); the rules of
:mod:`sbcore.gate.rules` read it, the gate writes it. Standard library only, like the rest of the gate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from sbcore.gate.advice import Advice
from sbcore.gate.history import History

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


@dataclass
class TaskMemory:
    """What the gate remembers of one task: its advisories, suppressed keys, finish-gate firings."""

    entries: dict[str, Remembered] = field(default_factory=dict)
    suppressed: dict[str, str] = field(default_factory=dict)  # normalised key -> why
    finish_firings: dict[str, float] = field(default_factory=dict)  # record identity -> time
    history: History | None = None
    offset: int = 0
