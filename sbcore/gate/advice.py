"""The advice envelope: one advisory, from the gate's decision to its outcome.

Standard library only: the drain hooks read envelopes out of the mailbox.

Times are POSIX seconds (``float``), because both expiry clocks are
differences between them and the gate runs on an injectable clock. Two fields
go beyond the design's table, and both exist for the same reason: the drain
hook cannot load configuration (that needs YAML and JSON Schema), so what it
needs to judge an envelope at claim time travels inside it:

* ``ttl`` is ``gate.advice_ttl_s`` as it was when the advisory was generated
  (the validity clock starts at ``generated_at``);
* ``queue_timeout`` is ``gate.queue_timeout_s`` likewise (the queue clock
  starts at ``enqueued_at``, stamped by :meth:`sbcore.deliver.mailbox.Mailbox.post`).

This module also holds the vocabulary both the worker and the drain share:
:func:`normalise_key` (what "the same dedup_key" means) and
:func:`stale_reason` (the ``stale_if`` re-check, run at gate time by the
worker and again at claim time by whoever drains the mailbox).
"""

from __future__ import annotations

import functools
import logging
import math
import re
import time
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal, Protocol

from sbcore.timebound import PatternTimeout, time_bound

log = logging.getLogger("sbcore.gate")

Clock = Literal["advice_ttl", "queue_timeout"]
"""Which expiry clock caught an advisory: validity (from generation) or queue (from enqueue)."""

OUTCOME_VERDICTS: frozenset[str] = frozenset(
    {"adopted", "partially_adopted", "rejected", "already_handled", "no_evidence", "contradicted"}
)
"""The outcome verdicts of feedback_v1 (``outcomes[].verdict``)."""

_TEXT_FIELDS = ("id", "task_id", "session_id", "workspace", "kind", "headline", "body", "dedup_key")
_LIST_FIELDS = ("evidence", "stale_if", "verdict_evidence")
_TIME_FIELDS = ("generated_at", "enqueued_at", "delivered_at")


