"""When the observer thinks and what it may spend: the pacer, the budgets, and the clock they share.

``Pacer`` decides when a pass starts (clock floor, volume, ceiling,
salience, turn end, manual run; single flight; coalescing; budget-aware
backoff); ``Budget`` holds the per-task and per-hour token ceilings. Both read
time from an injected ``Clock``, so the live worker and replay run the same
rules, one on the monotonic clock and the other on the transcript's timestamps.
"""

from __future__ import annotations

from sbcore.pace.budget import HOUR_S, Budget, BudgetSettings, Exhaustion, Headroom, RollingWindow
from sbcore.pace.clock import Clock, SimulatedClock, SystemClock, epoch_seconds
from sbcore.pace.episode import Episode, PendingEpisode, coalesce
from sbcore.pace.pacer import (
    Decision,
    Hold,
    HoldReason,
    NotDue,
    Pacer,
    PaceSettings,
    PaceStatus,
    Reason,
    backoff_factor,
)

__all__ = [
    "HOUR_S",
    "Budget",
    "BudgetSettings",
    "Clock",
    "Decision",
    "Episode",
    "Exhaustion",
    "Headroom",
    "Hold",
    "HoldReason",
    "NotDue",
    "PaceSettings",
    "PaceStatus",
    "Pacer",
    "PendingEpisode",
    "Reason",
    "RollingWindow",
    "SimulatedClock",
    "SystemClock",
    "backoff_factor",
    "coalesce",
    "epoch_seconds",
]
