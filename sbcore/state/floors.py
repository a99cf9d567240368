"""What the hot snapshot records of each detector, as a type: its switch and its floors.

Apart from :mod:`sbcore.state.hot` so the hooks, which read only the
snapshot's names, do not pay for building a protocol class on every call; the
writer (:mod:`sbcore.config.hot`) and the gate import it.
"""

from __future__ import annotations

from typing import Protocol


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
