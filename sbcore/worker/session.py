"""The live worker's driver of the one pipeline: tail → project → pipeline → status, in real time.

Deciding — the pacer, the pass, the gate, the mailbox — is the
:class:`~sbcore.conductor.pipeline.Pipeline`'s, exactly as replay runs it; this
module keeps what is about the live session: files, the clock, the CLI. One
:class:`Session` per worker. Every tick (``tick_s``, a quarter second by
default) it:

1. checks the configuration's fingerprint (a few ``stat`` calls): ``mute.all`` and enrolment take effect
   at once, everything else at the next pass boundary, where the observer is rebuilt
   (:mod:`sbcore.worker.observer_host`);
2. reads the hooks' events, tails the transcript into the spool and reads the spool back
   (:mod:`sbcore.worker.session_input`), and looks for a ``second-brain run`` request;
3. offers the new observations to the pacer (the turn end with them) and starts a pass when the
   policy says one is due.

A pass runs as an asyncio task beside the loop, so the loop keeps tailing,
noticing a mute, and exiting promptly on SIGTERM or a dead session while a
model call is in flight. When it finishes, each detector's answer goes through
the gate into the mailbox, the policy is charged, the spool offset the pass
covered is committed, and the status file is rewritten.

Following the CLI: ``/clear`` moves the conversation to a new session id while the monitor, and so this
worker, stays (:class:`~sbcore.worker.follow.Departure`): the session stops starting passes, lets a pass in
flight finish (no wake from it: its task is over), withdraws its undelivered advice and returns, and the
worker (``main``) serves the new session with a new :class:`Session`.

Restart: offsets (transcript, spool, events) and the gate's history are on
disk, so a worker that crashed and came back (or a standby that took over)
neither observes an observation twice nor posts the same advisory twice. The
spool offset is committed only after the pass that covered it, so
observations a crash caught waiting are offered again, not lost. The window
is rebuilt from the task's durable ledger and the recent observations
(:mod:`sbcore.worker.ledger_link`), which is saved after every pass.

Between passes: ``second-brain forget`` requests (:mod:`sbcore.worker.forget`) and the standing duties of
:mod:`sbcore.worker.housekeeping` (the sweep, background launches, notices). Every pass also holds one of
the machine-wide slots (:mod:`sbcore.pace.machine`), through the pacer; after a turn-end pass, the
deferred finish gate may wake the session (:mod:`sbcore.worker.wake`).

A turn end is judged as a whole, by one pass: the Stop hook's report is settled against the transcript
(:mod:`sbcore.conductor.turn_end`), and where a new goal starts a new task is
:class:`~sbcore.conductor.new_goal.GoalSplit`'s rule, which replay applies too.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sbcore.conductor import assembly
from sbcore.conductor.journal import Journal
from sbcore.conductor.new_goal import GoalJudge, GoalSplit, NewGoalSettings
from sbcore.conductor.pipeline import Pipeline
from sbcore.conductor.session_feed import SessionFeed
from sbcore.conductor.soaklog import SoakLog, soak_path
from sbcore.conductor.turn_end import TurnEnds, epoch_or
from sbcore.config import EffectiveConfig, find_workspace, load_config
from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.settings import GateSettings
from sbcore.observe.config import ProjectionConfig
from sbcore.observe.model import Observation
from sbcore.observe.project import Projector
from sbcore.observe.project_facts import ProjectReader
from sbcore.pace.clock import SystemClock
from sbcore.pace.episode import Episode
from sbcore.pace.machine import MachinePace, MachineSettings
from sbcore.pace.pacer import Pacer
from sbcore.think.pass_ import PassResult
from sbcore.worker import crosstask, turn_report
from sbcore.worker import forget as forgetting
from sbcore.worker.calibrate import calibrate
from sbcore.worker.engine import ObserverFactory
from sbcore.worker.follow import Departure, Follower
from sbcore.worker.housekeeping import Chores, Launches, Notices, Sweeper, TrustAnnouncer, sweep_on_start
from sbcore.worker.ledger_link import LedgerLink
from sbcore.worker.lifecycle import Channel, Lifeline
from sbcore.worker.notice import held_keys_notice
from sbcore.worker.observer_host import ObserverHost
from sbcore.worker.recall import RecallRefresher
from sbcore.worker.session_input import Offsets, SessionInput
from sbcore.worker.status import PassLog, StatusFile, pass_entry, recent_entry, summarise_pass
from sbcore.worker.wake import task_ended, wake_after_turn
from sbcore.worker.worker_state import WorkerState

log = logging.getLogger("sbcore.worker")

LAST_TURN_S = 30.0
"""How long a worker whose CLI is gone may spend judging the turn it ended on (``_judge_last_turn``)."""


# -- the session ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionSpec:
    """What a worker serves and how it paces itself."""

    session_id: str
    data: Path
    cwd: Path
    host: str = "manual"
    transcript: Path | None = None
    tick_s: float = 0.25
    poll_s: float = 1.0
    heartbeat_s: float = 30.0
    turn_end_settle_s: float = 2.0
    """How long a turn end waits for the transcript to show the turn's final message."""


