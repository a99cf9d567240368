"""The one pipeline: observations in, advice out — feed → pacer → pass → gate → outbox.

Every driver of the observer's loop drives this object, so that what a replay reports is what a live
session would have delivered by construction, not by a second copy of the loop kept in step by hand:

- the live worker (:mod:`sbcore.worker.session`) offers what it tails, runs :meth:`Pipeline.think` as a
  task beside its tick and hands the result to :meth:`Pipeline.conclude`; its gate and mailbox are the
  user's, on the system clock;
- replay and label scoring (:mod:`sbcore.conductor.replay`) run the same steps on the records' own clock,
  with a gate and mailbox of their own in a scratch directory, and stand in for the drain hook at each
  tool call (:meth:`Pipeline.drain`), so dedup, supersession and the rate limit see deliveries as a live
  session would;
- ``second-brain run`` is the worker's session run once, and the benches drive the worker or this object.

A detector in ``mode: soak`` (docs/soak.md) is decided here for every driver alike: its answers go through
the gate with ``soak``, which never queues them, and each would-deliver becomes a :mod:`soak log
<sbcore.conductor.soaklog>` record (:attr:`Verdict.soak`), written to ``soak_log`` when the driver keeps one.

Every driver that gives the pipeline a :class:`~sbcore.conductor.presence.Presence` has its tasks published
to that cross-task index as observations are offered, and each pass's triggers see the other live tasks of
the workspace (``peers``). The live worker's index is the user's; replay's is its own, in its scratch
directory, shared only by the transcripts it interleaves.

A driver keeps what is about its world — where observations come from, when time moves, processes,
status files, wake lines, following the CLI across ``/clear`` — and nothing about deciding.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sbcore.conductor.journal import Journal
from sbcore.conductor.presence import Presence
from sbcore.conductor.soaklog import CONTEXT_KEPT, SoakLog, make_record
from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.advice import Advice, stale_reason
from sbcore.gate.answer import GateInput
from sbcore.gate.gate import Gate, GateDecision
from sbcore.gate.uptake import OutcomeRecord
from sbcore.observe.model import Observation
from sbcore.observe.project_facts import ProjectFacts
from sbcore.pace.clock import Clock
from sbcore.pace.episode import Episode
from sbcore.pace.machine import is_pressure
from sbcore.pace.pacer import Decision, Hold, Pacer
from sbcore.state.taskindex import Peers
from sbcore.think.feedback import FeedbackResult
from sbcore.think.pass_ import PassEngine, PassResult

log = logging.getLogger("sbcore.conductor")


@dataclass(frozen=True)
class Verdict:
    """One detector's answer in a pass, and what the gate made of it (None: no feedback reached the gate).

    ``held`` says why an answer was kept from the gate altogether: a detector an untrusted workspace
    added or shaped speaks log-only (see docs/privacy.md), so its answer is logged and never delivered.
    ``soak`` is the soak log record of a soaking detector's would-deliver (the gate admitted it; it was
    never queued).
    """

    result: FeedbackResult
    decision: GateDecision | None = None
    held: str | None = None
    soak: dict[str, Any] | None = None

    @property
    def delivered(self) -> bool:
        """Whether the gate let it through, to the agent or to the user alone."""
        return self.decision is not None and self.decision.delivers

    def to_json(self) -> dict[str, Any]:
        """The status file's and replay's line: detector, label, headline and the gate's action/reason."""
        item: dict[str, Any] = {
            "detector": self.result.detector,
            "label": self.result.label,
            "headline": self.result.headline,
        }
        decision = self.decision
        if self.held is not None:
            item["gate"] = {"action": "log_only", "reason": "untrusted_workspace"}
        elif decision is not None and decision.soaked:
            item["gate"] = {"action": "soak", "reason": str(decision.reason)}
        elif decision is not None:
            item["gate"] = {"action": str(decision.action), "reason": str(decision.reason)}
            if decision.advice is not None and decision.delivers:
                item["advice_id"] = decision.advice.id
        return item


