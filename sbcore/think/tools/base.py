"""What every tool a detector fork can call looks like, and how its output is bounded.

A tool is anything with a wire ``name``, a ``description``, a JSON Schema ``input_schema`` and an async
``call(args)`` returning a :class:`ToolResult`. The built-ins (Read, Grep, Glob, Run), pack-registered tools
and the MCP adapter's proxies all fit this one shape, so dispatch treats them alike. Results are plain text
because that is what a tool_result block carries; errors are results too (``is_error``), never exceptions, so
one broken tool cannot end a fork.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from sbcore.observe.redact import redact

WIRE_NAME_RE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
"""Tool names the provider APIs accept (Anthropic's rule; OpenAI's is the same set)."""

TRUNCATION_MARKER = "\n[… truncated: {} more characters not shown]"
"""Appended where output was cut, so the model knows the text is incomplete rather than short."""


@dataclass(frozen=True)
class ToolResult:
    """The text a tool call returns to the model.

    ``is_error`` marks a failed call (it becomes the tool_result's ``is_error``). ``refused`` additionally
    marks a call dispatch would not run at all — outside the caller's grant, an unknown tool, invalid
    arguments, a path outside the jail — so the engine can count refusals separately from tools that ran and
    failed.
    """

    text: str
    is_error: bool = False
    refused: bool = False

    @classmethod
    def error(cls, text: str) -> ToolResult:
        """A call that ran (or tried to) and failed."""
        return cls(text, is_error=True)

    @classmethod
    def refusal(cls, text: str) -> ToolResult:
        """A call that was not run because policy forbids it."""
        return cls(text, is_error=True, refused=True)


class Tool(Protocol):
    """A tool a detector may be granted. Packs registering tools (``register_tools``) implement this."""

    @property
    def name(self) -> str:
        """Wire name; must match :data:`WIRE_NAME_RE`."""
        ...

    @property
    def description(self) -> str:
        """What the tool does, for the model."""
        ...

    @property
    def input_schema(self) -> dict[str, Any]:
        """JSON Schema (an object schema) of the arguments; dispatch validates every call against it."""
        ...

    async def call(self, args: dict[str, Any]) -> ToolResult:
        """Run with already-validated ``args``: never write anything; bound your own time and output."""
        ...


class RemoteTool(Tool, Protocol):
    """A tool proxied from an MCP server: granted as ``mcp:<server>/<remote_name>``."""

    @property
    def server(self) -> str:
        """Configured server name."""
        ...

    @property
    def remote_name(self) -> str:
        """The tool's own name on that server (the wire name is derived from it)."""
        ...


class RemoteToolSource(Protocol):
    """What dispatch needs from the MCP hub, so dispatch itself never imports the MCP SDK."""

    def tools(self) -> list[RemoteTool]:
        """Tools of the servers currently available, sorted by wire name."""
        ...

    def unavailable(self) -> dict[str, str]:
        """Configured servers that are not available, mapped to the reason."""
        ...


class CallAnswers(Protocol):
    """What answers a call dispatch has allowed, in place of running it directly: a recording that keeps
    what ``run`` returns, or a replay that answers from the recording (:mod:`sbcore.think.recording`)."""

    async def answer(
        self, detector: str, tool: str, args: dict[str, Any], run: Callable[[], Awaitable[ToolResult]]
    ) -> ToolResult: ...


def wire_definition(tool: Tool) -> dict[str, Any]:
    """The provider-neutral tool definition sent on the wire: name, description, input_schema."""
    return {"name": tool.name, "description": tool.description, "input_schema": tool.input_schema}


def cap_text(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with a marker saying how much was dropped."""
    if len(text) <= limit:
        return text
    return text[:limit] + TRUNCATION_MARKER.format(len(text) - limit)


def finish_output(text: str, limit: int) -> str:
    """Redact, then cap: the order matters, so a secret straddling the cap cannot leak its prefix.

    Tool output goes to a third-party model just as the projected window does, so it gets the same redaction.
    """
    return cap_text(redact(text), limit)
