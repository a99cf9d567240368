"""What the gate remembers, as a fold over the tasks' history files.

Every decision, claim, expiry, finish-gate firing and outcome is a history record; memory is what folding
those records gives, so a restarted worker resumes with the memory it had and the drains' appends (claims,
expiries) reach it through :meth:`Fold.sync`. Per task: the remembered advisories
(:class:`~sbcore.gate.memory.TaskMemory`), the suppressed keys, the finish-gate firings, the outcome records;
per session: the agent deliveries that weigh on the rate window and the cooldown (``slots``).

The memory is bounded, because a worker may serve one task for days: :data:`ADVISORIES_KEPT` remembered
advisories a task (one still waiting is never forgotten) and as many suppressed keys; the rate window keeps
the agent deliveries of the last hour or cooldown, whichever is longer, plus any still waiting; only the
:data:`TASKS_KEPT` most recently used tasks stay in memory, an older one being folded again from its file
if it is ever needed. Every bound applies the same way live and when folding, so a restarted gate decides
like the one it replaces. Standard library only.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sbcore.gate.advice import Advice, normalise_key
from sbcore.gate.history import Action, History, Reason
from sbcore.gate.memory import Remembered, Route, TaskMemory
from sbcore.gate.similarity import tokens
from sbcore.gate.uptake import OutcomeRecord, classify

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


class Fold:
    """The gate's memory for one session: its tasks' (folded from their histories) and its rate slots.

    With ``history`` true, the memory of a task is restored from ``<data>/history/<task>.jsonl`` the first
    time the task is seen; without, it lives in memory only (simulations, benches).
    """

    def __init__(self, session_id: str, data: Path, *, history: bool) -> None:
        self.session_id = session_id
        self._data = data
        self._history = history
        self.tasks: dict[str, TaskMemory] = {}
        self.closed: list[tuple[str, OutcomeRecord]] = []  # outcome records closed since take_closed()
        self.slots: dict[str, float] = {}  # this session's agent advisories: id -> admission/delivery time

    def task(self, task_id: str) -> TaskMemory:
        """The memory of ``task_id`` (now the most recently used); the first time, restored from its history.

        With a history to fold again, the least recently used tasks beyond
        :data:`TASKS_KEPT` leave memory: a worker's earlier tasks (``/clear``)
        are over, and one that comes back is restored from its file.
        """
        task = self.tasks.pop(task_id, None)
        if task is None:
            task = TaskMemory()
        self.tasks[task_id] = task
        if self._history and task.history is None:
            task.history = History.for_task(task_id, self._data)
            records, task.offset = task.history.read(0)
            self._apply_all(records)
        if self._history:
            while len(self.tasks) > TASKS_KEPT:
                del self.tasks[next(iter(self.tasks))]
        return task

    def forget(self, task_id: str) -> None:
        """Drop the memory of ``task_id`` (``second-brain forget``): its history is gone, so is this."""
        self.tasks.pop(task_id, None)

    def sync(self) -> None:
        """Fold in what others appended to the known tasks' histories (claims, expiries, firings)."""
        for task in self.tasks.values():
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
        task = self.tasks.setdefault(task_id, TaskMemory())
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
            self.slots.pop(advice_id, None)
            successor, slot_at = record.get("by"), record.get("slot_at")
            if mine and isinstance(successor, str) and successor in task.entries and slot_at is not None:
                self.slots[successor] = float(slot_at)
        elif reason in FORGETTING or reason == Reason.POST_FAILED:
            task.entries.pop(advice_id, None)
            self.slots.pop(advice_id, None)
        elif reason == Reason.STALE_AT_CLAIM:
            if advice_id in task.entries:
                task.entries[advice_id].state = "dropped"
            self.slots.pop(advice_id, None)
        elif reason == Reason.CLAIMED:
            if advice_id in task.entries:
                task.entries[advice_id].state = "delivered"
                if record.get("action") == Action.DELIVER_AGENT:
                    self._open_outcome(task, record, advice_id)
            if mine and record.get("action") == Action.DELIVER_AGENT:
                self.slots[advice_id] = float(record["at"])

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
            self.slots[advice_id] = float(slot_at)
        if len(task.entries) > ADVISORIES_KEPT:
            # As the live gate saw it: it forgets lapsed waiting advisories before deciding.
            self.forget_lapsed(task, float(record["at"]))
        if len(task.entries) > ADVISORIES_KEPT:
            oldest = next((key for key, entry in task.entries.items() if entry.state != "pending"), None)
            if oldest is not None:
                del task.entries[oldest]

    def _apply_all(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Fold records read from a file, skipping (and logging) any that are not well formed."""
        for record in records:
            try:
                self.apply(record)
            except (KeyError, TypeError, ValueError) as error:
                log.warning("skipping malformed history record %r: %s", record, error)

    def forget_lapsed(self, task: TaskMemory, now: float) -> None:
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
                self.slots.pop(advice_id, None)

    def forget_old_slots(self, now: float, cooldown_s: float) -> None:
        """Drop agent deliveries that can no longer weigh on the rate window or the cooldown.

        One older than both the hour and ``gate.cooldown_s`` counts for
        neither; one whose advisory still waits in the mailbox is kept, since a
        superseding advisory inherits its slot.
        """
        horizon = max(HOUR, cooldown_s)
        old = [advice_id for advice_id, at in self.slots.items() if now - at >= horizon]
        if not old:
            return
        waiting = {
            advice_id
            for task in self.tasks.values()
            for advice_id, entry in task.entries.items()
            if entry.state == "pending"
        }
        for advice_id in old:
            if advice_id not in waiting:
                del self.slots[advice_id]

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
        self.closed.append((str(record.get("task_id")), found))

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

    def append(self, task: TaskMemory, record: dict[str, Any]) -> None:
        """Fold ``record`` into memory and append it to the task's history (best effort)."""
        self.apply(record)
        if task.history is not None:
            try:
                task.history.record(record)
            except OSError as error:  # memory has it; the log is best effort
                log.warning("history of task %s not written: %s", record.get("task_id"), error)

    def take_closed(self) -> list[tuple[str, OutcomeRecord]]:
        """The outcome records closed (live or folded from a history) since the last call, with their task."""
        taken, self.closed = self.closed, []
        return taken