@dataclass
class PassReport:
    """What one pass became: its episode, the engine's result (None if it failed) and every verdict."""

    episode: Episode
    result: PassResult | None
    error: str | None = None
    verdicts: list[Verdict] = field(default_factory=list)
    closed: list[tuple[str, OutcomeRecord]] = field(default_factory=list)
    """Outcome records closed while this pass concluded (task id, record): verdicts and lapsed windows."""

    @property
    def tokens(self) -> int:
        if self.result is None:
            return 0
        return self.result.usage.prompt_tokens + self.result.usage.output_tokens

    def verdict(self, detector: str) -> Verdict | None:
        return next((v for v in self.verdicts if v.result.detector == detector), None)


ASKED = frozenset({"answered", "prose", "invalid"})
"""How a fork ended when it ran on a model and was shown its detector's open advisories (so it could judge
them): not skipped, not a fallback (offline), not failed or timed out before answering."""


class Pipeline:
    """Feed → pacer → pass → gate → outbox for one session, on an injected clock.

    ``policy`` (one per task), ``engine`` (rebuilt when the configuration changes), ``log_only`` (the
    detectors an untrusted workspace added or shaped, by id, with why) and ``task_id`` may be replaced by
    the driver between passes; the gate and the mailbox live as long as the session. Which detectors soak
    is read from the engine's definitions (``mode``) at each pass, so a reload changes it at once.
    """

    def __init__(
        self,
        *,
        policy: Pacer,
        engine: PassEngine,
        gate: Gate,
        mailbox: Mailbox,
        clock: Clock,
        task_id: str,
        log_only: Mapping[str, str] | None = None,
        soak_log: SoakLog | None = None,
        journal: Journal | None = None,
        presence: Presence | None = None,
    ) -> None:
        self.policy = policy
        self.engine = engine
        self.gate = gate
        self.mailbox = mailbox
        self.clock = clock
        self.task_id = task_id
        self.log_only: Mapping[str, str] = dict(log_only or {})
        self.soak_log = soak_log
        self.journal = journal
        """Where concluded passes and closed outcomes are kept durably (stats, calibration), if anywhere."""
        self.presence = presence
        self.project: Callable[[], ProjectFacts] | None = None
        """Where the triggers' reading of the checkout comes from (live: the session's folder, read again
        as it changes; a replay: the checkout it was given); None: no checkout, the triggers go by what the
        session shows."""
        self._recent: deque[Observation] = deque(maxlen=CONTEXT_KEPT)
        self._contexts: dict[int, list[Observation]] = {}
        self.transcript: str | None = None
        """The transcript being observed, when the driver knows it (soak records name it for labelling)."""

    # -- feed and policy ------------------------------------------------------------------------

    def offer(
        self, observations: Sequence[Observation], *, turn_end: bool = False, judged: bool = False
    ) -> None:
        """New observations (and/or the end of the agent's turn) for the pacer, the structural triggers'
        history and the cross-task index.

        The triggers' history takes every observation as it arrives (not a pass's coalesced episode), and at
        each failure the on-trigger detectors' structural triggers are asked at once: a new finding starts a
        pass past the pacer's floor, volume and early-pass allowance (still bound by the mute, the budget
        and single flight), so a loop is advised on while it goes on, not at the next paced pass.
        """
        if self.presence is not None and observations:
            # the gate's clock (epoch seconds live, the records' in a replay), not the pacer's monotonic one:
            # the index is shared by processes and swept by wall time
            self.presence.publish(self.task_id, observations, self.gate.clock())
        self.policy.offer(observations, turn_end=turn_end, judged=judged)
        if observations:
            self.engine.remember(observations)
        if not judged and any(observation.kind == "error" for observation in observations):
            self._read_project()
            matched = self.engine.probe_triggers(self._peers())
            if matched:
                self.policy.matched(matched)

    def _read_project(self) -> None:
        if self.project is not None:
            self.engine.project = self.project()

    def _peers(self) -> Peers | None:
        return self.presence.peers(self.task_id, self.gate.clock()) if self.presence is not None else None

    def end_task(self) -> None:
        """The current task is over (a new one begins, the session ends): withdraw it from the index."""
        if self.presence is not None:
            self.presence.leave(self.task_id)

    def begin_task(self, task_id: str, *, why: str, policy: Pacer, engine: PassEngine | None = None) -> None:
        """A task boundary, the same live and in replay: the ended task leaves the index, its pacer frees its
        slot, and the new task gets its own pacer (and, given one, a fresh engine: a new window). Advice the
        ended task left waiting is withdrawn, each removal in its history: the work it was about is over,
        so nothing may deliver it into the next task."""
        self.end_task()
        self.policy.release()
        self.policy, self.task_id = policy, task_id
        if engine is not None:
            self.engine = engine
        try:
            self.mailbox.sweep_on_start(
                self.gate.clock(),
                lambda advice: None if advice.task_id == task_id else f"its task ended: {why}",
            )
        except OSError as error:  # MailboxBusy is one: the advice stays, and expires on its own clock
            log.warning("advice of the ended task not withdrawn: %s", error)

    def check(self) -> Decision | Hold:
        """Whether a pass is due now, and why (see :meth:`Pacer.check`)."""
        return self.policy.check()

    def start(self) -> Episode | None:
        """Take the episode of a pass due now; None when none is (``policy.held`` says why)."""
        if not isinstance(self.policy.check(), Decision):
            return None
        episode = self.policy.start()
        if episode is not None:
            # A soak record's context: the last observations up to this pass, across episode boundaries.
            self._contexts[episode.number] = [*self._recent, *episode.observations][-CONTEXT_KEPT:]
            self._recent.extend(episode.observations)
            while len(self._contexts) > 8:  # passes started and never concluded (a cancelled one)
                del self._contexts[next(iter(self._contexts))]
        return episode

    # -- the pass -------------------------------------------------------------------------------

    async def think(self, episode: Episode) -> PassResult:
        """Run the detectors due on ``episode`` (the engine never raises for a detector's failure)."""
        headroom = self.policy.budget.headroom()
        self._read_project()
        return await self.engine.run_pass(
            episode.observations,
            remembered=True,
            timestamp=None if episode.observations else _iso(self.clock.now()),
            turn_end=episode.turn_end,
            reason=episode.decision.reason.replace("_", " "),
            notes=[episode.note] if episode.note else [],
            token_allowance=min(headroom.task, headroom.hour) if self.engine.provider.has_model else None,
            peers=self._peers(),
        )

    def conclude(
        self,
        episode: Episode,
        result: PassResult | None,
        *,
        error: str | None = None,
        arrived_since: Sequence[Observation] = (),
        generated_at: float | None = None,
    ) -> PassReport:
        """The pass is over: charge the budget, and put each detector's answer through the gate.

        ``arrived_since`` are the observations that came in while the pass ran (the gate's staleness
        re-check reads them); ``generated_at`` is when the pass started (default: now).
        """
        report = PassReport(episode, result, error)
        context = self._contexts.pop(episode.number, episode.observations)
        self.policy.finish(report.tokens, pressure=provider_pressure(result))
        if result is None:
            self._adjudicate(report)
            return report
        since = list(arrived_since)
        started = self.clock.now() if generated_at is None else generated_at
        soaking = {definition.id for definition in self.engine.detectors if definition.mode == "soak"}
        for answer in result.results:
            held = self.log_only.get(answer.detector) if answer.feedback is not None else None
            if held is not None:
                log.info("log-only (%s): %s %s: %s", held, answer.detector, answer.label, answer.headline)
                report.verdicts.append(Verdict(answer, held=held))
                continue
            decision = self._gate(answer, since, started, soak=answer.detector in soaking)
            report.verdicts.append(Verdict(answer, decision, soak=self._soaked(decision, context)))
            if answer.status in ASKED:
                self.gate.asked(self.task_id, answer.detector)
        self._adjudicate(report)
        return report

    def _adjudicate(self, report: PassReport) -> None:
        """After the answers: count the episode into the adjudication window, close what lapsed, keep each
        fork's open list to what the gate still expects a verdict on, and journal the pass."""
        self.gate.observe(self.task_id, len(report.episode.observations))
        self.gate.adjudicate(self.task_id)
        report.closed = self.gate.take_closed()
        for detector in self.engine.open_advisories:
            self.engine.keep_open(detector, self.gate.live_ids(self.task_id, detector))
        if self.journal is not None:
            provider = self.engine.provider
            self.journal.model = provider.model if provider.has_model else "offline"
            self.journal.record(
                report, task_id=self.task_id, session_id=self.gate.session_id, at=self.gate.clock()
            )  # the gate's clock: epoch seconds live (the pacer's is monotonic), the records' in a replay

    def _soaked(self, decision: GateDecision | None, context: Sequence[Observation]) -> dict[str, Any] | None:
        """The soak record of a would-deliver, written to the soak log when there is one."""
        if decision is None or not decision.soaked:
            return None
        record = make_record(
            decision,
            context,
            at=self.gate.clock(),  # epoch seconds live, like the soak log's readers expect
            session=self.gate.session_id,
            transcript=self.transcript,
        )
        log.info("soak: %s would deliver: %s", decision.detector, record["headline"])
        if self.soak_log is not None:
            self.soak_log.write(record)
        return record

    async def run_due(self) -> list[PassReport]:
        """Every pass due now, one after another, each concluded at once (for a driver with no tick)."""
        reports: list[PassReport] = []
        while (episode := self.start()) is not None:
            started = self.clock.now()
            reports.append(self.conclude(episode, await self.think(episode), generated_at=started))
        return reports

    def _gate(
        self, answer: FeedbackResult, since: list[Observation], started: float, *, soak: bool
    ) -> GateDecision | None:
        if answer.feedback is None:
            return None
        decision = self.gate.submit(
            GateInput(
                detector=answer.detector,
                task_id=self.task_id,
                feedback=answer.feedback,
                observations_since=lambda: since,
                generated_at=started,
                fork_id=answer.open_id,
            ),
            self.mailbox,
            soak=soak,
        )
        if answer.verdict == "advise" or decision.delivers:
            log.info("gate: %s %s (%s): %s", answer.detector, decision.action, decision.reason, decision.text)
        return decision

    # -- the outbox, for drivers with no hooks ----------------------------------------------------

    def drain(self, seen: Sequence[str] = ()) -> list[Advice]:
        """Claim what the drain hook would claim now: everything waiting for this session, re-checked.

        A live session's PostToolUse hook does this at each tool call (:mod:`sbcore.hooks.drain`); a
        driver with no hooks calls it at each tool call it replays, with the texts that call shows.
        """
        if not self.mailbox.path.exists():
            return []
        return self.mailbox.claim(
            self.clock.now(),
            for_agent=True,
            human_channel=True,
            recheck=lambda advice: stale_reason(advice, seen),
        )


def provider_pressure(result: PassResult | None) -> bool | None:
    """What a pass says about provider pressure: True (a 429/529 answer), False (it reached the model without
    one), None (it never asked the model: offline, or nothing ran)."""
    if result is None:
        return None
    if any(is_pressure(answer.error) for answer in result.results):
        return True
    return False if result.usage.prompt_tokens + result.usage.output_tokens > 0 else None


def _iso(seconds: float) -> str:
    """Epoch seconds as the transcripts write time (UTC, milliseconds, ``Z``)."""
    moment = datetime.fromtimestamp(seconds, tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
