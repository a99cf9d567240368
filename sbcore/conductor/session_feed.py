"""The session feed: what a session's reading means before the pipeline sees it, and what a pass covered.

The live worker and replay read a session differently (the worker tails a transcript into its spool and
reads the hooks' events; replay reads a transcript's lines), but between reading and the pipeline they
apply the same rules, here:

* **the Stop text rule**: the final message the Stop hook handed over is observed once, whichever of the
  hook and the transcript brings it first (:meth:`~sbcore.conductor.turn_end.TurnEnds.transcript`);
* **task splitting**: a prompt that sets a new goal begins a new task
  (:class:`~sbcore.conductor.new_goal.GoalSplit`); while a pass runs, it and what follows wait for the pass
  to finish in the task it began in;
* **turn-end settling**: a turn end the Stop hook reported waits for the transcript to show the turn's
  final message, so one pass judges the turn whole (:class:`~sbcore.conductor.turn_end.TurnEnds`);
* **when a pass may start**: not while one runs, while a turn end settles or while a new task waits;
* **what a pass commits**: the reading position when it started. Everything read before then was offered
  to the pipeline before the pass began, and nothing read since; committing that position once the pass
  has judged it means a reader that crashes and restarts offers again what no pass has covered (the live
  worker's spool and events offsets), and never what one has.

Replay drives the same feed: it reports a turn end where the transcript shows one, and its passes finish
before the next line is read, so it never commits (it has no spool to commit to).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from sbcore.conductor.new_goal import GoalSplit, TaskStart
from sbcore.conductor.turn_end import TurnEnd, TurnEnds
from sbcore.observe.config import ProjectionConfig
from sbcore.observe.model import Observation

Position = TypeVar("Position")


@dataclass
class FeedStep:
    """What one read gives: a new task to begin first (``start``), then ``judged`` (records of a turn
    already judged: context only), ``fresh`` (new) and the turn end that settled with them."""

    start: TaskStart | None
    judged: list[Observation]
    fresh: list[Observation]
    turn_end: TurnEnd | None

    @property
    def observations(self) -> list[Observation]:
        return self.judged + self.fresh


@dataclass
class Covered(Generic[Position]):
    """What a pass covered: the reading position to commit once it is judged, and what arrived meanwhile
    (the gate's staleness check reads it)."""

    position: Position
    arrived: list[Observation] = field(default_factory=list)


@dataclass
class SessionFeed(Generic[Position]):
    """The session's task and turn state between its reading and its pipeline."""

    turn_ends: TurnEnds
    goal_split: GoalSplit | None
    """None: the session never changes task at a new goal (a replay with no fresh task to give it)."""
    boundary: tuple[str, float, str] | None = None
    """A task boundary announced while a pass ran: ``(why, at, source)``, begun when the pass ends."""
    _covering: Covered[Position] | None = None

    @property
    def pass_running(self) -> bool:
        return self._covering is not None

    @property
    def waiting(self) -> bool:
        """Whether a new task's first observations wait for the running pass to finish."""
        return self.goal_split is not None and self.goal_split.waiting

    @property
    def ready(self) -> bool:
        """Whether a pass may start now: none runs, no reported turn end is still settling (one pass judges
        the turn whole), and no new task waits to begin (its observations are read but not yet offered)."""
        return self._covering is None and self.turn_ends.pending is None and not self.waiting

    def read(self, observations: list[Observation], *, projection: ProjectionConfig | None) -> FeedStep:
        """What the reading ``observations`` gives the pipeline. ``projection``: how the Stop hook's final
        message is projected when it must stand in for the transcript's (None: it is not)."""
        current = self.turn_ends.transcript(observations)
        start = None
        if self.goal_split is not None:
            current, start = self.goal_split.read(current, pass_running=self.pass_running)
        taken = self.turn_ends.take(current, waiting=self.waiting, projection=projection)
        step = FeedStep(start, taken.judged, taken.fresh, taken.turn_end)
        if self._covering is not None:
            self._covering.arrived.extend(step.observations)
        return step

    def pass_starts(self, position: Position) -> None:
        """A pass starts, covering everything read so far; ``position`` is where the reading stands."""
        self._covering = Covered(position)

    def pass_ends(self) -> Covered[Position]:
        """The pass ended: the position it covered, to commit, and what arrived while it ran."""
        covered = self._covering
        if covered is None:
            raise RuntimeError("pass_ends() without pass_starts()")
        self._covering = None
        return covered

    def forget(self) -> None:
        """The session's files were forgotten (between passes): no final message seen before counts, and a
        new task waiting to begin is dropped with what it held."""
        self.turn_ends.forget()
        if self.goal_split is not None:
            judge = self.goal_split.judge
            judge.reset()
            self.goal_split = GoalSplit(judge)
