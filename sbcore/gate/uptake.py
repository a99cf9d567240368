"""Did it land? The outcome record every advisory delivered to the agent opens, and how it closes.

The design's loop (§Did it land?): a delivery opens a record; the detector that raised the advisory judges
it in a later fork (``outcomes`` of feedback_v1, naming the advisory by the id that fork was shown); the
record closes on the first verdict that cites evidence, or — when no such verdict comes within the
adjudication window (``adjudication.window_observations`` observations or ``adjudication.window_seconds``
after delivery, whichever lapses first) — as ``ignored`` (never mentioned) or ``no_evidence`` (mentioned,
never with a citation), or as ``unjudged`` when no fork of the detector that raised it ran on a model while it
was open (offline, a fallback delivered it and nothing could judge it; the task ended first): no evidence
either way is not a rejection. The uptake classes ``second-brain stats`` counts:

=========== ==============================================================================
acted       ``adopted``, ``partially_adopted``, ``already_handled`` (or a ``resolved`` answer), with evidence
rejected    ``rejected`` or ``contradicted``, with evidence (this also suppresses the key)
ignored     the window lapsed; the detector was asked (a model fork of it ran) and never mentioned it
no_evidence the window lapsed with only ``no_evidence`` or uncited verdicts
unjudged    the window lapsed and nothing could have judged it: never counted as landing or not landing
=========== ==============================================================================

Evidence or nothing: a verdict without a citation keeps the record open (design: ambiguity resolves against
the observer). Records are keyed by ``(detector, fork id)`` — the id the fork actually sees — which is the
pass's ``open_id`` (the detector's own ``dedup_key``, or ``<detector>@<pass>``), falling back to the gate's
advisory id for an advisory that came with none. Standard library only, like the rest of the gate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Uptake = Literal["acted", "rejected", "ignored", "no_evidence", "unjudged"]
UPTAKES: tuple[Uptake, ...] = ("acted", "rejected", "ignored", "no_evidence", "unjudged")
JUDGED: tuple[Uptake, ...] = ("acted", "rejected", "ignored", "no_evidence")
"""The classes that say whether advice landed: uptake rates and calibration count only these."""

ACTED_VERDICTS = frozenset({"adopted", "partially_adopted", "already_handled", "resolved"})
"""``resolved`` is a fork's own verdict (not an outcome): its advisory was dealt with."""
REJECTED_VERDICTS = frozenset({"rejected", "contradicted"})


def classify(verdict: object, evidence: object) -> Uptake | None:
    """The uptake an adjudicated verdict closes a record with; None when it leaves the record open."""
    if not evidence:
        return None
    if verdict in ACTED_VERDICTS:
        return "acted"
    if verdict in REJECTED_VERDICTS:
        return "rejected"
    return None


@dataclass
class OutcomeRecord:
    """One delivered advisory awaiting (or having received) its detector's verdict."""

    fork_id: str
    advice_id: str
    detector: str
    dedup_key: str
    confidence: float
    delivered_at: float
    observed_at: int
    """The task's observation count when the gate learnt of the delivery (the window counts from it)."""
    mentioned: bool = False
    asked: bool = False
    """A model fork of its detector ran while it was open, so it could have been judged."""
    uptake: Uptake | None = None
    verdict: str | None = None
    evidence: tuple[str, ...] = ()
    closed_at: float | None = None
    closed_by: Literal["verdict", "window"] | None = None

    @property
    def open(self) -> bool:
        return self.uptake is None

    def lapse(self, now: float, observed: int, *, observations: int, seconds: float) -> str | None:
        """Why the adjudication window has lapsed at ``now`` with ``observed`` observations, or None."""
        if not self.open:
            return None
        if observed - self.observed_at >= observations:
            return f"{observed - self.observed_at} observations since delivery, window {observations}"
        if now - self.delivered_at >= seconds:
            return f"{now - self.delivered_at:g} s since delivery, window {seconds:g} s"
        return None
