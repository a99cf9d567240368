"""The session feed: what a session's reading means before the pipeline sees it.

Three rules stand between reading a session and offering it to the pipeline, and the live worker and replay
must apply them alike: where a new goal starts a new task (:class:`~sbcore.conductor.new_goal.GoalSplit`,
which replay applies too), how a turn end the Stop hook reported settles against the transcript and how its
final message is seen once (:class:`~sbcore.conductor.turn_end.TurnEnds`), and a task boundary the session
announced (``/clear``, a fork) that waits for the running pass to finish in the task it began in.
"""

from __future__ import annotations

from dataclasses import dataclass

from sbcore.conductor.new_goal import GoalSplit
from sbcore.conductor.turn_end import TurnEnds


@dataclass
class SessionFeed:
    """The session's task and turn state between its reading and its pipeline."""

    turn_ends: TurnEnds
    goal_split: GoalSplit
    boundary: tuple[str, float, str] | None = None
    """A task boundary announced while a pass ran: ``(why, at, source)``, begun when the pass ends."""
