"""What the fake provider answers: scripted replies and faults, queued per detector or for a primary agent.

A test describes the model's side of a conversation as queues. Each detector
fork is recognised by the marker the fork engine writes at the head of its
private tail (``[detector: <id>]``, see :func:`sbcore.think.detector_marker`);
requests without a marker are a primary agent's (Claude Code's main loop, its
subagents, its session-title side call). An empty queue falls back to a
default: silent feedback for a detector, a short text for an agent.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, TypeAlias

from sbcore.think import FEEDBACK_TOOL

Route: TypeAlias = Literal["detector", "primary", "subagent", "title"]


@dataclass(frozen=True)
class Say:
    """A text block of a scripted reply."""

    text: str


@dataclass(frozen=True)
class Call:
    """A tool call in a scripted reply (the fake assigns its id)."""

    name: str
    input: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Reply:
    """One model reply: its blocks in order, and an optional extra delay before it is sent."""

    content: tuple[Say | Call, ...]
    delay_ms: int = 0

    @property
    def stop_reason(self) -> str:
        return "tool_use" if any(isinstance(block, Call) for block in self.content) else "end_turn"

    def calls(self, name: str) -> bool:
        return any(isinstance(block, Call) and block.name == name for block in self.content)


class FaultKind(StrEnum):
    RATE_LIMIT = "rate_limit"
    SERVER_ERROR = "server_error"
    TIMEOUT = "timeout"
    GARBAGE = "garbage"
    TRUNCATED = "truncated"


@dataclass(frozen=True)
class Fault:
    """A failure to stage instead of a reply.

    ``retry_after`` (seconds, sent as the Retry-After header) applies to
    RATE_LIMIT; ``status`` to SERVER_ERROR; ``hang_s`` is how long TIMEOUT holds
    the request before dropping the connection (set it past the client's timeout).
    """

    kind: FaultKind
    retry_after: float | None = None
    status: int = 500
    hang_s: float = 30.0


Step: TypeAlias = Reply | Fault


def text(value: str, *, delay_ms: int = 0) -> Reply:
    """A plain text reply (for a detector fork this means "no feedback call": the engine reads silence)."""
    return Reply((Say(value),), delay_ms)


def tool_call(
    name: str, arguments: Mapping[str, Any] | None = None, *, say: str = "", delay_ms: int = 0
) -> Reply:
    """A call to tool ``name``, optionally preceded by text."""
    blocks: tuple[Say | Call, ...] = (Say(say),) if say else ()
    return Reply((*blocks, Call(name, dict(arguments or {}))), delay_ms)


def feedback(verdict: str = "silent", *, delay_ms: int = 0, **fields: Any) -> Reply:
    """A call of the feedback tool: ``feedback("advise", headline=…, confidence=0.8)``."""
    return tool_call(FEEDBACK_TOOL, {"verdict": verdict, **fields}, delay_ms=delay_ms)


def rate_limit(retry_after: float | None = 0.0) -> Fault:
    """HTTP 429 with a Retry-After header (omitted when None)."""
    return Fault(FaultKind.RATE_LIMIT, retry_after=retry_after)


def server_error(status: int = 500) -> Fault:
    """An HTTP 5xx error body (500, 502, 503, 529 …)."""
    return Fault(FaultKind.SERVER_ERROR, status=status)


def timeout(hang_s: float = 30.0) -> Fault:
    """Hold the request for ``hang_s`` seconds (or until the fake stops), then drop the connection."""
    return Fault(FaultKind.TIMEOUT, hang_s=hang_s)


def garbage() -> Fault:
    """HTTP 200 whose body (or first stream event) is not valid JSON."""
    return Fault(FaultKind.GARBAGE)


def truncated() -> Fault:
    """HTTP 200 whose body or stream is cut off mid-way and the connection closed."""
    return Fault(FaultKind.TRUNCATED)


DEFAULT_DETECTOR_REPLY = feedback("silent")
DEFAULT_AGENT_REPLY = text("Done.")


class Scripts:
    """The queues, shared by the server's handler threads (every method takes the lock)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._detectors: dict[str, deque[Step]] = {}
        self._agents: dict[str, deque[Step]] = {"primary": deque(), "subagent": deque()}
        self._faults: deque[Fault] = deque()

    def add_detector(self, detector_id: str, steps: Iterable[Step]) -> None:
        with self._lock:
            self._detectors.setdefault(detector_id, deque()).extend(steps)

    def add_agent(self, route: Literal["primary", "subagent"], steps: Iterable[Step]) -> None:
        with self._lock:
            self._agents[route].extend(steps)

    def add_faults(self, faults: Iterable[Fault]) -> None:
        with self._lock:
            self._faults.extend(faults)

    def next(self, route: Route, detector: str | None) -> tuple[Step | None, bool]:
        """The step for a request: a staged fault first, then the route's queue; None means default.

        Returns the step and whether it came from a script (False for a default).
        """
        with self._lock:
            if self._faults:
                return self._faults.popleft(), True
            if route == "detector" and detector is not None:
                queue = self._detectors.get(detector)
            elif route in ("primary", "subagent"):
                queue = self._agents[route]
            else:
                queue = None
            if queue:
                return queue.popleft(), True
            return None, False

    def pending(self) -> dict[str, int]:
        """Scripted steps not consumed yet, by queue (``detector:<id>``, ``primary``, ``faults`` …)."""
        with self._lock:
            counts = {f"detector:{key}": len(queue) for key, queue in self._detectors.items() if queue}
            counts.update({key: len(queue) for key, queue in self._agents.items() if queue})
            if self._faults:
                counts["faults"] = len(self._faults)
            return counts
