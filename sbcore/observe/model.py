"""The projected observation: the unit everything downstream reads.

An ``Observation`` is one thing the coding agent said or reached for, already
projected (capped, elided, locators kept) and redacted. ``text`` is what the
observer model reads; the structured fields exist so structural triggers
(repeat-failure, standard-questions, ...) can match without re-parsing text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

ObservationKind = Literal["prompt", "text", "tool", "error", "report"]


@dataclass(frozen=True, slots=True)
class Observation:
    """One projected, redacted observation.

    kind:
        ``prompt`` a user prompt; ``text`` assistant narration; ``tool`` a
        projected tool call; ``error`` the capped head of a failed tool result;
        ``report`` a subagent's final report (capped).
    text:
        the rendering the observer model reads (Appendix-A style).
    tool / tool_use_id:
        for tool, error and report observations, the tool name and the id that
        links a result back to its call.
    args:
        the projected arguments of a tool call (already capped and redacted),
        for structural triggers. Empty for other kinds.
    locators:
        paths and ``file:line`` tokens this observation carries, including the
        ones harvested from elided spans.
    outcome:
        for an ``error`` observation of a command tool, the small structured
        outcome read from its result (:mod:`sbcore.observe.outcome`: ``failed``,
        ``exit_code``, ``counts``, one redacted ``line``), the one thing taken
        from a result besides a failure's capped head. None otherwise.
    timestamp / uuid:
        copied from the transcript record (ISO-8601 string as written).
    """

    kind: ObservationKind
    text: str
    timestamp: str | None = None
    uuid: str | None = None
    tool: str | None = None
    tool_use_id: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    locators: tuple[str, ...] = ()
    outcome: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the spool's line format)."""
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        for name in ("timestamp", "uuid", "tool", "tool_use_id"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.args:
            out["args"] = self.args
        if self.locators:
            out["locators"] = list(self.locators)
        if self.outcome is not None:
            out["outcome"] = self.outcome
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Observation:
        """Inverse of :meth:`to_json`."""
        return cls(
            kind=data["kind"],
            text=data["text"],
            timestamp=data.get("timestamp"),
            uuid=data.get("uuid"),
            tool=data.get("tool"),
            tool_use_id=data.get("tool_use_id"),
            args=dict(data.get("args") or {}),
            locators=tuple(data.get("locators") or ()),
            outcome=dict(data["outcome"]) if isinstance(data.get("outcome"), dict) else None,
        )


_NEW = object.__new__
(_KIND, _TEXT, _TIMESTAMP, _UUID, _TOOL, _TOOL_USE_ID, _ARGS, _LOCATORS, _OUTCOME) = (
    getattr(Observation, name).__set__
    for name in ("kind", "text", "timestamp", "uuid", "tool", "tool_use_id", "args", "locators", "outcome")
)


def observed(
    kind: ObservationKind,
    text: str,
    timestamp: str | None,
    uuid: str | None,
    tool: str | None,
    tool_use_id: str | None,
    args: dict[str, Any],
    locators: tuple[str, ...],
    outcome: dict[str, Any] | None,
) -> Observation:
    """``Observation(kind, text, …)``, every field given, built through the slots' own setters.

    A frozen dataclass's ``__init__`` sets each field with ``object.__setattr__``, a generic attribute
    lookup per field: two microseconds an observation, and the projector builds one for nearly every
    record it keeps. Setting the slots directly costs half that, and the instance is the same (a test
    compares the two field by field)."""
    obs = _NEW(Observation)
    _KIND(obs, kind)
    _TEXT(obs, text)
    _TIMESTAMP(obs, timestamp)
    _UUID(obs, uuid)
    _TOOL(obs, tool)
    _TOOL_USE_ID(obs, tool_use_id)
    _ARGS(obs, args)
    _LOCATORS(obs, locators)
    _OUTCOME(obs, outcome)
    return obs