@dataclass(frozen=True)
class Advice:
    """One advisory. Frozen: a change of state is a new value (``dataclasses.replace``).

    id, task_id, session_id, workspace:
        identity and routing; ``task_id`` scopes dedup and suppression.
    kind:
        the detector that produced it (its id).
    headline, body:
        already sanitised and capped by the gate (framing sanitises again).
    confidence:
        the detector's confidence, 0..1; decided the agent/human split.
    evidence:
        what the detector cites (``file:line``, commands, prior advisory ids).
    dedup_key:
        the semantic key, normalised (:func:`normalise_key`).
    stale_if:
        regular expressions; a match in a later observation means "already handled".
    human_only:
        shown to the user alone, never to the model.
    finish_gate:
        eligible to continue a turn the agent believes finished.
    generated_at, ttl:
        the validity clock: dead once ``now >= generated_at + ttl``.
    queue_timeout, enqueued_at:
        the queue clock: dead once ``now >= enqueued_at + queue_timeout``.
    supersedes:
        the id of an undelivered advisory this one replaced in the mailbox.
    delivered_at, verdict, verdict_evidence:
        filled when it is claimed and when its outcome is adjudicated.
    """

    id: str
    task_id: str
    session_id: str
    workspace: str
    kind: str
    headline: str
    body: str
    confidence: float
    dedup_key: str
    generated_at: float
    ttl: float
    queue_timeout: float
    evidence: tuple[str, ...] = ()
    stale_if: tuple[str, ...] = ()
    human_only: bool = False
    finish_gate: bool = False
    supersedes: str | None = None
    enqueued_at: float | None = None
    delivered_at: float | None = None
    verdict: str | None = None
    verdict_evidence: tuple[str, ...] = ()

    def expired_by(self, now: float) -> Clock | None:
        """The clock that has run out at ``now``, or ``None`` while both still run.

        When both have run out, the one that ran out first is named, so the
        record says what actually killed it.
        """
        deadlines: list[tuple[float, Clock]] = [(self.generated_at + self.ttl, "advice_ttl")]
        if self.enqueued_at is not None:
            deadlines.append((self.enqueued_at + self.queue_timeout, "queue_timeout"))
        lapsed = [(deadline, clock) for deadline, clock in deadlines if now >= deadline]
        return min(lapsed)[1] if lapsed else None

    def with_changes(self, **changes: Any) -> Advice:
        """A copy with some fields changed."""
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the mailbox's and the history's format)."""
        out: dict[str, Any] = {}
        for spec in fields(self):
            value = getattr(self, spec.name)
            out[spec.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Advice:
        """Inverse of :meth:`to_json`. Raises ``ValueError`` naming the first bad key."""
        if not isinstance(data, Mapping):
            raise ValueError(f"an advisory is a JSON object, not {type(data).__name__}")
        known = {spec.name for spec in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown key {unknown[0]!r}")
        values: dict[str, Any] = {}
        for name in _TEXT_FIELDS:
            values[name] = _text(data, name)
        for name in _LIST_FIELDS:
            values[name] = _strings(data, name)
        values["confidence"] = _number(data, "confidence", required=True, low=0.0, high=1.0)
        values["ttl"] = _number(data, "ttl", required=True, low=0.0)
        values["queue_timeout"] = _number(data, "queue_timeout", required=True, low=0.0)
        for name in _TIME_FIELDS:
            values[name] = _number(data, name, required=name == "generated_at")
        for name in ("human_only", "finish_gate"):
            flag = data.get(name, False)
            if not isinstance(flag, bool):
                raise ValueError(f"{name!r} must be true or false")
            values[name] = flag
        for name in ("supersedes", "verdict"):
            value = data.get(name)
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{name!r} must be a string or null")
            values[name] = value
        if values["verdict"] is not None and values["verdict"] not in OUTCOME_VERDICTS:
            raise ValueError(f"'verdict' must be one of {sorted(OUTCOME_VERDICTS)}")
        return cls(**values)


def _text(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str):
        raise ValueError(f"{name!r} must be a string")
    return value


def _strings(data: Mapping[str, Any], name: str) -> tuple[str, ...]:
    value = data.get(name, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"{name!r} must be a list of strings")
    return tuple(value)


def _number(
    data: Mapping[str, Any],
    name: str,
    *,
    required: bool,
    low: float | None = None,
    high: float | None = None,
) -> Any:
    value = data.get(name)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name!r} must be a finite number")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name!r} is {value}, outside [{low}, {high if high is not None else '∞'}]")
    return float(value)


# -- dedup keys ---------------------------------------------------------------------------------

_KEY_SEPARATORS = re.compile(r"[\s_-]+")


def normalise_key(key: str) -> str:
    """The form in which two dedup keys are compared: ``Tests Not_Run:svc/a`` is ``tests-not-run:svc/a``.

    NFKC and case folding make look-alike spellings equal; runs of spaces,
    underscores and hyphens are one separator. Everything else (``:``, ``/``,
    ``.``) is kept, because it usually carries the path that makes two
    findings different.
    """
    folded = unicodedata.normalize("NFKC", key).casefold().strip()
    return _KEY_SEPARATORS.sub("-", folded).strip("-")


# -- staleness ----------------------------------------------------------------------------------


class HasText(Protocol):
    """Anything with a ``text`` (an :class:`~sbcore.observe.model.Observation`)."""

    @property
    def text(self) -> str: ...


STALE_IF_LIMIT = 16
"""At most this many ``stale_if`` patterns are kept per advisory (the re-check runs in a hook)."""
STALE_IF_BOUND_S = 0.05
"""Wall-time bound on one stale_if search (a model writes the pattern; the drain hook runs it)."""
STALE_RECHECK_BUDGET_S = 0.5
"""Wall time all of one call's ``stale_if`` searches may take together (a hook claiming every queued
advisory): past it, the rest go unchecked and the advisories they belong to stay valid, since each was
checked when the gate queued it. Many slow patterns in many advisories must not hold a tool call past Claude
Code's hook limit, where a killed hook stores nothing and the next call would run the same searches again."""
STALE_IF_PROBES = ("a" * 4096 + "!", "aA1 " * 1024 + "\n!", "/" * 2048 + "x" * 2048 + "\u00e9")
"""Texts a queued ``stale_if`` pattern is tried against first: one that outlives its bound on any of them
backtracks catastrophically, and is dropped before it reaches a hook (shapes these miss stay under the
per-search bound and the call's budget)."""
STALE_IF_PATTERN_CAP = 300
"""A longer pattern is matched literally: long hand-written regexes are where backtracking blows up."""


