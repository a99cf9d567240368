"""The gate: what a detector's answer becomes — advice for the agent, a note for the user, or nothing.

Most generated advice should die here (design, "Advice: generation → gating
→ delivery"). One detector answer goes through these steps, in order; the
first that applies decides, and every decision is written to the task's
history with its reason code (:class:`~sbcore.gate.history.Reason`). Steps 1–2
come before there is an advisory; steps 3–8 are the rules of
:mod:`sbcore.gate.rules`, asked in the order of ``RULES``; step 9 admits:

1. outcomes first: the answer's verdicts on this detector's earlier advice are
   recorded, each found by the id the detector's fork was shown (``fork_id``, see
   :mod:`sbcore.gate.uptake`); an evidenced ``rejected`` or ``contradicted``
   suppresses that advisory's key for the rest of the task;
2. ``verdict`` is not ``advise`` → no advisory (``not_advise``); no headline →
   ``no_headline``;
3. mute: ``mute.all`` → ``muted``; the detector disabled → ``detector_muted``.
   Muted answers leave no trace in dedup or the rate window, so unmuting starts
   clean;
4. the validity clock has already run out → ``expired_ttl``;
5. floors: below ``gate.human_floor`` → ``below_human_floor``; below the agent
   floor (the detector's ``confidence_floor``, else ``gate.confidence_floor``)
   → routed to the user alone (``human_only``), still subject to 6–8;
6. a suppressed key → ``suppressed``; the same normalised key as anything
   remembered in the task → ``duplicate_key``; headline+body too similar →
   ``duplicate_similar`` (except that a waiting advisory from the same
   detector with the same key is *superseded*, not duplicated);
7. a ``stale_if`` pattern matches an observation that arrived after generation
   → ``stale``;
8. agent route only: ``gate.rate_per_hour`` agent advisories in the last hour
   → ``rate_limited``; less than ``gate.cooldown_s`` since the last →
   ``cooldown``;
9. otherwise queued: ``passed`` (agent and user), ``human_only`` (user alone)
   or ``supersedes`` (in place of a waiting one).

Staleness before rate: ``rate_limited`` should mean "a live advisory held back"
(a tuning signal), not "something already handled". Mute first: a muted
detector's output should not shape anything that happens after the unmute.

What the gate remembers, per task: every queued or delivered advisory, and
those dropped as ``stale``, ``rate_limited``, ``cooldown`` or stale at claim —
so a pass that rediscovers them does not burn the rate limit again. Floor and
mute drops are not remembered (a later, surer or unmuted repeat deserves its
chance), and a duplicate is not remembered (the original already is). Expiry on
either clock frees the key: the finding may be raised again if it is still true.
A human-only advisory does not block a later repeat confident enough for the
agent. All of it is a fold over the history file (:meth:`Fold.apply <sbcore.gate.fold.Fold.apply>`), so
a restarted worker resumes with the memory it had.

A soaking detector (``mode: soak``, docs/soak.md) is judged by the same steps
with two exceptions: it neither spends nor waits for the rate window and
cooldown (step 8, the session's delivery budget), and it supersedes nothing.
What would be queued is recorded as ``soak`` instead and never reaches the
mailbox. Its would-delivers and remembered drops are kept like delivered ones,
so a rediscovery is a duplicate and the soak log counts each finding once, but
they dedup only that detector's own answers: soaking never silences another
detector. When the detector is promoted to ``advise``, a finding it already
soaked in this task stays a duplicate.

That memory is a fold over the history files, bounded the same way live and when folding: see
:mod:`sbcore.gate.fold`. Similarity is token Jaccard (:mod:`sbcore.gate.similarity`); the rules of steps
3-8 own the dedup and rate logic (:mod:`sbcore.gate.rules`); the settings are
:mod:`sbcore.gate.settings`'s; the finish gate is :mod:`sbcore.gate.finish`.

Standard library only, like the rest of the gate.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from sbcore import paths
from sbcore.gate.advice import (
    STALE_IF_LIMIT,
    Advice,
    compile_stale_if,
    normalise_key,
    runs_away,
)
from sbcore.gate.answer import GateInput
from sbcore.gate.finish import FinishGateDecision, decide_finish_gate, finish_gate_record
from sbcore.gate.fold import SUPPRESSING_VERDICTS, Fold
from sbcore.gate.history import Action, Reason, Stage, make_record
from sbcore.gate.memory import TaskMemory
from sbcore.gate.rules import RULES, Case, Route, inherits_slot
from sbcore.gate.sanitize import clean_body, clean_evidence, clean_headline
from sbcore.gate.settings import GateSettings
from sbcore.gate.similarity import tokens
from sbcore.gate.uptake import OutcomeRecord


class Posted(Protocol):
    """What queueing an advisory did (:class:`sbcore.deliver.mailbox.PostResult` fits).

    ``outcome``: ``posted``, ``superseded`` (``replaced`` was replaced in place) or ``target_gone``
    (the advisory it was to supersede was no longer waiting, so nothing was queued).
    """

    @property
    def outcome(self) -> str: ...

    @property
    def advice(self) -> Advice: ...

    @property
    def replaced(self) -> Advice | None: ...


class Outbox(Protocol):
    """Where admitted advice is queued for delivery (:class:`sbcore.deliver.mailbox.Mailbox` fits).

    The gate decides and remembers; delivery, a floor above it, owns the queue and the channels.
    """

    def post(self, advice: Advice, *, now: float, timeout: float) -> Posted: ...


# -- decisions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GateDecision:
    """What became of one answer; ``advice`` is the envelope (None when there was none to build)."""

    action: Action
    reason: Reason
    text: str
    detector: str
    task_id: str
    advice: Advice | None = None

    @property
    def delivers(self) -> bool:
        """Queued for the agent, or for the user alone (a soaked would-deliver is not)."""
        return self.action in (Action.DELIVER_AGENT, Action.DELIVER_HUMAN_ONLY)

    @property
    def soaked(self) -> bool:
        """Admitted for a soaking detector: a would-deliver, logged and never queued."""
        return self.action is Action.SOAK


class Gate:
    """The decision pipeline for one session (rate and cooldown) across its tasks (everything else).

    ``clock`` is injectable (simulations run on a fake one); ``settings`` may be
    replaced between calls when the configuration changes. With ``history``
    true, decisions are appended to ``<data>/history/<task>.jsonl`` and the
    memory of a task is restored from that file the first time the task is
    seen, and kept in step with what the drains append (:meth:`sync`).
    """

    def __init__(
        self,
        settings: GateSettings,
        *,
        session_id: str,
        workspace: str,
        clock: Callable[[], float] = time.time,
        data: Path | None = None,
        history: bool = True,
        new_id: Callable[[], str] | None = None,
    ) -> None:
        self.settings = settings
        self.session_id = session_id
        self.workspace = workspace
        self.clock = clock
        self._new_id = new_id or (lambda: uuid.uuid4().hex[:12])
        self._fold = Fold(session_id, data or paths.data_dir(), history=history)

    # -- the pipeline ---------------------------------------------------------------------------

    def decide(self, answer: GateInput, *, soak: bool = False) -> GateDecision:
        """Judge one detector answer (see the module docstring for the steps); record the decision.

        ``soak``: the detector soaks (docs/soak.md). It is judged by the same rules, except that it neither
        spends nor waits for the rate window and supersedes nothing; what would be admitted is recorded
        as :attr:`Action.SOAK` — never queued — and, like every decision about it, marked ``soak`` in the
        history, so it dedups that detector's later answers and no other detector's.
        """
        now = self.clock()
        fold = self._fold
        task = fold.task(answer.task_id)
        fold.sync()
        fold.forget_lapsed(task, now)
        fold.forget_old_slots(now, self.settings.cooldown_s)
        feedback = answer.feedback
        self._record_outcomes(answer, task, now)
        verdict = feedback.get("verdict")
        if verdict != "advise":
            return self._drop(answer, now, Reason.NOT_ADVISE, f"verdict {verdict!r}: nothing to deliver")
        headline = clean_headline(str(feedback.get("headline") or ""))
        if not headline:
            return self._drop(answer, now, Reason.NO_HEADLINE, "verdict advise without a headline")
        advice, notes = self._envelope(answer, headline, now)
        key = normalise_key(advice.dedup_key)
        target = next(
            (
                entry
                for entry in task.entries.values()
                if not soak
                and entry.state == "pending"
                and entry.advice.kind == answer.detector
                and entry.key == key
            ),
            None,
        )
        words = tokens(f"{advice.headline}\n{advice.body}")
        case = Case(answer, now, self.settings, task, fold.slots, advice, key, words, target, soak=soak)
        for rule in RULES:
            stop = rule(case)
            if stop is not None:
                route = case.route if stop.remember else None
                return self._drop(answer, now, stop.reason, stop.text, case.advice, route=route, soak=soak)
        return self._admit(case, notes)

    def _admit(self, case: Case, notes: Sequence[str]) -> GateDecision:
        """No rule stopped it: queue it for the agent and the user, or the user alone, or in place of a
        waiting advisory of the same detector and key."""
        advice, route, target, confidence = case.advice, case.route, case.target, case.advice.confidence
        inherits = inherits_slot(case)
        action = Action.DELIVER_AGENT if route == "agent" else Action.DELIVER_HUMAN_ONLY
        if target is not None:
            advice = advice.with_changes(supersedes=target.advice.id)
            reason, text = (
                Reason.SUPERSEDES,
                f"replaces waiting advisory {target.advice.id} (same detector and key)",
            )
        elif route == "agent":
            reason, text = Reason.PASSED, f"confidence {confidence:g} clears the agent floor {case.floor:g}"
        else:
            reason, text = (
                Reason.HUMAN_ONLY,
                f"confidence {confidence:g} is below the agent floor {case.floor:g}: for the user only",
            )
        if notes:
            text = f"{text}; {'; '.join(notes)}"
        if case.soak:
            text = f"soaking, not delivered: {text}"
            return self._commit(
                case.answer, case.now, Action.SOAK, reason, text, advice, route=route, slot_at=None, soak=True
            )
        slot_at = case.now if route == "agent" and not inherits else None
        return self._commit(case.answer, case.now, action, reason, text, advice, route=route, slot_at=slot_at)

    def submit(
        self, answer: GateInput, outbox: Outbox, *, timeout: float = 5.0, soak: bool = False
    ) -> GateDecision:
        """Decide, and queue what passes in ``outbox`` (the session's mailbox); returns the final decision.

        When the outbox cannot take it (its lock stayed busy for ``timeout``
        seconds, the disk failed: an ``OSError``) or the advisory it was to
        supersede is gone, that outcome is recorded and returned instead.
        With ``soak`` nothing is ever queued: an admitted answer comes back as
        :attr:`Action.SOAK` for the caller to log (see :meth:`decide`).
        """
        decision = self.decide(answer, soak=soak)
        if not decision.delivers or decision.advice is None:
            return decision
        try:
            result = outbox.post(decision.advice, now=self.clock(), timeout=timeout)
        except OSError as error:
            why = f"could not queue: {type(error).__name__}: {error}"
            return self._drop_at_post(decision.advice, self.clock(), Reason.POST_FAILED, why)
        return self.posted(result) or decision

    def posted(self, result: Posted) -> GateDecision | None:
        """Reconcile memory with what :meth:`Mailbox.post` did; a drop decision when nothing was queued."""
        now = self.clock()
        advice = result.advice
        if result.outcome == "superseded" and result.replaced is not None:
            old = result.replaced
            self._drop_at_post(
                old,
                now,
                Reason.SUPERSEDED,
                f"replaced in the mailbox by {advice.id}",
                by=advice.id,
                slot_at=None if advice.human_only else self._fold.slots.get(old.id),
            )
            return None
        if result.outcome == "target_gone":
            text = f"advisory {advice.supersedes} was no longer waiting (claimed, expired or dropped)"
            return self._drop_at_post(advice, now, Reason.SUPERSEDE_TARGET_GONE, text)
        return None

    # -- the finish gate ------------------------------------------------------------------------

    def finish_gate(
        self,
        waiting: Iterable[Advice],
        *,
        task_id: str,
        background: Sequence[str],
        stop_hook_active: bool,
    ) -> FinishGateDecision:
        """:func:`decide_finish_gate` with this task's firings, the decision recorded.

        For a caller with no claim race (the worker's deferred wake). The Stop
        hook, which must claim the advisory before it may fire, uses the pure
        function and records with :func:`finish_gate_record` once its claim
        succeeded.
        """
        now = self.clock()
        task = self._fold.task(task_id)
        self._fold.sync()
        decision = decide_finish_gate(
            waiting,
            now=now,
            settings=self.settings,
            background=background,
            stop_hook_active=stop_hook_active,
            firings=sorted(task.finish_firings.values()),
        )
        self._fold.append(
            task, finish_gate_record(decision, at=now, task_id=task_id, session_id=self.session_id)
        )
        return decision

    # -- memory (a fold over the history files: sbcore.gate.fold) ---------------------------------

    def memory(self, task_id: str) -> TaskMemory:
        """What the gate remembers of ``task_id`` (restored from its history the first time)."""
        return self._fold.task(task_id)

    def forget(self, task_id: str) -> None:
        """Drop the memory of ``task_id`` (``second-brain forget``): its history is gone, so is this."""
        self._fold.forget(task_id)

    def sync(self) -> None:
        """Fold in what others appended to the known tasks' histories (claims, expiries, firings)."""
        self._fold.sync()

    def apply(self, record: dict[str, Any]) -> None:
        """Fold one history record into memory (see :meth:`sbcore.gate.fold.Fold.apply`)."""
        self._fold.apply(record)

    # -- building and recording -----------------------------------------------------------------

    def _envelope(self, answer: GateInput, headline: str, now: float) -> tuple[Advice, list[str]]:
        feedback = answer.feedback
        notes: list[str] = []
        patterns = [str(p) for p in feedback.get("stale_if") or () if p]
        if len(patterns) > STALE_IF_LIMIT:
            notes.append(
                f"{len(patterns) - STALE_IF_LIMIT} stale_if patterns beyond {STALE_IF_LIMIT} ignored"
            )
            patterns = patterns[:STALE_IF_LIMIT]
        notes.extend(
            f"stale_if {pattern!r} is not a usable regex: matched literally"
            for pattern in patterns
            if compile_stale_if(pattern)[1]
        )
        runaway = [pattern for pattern in patterns if runs_away(pattern)]
        notes.extend(f"stale_if {pattern!r} backtracks without end: dropped" for pattern in runaway)
        patterns = [pattern for pattern in patterns if pattern not in runaway]
        raw_key = str(feedback.get("dedup_key") or "")
        key = normalise_key(raw_key) or f"{answer.detector}:{normalise_key(headline)}"
        advice = Advice(
            id=self._new_id(),
            task_id=answer.task_id,
            session_id=self.session_id,
            workspace=self.workspace,
            kind=answer.detector,
            headline=headline,
            body=clean_body(str(feedback.get("body") or ""), self.settings.body_cap),
            confidence=float(feedback.get("confidence", 0.0)),
            dedup_key=key,
            generated_at=now if answer.generated_at is None else answer.generated_at,
            ttl=self.settings.advice_ttl_s,
            queue_timeout=self.settings.queue_timeout_s,
            evidence=clean_evidence(list(feedback.get("evidence") or ())),
            stale_if=tuple(patterns),
            finish_gate=bool(feedback.get("finish_gate", False)),
        )
        return advice, notes

    def _record_outcomes(self, answer: GateInput, task: TaskMemory, now: float) -> None:
        """Record each verdict on an earlier advisory, found by the id the detector's fork was shown.

        A ``resolved`` answer is one too: it names its advisory by ``dedup_key`` and says it was dealt
        with, which closes that advisory's open outcome record as acted on when it cites evidence.
        """
        outcomes = list(answer.feedback.get("outcomes") or ())
        key = answer.feedback.get("dedup_key")
        if answer.feedback.get("verdict") == "resolved" and isinstance(key, str) and key:
            found = task.outcomes.get((answer.detector, key)) or task.find(answer.detector, key)
            if found is not None:
                evidence = answer.feedback.get("evidence") or []
                outcomes.append({"advice_id": key, "verdict": "resolved", "evidence": evidence})
        for outcome in outcomes:
            fork_id, verdict = str(outcome.get("advice_id")), outcome.get("verdict")
            evidence = [str(item) for item in outcome.get("evidence") or ()]
            record = task.outcomes.get((answer.detector, fork_id))
            entry = task.find(answer.detector, fork_id) if record is None else None
            if entry is not None:
                record = task.outcome_of(entry.advice.id)
            advice_id = record.advice_id if record is not None else entry.advice.id if entry else None
            key = record.dedup_key if record is not None else entry.advice.dedup_key if entry else None
            if advice_id is None:
                text = f"{verdict}: advisory {fork_id} is not known in this task"
            elif verdict in SUPPRESSING_VERDICTS and not evidence:
                text = f"{verdict} without evidence: not acted on"
            elif verdict in SUPPRESSING_VERDICTS:
                text = f"{verdict}: key {key!r} suppressed for the rest of the task"
            else:
                text = str(verdict)
            if record is not None and not record.open:
                text = f"{text} (its outcome was already closed as {record.uptake})"
            self._write(
                answer.task_id,
                "outcome",
                now,
                detector=answer.detector,
                advice_id=advice_id,
                action=None,
                reason=None,
                text=text,
                dedup_key=key,
                verdict=verdict,
                evidence=evidence,
                fork_id=fork_id,
            )

    # -- did it land ------------------------------------------------------------------------------

    def observe(self, task_id: str, count: int) -> None:
        """``count`` more observations in ``task_id`` (the adjudication window counts them)."""
        self._fold.task(task_id).observed += count

    def adjudicate(self, task_id: str) -> list[OutcomeRecord]:
        """Close the task's outcome records whose adjudication window has lapsed; return them.

        Never mentioned → ``ignored``; mentioned only without a citation → ``no_evidence``; never asked about
        (no model fork of its detector ran while it was open, see :meth:`asked`) → ``unjudged``. Each closing
        is a history record (stage ``outcome``, ``closed_by: window``), so a restarted gate folds it back.
        """
        now = self.clock()
        task = self._fold.task(task_id)
        self._fold.sync()
        closed = []
        for record in list(task.outcomes.values()):
            why = record.lapse(
                now,
                task.observed,
                observations=self.settings.adjudication_observations,
                seconds=self.settings.adjudication_seconds,
            )
            if why is None:
                continue
            verdict = "no_evidence" if record.mentioned else "ignored" if record.asked else "unjudged"
            self._write(
                task_id,
                "outcome",
                now,
                detector=record.detector,
                advice_id=record.advice_id,
                action=None,
                reason=None,
                text=f"{verdict}: no evidenced verdict within the adjudication window ({why})",
                dedup_key=record.dedup_key,
                verdict=verdict,
                evidence=[],
                fork_id=record.fork_id,
                closed_by="window",
            )
            closed.append(record)
        return closed

    def asked(self, task_id: str, detector: str) -> None:
        """A fork of ``detector`` ran on a model this pass, shown its open advisories: each outcome record
        of it still open could have been judged, so lapsing says it was ``ignored``, not ``unjudged``."""
        self._fold.sync()
        for record in self._fold.task(task_id).outcomes.values():
            if record.detector == detector and record.open:
                record.asked = True

    def take_closed(self) -> list[tuple[str, OutcomeRecord]]:
        """The outcome records closed (live or folded from a history) since the last call, with their task."""
        return self._fold.take_closed()

    def live_ids(self, task_id: str, detector: str) -> set[str]:
        """The ids ``detector``'s forks may still judge: its advisories waiting for delivery to the agent (or,
        soaking, that would have been delivered: it sees what it would see advising) and its outcome
        records still open."""
        task = self._fold.task(task_id)
        waiting = {
            entry.fork_id or entry.advice.id
            for entry in task.entries.values()
            if entry.advice.kind == detector
            and entry.state in ("pending", "soaked")
            and entry.route == "agent"
        }
        return waiting | {
            record.fork_id for record in task.outcomes.values() if record.detector == detector and record.open
        }

    def outcomes(self, task_id: str) -> list[OutcomeRecord]:
        """The task's outcome records, open and closed, in delivery order."""
        return sorted(self._fold.task(task_id).outcomes.values(), key=lambda record: record.delivered_at)

    def _drop(
        self,
        answer: GateInput,
        now: float,
        reason: Reason,
        text: str,
        advice: Advice | None = None,
        *,
        route: Route | None = None,
        soak: bool = False,
    ) -> GateDecision:
        return self._commit(
            answer, now, Action.DROP, reason, text, advice, route=route, slot_at=None, soak=soak
        )

    def _commit(
        self,
        answer: GateInput,
        now: float,
        action: Action,
        reason: Reason,
        text: str,
        advice: Advice | None,
        *,
        route: Route | None,
        slot_at: float | None,
        soak: bool = False,
    ) -> GateDecision:
        extra: dict[str, Any] = {}
        if advice is not None:
            extra = {
                "advice": advice.to_json(),
                "dedup_key": advice.dedup_key,
                "confidence": advice.confidence,
                "route": route,
                "slot_at": slot_at,
            }
            if answer.fork_id:
                extra["fork_id"] = answer.fork_id
        if soak:
            extra["soak"] = True
        self._write(
            answer.task_id,
            "gate",
            now,
            detector=answer.detector,
            advice_id=advice.id if advice is not None else None,
            action=action,
            reason=reason,
            text=text,
            **extra,
        )
        return GateDecision(action, reason, text, answer.detector, answer.task_id, advice)

    def _drop_at_post(
        self, advice: Advice, now: float, reason: Reason, text: str, **extra: Any
    ) -> GateDecision:
        """Record that ``advice`` left (or never reached) the mailbox when it was posted."""
        self._write(
            advice.task_id,
            "post",
            now,
            detector=advice.kind,
            advice_id=advice.id,
            action=Action.DROP,
            reason=reason,
            text=text,
            dedup_key=advice.dedup_key,
            **extra,
        )
        return GateDecision(Action.DROP, reason, text, advice.kind, advice.task_id, advice)

    def _write(
        self,
        task_id: str,
        stage: Stage,
        now: float,
        *,
        detector: str,
        advice_id: str | None,
        action: Action | None,
        reason: Reason | None,
        text: str,
        **extra: Any,
    ) -> None:
        """Build a record, fold it into memory, append it to the task's history."""
        record = make_record(
            stage,
            at=now,
            task_id=task_id,
            session_id=self.session_id,
            detector=detector,
            advice_id=advice_id,
            action=action,
            reason=reason,
            text=text,
            **extra,
        )
        self._fold.append(self._fold.task(task_id), record)
