"""The soak report: per detector, how often it would speak and how often that would be useful.

Read from a soak log (:mod:`sbcore.conductor.soaklog`) and, optionally, a labels file written by
``second-brain label``. The would-fire rate is per active session-hour: a session's hours come from its
``hours`` record when a replay wrote one, else from its first to its last record (which undercounts the
sessions that never fired; docs/soak.md). A detector is ready to advise when at least
:data:`READY_SHARE` of at least :data:`READY_LABELLED` labelled would-fires were useful — the bar a detector
clears before it may speak.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

READY_SHARE = 0.70
READY_LABELLED = 50


@dataclass
class DetectorSoak:
    """One detector's soak figures."""

    detector: str
    would_fires: int = 0
    useful: int = 0
    not_useful: int = 0

    @property
    def labelled(self) -> int:
        return self.useful + self.not_useful

    @property
    def useful_share(self) -> float | None:
        return self.useful / self.labelled if self.labelled else None

    @property
    def ready(self) -> bool:
        share = self.useful_share
        return share is not None and self.labelled >= READY_LABELLED and share >= READY_SHARE


@dataclass
class SoakReport:
    """Every detector's figures and the session-hours they are measured over."""

    detectors: dict[str, DetectorSoak]
    session_hours: float
    sessions: int

    def rate(self, detector: str) -> float | None:
        """Would-fires per active session-hour (None when no time was measured)."""
        if not self.session_hours:
            return None
        return self.detectors[detector].would_fires / self.session_hours

    def to_json(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "session_hours": round(self.session_hours, 3),
            "bar": {"useful_share": READY_SHARE, "labelled": READY_LABELLED},
            "detectors": {
                name: {
                    "would_fires": item.would_fires,
                    "per_session_hour": None if (rate := self.rate(name)) is None else round(rate, 3),
                    "labelled": item.labelled,
                    "useful": item.useful,
                    "useful_share": None if item.useful_share is None else round(item.useful_share, 3),
                    "ready_to_advise": item.ready,
                }
                for name, item in sorted(self.detectors.items())
            },
        }


def build_report(
    records: Iterable[Mapping[str, Any]], labels: Iterable[Mapping[str, Any]] = ()
) -> SoakReport:
    """The report of soak log ``records`` and label cases ``labels`` (``expect: fire`` is useful)."""
    detectors: dict[str, DetectorSoak] = {}
    span: dict[str, list[float]] = defaultdict(list)
    measured: dict[str, float] = {}
    for record in records:
        session = str(record.get("session", ""))
        if record.get("kind") == "hours":
            measured[session] = measured.get(session, 0.0) + float(record.get("active_s") or 0.0)
            continue
        name = str(record["detector"])
        detectors.setdefault(name, DetectorSoak(name)).would_fires += 1
        if isinstance(record.get("at"), int | float):
            span[session].append(float(record["at"]))
    for case in labels:
        name = str(case.get("detector", ""))
        if not name:
            continue
        item = detectors.setdefault(name, DetectorSoak(name))
        if case.get("expect") == "fire":
            item.useful += 1
        elif case.get("expect") == "silent":
            item.not_useful += 1
    seconds = sum(measured.values()) + sum(
        max(times) - min(times) for session, times in span.items() if session not in measured
    )
    sessions = len(set(span) | set(measured))
    return SoakReport(dict(sorted(detectors.items())), seconds / 3600, sessions)


def render_report(report: SoakReport) -> list[str]:
    """The report as text, with the command that promotes each detector that cleared the bar."""
    lines = [
        f"Soak: {report.sessions} session(s), {report.session_hours:.2f} active session-hours; "
        f"bar: >= {READY_SHARE:.0%} useful on >= {READY_LABELLED} labelled would-fires",
        f"{'detector':<24}{'would-fires':>12}{'per hour':>10}{'labelled':>10}{'useful':>9}",
    ]
    for name, item in report.detectors.items():
        rate = report.rate(name)
        share = "-" if item.useful_share is None else f"{item.useful_share:.0%}"
        per_hour = "-" if rate is None else f"{rate:.2f}"
        lines.append(f"{name:<24}{item.would_fires:>12}{per_hour:>10}{item.labelled:>10}{share:>9}")
    for name, item in report.detectors.items():
        if item.ready:
            lines.append(f"{name}: ready to advise: second-brain config set detectors.{name}.mode advise")
        elif item.labelled < READY_LABELLED:
            lines.append(f"{name}: keep soaking: {item.labelled} of {READY_LABELLED} would-fires labelled")
        else:
            lines.append(f"{name}: keep soaking: {item.useful_share:.0%} useful, below {READY_SHARE:.0%}")
    return lines
