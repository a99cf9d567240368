"""The types a detector pack meets: what a trigger returns, and the callbacks the hooks pass.

Kept apart from :mod:`sbcore.packs.hookspecs` (the hook specifications, which
need pluggy): a trigger module, a template test or the engine can use these
types without loading the plugin machinery. Pack authors import them from
:mod:`sbcore.api`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sbcore.observe.model import Observation


@dataclass(frozen=True)
class TriggerMatch:
    """What a structural trigger found: the ``match`` input of a detector's templates.

    key:
        stable identity of the finding (the same streak or gap keeps the same
        key across passes); fallbacks use it in ``dedup_key``.
    summary:
        one line a person can read in a log or a status listing.
    evidence:
        short lines the advisory may quote (timestamps, error heads, paths).
    data:
        trigger-specific structured fields, documented by each trigger.
    """

    key: str
    summary: str
    evidence: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def as_template_input(self) -> dict[str, Any]:
        """The plain mapping templates see as ``match`` (``match.key``, ``match.data.<field>``)."""
        return {
            "key": self.key,
            "summary": self.summary,
            "evidence": list(self.evidence),
            "data": dict(self.data),
        }


class TriggerFunc(Protocol):
    """A structural trigger: a pure check over the observations of a task.

    ``params`` are the detector's trigger params (validated against the params
    schema given at registration when the catalogue loaded; the schema's
    top-level ``default`` values fill in what the detector leaves out).
    ``state`` is a JSON-serialisable dict the host keeps per (task, detector)
    across passes, so a trigger can avoid re-reporting a finding it already
    reported. A trigger that also declares a ``config`` parameter receives the
    detector's effective ``config`` as a fourth, keyword argument (the host
    checks the signature once, at registration); one that declares ``peers``
    receives the other live tasks of the workspace from the cross-task index
    (:class:`~sbcore.state.taskindex.Peers`: their goals, named paths and
    symbols, and edited regions). Return ``None`` when nothing matches.
    """

    def __call__(
        self, observations: Sequence[Observation], params: Mapping[str, Any], state: dict[str, Any]
    ) -> TriggerMatch | None: ...


RegisterCatalogue = Callable[[Path], None]
RegisterTrigger = Callable[..., None]
RegisterTool = Callable[[str, Any], None]
RegisterProvider = Callable[[str, Callable[..., Any]], None]
RegisterMcpServer = Callable[[str, Mapping[str, Any]], None]


REPORTED_CAP = 64
"""How many reported keys :func:`report_once` remembers in a trigger's state (per task and detector)."""


def report_once(state: dict[str, Any], key: str) -> bool:
    """Record ``key`` as reported in a trigger's ``state``; False when it already was.

    A structural trigger is asked again at every pass over a history that still holds what it found
    before: this is how it says a finding once (the oldest keys lapse past :data:`REPORTED_CAP`).
    """
    reported: list[str] = state.setdefault("reported", [])
    if key in reported:
        return False
    reported.append(key)
    del reported[:-REPORTED_CAP]
    return True
