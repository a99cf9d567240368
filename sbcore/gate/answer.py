"""One detector's answer as the gate takes it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sbcore.gate.advice import HasText


@dataclass(frozen=True)
class GateInput:
    """One detector's answer and what the gate needs to judge it.

    feedback:
        the validated feedback_v1 record (verdict, headline, body, ...).
    observations_since:
        the observations that arrived after the window this answer was
        generated from (the staleness re-check reads them).
    generated_at:
        when the answer was generated (default: the gate's clock now).
    fork_id:
        the id the detector's later forks are shown this advisory under (the pass's ``open_id``); the
        outcome record a delivery opens is keyed by it, so a verdict naming it finds its advisory.
    """

    detector: str
    task_id: str
    feedback: Mapping[str, Any]
    observations_since: Callable[[], Iterable[HasText | str]] = lambda: ()
    generated_at: float | None = None
    fork_id: str | None = None
