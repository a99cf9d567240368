"""The built-in observer's activity digest, rebuilt as the baseline ``measure`` compares to.

Claude Code ships an observer of its own (design, Appendix B, "What the observer
actually sees"). Its digest keeps assistant text whole, serializes each tool call's
input as JSON and caps it at 2,000 characters, caps each tool result at 2,000
characters, and keeps user messages whole; a cut is marked ``… [+N chars truncated]``.
Thinking is not included. This module applies those rules to the same records the
projector sees, so the two volumes can be compared on the same input in the same run.

The entry bodies are counted, not the built-in's ``<tool-call name="…">`` wrappers: the
comparison errs in the built-in's favour.
"""

from __future__ import annotations

import json
from typing import Any

from sbcore.observe.record_text import result_text

BUILTIN_CAP = 2000
"""The built-in digest's cap on a tool call's input JSON and on a tool result."""


def cap_builtin(text: str) -> str:
    """Cap ``text`` the way the built-in digest does."""
    if len(text) <= BUILTIN_CAP:
        return text
    return f"{text[:BUILTIN_CAP]}… [+{len(text) - BUILTIN_CAP} chars truncated]"


def input_json(tool_input: Any) -> str:
    """A tool call's input serialized as the CLI serializes it (compact JSON)."""
    return json.dumps(tool_input, ensure_ascii=False, separators=(",", ":"))


def builtin_entries(record: dict[str, Any]) -> list[tuple[str, str]]:
    """The built-in digest entries for one user/assistant record, as ``(segment, text)``.

    Segments are the ones ``measure`` reports: ``text`` (assistant text), ``args`` (tool
    calls), ``prompt`` (user messages) and ``result`` (tool results).
    """
    message = record.get("message")
    if not isinstance(message, dict):
        return []
    content = message.get("content")
    assistant = record.get("type") == "assistant"
    if isinstance(content, str):
        return [("text" if assistant else "prompt", content)] if content else []
    if not isinstance(content, list):
        return []
    entries: list[tuple[str, str]] = []
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str) and block["text"]:
            entries.append(("text" if assistant else "prompt", block["text"]))
        elif kind == "tool_use" and assistant:
            entries.append(("args", cap_builtin(input_json(block.get("input")))))
        elif kind == "tool_result" and not assistant:
            entries.append(("result", cap_builtin(result_text(block.get("content")))))
    return entries
