"""Replay's driver of one session's pipeline, and the clockwork that moves the replay's one clock.

The driver stands in for what a live session has around its pipeline: the drain hook at each tool call,
the turn ends the transcript shows, and the new goal that begins a new task (the worker's rule, shared:
:class:`~sbcore.conductor.new_goal.GoalSplit`). The clockwork runs the passes every session's pacer wants
on the way from one record's timestamp to the next.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sbcore.conductor.new_goal import GoalSplit
from sbcore.conductor.pipeline import PassReport, Pipeline
from sbcore.conductor.session_feed import FeedStep, SessionFeed
from sbcore.conductor.turn_end import TurnEnds, epoch_or
from sbcore.observe.model import Observation
from sbcore.pace.clock import SimulatedClock, epoch_seconds
from sbcore.pace.pacer import Hold, Pacer
from sbcore.think.pass_ import PassEngine

_MAX_WAKES = 10_000


class Clockwork:
    """Moves the replay's one clock, running every pass due on the way in any of the sessions."""

    def __init__(self, clock: SimulatedClock, drivers: Sequence[Driver]) -> None:
        self.clock = clock
        self.drivers = list(drivers)

    async def advance_to(self, stamp: str) -> None:
        """Move the clock to ``stamp``, running any pass due on the way (a ceiling, a floor's end)."""
        try:
            target = epoch_seconds(stamp)
        except ValueError:
            return
        for _ in range(_MAX_WAKES):
            due = [(wake, driver) for driver in self.drivers if (wake := driver.wake()) is not None]
            due = [(wake, driver) for wake, driver in due if self.clock.now() < wake <= target]
            if not due:
                break
            wake = min(wake for wake, _ in due)
            self.clock.set(wake)
            for at, driver in due:
                if at == wake:
                    await driver.drain()
        self.clock.follow(target)


class Driver:
    """Feeds the pipeline and stands in for the drain hook at tool calls (time is :class:`Clockwork`'s).

    A prompt that sets a new goal begins a new task, by the rule the live worker applies
    (:class:`~sbcore.conductor.new_goal.GoalSplit`): ``fresh`` gives the new task its own engine (a new
    window) and pacer, named ``<task>~1``, ``<task>~2``... as the worker names them. A replayed pass always
    finishes before the next line is read, so a new task begins at its prompt, never later.
    """

    def __init__(
        self,
        pipeline: Pipeline,
        split: GoalSplit | None = None,
        fresh: Callable[[], tuple[PassEngine, Pacer]] | None = None,
    ) -> None:
        self.pipeline = pipeline
        self.fresh = fresh
        # The worker's rules between reading a session and its pipeline (:class:`SessionFeed`): a turn end
        # is reported where the transcript marks it and settles as the live one does; the transcript has
        # always caught up by then, so it settles at once. Without ``fresh`` there is no new task to begin.
        self.feed: SessionFeed[None] = SessionFeed(
            TurnEnds(settle_s=0.0), split if fresh is not None else None
        )
        self._step: FeedStep | None = None  # what the line :meth:`read` read gives, for :meth:`offer`
        self.task = pipeline.task_id
        self.task_starts: list[dict[str, Any]] = []
        """Each task a new goal began: its id, why, and the line and timestamp of the prompt."""
        self._concluded: list[PassReport] = []  # since the feed last took them
        self._working = False  # the agent did something since the last turn end

    @property
    def policy(self) -> Pacer:
        return self.pipeline.policy

    def take(self) -> list[PassReport]:
        """The passes concluded since the last call (the driver keeps none of them)."""
        taken, self._concluded = self._concluded, []
        return taken

    def wake(self) -> float | None:
        """When the policy next wants to run a pass on its own (None: not before new input)."""
        held = self.policy.held
        return held.until if isinstance(held, Hold) else None

    async def drain(self) -> None:
        """Run every pass due now."""
        await self._drain()

    async def arriving(self, observations: Sequence[Observation]) -> None:
        """Close what ``observations`` end before they are offered: a new prompt ends the agent's turn,
        whatever it was doing (the pass judging that turn belongs to the lines before the prompt)."""
        if any(o.kind == "prompt" for o in observations) and self._working:
            await self._turn_end()

    def read(
        self,
        observations: Sequence[Observation],
        number: int,
        *,
        turn_end: bool = False,
        at: str | None = None,
    ) -> list[Observation]:
        """What the current task reads of line ``number`` (after :meth:`arriving`), through the session
        feed: a new goal among them begins a new task first. A line that ends the turn (``turn_end``, at
        ``at``) reports it as the Stop hook would, and the turn end settles by the worker's rule
        (:class:`~sbcore.conductor.turn_end.TurnEnds`): what arrives timestamped at or before a judged turn
        end is offered as that turn's context, not as news."""
        if turn_end:
            self.feed.turn_ends.reported(epoch_or(at, self.pipeline.clock.now()), None, False)
        step = self._step = self.feed.read(list(observations), projection=None)
        if step.start is not None and self.fresh is not None:
            task = f"{self.task}~{len(self.task_starts) + 1}"
            engine, policy = self.fresh()
            self.pipeline.begin_task(task, why=step.start.why, policy=policy, engine=engine)
            self.task_starts.append(
                {"task": task, "why": step.start.why, "line": number, "at": step.start.timestamp}
            )
            self._working = False
        return step.observations

    async def offer(self) -> None:
        """Offer what the line :meth:`read` read gave, and run the passes due."""
        taken, self._step = self._step, None
        if taken is None:
            raise RuntimeError("offer() without read()")
        calls = [o.text for o in taken.observations if o.kind == "tool"]
        if calls:
            self.pipeline.drain(calls)  # the hook after this tool call delivers what was waiting
        if taken.judged:
            self.pipeline.offer(taken.judged, judged=True)
        if taken.fresh:
            self.pipeline.offer(taken.fresh)
            self._working = self._working or any(o.kind != "prompt" for o in taken.fresh)
        if taken.turn_end is not None:
            await self._turn_end()
        else:
            await self._drain()

    async def finish(self) -> None:
        """The transcript ended: the session's last turn is over."""
        await self._turn_end()

    async def _turn_end(self) -> None:
        """The agent's turn is over: the policy judges it even if earlier passes took its last steps."""
        self.pipeline.offer((), turn_end=True)
        await self._drain()
        self._working = False

    async def _drain(self) -> None:
        """Run every pass due now (the name is the policy's queue draining, not the mailbox's)."""
        self._concluded.extend(await self.pipeline.run_due())