@dataclass
class _Flight:
    """The pass in flight: its asyncio task and episode, when it started, the task it judges (the session
    may have moved on by the time it ends) and the ``run`` request it answers. What it covered, and so
    commits when it concludes, the feed keeps
    (:meth:`~sbcore.conductor.session_feed.SessionFeed.pass_ends`)."""

    task: asyncio.Task[PassResult]
    episode: Episode
    started_at: float
    judged_task: str
    request: str | None


class Session:
    """The loop of one active worker (it holds the session lock)."""

    def __init__(
        self,
        spec: SessionSpec,
        lifeline: Lifeline,
        channel: Channel,
        status: StatusFile,
        *,
        factory: Callable[[], ObserverFactory] | None = None,
        follower: Follower | None = None,
    ) -> None:
        self.spec = spec
        self.lifeline = lifeline
        self.channel = channel
        self.status = status
        self.departure = Departure(follower, spec.session_id)  # following the CLI to another session
        self.clock = SystemClock()
        self.host = ObserverHost(
            factory
            or (
                lambda: ObserverFactory(
                    session_id=spec.session_id, cwd=spec.cwd, clock=self.clock, data=spec.data
                )
            )
        )
        self.workspace = find_workspace(spec.cwd)
        self.config: EffectiveConfig = load_config(self.workspace)
        self.state = WorkerState.load(spec.data, spec.session_id)
        self.input = SessionInput(spec.session_id, spec.data, spec.cwd, spec.transcript, self.state)
        self.mailbox = Mailbox(spec.session_id, spec.data)
        self.ledger = LedgerLink(
            spec.data,
            spec.session_id,
            str(self.workspace),
            recent_chars=int(self.config.get("ledger.recent_chars")),
        )
        self.machine = MachinePace.for_data(spec.data, MachineSettings.from_config(self.config))
        # Built when the worker first becomes active (enrolled):
        self.pipeline: Pipeline | None = None
        # Per-pass bookkeeping:
        self._flight: _Flight | None = None  # the pass in flight
        self._config_pending = False
        self.goal_judge = GoalJudge(NewGoalSettings.from_config(self.config))
        # turn ends, the new-goal split, a boundary waiting for the pass, what a pass commits
        self.feed: SessionFeed[Offsets] = SessionFeed(
            TurnEnds(spec.turn_end_settle_s), GoalSplit(self.goal_judge)
        )
        self.record = PassLog()  # what the loop and its passes came to, for the status file
        self.chores = Chores(
            Launches(spec.data, spec.session_id),
            Sweeper(spec.data, spec.session_id),
            TrustAnnouncer(spec.session_id, self.mailbox, self.state),
            Notices(spec.session_id, self.workspace, self.mailbox, self.state),
            RecallRefresher(self.workspace, spec.data, current_task=lambda: self.task_id),
        )

    @property
    def policy(self) -> Pacer | None:
        """The current task's pacer (None until the worker is active)."""
        return None if self.pipeline is None else self.pipeline.policy

    @property
    def task_id(self) -> str:
        """The task the gate scopes dedup and suppression to: the session, then one per new epoch."""
        epoch = self.state.epoch
        return self.spec.session_id if epoch == 0 else f"{self.spec.session_id}~{epoch}"

    # -- the loop ---------------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve the session until the lifeline says stop, or the CLI moves on to another session."""
        self.host.write_hot(
            self.workspace, self.spec.data
        )  # hooks judge enrolment and mute from it, enrolled or not
        try:
            while self.lifeline.reason is None and self.departure.moved_to is None:
                try:
                    active = await self._cycle()
                except Exception as error:  # never die while the session lives: log, back off, go on
                    log.exception("worker tick failed")
                    self.status.update(
                        last_error=f"{type(error).__name__}: {error}", last_error_at=time.time()
                    )
                    active = False
                self.record.ticks += 1
                # one tick, woken early when a running pass finishes
                flight, seconds = self._flight, self.spec.tick_s if active else self.spec.poll_s
                if flight is not None and not flight.task.done():
                    await asyncio.wait({flight.task}, timeout=seconds)
                else:
                    await asyncio.sleep(seconds)
            if self.lifeline.reason == "parent_gone":
                await self._judge_last_turn()
        finally:
            await self._shutdown()

    async def _judge_last_turn(self) -> None:
        """The CLI is gone: judge the turn it ended on before the worker goes.

        A headless ``claude -p`` exits right after its last turn (its Stop hook's event is read, the turn end
        would settle a tick later), and so does a CLI that was killed: without this, the last turn of every
        ``-p`` session went unjudged. The transcript is read to its end, the turn end settles at once (the
        CLI's exit ends its turn, event or not), and the turn-end pass runs and is concluded like any other,
        within :data:`LAST_TURN_S`: its decisions and journal rows are recorded (no one drains the advice;
        the session is over). A worker started so late that the CLI was gone before its first tick reads
        the whole session this way. Nothing here can keep the worker alive past the bound.
        """
        if not self.config.is_enabled():
            return

        async def last_turn_pass() -> None:
            if self.host.observer is None:  # a short -p session can end before the worker's first tick
                await self._activate()
            if self.pipeline is None:
                return
            if self._flight is not None:
                await asyncio.wait({self._flight.task})
                self._finish_pass_if_done()
            self.feed.turn_ends.settle_s = 0.0
            self._tick()
            # The CLI's exit ended its turn, whatever its hooks said; a turn already judged starts nothing.
            self.pipeline.offer([], turn_end=True)
            self._maybe_start_pass()
            if self._flight is not None:
                log.info("the CLI is gone: judging its last turn")
                await asyncio.wait({self._flight.task})
                self._finish_pass_if_done()

        try:
            await asyncio.wait_for(last_turn_pass(), LAST_TURN_S)
        except TimeoutError:
            log.warning("the last turn's pass did not finish within %g s: not judged", LAST_TURN_S)
        except Exception:  # exiting must not fail because the last judgment did
            log.exception("judging the last turn failed")

    async def run_now(self, request: str) -> dict[str, Any]:
        """One pass now, with no worker running (``second-brain run``): catch up, pass, gate.

        Returns the pass's report (as the status file's ``last_pass``), or
        ``{"refused": why}`` when the workspace is not enrolled or the policy
        refused the pass (muted, budget spent).
        """
        self.feed.turn_ends.settle_s = 0.0  # a one-off pass judges the transcript as it is now
        try:
            if not self.config.is_enabled():
                return {"refused": f"workspace {self.workspace} is not enrolled (enable.*)"}
            await self._activate()
            await self.chores.recall.refresh_now(self.config)
            self.input.request = request
            assert self.policy is not None
            self.policy.manual()
            self._maybe_start_pass()
            if self._flight is None:
                refused = self.status.document.get("run_refused") or {}
                return {"refused": refused.get("why", "the policy held the pass")}
            await asyncio.wait({self._flight.task})
            self._finish_pass_if_done()
            report = dict(self.record.last or {})
            trust = self.chores.trust.report(self.config.trust, self.host.observer)
            if trust is not None:
                report["trust"] = trust
            return report
        finally:
            await self._shutdown()

    async def _cycle(self) -> bool:
        """One tick; False while dormant (the caller then sleeps the longer poll interval)."""
        self._check_config()
        self.departure.check(f"; pass {self._flight.episode.number} finishes first" if self._flight else "")
        self._check_forget_request()
        if self.departure.leaving is not None and self._flight is None:
            self.departure.leave(self.mailbox, self.status, self.record.passes)
            return False
        if not self.config.is_enabled():
            if self.status.state != "dormant":
                log.info("workspace %s is not enrolled: dormant until it is", self.workspace)
                self.status.update(state="dormant", detail=f"workspace {self.workspace} is not enrolled")
            return False
        if self.host.observer is None:
            await self._activate()
        if self.pipeline is not None and self.input.run_request() is not None:
            self.pipeline.policy.manual()  # a pass now, past floor and volume (not mute or budget)
        self.chores.sweeper.poll(self.config)
        self._tick()
        self._finish_pass_if_done()
        self.chores.recall.poll(self.config, pass_running=self._flight is not None)
        self._maybe_start_pass()
        if self.pipeline is not None and self.chores.heartbeat_due(self.spec.heartbeat_s):
            self.status.update(policy=self.pipeline.policy.status().to_json(), observed=self.record.observed)
        return True

    # -- configuration ----------------------------------------------------------------------------

    def _check_config(self) -> None:
        if not self.config.changed():
            return
        self.config = load_config(self.workspace)
        log.info("configuration changed: reloaded")
        self._config_pending = True
        self.host.write_hot(self.workspace, self.spec.data)
        muted = bool(self.config.get("mute.all"))
        if self.policy is not None and self.policy.muted != muted:
            self.policy.muted = muted
            log.info("mute.all is now %s", muted)
        if self.pipeline is not None:
            self.pipeline.gate.settings = GateSettings.from_config(self.config, self.host.definitions())
        if self._flight is None:
            self._apply_config()

    def _apply_config(self) -> None:
        """At a pass boundary: the policy, the gate, the projection and the observer follow the config."""
        self._config_pending = False
        if self.policy is not None:
            self.policy.apply_config(self.config)
        observer = self.host.rebuild(self.config, keep=True)
        if observer is not None:
            if self.pipeline is not None:
                self.pipeline.engine = observer.engine
                self.pipeline.log_only = observer.log_only
            self.host.write_hot(self.workspace, self.spec.data)
        if self.pipeline is not None:
            self.pipeline.gate.settings = GateSettings.from_config(self.config, self.host.definitions())
        self.goal_judge.settings = NewGoalSettings.from_config(self.config)
        if self.pipeline is not None:
            crosstask.follow_config(
                self.pipeline,
                self.config,
                self.spec.data,
                self.spec.session_id,
                self.workspace,
                self.spec.cwd,
            )
        projection = ProjectionConfig.from_mapping(self.config.group("projection"))
        if self.input.projector is not None and projection != self.input.projector.config:
            self.input.projector = Projector(projection)  # new records only: nothing already spooled changes
        self._status_config()

    def _status_config(self) -> None:
        problems = [str(problem) for problem in self.config.problems]
        if self.host.observer is not None:
            problems += self.host.observer.problems
        self.chores.trust.announce(self.config.trust, self.task_id)
        held = held_keys_notice(self.config)
        if held is not None:
            self.chores.notices.post(*held, task_id=self.task_id)
        self.status.update(
            config_problems=problems,
            provider=self.host.observer.provider_line if self.host.observer is not None else None,
            provider_choice=(
                self.host.observer.choice.to_json()
                if self.host.observer is not None and self.host.observer.choice is not None
                else None
            ),
            trust=self.chores.trust.report(self.config.trust, self.host.observer),
        )

    # -- becoming active --------------------------------------------------------------------------

    async def _activate(self) -> None:
        log.info("watching session %s (workspace %s)", self.spec.session_id, self.workspace)
        observer = await self.host.start(self.config, self.workspace)
        policy = assembly.policy(
            self.config, self.clock, task_used=self.state.task_used, machine=self.machine
        )
        self.pipeline = assembly.pipeline(
            observer.engine,
            policy=policy,
            gate=GateSettings.from_config(self.config, observer.definitions),
            data=self.spec.data,
            clock=self.clock,
            session_id=self.spec.session_id,
            task_id=self.task_id,
            workspace=str(self.workspace),
            gate_clock=time.time,  # the history's stamps are wall-clock times; the pacer's clock is monotonic
            mailbox=self.mailbox,
            log_only=observer.log_only,
            soak_log=SoakLog(soak_path(self.workspace, self.spec.data)),
            journal=Journal(self.spec.data, workspace=str(self.workspace)),
            presence=crosstask.open_presence(
                self.config, self.spec.data, self.spec.session_id, self.workspace, self.spec.cwd
            ),
        )
        self.pipeline.transcript = None if self.input.transcript is None else str(self.input.transcript)
        # the checkout, read-only and bounded, for the triggers
        self.pipeline.project = functools.partial(ProjectReader().facts, self.spec.cwd)
        self.input.projector = Projector(ProjectionConfig.from_mapping(self.config.group("projection")))
        self._restore()
        self.status.update(
            state="muted" if policy.muted else "watching",
            detail="",
            workspace=str(self.workspace),
            task_id=self.task_id,
        )
        self._status_config()
        self.host.write_hot(self.workspace, self.spec.data)
        # A first look at what is on disk, then the sweep re-validates against it.
        sweep_on_start(self.mailbox, self._tick(), muted=bool(self.config.get("mute.all")))

    def _restore(self) -> None:
        """Rebuild the current task's window from its ledger and recent observations; the goal judge too."""
        assert self.host.observer is not None
        engine = self.host.observer.engine
        since = self.state.task_since
        log.info(
            "%s",
            self.ledger.restore(self.task_id, engine, self.input.spool, self.input.spool_read, since=since),
        )
        self.goal_judge.reset(self.ledger.goal, engine.history)

    # -- one tick of input ------------------------------------------------------------------------

    def _tick(self) -> list[Observation]:
        """Read events, tail the transcript, read the spool; offer what is new. Returns it."""
        self._apply_events(self.input.events())
        found = self.input.follow()
        if found is not None:
            if self.pipeline is not None:
                self.pipeline.transcript = str(found)
            self.status.update(transcript=str(found))
        projection = self.input.projector.config if self.input.projector is not None else None
        step = self.feed.read(self.input.spooled(), projection=projection)
        if step.start is not None:  # a prompt that starts a new goal begins a new task first
            log.info("prompt at %s: %s", step.start.timestamp or "an unknown time", step.start.why)
            self._new_task(step.start.why, epoch_or(step.start.timestamp, time.time()), "goal")
        assert self.pipeline is not None
        if step.judged:
            self.pipeline.offer(step.judged, judged=True)
        if step.fresh or step.turn_end is not None:
            self.pipeline.offer(step.fresh, turn_end=step.turn_end is not None)
        observations = step.observations
        self.record.observed += len(observations)
        self.chores.launches.note(observations, float(self.config.get("finish_gate.background_settle_s")))
        return observations

    def _apply_events(self, events: Sequence[dict[str, Any]]) -> None:
        for event in events:
            kind = event.get("event")
            stamp = event.get("at")
            at = float(stamp) if isinstance(stamp, int | float) else time.time()
            if kind == "session_start":
                path = event.get("transcript_path")
                if self.input.transcript is None and isinstance(path, str) and path:
                    self.input.transcript = Path(path)
                    if self.pipeline is not None:
                        self.pipeline.transcript = path
                    log.info("transcript %s (from SessionStart)", path)
                # A clear or fork start ends a task only if one was under way: Claude Code gives the
                # conversation after /clear a new session id, whose events usually open with that start.
                begun = self.record.observed > 0 or self.input.spool_read[0] > 0 or self.state.epoch > 0
                if event.get("source") in ("clear", "fork") and at > self.state.epoch_at and begun:
                    source = str(event.get("source"))
                    boundary = (f"session start ({source})", at, source)
                    if self._flight is None:
                        self._new_task(*boundary)
                    else:
                        self.feed.boundary = boundary  # the running pass finishes in the task it began in
            elif kind == "turn_end":
                text = event.get("last_assistant_message")
                self.feed.turn_ends.reported(
                    at, text if isinstance(text, str) else None, bool(event.get("stop_hook_active"))
                )

    def _new_task(self, why: str, at: float, source: str = "clear") -> None:
        """A task boundary: a fresh epoch, window, policy and budget; the gate keys on the new task id.

        Advice the ended task left in the mailbox is withdrawn: the user said
        that work is over (``/clear``), so neither a hook nor a wake may
        deliver it into the next one. A fork is a boundary that keeps the
        judgment: the ledger is copied to the new task, and its window is
        rebuilt from it. A task a new goal began (``source`` ``goal``) dates from that prompt (``at``): its
        window is rebuilt from the spool since then after a restart.
        """
        previous_task = self.task_id
        self.state.epoch += 1
        self.state.task_used = 0
        self.state.epoch_at = at
        self.state.task_since = at if source == "goal" else 0.0
        self.state.save()
        task = self.task_id
        log.info("new task %s: %s", task, why)
        assert self.pipeline is not None
        engine = None
        observer = self.host.rebuild(self.config, keep=False)
        if observer is not None:
            engine = observer.engine
            self.pipeline.log_only = observer.log_only
            if source == "fork" and self.ledger.fork(previous_task, task):
                self._restore()
            else:
                self.ledger.forget()
                if source != "goal":  # at a new goal the judge has already moved on to it
                    self.goal_judge.reset()
        policy = assembly.policy(self.config, self.clock, machine=self.machine)
        self.pipeline.begin_task(task, why=why, policy=policy, engine=engine)
        self.status.update(task_id=task)

    # -- passes -----------------------------------------------------------------------------------

    def _maybe_start_pass(self) -> None:
        if self._flight is not None or self.pipeline is None or self.host.observer is None:
            return
        if self.departure.leaving is not None:
            return  # the session is being left: its task is over
        if not self.feed.ready:
            return  # a turn end still settling (one pass judges the turn whole), or a new task waiting
        if self._config_pending:
            self._apply_config()
        episode = self.pipeline.start()
        if episode is None:
            answer = self.pipeline.policy.held
            assert answer is not None
            if self.input.request is not None and "manual" in answer.dropped:
                self.status.update(run_refused={"request": self.input.request, "why": answer.detail})
                self.input.request = None
            if answer.reason == "budget exhausted":
                self.chores.notices.budget(self.pipeline.policy, self.status, task_id=self.task_id)
            state = "muted" if answer.reason == "muted" else "watching"
            if self.status.state != state:
                self.status.update(state=state, detail=answer.detail)
            return
        log.info("pass %d starts (%s): %s", episode.number, episode.decision.reason, episode.decision.detail)
        self.status.update(state="thinking", detail=f"pass {episode.number} ({episode.decision.reason})")
        self.feed.pass_starts(self.input.offsets)
        self._flight = _Flight(
            task=asyncio.get_running_loop().create_task(self.pipeline.think(episode)),
            episode=episode,
            started_at=time.time(),
            judged_task=self.task_id,
            request=self.input.request,
        )
        self.input.request = None

    def _finish_pass_if_done(self) -> None:
        flight = self._flight
        if flight is None or not flight.task.done():
            return
        self._flight = None
        covered = self.feed.pass_ends()
        task, episode = flight.task, flight.episode
        done_at = time.time()  # before conclude() frees the slot: the recorded interval lies inside the lease
        assert self.pipeline is not None
        result: PassResult | None = None
        error: str | None = None
        try:
            result = task.result()
        except (
            Exception
        ) as exc:  # the engine promises not to raise; if it does, the pass is lost, not the worker
            log.exception("pass %d failed", episode.number)
            error = f"{type(exc).__name__}: {exc}"
        report = self.pipeline.conclude(
            episode,
            result,
            error=error,
            arrived_since=covered.arrived,
            generated_at=flight.started_at,
        )
        for verdict in report.verdicts:
            if verdict.decision is not None:
                reason = str(verdict.decision.reason)
                self.record.decisions[reason] = self.record.decisions.get(reason, 0) + 1
        if report.closed:
            demoted = calibrate(
                report.closed,
                data=self.spec.data,
                workspace=self.workspace,
                config=self.config,
                gate=self.pipeline.gate.settings,
                mailbox=self.mailbox,
                task_id=self.task_id,
            )
            self.record.demotions += [demotion.to_json() for demotion in demoted]
        policy = self.pipeline.policy
        spool, events = covered.position
        self.state.spool_offset, self.state.spool_file = spool
        self.state.events_offset = events
        self.state.task_used = policy.budget.task_used
        self.state.save()
        if self.host.observer is not None:
            self.ledger.save(
                flight.judged_task,
                self.host.observer.engine,
                self.pipeline.gate.memory(flight.judged_task),
                result,
            )
        self.record.passes += 1
        self.record.last = pass_entry(
            report, started_at=flight.started_at, done_at=done_at, request=flight.request, error=error
        )
        line = summarise_pass(self.record.last)
        log.info("%s", line)
        if episode.turn_end:
            self.record.last["wake"] = wake_after_turn(
                self.channel,
                self.pipeline.gate,
                self.mailbox,
                task_id=self.task_id,
                background=self.chores.launches.outstanding(),
                continued=self.feed.turn_ends.stop_hook_active,
                ended=task_ended(
                    leaving=self.departure.leaving,
                    boundary=self.feed.boundary,
                    current=self.task_id,
                    judged=flight.judged_task,
                ),
            )
            turn_report.report_turn(
                self.spec.data,
                report.verdicts,
                session_id=self.spec.session_id,
                task_id=flight.judged_task,
                number=episode.number,
                wake=str(self.record.last.get("wake") or ""),
                show=bool(self.config.get("loop.turn_end_report")),
            )
        self.record.recent.append(
            recent_entry(
                self.record.last, seq=self.record.passes, task_id=flight.judged_task, done_at=done_at
            )
        )
        self.status.update(
            state="muted" if policy.muted else "watching",
            detail=line,
            passes=self.record.passes,
            last_pass=self.record.last,
            recent_passes=list(self.record.recent),
            policy=policy.status().to_json(),
            observed=self.record.observed,
            decisions=dict(self.record.decisions),
            demotions=list(self.record.demotions),
        )
        if self.feed.boundary is not None:
            self._new_task(*self.feed.boundary)
            self.feed.boundary = None
        if self._config_pending:
            self._apply_config()

    # -- housekeeping -----------------------------------------------------------------------------

    def _check_forget_request(self) -> None:
        """``second-brain forget`` asked: drop the window, pacer and gate memory, delete, reset, answer.

        Between passes only, so no pass still running can write the ledger back afterwards, and between
        recall refreshes, so none can index the forgotten ledger again after its chunks were dropped; a
        dormant worker (nothing in memory) answers too, so the command never waits for nothing.
        """
        path = forgetting.request_path(self.spec.data, self.spec.session_id)
        if self._flight is not None or self.chores.recall.busy or not path.exists():
            return
        try:
            nonce = path.read_text().strip()
            path.unlink()
        except OSError:
            return
        observer = self.host.rebuild(self.config, keep=False) if self.pipeline is not None else None
        if self.pipeline is not None and observer is not None:
            self.pipeline.engine = observer.engine
            self.pipeline.policy.release()
            self.pipeline.policy = assembly.policy(self.config, self.clock, machine=self.machine)
            for task in {self.task_id, self.spec.session_id}:
                self.pipeline.gate.forget(task)
        if self.pipeline is not None:
            # Its goal, mentions and regions leave the cross-task index (and the presence's memory of having
            # published them); what the session does next is published afresh.
            self.pipeline.end_task()
        self.ledger.forget()
        self.feed.forget()  # a new task waiting for the pass is forgotten too
        report = forgetting.forget_files(self.spec.data, self.spec.session_id, live=True)
        report.by_worker.append(self.spec.session_id)
        self.input.forget()
        self.state.spool_offset, self.state.spool_file, self.state.events_offset = 0, None, 0
        self.state.save()
        log.info(
            "forgot session %s on request: %d files, %d bytes, ledgers %s",
            self.spec.session_id,
            report.files,
            report.bytes,
            ", ".join(report.tasks) or "none",
        )
        forgetting.answer(self.spec.data, self.spec.session_id, nonce, report)

    async def _shutdown(self) -> None:
        task = self._flight.task if self._flight is not None else None
        if task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task}, timeout=2.0)
        if self.policy is not None:
            self.policy.release()  # a cancelled pass's machine-wide slot goes back now, not at exit
        await self.chores.sweeper.wait(5.0)
        if self.pipeline is not None:
            crosstask.leave(self.pipeline)
        await self.chores.recall.aclose()
        await self.host.aclose()
