"""A fork's result: the feedback tool on the wire, validating what comes back, and the compact merge line.

Only the feedback record of a fork is merged into the shared window, as one short line per detector per pass
(design: "Feedback comes back into the window"); its tool calls and reasoning are discarded with the fork. A
reply that does not validate against the detector's own schema is read as silence, never patched up: an
invented field is worse than a missing answer.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from jsonschema import Draft202012Validator

from sbcore.packs.model import DetectorDef
from sbcore.packs.types import TriggerMatch
from sbcore.schemas import load_schema
from sbcore.think import FEEDBACK_TOOL
from sbcore.think.providers.base import ToolSpec, Usage
from sbcore.timebound import PatternTimeout, time_bound

log = logging.getLogger("sbcore.think.feedback")

FeedbackStatus = Literal[
    "answered", "prose", "invalid", "failed", "timeout", "skipped", "fallback", "untriggered"
]
"""How a fork ended.

answered: the feedback tool was called with valid input. prose: the model answered without calling it (read
as silent). invalid: the call did not validate against the detector's schema (read as silent, logged).
failed: a provider error, or the prompt could not be rendered. timeout: cancelled at deadline + grace.
skipped: no model, and no fallback to stand in (offline). fallback: offline, the rendered fallback advisory.
untriggered: only from :func:`~sbcore.conductor.scratch.detector_case`, a detector whose trigger did not match
(read as silent).
"""

_SCHEMA_META = ("$schema", "$id", "title")
LINE_HEADLINE_CHARS = 160
LINE_DETAIL_CHARS = 120

FEEDBACK_DESCRIPTION = (
    "Return this lens's verdict for this pass and end the answer. verdict: silent (nothing worth saying: "
    "the usual case), advise (raise a finding: give a headline, a short body, evidence, a confidence and a "
    "dedup_key), resolved (an advisory of yours was dealt with), still_open (one still applies, nothing new "
    "to add). stale_if: regexes that would show in later observations once the finding is handled. "
    "outcomes: what became of your open advisories."
)


@dataclass(frozen=True)
class ToolCall:
    """One tool call a fork made and what it got back (kept in the fork's result, never in the window)."""

    name: str
    input: Mapping[str, Any]
    result: str
    is_error: bool = False
    refused: bool = False


@dataclass(frozen=True)
class FeedbackResult:
    """What one detector produced in one pass.

    ``feedback`` is the validated feedback_v1 record (for ``prose`` and ``invalid`` a synthesized
    ``{"verdict": "silent"}``; None when the fork produced nothing: failed, timed out, skipped).
    """

    detector: str
    status: FeedbackStatus
    feedback: Mapping[str, Any] | None = None
    error: str | None = None
    iterations: int = 0
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    elapsed_s: float = 0.0
    match: TriggerMatch | None = None
    pilot: bool = False
    open_id: str | None = None
    """The id this answer's advisory is listed under in the detector's later tails (``advise`` only): the id
    its fork will use in ``outcomes``, so the gate keys the advisory's outcome record by it."""

    @property
    def verdict(self) -> str | None:
        return None if self.feedback is None else str(self.feedback.get("verdict"))

    @property
    def headline(self) -> str:
        value = None if self.feedback is None else self.feedback.get("headline")
        return value if isinstance(value, str) else ""

    @property
    def label(self) -> str:
        """The verdict as people read it: ``advise``, ``silent``, ``skipped: no model``, ``timed out`` …"""
        if self.status == "skipped":
            return self.error or "skipped"
        if self.status == "timeout":
            return "timed out"
        if self.status == "failed":
            return "failed"
        return self.verdict or "?"

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, stable key order; usage in tokens, elapsed time rounded to milliseconds."""
        out: dict[str, Any] = {"detector": self.detector, "status": self.status, "verdict": self.verdict}
        if self.feedback is not None:
            out["feedback"] = dict(self.feedback)
        if self.error:
            out["error"] = self.error
        out["iterations"] = self.iterations
        if self.tool_calls:
            out["tool_calls"] = [
                {"name": c.name, "input": dict(c.input), "is_error": c.is_error, "refused": c.refused}
                for c in self.tool_calls
            ]
        out["usage"] = usage_json(self.usage)
        if self.match is not None:
            out["match"] = {"key": self.match.key, "summary": self.match.summary}
        if self.pilot:
            out["pilot"] = True
        return out


def usage_json(usage: Usage) -> dict[str, int]:
    return {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cache_read_tokens": usage.cache_read_tokens,
        "cache_write_tokens": usage.cache_write_tokens,
    }


# -- the wire tool ----------------------------------------------------------------------------------------


def feedback_tool(detectors: Iterable[DetectorDef]) -> ToolSpec:
    """The feedback tool as offered to every fork of a pass.

    Its input schema is feedback_v1 plus the union of the extra properties the pass's detectors declare
    (sorted by name), so the one wire list stays identical across forks; each detector's answer is then
    validated against its own schema. A detector set using plain feedback_v1 gets exactly feedback_v1.
    """
    base = load_schema("feedback_v1")
    for key in _SCHEMA_META:
        base.pop(key, None)
    base["description"] = FEEDBACK_DESCRIPTION
    properties: dict[str, Any] = dict(base["properties"])
    extra: dict[str, Any] = {}
    for detector in sorted(detectors, key=lambda d: d.id):
        for name, spec in (detector.schema.get("properties") or {}).items():
            if name not in properties and name not in extra:
                extra[name] = spec
    for name in sorted(extra):
        properties[name] = extra[name]
    base["properties"] = properties
    return ToolSpec(FEEDBACK_TOOL, FEEDBACK_DESCRIPTION, base)


# -- validation -------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _validator(schema_json: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_json))


def validation_problems(schema: Mapping[str, Any], payload: object) -> list[str]:
    """Why ``payload`` is not a valid answer under ``schema`` (empty when it is), sorted by location."""
    if not isinstance(payload, Mapping):
        return [f"the feedback is a {type(payload).__name__}, not an object"]
    validator = _validator(json.dumps(schema, sort_keys=True))
    problems = []
    for error in sorted(
        validator.iter_errors(dict(payload)), key=lambda e: [str(p) for p in e.absolute_path]
    ):
        where = "/".join(str(part) for part in error.absolute_path)
        problems.append(f"{where}: {error.message}" if where else error.message)
    return problems


FEEDBACK_BOUND_S = 1.0
"""Wall-time bound on validating one feedback payload: the schema's patterns come from the detector's file."""


def check_feedback(detector: DetectorDef, payload: object) -> tuple[dict[str, Any] | None, str | None]:
    """``(feedback, None)`` when ``payload`` validates against the detector's schema, else ``(None, why)``."""
    try:
        with time_bound(FEEDBACK_BOUND_S, f"validating detector {detector.id!r}'s feedback"):
            problems = validation_problems(detector.schema, payload)
    except PatternTimeout as exc:
        problems = [str(exc)]
    if problems:
        why = "; ".join(problems[:3])
        log.warning("detector %s: invalid feedback read as silent: %s", detector.id, why)
        return None, why
    assert isinstance(payload, Mapping)
    return dict(payload), None


# -- the merge line ---------------------------------------------------------------------------------------


def merge_line(pass_number: int, when: str, result: FeedbackResult) -> str:
    """The one line a detector's result adds to the window, e.g.
    ``[pass 14 15:02] standard-questions → advise "no test run since first edit" (0.72, key tests:foo)``."""
    head = f"[pass {pass_number} {when}] {result.detector} →"
    if result.status == "timeout":
        return f"{head} no answer (timed out)"
    if result.status == "failed":
        return f"{head} no answer (failed: {_clip(result.error or 'unknown error', LINE_DETAIL_CHARS)})"
    if result.status == "skipped":
        return f"{head} {result.error or 'skipped'}"
    feedback = result.feedback or {}
    verdict = str(feedback.get("verdict", "silent"))
    line = f"{head} {verdict}"
    headline = feedback.get("headline")
    if isinstance(headline, str) and headline.strip() and verdict != "silent":
        line += f' "{_clip(headline, LINE_HEADLINE_CHARS)}"'
    details: list[str] = []
    ident: list[str] = []  # "0.72, key tests:foo", as the design writes it
    confidence = feedback.get("confidence")
    if isinstance(confidence, int | float) and verdict != "silent":
        ident.append(f"{float(confidence):.2f}")
    key = feedback.get("dedup_key")
    if isinstance(key, str) and key and verdict != "silent":
        ident.append(f"key {_clip(key, 80)}")
    if ident:
        details.append(", ".join(ident))
    evidence = feedback.get("evidence")
    if verdict != "advise" and isinstance(evidence, list) and evidence and isinstance(evidence[0], str):
        details.append(f"checked: {_clip(evidence[0], LINE_DETAIL_CHARS)}")
    outcomes = feedback.get("outcomes")
    if isinstance(outcomes, list) and outcomes:
        details.append(
            "outcomes: "
            + ", ".join(
                f"{o.get('advice_id')} {o.get('verdict')}" for o in outcomes[:4] if isinstance(o, Mapping)
            )
        )
    if result.status == "prose":
        details.append("no feedback call")
    elif result.status == "invalid":
        details.append(f"invalid feedback: {_clip(result.error or '', LINE_DETAIL_CHARS)}")
    if details:
        line += f" ({'; '.join(details)})"
    return line


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
