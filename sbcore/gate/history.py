"""The decision log: every gate decision, every claim, expiry and outcome, with its reason.

Standard library only: the drain hooks append claim records to it.

One JSONL file per task, ``<data>/history/<task>.jsonl`` (0600, directory
0700), appended with one ``O_APPEND`` write per record, so the worker and any
number of hook processes can write to it at once. It is the advice history the
design keeps on disk: ``/second-brain:why`` reads it, and the gate rebuilds
its memory (dedup, suppression, rate window, finish-gate firings) by folding
it from the start, which is how that memory survives a worker restart.

Every record has ``v``, ``at`` (POSIX seconds), ``stage`` (where it was
decided: ``gate``, ``post``, ``claim``, ``sweep``, ``outcome`` or
``finish_gate``), ``task_id``, ``session_id``, ``detector``, ``advice_id``,
``action``, ``reason`` (a :class:`Reason` or, for the finish gate, a
``FinishReason`` code) and ``text`` (the reason in words). Some carry more:
``advice`` (the envelope), ``route``, ``dedup_key``, ``slot_at``, ``by``,
``verdict``, ``evidence``; a decision on a soaking detector's answer carries ``soak: true``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from sbcore import paths

log = logging.getLogger("sbcore.gate")

VERSION = 1

Stage = Literal["gate", "post", "claim", "sweep", "outcome", "finish_gate"]


class Action(StrEnum):
    """What happened to an advisory: it went to the agent (and the user), to the user alone, or nowhere."""

    DELIVER_AGENT = "deliver_agent"
    DELIVER_HUMAN_ONLY = "deliver_human_only"
    SOAK = "soak"  # admitted for a soaking detector: logged as a would-deliver, never queued
    DROP = "drop"


class Reason(StrEnum):
    """Why. Each code is produced at exactly the stages named in its comment."""

    NOT_ADVISE = "not_advise"  # gate: the verdict was silent/resolved/still_open, no advisory
    NO_HEADLINE = "no_headline"  # gate: verdict advise, but nothing to say
    MUTED = "muted"  # gate: mute.all is on
    DETECTOR_MUTED = "detector_muted"  # gate: the detector is disabled
    BELOW_HUMAN_FLOOR = "below_human_floor"  # gate: too unsure even for the user
    SUPPRESSED = "suppressed"  # gate: its key was rejected or contradicted earlier in the task
    DUPLICATE_KEY = "duplicate_key"  # gate: same normalised dedup_key as a remembered advisory
    DUPLICATE_SIMILAR = "duplicate_similar"  # gate: headline+body too similar to a remembered one
    STALE = "stale"  # gate: a stale_if pattern matched an observation since generation
    RATE_LIMITED = "rate_limited"  # gate: gate.rate_per_hour agent deliveries in the last hour
    COOLDOWN = "cooldown"  # gate: less than gate.cooldown_s since the last agent delivery
    EXPIRED_TTL = "expired_ttl"  # gate, claim, sweep: gate.advice_ttl_s since generation
    EXPIRED_QUEUE = "expired_queue"  # claim, sweep: gate.queue_timeout_s since enqueue
    PASSED = "passed"  # gate: queued for the agent (and the user)
    HUMAN_ONLY = "human_only"  # gate: queued for the user alone (between the floors)
    SUPERSEDES = "supersedes"  # gate: queued in place of an undelivered one (same detector and key)
    SUPERSEDED = "superseded"  # post: replaced in the mailbox by a newer one
    SUPERSEDE_TARGET_GONE = "supersede_target_gone"  # post: the one to replace was claimed or dropped
    POST_FAILED = "post_failed"  # post: the mailbox could not be written (lock timeout, disk)
    CLAIMED = "claimed"  # claim: taken out of the mailbox for delivery
    STALE_AT_CLAIM = "stale_at_claim"  # claim: the re-check at claim time found it handled
    REVALIDATED_OUT = "revalidated_out"  # sweep: a starting worker's re-validation dropped it


def make_record(
    stage: Stage,
    *,
    at: float,
    task_id: str,
    session_id: str,
    detector: str,
    advice_id: str | None,
    action: str | None,
    reason: str | None,
    text: str,
    **extra: Any,
) -> dict[str, Any]:
    """One history record (see the module docstring for the fields)."""
    record: dict[str, Any] = {
        "v": VERSION,
        "at": at,
        "stage": stage,
        "task_id": task_id,
        "session_id": session_id,
        "detector": detector,
        "advice_id": advice_id,
        "action": None if action is None else str(action),
        "reason": None if reason is None else str(reason),
        "text": text,
    }
    record.update(extra)
    return record


class History:
    """One task's decision log."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def for_task(cls, task_id: str, data: Path | None = None) -> History:
        """The log of ``task_id`` under ``data`` (default: :func:`sbcore.paths.data_dir`)."""
        return cls((data or paths.data_dir()) / "history" / f"{paths.safe_name(task_id)}.jsonl")

    def record(self, record: Mapping[str, Any]) -> None:
        """Append one record (one write; a torn previous line stays a bad line of its own)."""
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        paths.append_private(self.path, line.encode() + b"\n", line_start=True)

    def read(self, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
        """Records from byte ``offset`` on, and the offset to continue from.

        A last line without its newline (a write in progress) is left for the
        next read; a line that is not a JSON object is skipped and logged. A
        missing file is no records.
        """
        try:
            with open(self.path, "rb") as handle:
                handle.seek(offset)
                chunk = handle.read()
        except FileNotFoundError:
            return [], offset
        end = chunk.rfind(b"\n") + 1
        records: list[dict[str, Any]] = []
        for number, raw in enumerate(chunk[:end].splitlines()):
            if not raw.strip():
                continue
            try:
                value = json.loads(raw)
            except ValueError:
                value = None
            if isinstance(value, dict):
                records.append(value)
            else:
                log.warning(
                    "%s: skipping unreadable history line %d after byte %d", self.path, number, offset
                )
        return records, offset + end