@functools.lru_cache(maxsize=512)
def compile_stale_if(pattern: str) -> tuple[re.Pattern[str], bool]:
    """``(compiled, literal)``: an invalid or overlong pattern is matched as plain text.

    ``literal`` is true when the pattern could not be used as a regex; that is
    logged once per pattern (the cache makes it once) so a detector that
    writes bad patterns is visible rather than silently never matching.
    """
    if len(pattern) > STALE_IF_PATTERN_CAP:
        log.warning("stale_if pattern longer than %d characters, matched literally", STALE_IF_PATTERN_CAP)
        return re.compile(re.escape(pattern)), True
    try:
        return re.compile(pattern), False
    except re.error as error:
        log.warning("stale_if pattern %r is not a valid regex (%s); matched literally", pattern, error)
        return re.compile(re.escape(pattern)), True


def runs_away(pattern: str) -> bool:
    """Whether a ``stale_if`` pattern outlives its bound on one of :data:`STALE_IF_PROBES` (the gate drops
    it)."""
    regex, _ = compile_stale_if(pattern)
    try:
        for probe in STALE_IF_PROBES:
            with time_bound(STALE_IF_BOUND_S, f"stale_if pattern {pattern!r}"):
                regex.search(probe)
    except PatternTimeout:
        return True
    return False


def recheck_deadline() -> float:
    """The monotonic time by which one call's ``stale_if`` re-checks must be done
    (:data:`STALE_RECHECK_BUDGET_S`)."""
    return time.monotonic() + STALE_RECHECK_BUDGET_S


def stale_reason(
    advice: Advice, observations: Iterable[HasText | str], deadline: float | None = None
) -> str | None:
    """Why ``advice`` is already handled, judged from ``observations`` that arrived after it was generated.

    Each ``stale_if`` pattern is searched in each observation's text; the
    first match wins and is described (pattern and matched text). ``None``
    means still valid. This is the re-check the gate runs before queueing and
    the drain runs again at claim time, with whatever later observations each
    of them has. ``deadline`` (:func:`recheck_deadline`, shared by one call's
    re-checks): once it has passed, what is left goes unsearched and reads as
    no match.
    """
    if not advice.stale_if:
        return None
    compiled = [(pattern, compile_stale_if(pattern)[0]) for pattern in advice.stale_if]
    for observation in observations:
        text = observation if isinstance(observation, str) else observation.text
        for pattern, regex in compiled:
            bound = STALE_IF_BOUND_S
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    log.warning("stale_if re-checks out of time; the rest read as no match")
                    return None
                bound = min(bound, left)
            try:
                with time_bound(bound, f"stale_if pattern {pattern!r}"):
                    found = regex.search(text)
            except PatternTimeout as exc:
                log.warning("%s; read as no match", exc)
                continue
            if found:
                snippet = found.group(0)
                if len(snippet) > 80:
                    snippet = snippet[:77] + "..."
                return f"stale_if {pattern!r} matched {snippet!r}"
    return None
