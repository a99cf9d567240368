"""The demotion ladder: a detector that cannot keep up is slowed, then stopped, then given another chance.

A fork that keeps timing out costs twice: its tokens buy nothing, and it holds the pass open until the hard
deadline. So, per detector and per task (design: "Deadlines, and what a straggler costs"):

- 2 consecutive timeouts: demoted — it runs only on every ``loop.demote_stride``-th pass;
- 4 consecutive timeouts (so, 2 more while demoted): disabled for the task;
- a disabled detector is retried once ``loop.demote_retry_s`` has passed; a retry that answers in time
  restores it, one that times out disables it again for another period;
- a demoted detector that answers in time is restored to every pass.

Only timeouts count. A provider error says nothing about whether the detector can keep up, so it neither
advances nor resets the count. Every step is a log line and a :class:`Step` in the pass result, because a
detector that quietly stopped running looks exactly like one with nothing to say. Time comes from an injected
clock, so replay drives the retry period from the transcript's own timestamps.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sbcore.pace.clock import Clock

log = logging.getLogger("sbcore.think.demotion")

DEMOTE_AFTER = 2
DISABLE_AFTER = 4


class Stage(StrEnum):
    ACTIVE = "active"
    DEMOTED = "demoted"
    DISABLED = "disabled"


@dataclass(frozen=True)
class Step:
    """One move on the ladder: ``demoted``, ``disabled``, ``retried`` or ``restored``."""

    detector: str
    action: str
    pass_number: int
    reason: str

    def __str__(self) -> str:
        return f"detector {self.detector} {self.action} at pass {self.pass_number}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {
            "detector": self.detector,
            "action": self.action,
            "pass": self.pass_number,
            "reason": self.reason,
        }


@dataclass
class Health:
    """Where one detector stands."""

    stage: Stage = Stage.ACTIVE
    timeouts: int = 0
    demoted_at_pass: int = 0
    disabled_at: float = 0.0
    retrying: bool = False


class DemotionLadder:
    """Per-detector health for one task.

    :param stride: ``loop.demote_stride`` (a demoted detector runs on every stride-th pass).
    :param retry_s: ``loop.demote_retry_s``.
    :param clock: seconds on any monotonic scale (the live clock, or replay's simulated one).
    """

    def __init__(self, stride: int, retry_s: float, clock: Clock) -> None:
        if stride < 1:
            raise ValueError(f"loop.demote_stride must be at least 1 (got {stride})")
        if retry_s < 0:
            raise ValueError(f"loop.demote_retry_s cannot be negative (got {retry_s})")
        self.stride = stride
        self.retry_s = retry_s
        self.clock = clock
        self._health: dict[str, Health] = {}

    def health(self, detector: str) -> Health:
        return self._health.setdefault(detector, Health())

    def admits(self, detector: str, pass_number: int) -> tuple[bool, Step | None]:
        """Whether ``detector`` may run in pass ``pass_number``; a retry of a disabled detector is a step.

        The caller logs the retry step (:meth:`announce`) once the detector really runs: a retry whose
        trigger then does not match never happened.
        """
        health = self.health(detector)
        if health.stage is Stage.ACTIVE:
            return True, None
        if health.stage is Stage.DEMOTED:
            return (pass_number - health.demoted_at_pass) % self.stride == 0, None
        if self.clock.now() - health.disabled_at >= self.retry_s:
            health.retrying = True
            reason = f"disabled for {self.retry_s:g} s; trying it once more"
            return True, Step(detector, "retried", pass_number, reason)
        return False, None

    @staticmethod
    def announce(step: Step) -> None:
        """Log a ladder step: demotions and disablements as warnings, retries and restorations as info."""
        level = logging.WARNING if step.action in ("demoted", "disabled") else logging.INFO
        log.log(level, "%s", step)

    def skip_reason(self, detector: str) -> str:
        """Why :meth:`admits` said no, for the pass result."""
        health = self.health(detector)
        if health.stage is Stage.DEMOTED:
            return f"demoted: runs every {self.stride} passes after {health.timeouts} consecutive timeouts"
        if health.stage is Stage.DISABLED:
            left = self.retry_s - (self.clock.now() - health.disabled_at)
            return (
                f"disabled for the task after {health.timeouts} consecutive timeouts; retry in {left:,.0f} s"
            )
        return "active"

    def record(
        self, detector: str, pass_number: int, *, timed_out: bool, failed: bool = False
    ) -> Step | None:
        """Account for one run of ``detector``; returns the ladder step it caused, if any."""
        health = self.health(detector)
        if failed and not timed_out:
            health.retrying = False
            if health.stage is Stage.DISABLED:  # the retry was spent on a provider error: wait again
                health.disabled_at = self.clock.now()
            return None
        step: Step | None = None
        if timed_out:
            health.timeouts += 1
            if health.stage is Stage.DISABLED:
                health.disabled_at = self.clock.now()
                step = Step(detector, "disabled", pass_number, "the retry timed out as well")
            elif health.timeouts >= DISABLE_AFTER:
                health.stage = Stage.DISABLED
                health.disabled_at = self.clock.now()
                step = Step(
                    detector,
                    "disabled",
                    pass_number,
                    f"{health.timeouts} consecutive timeouts; retried after {self.retry_s:g} s",
                )
            elif health.timeouts >= DEMOTE_AFTER and health.stage is Stage.ACTIVE:
                health.stage = Stage.DEMOTED
                health.demoted_at_pass = pass_number
                step = Step(
                    detector,
                    "demoted",
                    pass_number,
                    f"{health.timeouts} consecutive timeouts; now runs every {self.stride} passes",
                )
        else:
            if health.stage is not Stage.ACTIVE:
                step = Step(detector, "restored", pass_number, f"answered in time (was {health.stage})")
                health.stage = Stage.ACTIVE
            health.timeouts = 0
        health.retrying = False
        if step is not None:
            self.announce(step)
        return step

    def status(self) -> dict[str, dict[str, Any]]:
        """Detectors not in the plain active state, for stats and the replay summary."""
        return {
            name: {"stage": str(h.stage), "timeouts": h.timeouts}
            for name, h in sorted(self._health.items())
            if h.stage is not Stage.ACTIVE or h.timeouts
        }
