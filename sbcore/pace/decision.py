"""What the pacer answers when a pass should start, and why.

Its own module because both sides of a pass use it: the policy returns a
:class:`Decision`, and :class:`sbcore.pace.episode.Episode` records the one it
was cut for. Kept apart, neither of the two imports the other's module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Reason = Literal["turn_end", "manual", "trigger", "volume", "ceiling", "salience"]
"""Why a pass starts. When several hold, the first in this order is the reason. ``trigger``: a structural
trigger matched anew on a failure just observed (its detector speaks now, not at the next paced pass)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """Start a pass now.

    reason:
        the trigger that fired; ``reasons`` lists every trigger that held.
    detail:
        one human line for logs and status.
    pending / pending_chars:
        observations and characters that arrived since the last pass (before coalescing).
    floor_s:
        the clock floor in force (``min_interval_s`` times the backoff).
    """

    reason: Reason
    reasons: tuple[Reason, ...]
    at: float
    detail: str
    pending: int
    pending_chars: int
    floor_s: float
