"""Token budgets: a ceiling per task and one per rolling hour; exhaustion means silence, said out loud.

The observer's spend is bounded twice. ``budget.tokens_per_task`` caps what one
task may cost in total; ``budget.tokens_per_hour`` caps any sixty-minute stretch,
measured as a sliding window over what each pass actually used, so the limit
frees up gradually as old passes age out instead of resetting on the hour.

Reaching either ceiling stops new passes: the loop degrades to silence and the
caller reports why (:meth:`Budget.exhausted` says which ceiling and, for the
hourly one, when it frees up). It never degrades to "advise anyway, cheaper".
Before that wall, the pacer slows down as the hourly headroom shrinks
(``sbcore.pace.pacer.backoff_factor``).

A pass is charged after it ran, with what the provider reported, so the check
is "may another pass start", and the pass that crosses a ceiling is allowed to
finish. Its overshoot is at most one pass's cost.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from sbcore.pace.clock import Clock

if TYPE_CHECKING:
    from sbcore.config import EffectiveConfig

HOUR_S = 3600.0


class RollingWindow:
    """Amounts recorded at given times, totalled over the last ``span`` seconds.

    An amount recorded at ``t`` counts while ``now < t + span`` and drops out at
    exactly ``t + span``. Readings must not go backwards (the clocks in
    ``sbcore.pace.clock`` never do).
    """

    def __init__(self, span: float = HOUR_S) -> None:
        if span <= 0:
            raise ValueError(f"a rolling window needs a positive span, not {span}")
        self.span = span
        self._entries: deque[tuple[float, int]] = deque()
        self._total = 0

    def add(self, at: float, amount: int) -> None:
        """Record ``amount`` at time ``at``."""
        if amount <= 0:
            return
        self._entries.append((at, amount))
        self._total += amount

    def total(self, now: float) -> int:
        """The sum of the amounts still inside the window at ``now``."""
        self._prune(now)
        return self._total

    def expiries(self, now: float) -> Iterator[tuple[float, int]]:
        """``(time it drops out, amount)`` for every amount still inside the window, oldest first."""
        self._prune(now)
        for at, amount in self._entries:
            yield at + self.span, amount

    def next_expiry(self, now: float) -> float | None:
        """When the oldest amount drops out; None for an empty window."""
        return next((leaves for leaves, _ in self.expiries(now)), None)

    def below_at(self, limit: int, now: float) -> float | None:
        """The earliest time, from ``now`` on, at which the total is below ``limit`` with nothing added.

        ``now`` if it already is; None if it never will be (``limit`` <= 0).
        """
        if limit <= 0:
            return None
        total = self.total(now)
        if total < limit:
            return now
        for leaves, amount in self.expiries(now):
            total -= amount
            if total < limit:
                return leaves
        return None  # unreachable: an empty window totals 0 < limit

    def _prune(self, now: float) -> None:
        while self._entries and self._entries[0][0] + self.span <= now:
            self._total -= self._entries.popleft()[1]


@dataclass(frozen=True, slots=True)
class BudgetSettings:
    """The two ceilings, in tokens as the provider counts them (input, output and cache). 0 means silent."""

    tokens_per_task: int = 20_000_000
    tokens_per_hour: int = 3_000_000

    def __post_init__(self) -> None:
        for name in ("tokens_per_task", "tokens_per_hour"):
            if getattr(self, name) < 0:
                raise ValueError(f"budget.{name} cannot be negative (got {getattr(self, name)})")

    @classmethod
    def from_config(cls, config: EffectiveConfig) -> BudgetSettings:
        """The ``budget`` group of an effective configuration."""
        group = config.group("budget")
        return cls(
            tokens_per_task=int(group["tokens_per_task"]), tokens_per_hour=int(group["tokens_per_hour"])
        )


@dataclass(frozen=True, slots=True)
class Headroom:
    """Tokens left under each ceiling (never negative), and the hourly share left (0.0 to 1.0)."""

    task: int
    hour: int
    hour_fraction: float


@dataclass(frozen=True, slots=True)
class Exhaustion:
    """Which ceiling stops new passes, how far it is used, and when it frees up (None: not this task)."""

    scope: Literal["task", "hour"]
    used: int
    limit: int
    recovers_at: float | None

    def __str__(self) -> str:
        if self.scope == "task":
            return f"task budget spent: {self.used:,} of {self.limit:,} tokens"
        return f"hourly budget spent: {self.used:,} of {self.limit:,} tokens in the last hour"


class Budget:
    """One task's token accounting against both ceilings.

    ``task_used`` seeds the task total when a worker resumes a task it has
    already spent on; the hourly window starts empty, because a restarted
    worker has no record of its predecessor's last hour.
    """

    def __init__(self, settings: BudgetSettings, clock: Clock, *, task_used: int = 0) -> None:
        if task_used < 0:
            raise ValueError(f"task_used cannot be negative (got {task_used})")
        self.settings = settings
        self.clock = clock
        self._task_used = task_used
        self._hour = RollingWindow(HOUR_S)

    def reconfigure(self, settings: BudgetSettings) -> None:
        """New ceilings (read at a pass boundary); what was spent stays spent."""
        self.settings = settings

    @property
    def task_used(self) -> int:
        """Tokens charged to this task so far."""
        return self._task_used

    def hour_used(self) -> int:
        """Tokens charged in the last hour."""
        return self._hour.total(self.clock.now())

    def charge(self, tokens: int) -> None:
        """Record ``tokens`` spent now."""
        if tokens < 0:
            raise ValueError(f"cannot charge a negative number of tokens ({tokens})")
        self._task_used += tokens
        self._hour.add(self.clock.now(), tokens)

    def headroom(self) -> Headroom:
        """What is left under each ceiling."""
        limit = self.settings.tokens_per_hour
        hour = max(0, limit - self.hour_used())
        return Headroom(
            task=max(0, self.settings.tokens_per_task - self._task_used),
            hour=hour,
            hour_fraction=hour / limit if limit else 0.0,
        )

    def allows(self) -> bool:
        """Whether a new pass may start."""
        return self.exhausted() is None

    def exhausted(self) -> Exhaustion | None:
        """The ceiling that stops new passes, or None; the task ceiling first, as it never recovers."""
        if self._task_used >= self.settings.tokens_per_task:
            return Exhaustion("task", self._task_used, self.settings.tokens_per_task, None)
        now = self.clock.now()
        used = self._hour.total(now)
        limit = self.settings.tokens_per_hour
        if used >= limit:
            return Exhaustion("hour", used, limit, self._hour.below_at(limit, now))
        return None

    def next_change(self) -> float | None:
        """When the hourly total next drops (an old charge leaves the window); None if nothing will."""
        return self._hour.next_expiry(self.clock.now())
