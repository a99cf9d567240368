"""What ``second-brain replay`` prints by default: the findings, then one summary a newcomer can read.

The per-pass view (every pass of every session, :func:`~sbcore.conductor.replay_output.render_pass`) is
what a detector author debugging a trigger wants, and ``--passes`` still prints it. A newcomer replaying
forty sessions wants the handful of things the observer would have said, where and why, and what each
detector did — including those that stayed quiet, soaked, or could not run without a model, which never
show in a pass line. So the default text is findings first (one line each, at most :data:`WIDTH` columns),
then the totals and a row per detector.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sbcore.think.providers.offline import SKIPPED_NO_MODEL

if TYPE_CHECKING:
    from sbcore.conductor.pipeline import Verdict
    from sbcore.packs.model import DetectorDef
    from sbcore.think.providers.base import Usage

WIDTH = 120
"""No default line is wider than this (a finding's headline is cut to fit)."""

MAX_FINDINGS = 25
"""Findings listed before the rest are only counted (``--passes`` shows every one)."""

SHOWN_OUTCOMES = ("delivered", "soaked", "log_only")
"""Which advise verdicts are findings: what reached someone, or would have. A duplicate the gate dropped
is counted in the summary, not listed again."""


class Totals(Protocol):
    """What the summary is rendered from (:class:`sbcore.conductor.replay_summary.Summary`)."""

    @property
    def files(self) -> int: ...
    @property
    def passes(self) -> int: ...
    @property
    def observations(self) -> int: ...
    @property
    def verdicts(self) -> Mapping[str, Counter[str]]: ...
    @property
    def gate(self) -> Mapping[str, Counter[str]]: ...
    @property
    def usage(self) -> Usage: ...
    @property
    def model(self) -> str: ...
    @property
    def turn_ends(self) -> int: ...
    @property
    def active_s(self) -> float: ...
    @property
    def advised_at_turn_end(self) -> Counter[str]: ...
    @property
    def detectors(self) -> Sequence[DetectorDef]: ...
    @property
    def delivered(self) -> int: ...
    @property
    def soaked(self) -> int: ...
    @property
    def dropped(self) -> Counter[str]: ...
    @property
    def cost(self) -> float | None: ...
    def per_active_hour(self, count: int) -> float | None: ...


@dataclass(frozen=True)
class Finding:
    """One advisory the replay would have given: who said it, what the gate made of it, and where."""

    detector: str
    outcome: str
    """``delivered``, ``soaked`` (a soaking detector's would-deliver) or ``log_only``."""
    headline: str
    timestamp: str | None
    line: int | None
    """The transcript line it was decided at (a pass the clock ran: the line that moved the clock)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "detector": self.detector,
            "outcome": self.outcome,
            "headline": self.headline,
            "timestamp": self.timestamp,
            "line": self.line,
        }


def finding(verdict: Verdict, outcome: str | None, timestamp: str | None, line: int | None) -> Finding | None:
    """``verdict`` as a finding, if the gate's ``outcome`` makes it one."""
    if outcome not in SHOWN_OUTCOMES:
        return None
    headline = verdict.result.headline or verdict.result.label
    return Finding(verdict.result.detector, outcome, headline, timestamp, line)


def fit(text: str, width: int) -> str:
    """``text`` on one line of at most ``width`` characters (cut with an ellipsis), its indent kept."""
    flat = " " * (len(text) - len(text.lstrip(" "))) + " ".join(text.split())
    return flat if len(flat) <= width else flat[: max(width - 1, 0)] + "…"


class FindingsWriter:
    """Prints each session's findings as the session ends, up to :data:`MAX_FINDINGS` in all."""

    def __init__(self, limit: int = MAX_FINDINGS) -> None:
        self.limit = limit
        self.shown = 0
        self.total = 0

    def session(self, path: Path, findings: Sequence[Finding]) -> list[str]:
        self.total += len(findings)
        lines: list[str] = []
        for item in findings:
            if self.shown >= self.limit:
                break
            if not lines:
                lines.append(fit(f"== {path.name}", WIDTH))
            lines.append(render_finding(item))
            self.shown += 1
        return lines

    def close(self) -> list[str]:
        if not self.total:
            return ["No findings: the observer would have said nothing in these sessions."]
        if self.total > self.shown:
            return [f"… and {self.total - self.shown} more findings (--passes shows every pass, --json all)"]
        return []


def render_finding(item: Finding) -> str:
    where = f"line {item.line}" if item.line is not None else "end"
    stamp = item.timestamp[11:16] if item.timestamp and len(item.timestamp) >= 16 else "--:--"
    head = f"  {where:>10}  {stamp}  {item.detector:<20} {item.outcome:<9}  "
    return head + fit(item.headline, WIDTH - len(head))


def detector_rows(summary: Totals, detectors: Sequence[DetectorDef]) -> list[dict[str, Any]]:
    """Per replayed detector: its mode and, in words, what it did over the replay."""
    rows = []
    for definition in sorted(detectors, key=lambda d: d.id):
        counts = summary.verdicts.get(definition.id, Counter())
        gate = summary.gate.get(definition.id, Counter())
        rows.append(
            {
                "detector": definition.id,
                "mode": "soaking" if definition.mode == "soak" else "advising",
                "did": _did(definition, counts, gate, summary.turn_ends),
                "verdicts": dict(sorted(counts.items())),
                "gate": dict(sorted(gate.items())),
            }
        )
    return rows


def _did(definition: DetectorDef, counts: Mapping[str, int], gate: Mapping[str, int], turn_ends: int) -> str:
    advised = counts.get("advise", 0)
    skipped = counts.get(SKIPPED_NO_MODEL, 0)
    failed = counts.get("failed", 0) + counts.get("timed out", 0)
    ran = sum(counts.values())
    parts = []
    if advised:
        kept = [f"{gate[name]} {name}" for name in SHOWN_OUTCOMES if gate.get(name)]
        dropped = sorted((n, reason) for reason, n in gate.items() if reason not in SHOWN_OUTCOMES)
        kept += [f"{n} dropped as {reason}" for n, reason in reversed(dropped)]
        outcomes = ", ".join(kept)
        fired = f"fired in {advised} pass{'es' if advised != 1 else ''}"
        parts.append(fired + (f" ({outcomes})" if outcomes else ""))
    if skipped:
        parts.append(f"needs a model ({skipped} passes skipped)")
    if failed:
        parts.append(f"failed or timed out in {failed} pass{'es' if failed != 1 else ''}")
    if not parts:
        if ran:
            parts.append(f"silent in {ran} pass{'es' if ran != 1 else ''}")
        elif definition.trigger is not None:
            parts.append(f"no match: its trigger {definition.trigger.name} never matched")
        else:
            parts.append("never asked")
    return "; ".join(parts)


def render_detectors(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    if not rows:
        return []
    width = max(len(row["detector"]) for row in rows) + 2
    lines = ["Detectors:"]
    for row in rows:
        head = f"  {row['detector']:<{width}}{row['mode']:<10}"
        lines.append(head + fit(row["did"], WIDTH - len(head)))
    return lines


def render_summary(summary: Totals) -> list[str]:
    """The totals after the findings: what was replayed, a row per detector, the gate, rates, cost."""
    hours = f", {summary.active_s / 3600:.2f} active session-hours" if summary.active_s else ""
    lines = [
        "",
        f"Summary: {summary.files} transcript(s), {summary.passes} passes, "
        f"{summary.observations:,} observations{hours}, {summary.turn_ends} turn ends",
    ]
    lines.extend(render_detectors(detector_rows(summary, summary.detectors)))
    if summary.gate:
        dropped = summary.dropped
        why = ", ".join(
            f"{n} {reason}" for reason, n in sorted(dropped.items(), key=lambda kv: (-kv[1], kv[0]))
        )
        soaked = f", {summary.soaked} soaked (would have been delivered)" if summary.soaked else ""
        lines.append(
            fit(
                f"Gate: {summary.delivered} advisories delivered{soaked}, {sum(dropped.values())} dropped"
                + (f" ({why})" if why else ""),
                WIDTH,
            )
        )
    if summary.active_s:
        soaked = f" ({summary.per_active_hour(summary.soaked)} soaked)" if summary.soaked else ""
        shares = ", ".join(
            f"{name} {n / summary.turn_ends:.1%}"
            for name, n in sorted(summary.advised_at_turn_end.items())
            if summary.turn_ends
        )
        lines.append(
            fit(
                f"Rates: {summary.per_active_hour(summary.delivered)} delivered per active hour{soaked}"
                + (f"; advised at turn ends: {shares}" if shares else ""),
                WIDTH,
            )
        )
    skipped = sum(counts[SKIPPED_NO_MODEL] for counts in summary.verdicts.values())
    if skipped:
        lines += [
            f"No model: {skipped} verdict(s) skipped; the structural detectors ran with their fallback "
            "advisories.",
            "  To replay with a model: --provider auto (an API key in the environment, else your logged-in",
            "  `claude` CLI), as the live observer chooses (model.provider auto; docs/providers.md).",
        ]
    u = summary.usage
    cost = summary.cost
    if not summary.model:
        priced = "$0.00 (offline: no model was called)"
    elif cost is None:
        priced = f"unknown (no price listed for {summary.model})"
    else:
        priced = f"${cost:.4f} ({summary.model}, list prices)"
    lines.append(
        f"Tokens: input {u.input_tokens:,}, output {u.output_tokens:,}, cache read {u.cache_read_tokens:,}, "
        f"cache write {u.cache_write_tokens:,}"
    )
    lines.append(f"Estimated cost: {priced}")
    return lines


def render_raised(raised: Mapping[str, int], first: Mapping[str, str], log: Path | None) -> list[str]:
    """One line per detector whose trigger raised or whose fork failed, with a count, and where the
    tracebacks went (each once)."""
    lines = []
    for name, count in sorted(raised.items()):
        head = f"Error: {name} failed in {count} pass{'es' if count != 1 else ''}: "
        lines.append(head + fit(first.get(name, ""), WIDTH - len(head)))
    if lines and log is not None:
        lines.append(f"  Tracebacks (each once): {log}")
    return lines
