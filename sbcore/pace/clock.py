"""The clock the pacer and the budget read, so replay can run them in simulated time.

Every rule in ``sbcore.pace`` is a statement about elapsed seconds (a floor since
the last pass start, a ceiling since input began waiting, a rolling hour of
spend). Reading time through one injected :class:`Clock` is what lets the live
worker use the monotonic clock while replay drives the very same code from the
transcript's own timestamps, and what lets tests cover an hour of behaviour in
microseconds without a single sleep.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """Seconds on some monotonic scale; only differences between readings mean anything."""

    def now(self) -> float:
        """The current reading, in seconds."""
        ...


class SystemClock:
    """The live worker's clock: ``time.monotonic``, immune to wall-clock jumps (NTP, DST, a user's date)."""

    def now(self) -> float:
        return time.monotonic()


class SimulatedClock:
    """A clock that moves only when told to: tests step it, replay sets it from transcript timestamps.

    It never runs backwards. ``set`` and ``advance`` treat a step back as the
    caller's bug and raise; ``follow`` is for replay, where transcript records
    are not strictly ordered (a sidechain's record can carry an earlier stamp
    than the one before it), so a reading behind the clock simply leaves it
    where it is.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        return self._now

    def set(self, seconds: float) -> None:
        """Move to ``seconds``; raises ``ValueError`` if that is earlier than now."""
        if seconds < self._now:
            raise ValueError(f"a simulated clock cannot go back: {seconds} is before {self._now}")
        self._now = float(seconds)

    def advance(self, seconds: float) -> None:
        """Move forward by ``seconds`` (not negative)."""
        if seconds < 0:
            raise ValueError(f"a simulated clock cannot advance by a negative amount ({seconds})")
        self._now += seconds

    def follow(self, timestamp: str | float) -> float:
        """Move forward to a transcript timestamp (ISO-8601 text or epoch seconds); never back.

        Returns the clock's reading afterwards. A transcript's clock is the
        wall clock, so start a replay clock at the first record's epoch
        seconds (``SimulatedClock(epoch_seconds(first))``) for its readings to
        line up with the records'.
        """
        seconds = epoch_seconds(timestamp) if isinstance(timestamp, str) else float(timestamp)
        if seconds > self._now:
            self._now = seconds
        return self._now


def epoch_seconds(timestamp: str) -> float:
    """Seconds since the epoch for an ISO-8601 timestamp such as ``2026-01-05T14:03:22.511Z``.

    A timestamp without an offset is read as UTC, which is what Claude Code
    writes; a malformed one raises ``ValueError`` quoting it.
    """
    try:
        moment = datetime.fromisoformat(timestamp)
    except ValueError:
        raise ValueError(f"not an ISO-8601 timestamp: {timestamp!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()
