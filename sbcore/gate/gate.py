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
agent. All of it is a fold over the history file (:meth:`Gate.apply`), so a
restarted worker resumes with the memory it had.

A soaking detector (``mode: soak``, docs/soak.md) is judged by the same steps
with two exceptions: it neither spends nor waits for the rate window and
cooldown (step 8, the session's delivery budget), and it supersedes nothing.
What would be queued is recorded as ``soak`` instead and never reaches the
mailbox. Its would-delivers and remembered drops are kept like delivered ones,
so a rediscovery is a duplicate and the soak log counts each finding once, but
they dedup only that detector's own answers: soaking never silences another
detector. When the detector is promoted to ``advise``, a finding it already
soaked in this task stays a duplicate.

That memory is bounded, because a worker may serve one task for days. A task
keeps its :data:`ADVISORIES_KEPT` most recent remembered advisories (the
design's 200 advice rows; one still waiting in the mailbox is never forgotten)
and as many suppressed keys; the rate window keeps the agent deliveries of the
last hour or cooldown, whichever is longer, plus any still waiting; and only the
:data:`TASKS_KEPT` most recently used tasks stay in memory, an older one being
folded again from its history file if it is ever needed. Every bound applies
the same way live and when folding, so a restarted gate still decides like the
one it replaces.

Similarity is token Jaccard: headline and body, case-folded, split into
letter/digit runs, one-character tokens and common English function words
dropped; two advisories are the same point when ``|A ∩ B| / |A ∪ B|`` reaches
``gate.dedup_threshold``. It ignores word order and is cheap enough to run
against every remembered advisory on every answer.

Standard library only, so the Stop hook can import :func:`decide_finish_gate`.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from sbcore import paths
from sbcore.gate.advice import (
    STALE_IF_LIMIT,
    Advice,
    compile_stale_if,
    normalise_key,
)
from sbcore.gate.answer import GateInput
from sbcore.gate.history import Action, History, Reason, Stage, make_record
from sbcore.gate.memory import Remembered, TaskMemory
from sbcore.gate.rules import RULES, Case, Route
from sbcore.gate.sanitize import clean_body, clean_evidence, clean_headline
from sbcore.gate.uptake import OutcomeRecord, classify
from sbcore.state.floors import DetectorLike, resolve, switches

log = logging.getLogger("sbcore.gate")

HOUR = 3600.0
SUPPRESSING_VERDICTS = frozenset({"rejected", "contradicted"})
REMEMBERED_DROPS = frozenset({Reason.STALE, Reason.RATE_LIMITED, Reason.COOLDOWN, Reason.STALE_AT_CLAIM})
FORGETTING = frozenset(
    {Reason.EXPIRED_TTL, Reason.EXPIRED_QUEUE, Reason.REVALIDATED_OUT, Reason.SUPERSEDE_TARGET_GONE}
)
ADVISORIES_KEPT = 200
"""Remembered advisories per task (dedup memory); beyond it the oldest one not waiting is forgotten."""
SUPPRESSED_KEPT = 200
"""Suppressed keys per task; beyond it the oldest suppression lapses."""
TASKS_KEPT = 8
"""Tasks held in memory; a less recently used one is folded again from its history file when needed."""


# -- settings -----------------------------------------------------------------------------------


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


class ConfigLike(Protocol):
    """What the gate reads from the configuration (:class:`sbcore.config.EffectiveConfig` fits)."""

    def get(self, key: str, default: Any = ...) -> Any: ...


@dataclass(frozen=True)
class FinishGateSettings:
    """``finish_gate.*`` plus each detector's own ``finish_gate_floor``."""

    enabled: bool
    min_interval_s: float
    per_task_cap: int
    confidence_floor: float
    detector_floors: Mapping[str, float] = field(default_factory=dict)

    def floor(self, detector: str) -> float:
        return self.detector_floors.get(detector, self.confidence_floor)


@dataclass(frozen=True)
class GateSettings:
    """The effective values the gate decides with (no defaults here: the schema owns them)."""

    confidence_floor: float
    human_floor: float
    rate_per_hour: int
    cooldown_s: float
    body_cap: int
    dedup_threshold: float
    advice_ttl_s: float
    queue_timeout_s: float
    mute_all: bool
    finish_gate: FinishGateSettings
    disabled_detectors: frozenset[str] = frozenset()
    detector_floors: Mapping[str, float] = field(default_factory=dict)
    adjudication_observations: int = 40
    """``adjudication.window_observations``: observations after delivery within which a verdict counts."""
    adjudication_seconds: float = 1800.0
    """``adjudication.window_seconds``: the same in seconds; whichever lapses first closes the record."""

    @classmethod
    def from_config(cls, config: ConfigLike, detectors: Iterable[DetectorLike] = ()) -> GateSettings:
        """Read ``gate.*``, ``finish_gate.*``, ``mute.all`` and per-detector overrides.

        ``detectors`` are the effective definitions (the catalogue has applied
        ``detectors.<id>.*`` overrides already); the configuration's overrides
        are resolved on top by :func:`sbcore.state.floors.resolve`, the one
        resolution the hooks' snapshot uses too, so the result is right with or
        without a catalogue at hand.
        """
        gate = config.get("gate")
        finish = config.get("finish_gate")
        # The hooks' snapshot has no adjudication: the drains never close outcome records.
        adjudication = config.get("adjudication", None) or {
            "window_observations": cls.adjudication_observations,
            "window_seconds": cls.adjudication_seconds,
        }
        resolved = resolve(switches(detectors), config.get("detectors", {}))
        disabled = {name for name, fields in resolved.items() if fields.get("enabled") is False}
        floors = {
            name: float(fields["confidence_floor"])
            for name, fields in resolved.items()
            if fields.get("confidence_floor") is not None
        }
        finish_floors = {
            name: float(fields["finish_gate_floor"])
            for name, fields in resolved.items()
            if fields.get("finish_gate_floor") is not None
        }
        return cls(
            confidence_floor=float(gate["confidence_floor"]),
            human_floor=float(gate["human_floor"]),
            rate_per_hour=int(gate["rate_per_hour"]),
            cooldown_s=float(gate["cooldown_s"]),
            body_cap=int(gate["body_cap"]),
            dedup_threshold=float(gate["dedup_threshold"]),
            advice_ttl_s=float(gate["advice_ttl_s"]),
            queue_timeout_s=float(gate["queue_timeout_s"]),
            mute_all=bool(config.get("mute")["all"]),
            finish_gate=FinishGateSettings(
                enabled=bool(finish["enabled"]),
                min_interval_s=float(finish["min_interval_s"]),
                per_task_cap=int(finish["per_task_cap"]),
                confidence_floor=float(finish["confidence_floor"]),
                detector_floors=finish_floors,
            ),
            disabled_detectors=frozenset(disabled),
            detector_floors=floors,
            adjudication_observations=int(adjudication["window_observations"]),
            adjudication_seconds=float(adjudication["window_seconds"]),
        )

    def agent_floor(self, detector: str) -> float:
        """The confidence an advisory from ``detector`` needs to reach the agent."""
        return self.detector_floors.get(detector, self.confidence_floor)


# -- similarity ---------------------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+")
# Common English function words: shared by any two sentences, so they say nothing about sameness.
_FUNCTION_WORD_TEXT = (
    "a an and are as at be been but by can do does for from has have if in into is it its may "
    "no not of on or so than that the then there these this those to was were which will with you your"
)
_FUNCTION_WORDS = frozenset(_FUNCTION_WORD_TEXT.split())


def tokens(text: str) -> frozenset[str]:
    """The content words of ``text`` (what similarity compares)."""
    return frozenset(
        word for word in _WORD.findall(text.casefold()) if len(word) > 1 and word not in _FUNCTION_WORDS
    )


def similarity(left: frozenset[str], right: frozenset[str]) -> float:
    """Jaccard similarity of two token sets; 0 when either is empty (nothing to compare)."""
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


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
        self._data = data or paths.data_dir()
        self._history = history
        self._new_id = new_id or (lambda: uuid.uuid4().hex[:12])
        self._tasks: dict[str, TaskMemory] = {}
        self._closed: list[tuple[str, OutcomeRecord]] = []  # outcome records closed since take_closed()
        self._slots: dict[str, float] = {}  # this session's agent advisories: id -> admission/delivery time

    # -- the pipeline ---------------------------------------------------------------------------

    def decide(self, answer: GateInput, *, soak: bool = False) -> GateDecision:
        """Judge one detector answer (see the module docstring for the steps); record the decision.

        ``soak``: the detector soaks (docs/soak.md). It is judged by the same rules, except that it neither
        spends nor waits for the rate window and supersedes nothing; what would be admitted is recorded
        as :attr:`Action.SOAK` — never queued — and, like every decision about it, marked ``soak`` in the
        history, so it dedups that detector's later answers and no other detector's.
        """
        now = self.clock()
        task = self._task(answer.task_id)
        self.sync()
        self._forget_lapsed(task, now)
        self._forget_old_slots(now)
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
        case = Case(answer, now, task, advice, key, words, target, soak=soak)
        for rule in RULES:
            stop = rule(self, case)
            if stop is not None:
                route = case.route if stop.remember else None
                return self._drop(answer, now, stop.reason, stop.text, case.advice, route=route, soak=soak)
        return self._admit(case, notes)

    def _admit(self, case: Case, notes: Sequence[str]) -> GateDecision:
        """No rule stopped it: queue it for the agent and the user, or the user alone, or in place of a
        waiting advisory of the same detector and key."""
        advice, route, target, confidence = case.advice, case.route, case.target, case.advice.confidence
        inherits = self.inherits_slot(target)
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
                slot_at=None if advice.human_only else self._slots.get(old.id),
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
        task = self._task(task_id)
        self.sync()
        decision = decide_finish_gate(
            waiting,
            now=now,
            settings=self.settings,
            background=background,
            stop_hook_active=stop_hook_active,
            firings=sorted(task.finish_firings.values()),
        )
        self._append(task, finish_gate_record(decision, at=now, task_id=task_id, session_id=self.session_id))
        return decision

    # -- memory -----------------------------------------------------------------------------------

    def memory(self, task_id: str) -> TaskMemory:
        """What the gate remembers of ``task_id`` (restored from its history the first time)."""
        return self._task(task_id)

    def forget(self, task_id: str) -> None:
        """Drop the memory of ``task_id`` (``second-brain forget``): its history is gone, so is this."""
        self._tasks.pop(task_id, None)

    def sync(self) -> None:
        """Fold in what others appended to the known tasks' histories (claims, expiries, firings)."""
        for task in self._tasks.values():
            if task.history is None:
                continue
            records, task.offset = task.history.read(task.offset)
            self._apply_all(records)

    def apply(self, record: Mapping[str, Any]) -> None:
        """Fold one history record into memory.

        Idempotent, and correct in file order: the gate applies its own
        records as it writes them and again when :meth:`sync` reads them
        back, and a record only ever follows the records it depends on.
        """
        task_id = record.get("task_id")
        if not isinstance(task_id, str):
            return
        task = self._tasks.setdefault(task_id, TaskMemory())
        stage, reason = record.get("stage"), record.get("reason")
        advice_id = record.get("advice_id")
        mine = record.get("session_id") == self.session_id
        if stage == "outcome":
            self._apply_outcome(task, record)
            return
        if stage == "finish_gate":
            if record.get("action") == "fire":
                task.finish_firings[f"{record.get('at')}:{advice_id}"] = float(record["at"])
            return
        if not isinstance(advice_id, str):
            return
        if stage == "gate":
            self._apply_decision(task, record, advice_id, mine)
        elif reason == Reason.SUPERSEDED:
            task.entries.pop(advice_id, None)
            self._slots.pop(advice_id, None)
            successor, slot_at = record.get("by"), record.get("slot_at")
            if mine and isinstance(successor, str) and successor in task.entries and slot_at is not None:
                self._slots[successor] = float(slot_at)
        elif reason in FORGETTING or reason == Reason.POST_FAILED:
            task.entries.pop(advice_id, None)
            self._slots.pop(advice_id, None)
        elif reason == Reason.STALE_AT_CLAIM:
            if advice_id in task.entries:
                task.entries[advice_id].state = "dropped"
            self._slots.pop(advice_id, None)
        elif reason == Reason.CLAIMED:
            if advice_id in task.entries:
                task.entries[advice_id].state = "delivered"
                if record.get("action") == Action.DELIVER_AGENT:
                    self._open_outcome(task, record, advice_id)
            if mine and record.get("action") == Action.DELIVER_AGENT:
                self._slots[advice_id] = float(record["at"])

    def _apply_decision(
        self, task: TaskMemory, record: Mapping[str, Any], advice_id: str, mine: bool
    ) -> None:
        action, reason = record.get("action"), record.get("reason")
        remembered = action != Action.DROP or reason in REMEMBERED_DROPS
        raw = record.get("advice")
        if not remembered or not isinstance(raw, dict):
            return
        try:
            advice = Advice.from_json(raw)
        except ValueError as error:
            log.warning(
                "history of task %s: advisory %s unreadable (%s)", record.get("task_id"), advice_id, error
            )
            return
        route: Route = "human" if record.get("route") == "human" else "agent"
        task.entries[advice_id] = Remembered(
            advice=advice,
            key=normalise_key(advice.dedup_key),
            tokens=tokens(f"{advice.headline}\n{advice.body}"),
            route=route,
            state="soaked" if record.get("soak") else "dropped" if action == Action.DROP else "pending",
            admitted_at=float(record["at"]),
            fork_id=str(record.get("fork_id") or ""),
        )
        slot_at = record.get("slot_at")
        if mine and slot_at is not None:
            self._slots[advice_id] = float(slot_at)
        if len(task.entries) > ADVISORIES_KEPT:
            # As the live gate saw it: it forgets lapsed waiting advisories before deciding.
            self._forget_lapsed(task, float(record["at"]))
        if len(task.entries) > ADVISORIES_KEPT:
            oldest = next((key for key, entry in task.entries.items() if entry.state != "pending"), None)
            if oldest is not None:
                del task.entries[oldest]

    def _task(self, task_id: str) -> TaskMemory:
        """The memory of ``task_id`` (now the most recently used); the first time, restored from its history.

        With a history to fold again, the least recently used tasks beyond
        :data:`TASKS_KEPT` leave memory: a worker's earlier tasks (``/clear``)
        are over, and one that comes back is restored from its file.
        """
        task = self._tasks.pop(task_id, None)
        if task is None:
            task = TaskMemory()
        self._tasks[task_id] = task
        if self._history and task.history is None:
            task.history = History.for_task(task_id, self._data)
            records, task.offset = task.history.read(0)
            self._apply_all(records)
        if self._history:
            while len(self._tasks) > TASKS_KEPT:
                del self._tasks[next(iter(self._tasks))]
        return task

    def _apply_all(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Fold records read from a file, skipping (and logging) any that are not well formed."""
        for record in records:
            try:
                self.apply(record)
            except (KeyError, TypeError, ValueError) as error:
                log.warning("skipping malformed history record %r: %s", record, error)

    def _forget_lapsed(self, task: TaskMemory, now: float) -> None:
        """Forget waiting advisories whose clocks ran out even if no drain reported it.

        A mailbox nobody claims from records no expiry; without this, such an
        advisory would block its key for the rest of the task. The queue clock
        is measured from admission, a moment before the real enqueue.
        """
        for advice_id, entry in list(task.entries.items()):
            if entry.state != "pending":
                continue
            advice = entry.advice
            if now >= advice.generated_at + advice.ttl or now >= entry.admitted_at + advice.queue_timeout:
                del task.entries[advice_id]
                self._slots.pop(advice_id, None)

    def _forget_old_slots(self, now: float) -> None:
        """Drop agent deliveries that can no longer weigh on the rate window or the cooldown.

        One older than both the hour and ``gate.cooldown_s`` counts for
        neither; one whose advisory still waits in the mailbox is kept, since a
        superseding advisory inherits its slot.
        """
        horizon = max(HOUR, self.settings.cooldown_s)
        old = [advice_id for advice_id, at in self._slots.items() if now - at >= horizon]
        if not old:
            return
        waiting = {
            advice_id
            for task in self._tasks.values()
            for advice_id, entry in task.entries.items()
            if entry.state == "pending"
        }
        for advice_id in old:
            if advice_id not in waiting:
                del self._slots[advice_id]

    def inherits_slot(self, target: Remembered | None) -> bool:
        """Whether an advisory superseding ``target`` takes over its rate slot (the rate is not charged)."""
        return target is not None and target.advice.id in self._slots

    def duplicate_of(
        self,
        task: TaskMemory,
        key: str,
        words: frozenset[str],
        route: Route,
        target: Remembered | None,
        *,
        detector: str = "",
    ) -> tuple[Reason, str] | None:
        blocking = [
            entry
            for entry in task.entries.values()
            if entry is not target
            and (entry.state != "soaked" or entry.advice.kind == detector)
            and (entry.state == "dropped" or entry.route == "agent" or route == "human")
        ]
        for entry in blocking:
            if entry.key == key:
                return Reason.DUPLICATE_KEY, f"key {key!r} already {entry.state} as {entry.advice.id}"
        threshold = self.settings.dedup_threshold
        for entry in blocking:
            score = similarity(words, entry.tokens)
            if score >= threshold:
                return (
                    Reason.DUPLICATE_SIMILAR,
                    f"{score:.2f} similar to {entry.state} advisory {entry.advice.id} "
                    f"(threshold {threshold:g})",
                )
        return None

    def held_back(self, now: float) -> tuple[Reason, str] | None:
        settings = self.settings
        recent = [at for at in self._slots.values() if now - at < HOUR]
        if len(recent) >= settings.rate_per_hour:
            return (
                Reason.RATE_LIMITED,
                f"{len(recent)} agent advisories in the last hour (gate.rate_per_hour)",
            )
        if self._slots:
            last = max(self._slots.values())
            if now - last < settings.cooldown_s:
                return (
                    Reason.COOLDOWN,
                    f"{now - last:g} s since the last agent advisory, cooldown {settings.cooldown_s:g} s",
                )
        return None

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
        self._task(task_id).observed += count

    def adjudicate(self, task_id: str) -> list[OutcomeRecord]:
        """Close the task's outcome records whose adjudication window has lapsed; return them.

        Never mentioned → ``ignored``; mentioned only without a citation → ``no_evidence``; never asked about
        (no model fork of its detector ran while it was open, see :meth:`asked`) → ``unjudged``. Each closing
        is a history record (stage ``outcome``, ``closed_by: window``), so a restarted gate folds it back.
        """
        now = self.clock()
        task = self._task(task_id)
        self.sync()
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
        self.sync()
        for record in self._task(task_id).outcomes.values():
            if record.detector == detector and record.open:
                record.asked = True

    def take_closed(self) -> list[tuple[str, OutcomeRecord]]:
        """The outcome records closed (live or folded from a history) since the last call, with their task."""
        taken, self._closed = self._closed, []
        return taken

    def live_ids(self, task_id: str, detector: str) -> set[str]:
        """The ids ``detector``'s forks may still judge: its advisories waiting for delivery to the agent (or,
        soaking, that would have been delivered: it sees what it would see advising) and its outcome
        records still open."""
        task = self._task(task_id)
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
        return sorted(self._task(task_id).outcomes.values(), key=lambda record: record.delivered_at)

    def _apply_outcome(self, task: TaskMemory, record: Mapping[str, Any]) -> None:
        """Fold a verdict (or a lapse) into the outcome record it names; suppress an evidenced rejection."""
        key, advice_id, verdict = record.get("dedup_key"), record.get("advice_id"), record.get("verdict")
        evidence = record.get("evidence")
        if verdict in SUPPRESSING_VERDICTS and evidence and key:
            task.suppressed[normalise_key(key)] = f"{verdict} (advisory {advice_id})"
            if len(task.suppressed) > SUPPRESSED_KEPT:
                del task.suppressed[next(iter(task.suppressed))]
        fork_id = record.get("fork_id") or advice_id
        found = task.outcomes.get((str(record.get("detector")), str(fork_id)))
        if found is None or found.advice_id != advice_id:
            found = task.outcome_of(str(advice_id))
        if found is None or not found.open:
            return
        if record.get("closed_by") == "window":
            found.uptake = verdict if verdict in ("no_evidence", "unjudged") else "ignored"
            found.closed_by = "window"
        else:
            found.mentioned = True
            uptake = classify(verdict, evidence)
            if uptake is None:
                return
            found.uptake, found.closed_by = uptake, "verdict"
            found.evidence = tuple(str(item) for item in evidence or ())
        found.verdict = str(verdict)
        found.closed_at = float(record["at"])
        self._closed.append((str(record.get("task_id")), found))

    def _open_outcome(self, task: TaskMemory, record: Mapping[str, Any], advice_id: str) -> None:
        """A claim for the agent: the advisory was delivered, so its outcome record opens."""
        entry = task.entries.get(advice_id)
        if entry is None or entry.route != "agent":
            return
        fork_id = entry.fork_id or advice_id
        slot = (entry.advice.kind, fork_id)
        current = task.outcomes.get(slot)
        if current is not None and current.open:
            return  # the same finding delivered again while its first delivery awaits its verdict
        task.outcomes.pop(slot, None)
        task.outcomes[slot] = OutcomeRecord(
            fork_id=fork_id,
            advice_id=advice_id,
            detector=entry.advice.kind,
            dedup_key=entry.advice.dedup_key,
            confidence=entry.advice.confidence,
            delivered_at=float(record["at"]),
            observed_at=task.observed,
        )
        if len(task.outcomes) > ADVISORIES_KEPT:
            del task.outcomes[next(iter(task.outcomes))]

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
        self._append(self._task(task_id), record)

    def _append(self, task: TaskMemory, record: dict[str, Any]) -> None:
        """Fold ``record`` into memory and append it to the task's history (best effort)."""
        self.apply(record)
        if task.history is not None:
            try:
                task.history.record(record)
            except OSError as error:  # memory has it; the log is best effort
                log.warning("history of task %s not written: %s", record.get("task_id"), error)


# -- the finish gate ----------------------------------------------------------------------------


class FinishReason(StrEnum):
    """Why the finish gate fired or held."""

    FIRE = "fire"
    DISABLED = "disabled"  # finish_gate.enabled is false
    MUTED = "muted"  # mute.all is on
    STOP_HOOK_ACTIVE = "stop_hook_active"  # this Stop already follows a block: never twice in a row
    BACKGROUND_WORK = "background_work"  # a background command, subagent or monitor is outstanding
    CAP_REACHED = "cap_reached"  # finish_gate.per_task_cap firings in this task already
    TOO_SOON = "too_soon"  # less than finish_gate.min_interval_s since the last firing in this task
    NO_CANDIDATE = "no_candidate"  # no finish_gate advisory waiting (live, agent-bound, detector enabled)
    NO_EVIDENCE = "no_evidence"  # finish_gate advisories waiting, none citing evidence
    BELOW_FLOOR = "below_floor"  # evidenced ones waiting, none confident enough


@dataclass(frozen=True)
class FinishGateDecision:
    """Whether to continue the turn, why, and with which advisory."""

    fire: bool
    reason: FinishReason
    text: str
    advice: Advice | None = None


def decide_finish_gate(
    waiting: Iterable[Advice],
    *,
    now: float,
    settings: GateSettings,
    background: Sequence[str],
    stop_hook_active: bool,
    firings: Collection[float],
) -> FinishGateDecision:
    """May the agent's finished turn be continued, and with what? All conditions must hold.

    ``waiting`` is what the mailbox holds; ``background`` the background work
    the worker saw launched and never saw finish (any entry means silence);
    ``firings`` the times this task's finish gate already fired. The chosen
    advisory is the most confident eligible one (the earliest generated on a
    tie). Pure: recording is the caller's (:func:`finish_gate_record`).
    """
    finish = settings.finish_gate

    def hold(reason: FinishReason, text: str) -> FinishGateDecision:
        return FinishGateDecision(False, reason, text)

    if not finish.enabled:
        return hold(FinishReason.DISABLED, "finish_gate.enabled is false")
    if settings.mute_all:
        return hold(FinishReason.MUTED, "mute.all is on")
    if stop_hook_active:
        return hold(FinishReason.STOP_HOOK_ACTIVE, "this stop follows a continued turn")
    if background:
        return hold(FinishReason.BACKGROUND_WORK, f"outstanding: {', '.join(background)}")
    if len(firings) >= finish.per_task_cap:
        return hold(
            FinishReason.CAP_REACHED, f"{len(firings)} of finish_gate.per_task_cap {finish.per_task_cap}"
        )
    if firings and now - max(firings) < finish.min_interval_s:
        since = now - max(firings)
        return hold(
            FinishReason.TOO_SOON,
            f"{since:g} s since the last, finish_gate.min_interval_s {finish.min_interval_s:g}",
        )
    candidates = [
        advice
        for advice in waiting
        if advice.finish_gate
        and not advice.human_only
        and advice.expired_by(now) is None
        and advice.kind not in settings.disabled_detectors
    ]
    if not candidates:
        return hold(FinishReason.NO_CANDIDATE, "no finish-gate advisory is waiting")
    evidenced = [advice for advice in candidates if advice.evidence]
    if not evidenced:
        return hold(FinishReason.NO_EVIDENCE, f"{len(candidates)} waiting, none cites evidence")
    eligible = [advice for advice in evidenced if advice.confidence >= finish.floor(advice.kind)]
    if not eligible:
        best = max(evidenced, key=lambda advice: advice.confidence)
        return hold(
            FinishReason.BELOW_FLOOR,
            f"best confidence {best.confidence:g} is below the finish-gate floor {finish.floor(best.kind):g}",
        )
    chosen = min(eligible, key=lambda advice: (-advice.confidence, advice.generated_at))
    return FinishGateDecision(
        True,
        FinishReason.FIRE,
        f"{chosen.kind}: {chosen.headline} (confidence {chosen.confidence:g})",
        chosen,
    )


def finish_gate_record(
    decision: FinishGateDecision, *, at: float, task_id: str, session_id: str
) -> dict[str, Any]:
    """The history record of a finish-gate decision (``action`` is ``fire`` or ``hold``)."""
    advice = decision.advice
    return make_record(
        "finish_gate",
        at=at,
        task_id=task_id,
        session_id=session_id,
        detector=advice.kind if advice is not None else "",
        advice_id=advice.id if advice is not None else None,
        action="fire" if decision.fire else "hold",
        reason=decision.reason,
        text=decision.text,
    )


def finish_gate_firings(records: Iterable[Mapping[str, Any]]) -> list[float]:
    """The times the finish gate fired, from a task's history records."""
    return [
        float(record["at"])
        for record in records
        if record.get("stage") == "finish_gate" and record.get("action") == "fire"
    ]
