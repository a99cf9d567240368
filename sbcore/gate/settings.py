"""The effective values the gate decides with, read from the configuration.

:class:`GateSettings` is what :class:`~sbcore.gate.gate.Gate` and its rules read; its ``finish_gate`` part
(:class:`FinishGateSettings`) is all the Stop hook needs. No defaults live here: the schema owns them.
Standard library only, like the rest of the gate: the hooks read these too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from sbcore.state.floors import DetectorLike, resolve, switches


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
