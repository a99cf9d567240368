"""A replay's totals: what every replayed session adds up to, for its summary and its ``--json``."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sbcore.conductor.replay import SessionReplay, estimate_cost
from sbcore.conductor.replay_text import detector_rows
from sbcore.packs.model import DetectorDef
from sbcore.think.providers.base import Usage


@dataclass
class Summary:
    """Totals over a replay."""

    files: int = 0
    passes: int = 0
    observations: int = 0
    verdicts: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    gate: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    """Per detector, what became of its ``advise`` verdicts: ``delivered``, ``soaked`` (a soaking detector's
    would-deliver) or the gate's drop reason."""
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    turn_ends: int = 0
    active_s: float = 0.0
    advised_at_turn_end: Counter[str] = field(default_factory=Counter)
    """Per detector, how many turn-end passes it advised in (its share of turn ends)."""
    detectors: Sequence[DetectorDef] = ()
    """The detectors replayed: each gets a row saying what it did, silent ones included."""
    raised: Counter[str] = field(default_factory=Counter)
    """Per detector, the passes its trigger raised or its fork crashed in."""
    raised_why: dict[str, str] = field(default_factory=dict)

    def add(self, session: SessionReplay) -> None:
        tally = session.tally
        self.files += 1
        self.passes += tally.passes
        self.observations += session.observations
        self.turn_ends += tally.turn_ends
        self.active_s += session.active_s
        self.advised_at_turn_end.update(tally.advised_at_turn_end)
        for name, counts in tally.verdicts.items():
            self.verdicts[name].update(counts)
        for name, counts in tally.gate.items():
            self.gate[name].update(counts)
        self.raised.update(tally.raised)
        for name, why in tally.raised_why.items():
            self.raised_why.setdefault(name, why)
        self.usage = self.usage + tally.usage

    @property
    def delivered(self) -> int:
        return sum(counts["delivered"] for counts in self.gate.values())

    @property
    def soaked(self) -> int:
        return sum(counts["soaked"] for counts in self.gate.values())

    @property
    def dropped(self) -> Counter[str]:
        """Advise verdicts the gate dropped, by reason, over every detector."""
        total: Counter[str] = Counter()
        for counts in self.gate.values():
            total.update({reason: n for reason, n in counts.items() if reason not in ("delivered", "soaked")})
        return total

    @property
    def cost(self) -> float | None:
        return estimate_cost(self.usage, self.model) if self.model else 0.0

    def to_json(self) -> dict[str, Any]:
        cost = self.cost
        return {
            "files": self.files,
            "passes": self.passes,
            "observations": self.observations,
            "verdicts": {
                name: dict(sorted(counts.items())) for name, counts in sorted(self.verdicts.items())
            },
            "gate": {
                "delivered": self.delivered,
                "soaked": self.soaked,
                "dropped": dict(sorted(self.dropped.items())),
                "by_detector": {
                    name: dict(sorted(counts.items())) for name, counts in sorted(self.gate.items())
                },
            },
            "usage": {
                "input_tokens": self.usage.input_tokens,
                "output_tokens": self.usage.output_tokens,
                "cache_read_tokens": self.usage.cache_read_tokens,
                "cache_write_tokens": self.usage.cache_write_tokens,
            },
            "estimated_cost_usd": None if cost is None else round(cost, 6),
            "model": self.model or None,
            "rates": {
                "active_hours": round(self.active_s / 3600, 3),
                "delivered_per_active_hour": self.per_active_hour(self.delivered),
                "soaked_per_active_hour": self.per_active_hour(self.soaked),
                "turn_ends": self.turn_ends,
                "advised_at_turn_ends": dict(sorted(self.advised_at_turn_end.items())),
            },
            "detectors": detector_rows(self, self.detectors),
            "raised": {
                name: {"passes": n, "first": self.raised_why.get(name, "")}
                for name, n in sorted(self.raised.items())
            },
        }

    def per_active_hour(self, count: int) -> float | None:
        return round(count / (self.active_s / 3600), 3) if self.active_s else None
