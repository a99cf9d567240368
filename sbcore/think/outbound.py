"""The last step before a request leaves for a model provider: every string in it passes the redactor.

Observations are redacted when they are projected and tool results when the tools produce them, but a
request carries other text too: the observer's system prompt, the workspace block (paths), each detector's
rendered prompt (a template that may come from a workspace file, and that renders configuration values), the
tools' descriptions (an MCP server writes its own), and the model's own tool calls echoed back. Rather than
trust every producer, :func:`redacted` rebuilds the request with every string redacted, and the two places
that call a provider (the fork loop and compaction) send only what it returns.

Redaction is deterministic, so equal requests stay byte-identical after it and the forks' shared prefix stays
cacheable. The strings of the shared prefix are the same objects in every fork of a pass, so a small memo
makes redacting them once per pass, not once per fork and iteration (512 entries: about one window of
blocks; the strings it holds are bounded by the window and the tools' result caps).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from sbcore.observe.redact import redact
from sbcore.think.providers.base import (
    Block,
    Message,
    Provider,
    Request,
    Response,
    TextBlock,
    ToolResultBlock,
    ToolSpec,
    ToolUseBlock,
)


@lru_cache(maxsize=512)
def _text(text: str) -> str:
    return redact(text)


def _value(value: Any) -> Any:
    """``value`` with every string in it (keys included) redacted; other JSON values as they are."""
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, Mapping):
        return {_value(key): _value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_value(item) for item in value]
    return value


def _block(block: Block) -> Block:
    if isinstance(block, TextBlock):
        return TextBlock(_text(block.text))
    if isinstance(block, ToolResultBlock):
        return replace(block, content=_text(block.content))
    if isinstance(block, ToolUseBlock):
        return replace(block, input=_value(block.input))
    raise TypeError(f"unknown content block {type(block).__name__}")


def _tool(spec: ToolSpec) -> ToolSpec:
    return ToolSpec(
        name=spec.name, description=_text(spec.description), input_schema=_value(spec.input_schema)
    )


def redacted(request: Request) -> Request:
    """``request`` with its system blocks, messages and tool specs redacted (names and settings kept)."""
    return replace(
        request,
        system=tuple(_text(block) for block in request.system),
        messages=tuple(Message(m.role, tuple(_block(b) for b in m.content)) for m in request.messages),
        tools=tuple(_tool(spec) for spec in request.tools),
    )


async def send_redacted(provider: Provider, request: Request) -> Response:
    """Send ``request`` to ``provider`` with every string redacted: the only way sbcore calls a model."""
    return await provider.send(redacted(request))
