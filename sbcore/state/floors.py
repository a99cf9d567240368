"""Each detector's switch and floors: the type, and the one place they are resolved.

A detector's ``enabled``, ``confidence_floor`` and ``finish_gate_floor`` come from its definition (the
catalogue has applied the configuration's ``detectors.<id>.*`` overrides to it) and, where no catalogue
is at hand — ``config set`` refreshing the hooks' snapshot, a gate built from configuration alone — from
the last switches recorded with the overrides on top. :func:`switches` and :func:`resolve` are that
resolution, used by the gate (:class:`sbcore.gate.settings.GateSettings`) and the hot snapshot
(:mod:`sbcore.config.hot`) alike, so the two can never disagree about a detector.

Apart from :mod:`sbcore.state.hot` so the hooks, which read only the snapshot's names, do not pay for
building a protocol class on every call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from sbcore.state.hot import DETECTOR_KEYS


class DetectorLike(Protocol):
    """A detector's switch and floors, as the gate and the hot snapshot read them (``DetectorDef`` fits)."""

    @property
    def id(self) -> str: ...

    @property
    def enabled(self) -> bool: ...

    @property
    def confidence_floor(self) -> float | None: ...

    @property
    def finish_gate_floor(self) -> float | None: ...


def switches(detectors: Iterable[DetectorLike]) -> dict[str, dict[str, Any]]:
    """Each detector's switch and floors, as its definition has them (floors only when set)."""
    found: dict[str, dict[str, Any]] = {}
    for detector in detectors:
        fields: dict[str, Any] = {"enabled": bool(detector.enabled)}
        if detector.confidence_floor is not None:
            fields["confidence_floor"] = float(detector.confidence_floor)
        if detector.finish_gate_floor is not None:
            fields["finish_gate_floor"] = float(detector.finish_gate_floor)
        found[detector.id] = fields
    return found


def resolve(
    recorded: Mapping[str, Mapping[str, Any]], overrides: Mapping[str, Mapping[str, Any]] | None
) -> dict[str, dict[str, Any]]:
    """``recorded`` switches with the configuration's ``detectors.<id>`` ``overrides`` on top."""
    merged = {name: dict(fields) for name, fields in recorded.items()}
    for name, fields in (overrides or {}).items():
        chosen = {key: fields[key] for key in DETECTOR_KEYS if fields.get(key) is not None}
        if chosen:
            merged.setdefault(name, {}).update(chosen)
    return merged
