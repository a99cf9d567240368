"""The worker's side of the durable task ledger: save the task's judgment after each pass, rebuild from it.

A worker's window is memory; :mod:`sbcore.state.ledger` is the database. This module moves one into the
other. After every pass the task's goal, compaction summaries and advice (each detector's open advisories,
the outcomes detectors reported, the keys the gate suppressed) are written under the task id. When a worker
takes a task up — a restart after a crash, a standby taking over, a resume, the new side of a fork — the
fresh window starts from that ledger, then gets the most recent observations read back from the session's
spool (those earlier passes already covered, up to ``ledger.recent_chars``), so the next pass knows what the
task is about and what was just happening, instead of starting cold.

A database error never stops the worker: the ledger is derived state, and a failed write is logged and tried
again after the next pass.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sbcore.gate.memory import TaskMemory
from sbcore.observe.model import Observation
from sbcore.observe.reader import FileId
from sbcore.observe.spool import Spool
from sbcore.pace.clock import epoch_seconds
from sbcore.state import db
from sbcore.state import ledger as store
from sbcore.think.pass_ import PassEngine, PassResult

log = logging.getLogger("sbcore.worker")

GOAL_MAX_CHARS = 300


class LedgerLink:
    """One session's link to the ledgers of its tasks."""

    def __init__(self, data: Path, session_id: str, workspace: str, *, recent_chars: int = 20_000) -> None:
        self.path = db.db_path(data)
        self.session_id = session_id
        self.workspace = workspace
        self.recent_chars = recent_chars
        self._goal: str | None = None
        self._adjudicated: dict[str, store.AdviceNote] = {}

    # -- rebuilding -------------------------------------------------------------------------------

    @property
    def goal(self) -> str | None:
        """The current task's goal as this link knows it (from its ledger, or its first prompt)."""
        return self._goal

    def restore(
        self,
        task_id: str,
        engine: PassEngine,
        spool: Spool,
        upto: tuple[int, FileId | None],
        *,
        since: float = 0.0,
    ) -> str:
        """Rebuild ``engine``'s fresh window for ``task_id``: its ledger, then the recent observations.

        ``since`` (epoch seconds): the task began mid-session, at a new goal; the session's spool before
        it holds the previous task's work, which is not this task's. Returns what was restored, in words,
        for the log.
        """
        self._goal, self._adjudicated = None, {}
        found = self._load(task_id)
        if found is not None:
            self._goal = found.goal
            engine.window.restore(found.goal, found.facts, found.compactions)
            engine.passes = max(engine.passes, found.passes)
            for note in found.advice:
                if note.state == "adjudicated":
                    self._adjudicated[note.key] = note
                elif note.state == "open" and note.detector in engine.open_advisories:
                    engine.open_advisories[note.detector].append(
                        {"advice_id": note.key, "headline": note.text, "pass": found.passes}
                    )
        recent = recent_observations(spool, upto, self.recent_chars)
        if since:
            recent = [obs for obs in recent if _at(obs) >= since]
        if recent:
            engine.remember(recent)
            engine.window.append_episode(engine.passes, recent, reason="restored after a restart")
        if found is None and not recent:
            return f"task {task_id}: no ledger and no earlier observations, starting fresh"
        facts = len(found.facts) if found is not None else 0
        advice = len(found.advice) if found is not None else 0
        return (
            f"task {task_id}: window rebuilt from the ledger ({facts} summaries, {advice} advice notes, "
            f"goal {'known' if found is not None and found.goal else 'unknown'}) "
            f"and {len(recent)} recent observations"
        )

    def fork(self, source: str, target: str) -> bool:
        """Copy ``source``'s ledger to ``target`` (a fork); False when there was none or it failed."""
        try:
            with db.opened(self.path) as conn:
                return store.fork(store.prepare(conn), source, target, self.session_id, time.time())
        except sqlite3.Error as error:
            log.warning("ledger of %s not copied to %s: %s", source, target, error)
            return False

    # -- saving -----------------------------------------------------------------------------------

    def save(
        self, task_id: str, engine: PassEngine, memory: TaskMemory | None, result: PassResult | None
    ) -> None:
        """Write ``task_id``'s ledger as the engine and the gate hold it after a pass."""
        now = time.time()
        self._note_goal(engine.history)
        if result is not None:
            self._note_outcomes(result, now)
        window = engine.window
        advice: list[store.AdviceNote] = [
            store.AdviceNote(str(item["advice_id"]), detector, "open", str(item.get("headline") or ""), now)
            for detector, items in engine.open_advisories.items()
            for item in items
        ]
        advice += self._adjudicated.values()
        if memory is not None:
            advice += [
                store.AdviceNote(key, "gate", "suppressed", why, now)
                for key, why in memory.suppressed.items()
            ]
        record = store.Ledger(
            task_id=task_id,
            session_id=self.session_id,
            workspace=self.workspace,
            goal=window.goal or self._goal,
            facts=list(window.facts),
            advice=advice,
            passes=engine.passes,
            compactions=window.compactions,
        )
        try:
            with db.opened(self.path) as conn:
                store.save(store.prepare(conn), record, now)
        except sqlite3.Error as error:
            log.warning("ledger of task %s not saved (the next pass tries again): %s", task_id, error)

    def forget(self) -> None:
        """Drop what this link remembers between passes (``second-brain forget``)."""
        self._goal, self._adjudicated = None, {}

    def _load(self, task_id: str) -> store.Ledger | None:
        try:
            with db.opened(self.path) as conn:
                return store.load(store.prepare(conn), task_id)
        except sqlite3.Error as error:
            log.warning("ledger of task %s unreadable, starting without it: %s", task_id, error)
            return None

    def _note_goal(self, history: Sequence[Observation]) -> None:
        """The task's goal, until a compaction states it: its first prompt."""
        if self._goal is not None:
            return
        prompt = next((obs for obs in history if obs.kind == "prompt"), None)
        if prompt is not None:
            text = " ".join(prompt.text.removeprefix("[prompt]").split())
            self._goal = text if len(text) <= GOAL_MAX_CHARS else text[: GOAL_MAX_CHARS - 1] + "…"

    def _note_outcomes(self, result: PassResult, now: float) -> None:
        """What each detector said became of earlier advice (acted on, rejected …)."""
        for answer in result.results:
            feedback: Mapping[str, Any] = answer.feedback or {}
            for outcome in feedback.get("outcomes") or ():
                if not isinstance(outcome, Mapping) or not outcome.get("advice_id"):
                    continue
                key = str(outcome["advice_id"])
                text = str(outcome.get("verdict") or "")
                self._adjudicated[key] = store.AdviceNote(key, answer.detector, "adjudicated", text, now)


def recent_observations(spool: Spool, upto: tuple[int, FileId | None], chars: int) -> list[Observation]:
    """The newest observations of ``spool`` before byte ``upto`` (what passes covered), within ``chars``.

    Reads only the tail it needs; a line cut by the starting point is skipped.
    """
    offset, file_id = upto
    if chars <= 0 or offset <= 0:
        return []
    start = max(0, offset - 4 * chars)
    read = spool.read(start, max_bytes=offset - start, expect=file_id)
    if read.stats.gap:
        return []
    kept: list[Observation] = []
    total = 0
    for observation in reversed(read.observations):
        total += len(observation.text)
        if total > chars:
            break
        kept.append(observation)
    return kept[::-1]


def _at(observation: Observation) -> float:
    """When ``observation`` happened (epoch seconds; 0 when its timestamp is missing or unreadable)."""
    try:
        return epoch_seconds(observation.timestamp) if observation.timestamp else 0.0
    except ValueError:
        return 0.0
