"""The two wire formats as the fake server speaks them: request checks, routing, replies, streams.

Replies copy the shape of the real APIs closely enough that a client which
works against the fake works against the real thing: the Anthropic stream is
``message_start``, per block ``content_block_start`` / ``content_block_delta``
(``text_delta`` or ``input_json_delta``) / ``content_block_stop``, then
``message_delta`` with the stop reason and output usage, then ``message_stop``;
the OpenAI stream is ``chat.completion.chunk`` objects as ``data:`` lines, a
usage chunk when asked for, and ``data: [DONE]``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sbcore.testing.cache_accounting import CacheUsage, compact, estimate_tokens
from sbcore.testing.scripts import Call, Reply, Route, Say
from sbcore.think import DETECTOR_MARKER_RE, FEEDBACK_TOOL

MAX_BREAKPOINTS = 4
CHUNK_CHARS = 24

_ANTHROPIC_ROLES = {"user", "assistant", "system"}
_OPENAI_ROLES = {"system", "developer", "user", "assistant", "tool"}


def dumps(value: Any) -> bytes:
    return compact(value)


# -- routing -------------------------------------------------------------------------------------


def _texts(content: Any) -> list[str]:
    """Text of the text blocks of a message's content (tool results are not searched)."""
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [
        str(block.get("text", ""))
        for block in content
        if isinstance(block, dict) and block.get("type") == "text"
    ]


def _has_breakpoint(message: Any) -> bool:
    content = message.get("content") if isinstance(message, dict) else None
    return isinstance(content, list) and any(
        isinstance(block, dict) and "cache_control" in block for block in content
    )


def find_detector(messages: list[Any]) -> str | None:
    """The detector a fork request belongs to.

    Only user text after the last cache breakpoint is searched (the fork's
    private tail), from the newest message back, and the first marker in the
    first message that has one wins — so a marker quoted in the shared window or
    in a tool result cannot misroute a fork.
    """
    start = 0
    for index, message in enumerate(messages):
        if _has_breakpoint(message):
            start = index + 1
    for message in reversed(messages[start:]):
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        for chunk in _texts(message.get("content")):
            found = DETECTOR_MARKER_RE.search(chunk)
            if found:
                return found.group(1)
    return None


CLI_FEEDBACK_TOOL = f"mcp__sbcore__{FEEDBACK_TOOL}"
"""The feedback tool as the claude CLI offers it to a fork of the ``claude-code`` provider (over MCP)."""


def find_cli_detector(messages: list[Any]) -> str | None:
    """The detector of a fork run through the claude CLI, which puts its breakpoint on the newest block.

    The whole prompt is one user message there, so the search goes block by block from the newest user
    text back: the fork's tail comes after the shared window, and its marker is found before any quoted one.
    """
    for message in reversed(messages):
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        for chunk in reversed(_texts(message.get("content"))):
            found = DETECTOR_MARKER_RE.search(chunk)
            if found:
                return found.group(1)
    return None


def has_tool_result(body: Mapping[str, Any]) -> bool:
    """Whether the conversation already carries a tool result (the model called something before)."""
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and any(
            isinstance(block, dict) and block.get("type") == "tool_result" for block in content
        ):
            return True
    return False


def classify(body: Mapping[str, Any], headers: Mapping[str, str]) -> tuple[Route, str | None]:
    """Which script answers this request (see sbcore.testing.scripts)."""
    messages = body.get("messages")
    listed = messages if isinstance(messages, list) else []
    detector = find_detector(listed)
    if detector is None and CLI_FEEDBACK_TOOL in tool_names(body, openai=False):
        detector = find_cli_detector(listed)
    if detector is not None:
        return "detector", detector
    if body.get("tools"):
        return ("subagent" if "x-claude-code-agent-id" in headers else "primary"), None
    output_format = (
        body.get("output_config", {}).get("format") if isinstance(body.get("output_config"), dict) else None
    )
    if isinstance(output_format, dict) and output_format.get("type") == "json_schema":
        return "title", None
    return "primary", None


def tool_names(body: Mapping[str, Any], *, openai: bool) -> list[str]:
    names = []
    for tool in body.get("tools") or []:
        if not isinstance(tool, dict):
            continue
        holder = tool.get("function") if openai else tool
        if isinstance(holder, dict) and isinstance(holder.get("name"), str):
            names.append(holder["name"])
    return names


def forced_tool(body: Mapping[str, Any], *, openai: bool) -> str | None:
    choice = body.get("tool_choice")
    if not isinstance(choice, dict):
        return None
    if openai:
        function = choice.get("function")
        return (
            function.get("name") if choice.get("type") == "function" and isinstance(function, dict) else None
        )
    return choice.get("name") if choice.get("type") == "tool" else None


def honour_tool_choice(reply: Reply, forced: str | None) -> tuple[Reply, str]:
    """A forced tool is always called, as the real API guarantees; returns the reply and a note."""
    if forced is None or reply.calls(forced):
        return reply, ""
    arguments: dict[str, Any] = {"verdict": "silent"} if forced == FEEDBACK_TOOL else {}
    note = f"tool_choice forced {forced}: the scripted reply did not call it, so the fake called it"
    return Reply((Call(forced, arguments),), reply.delay_ms), note


# -- request checks (the 400s a real API would give) ---------------------------------------------


def check_anthropic(body: Any) -> str | None:
    """Why the real Messages API would reject this body, or None."""
    if not isinstance(body, dict):
        return "body must be a JSON object"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "model: field required"
    if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
        return "max_tokens: must be a positive integer"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in _ANTHROPIC_ROLES:
            return f"messages.{index}.role: must be one of user, assistant"
        if not isinstance(message.get("content"), str | list):
            return f"messages.{index}.content: must be a string or a list of blocks"
    names = tool_names(body, openai=False)
    if len(names) != len(body.get("tools") or []):
        return "tools: every tool needs a name"
    forced = forced_tool(body, openai=False)
    if forced is not None and forced not in names:
        return f"tool_choice: tool {forced!r} is not among the tools"
    if _count_breakpoints(body) > MAX_BREAKPOINTS:
        return f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided"
    return None


def _count_breakpoints(body: dict[str, Any]) -> int:
    blocks: list[Any] = list(body.get("tools") or [])
    if isinstance(body.get("system"), list):
        blocks += body["system"]
    for message in body.get("messages") or []:
        if isinstance(message.get("content"), list):
            blocks += message["content"]
    return sum(1 for block in blocks if isinstance(block, dict) and "cache_control" in block)


def check_openai(body: Any) -> str | None:
    """Why a chat completions server would reject this body, or None."""
    if not isinstance(body, dict):
        return "body must be a JSON object"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "model: field required"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in _OPENAI_ROLES:
            return f"messages[{index}].role: invalid role"
    names = tool_names(body, openai=True)
    forced = forced_tool(body, openai=True)
    if forced is not None and forced not in names:
        return f"tool_choice: function {forced!r} is not among the tools"
    return None


# -- replies -------------------------------------------------------------------------------------


def output_tokens(reply: Reply) -> int:
    total = 0
    for block in reply.content:
        total += (
            estimate_tokens(block.text)
            if isinstance(block, Say)
            else estimate_tokens(dumps(dict(block.input)))
        )
    return max(total, 1)


def anthropic_message(reply: Reply, *, seq: int, model: str, usage: CacheUsage) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    for index, block in enumerate(reply.content):
        if isinstance(block, Say):
            content.append({"type": "text", "text": block.text})
        else:
            ident = f"toolu_fake_{seq:04d}_{index}"
            content.append({"type": "tool_use", "id": ident, "name": block.name, "input": dict(block.input)})
    return {
        "id": f"msg_fake_{seq:06d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": reply.stop_reason,
        "stop_sequence": None,
        "usage": anthropic_usage(usage, output_tokens(reply)),
    }


def anthropic_usage(usage: CacheUsage, output: int) -> dict[str, Any]:
    return {
        "input_tokens": usage.input_tokens,
        "cache_creation_input_tokens": usage.cache_write_tokens,
        "cache_read_input_tokens": usage.cache_read_tokens,
        "cache_creation": {
            "ephemeral_5m_input_tokens": usage.cache_write_tokens - usage.cache_write_1h_tokens,
            "ephemeral_1h_input_tokens": usage.cache_write_1h_tokens,
        },
        "output_tokens": output,
        "service_tier": "standard",
    }


def sse(event: str | None, data: bytes) -> bytes:
    head = f"event: {event}\n".encode() if event else b""
    return head + b"data: " + data + b"\n\n"


def _pieces(value: str) -> list[str]:
    return [value[start : start + CHUNK_CHARS] for start in range(0, len(value), CHUNK_CHARS)] or [""]


def anthropic_events(message: dict[str, Any]) -> list[bytes]:
    """The streamed form of a non-streamed message, event by event."""
    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    events = [sse("message_start", dumps({"type": "message_start", "message": start}))]
    events.append(sse("ping", dumps({"type": "ping"})))
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            opening: dict[str, Any] = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": piece} for piece in _pieces(block["text"])]
        else:
            opening = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            arguments = dumps(block["input"]).decode("utf-8")
            deltas = [{"type": "input_json_delta", "partial_json": piece} for piece in _pieces(arguments)]
        events.append(
            sse(
                "content_block_start",
                dumps({"type": "content_block_start", "index": index, "content_block": opening}),
            )
        )
        for delta in deltas:
            events.append(
                sse(
                    "content_block_delta",
                    dumps({"type": "content_block_delta", "index": index, "delta": delta}),
                )
            )
        events.append(sse("content_block_stop", dumps({"type": "content_block_stop", "index": index})))
    closing = {
        "type": "message_delta",
        "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
        "usage": {"output_tokens": usage["output_tokens"]},
    }
    events.append(sse("message_delta", dumps(closing)))
    events.append(sse("message_stop", dumps({"type": "message_stop"})))
    return events


def anthropic_error(kind: str, message: str) -> bytes:
    return dumps({"type": "error", "error": {"type": kind, "message": message}})


def openai_completion(
    reply: Reply, *, seq: int, model: str, usage: CacheUsage, created: int
) -> dict[str, Any]:
    texts = [block.text for block in reply.content if isinstance(block, Say)]
    message: dict[str, Any] = {"role": "assistant", "content": "".join(texts) if texts else None}
    calls = [
        {
            "id": f"call_fake_{seq:04d}_{index}",
            "type": "function",
            "function": {"name": block.name, "arguments": dumps(dict(block.input)).decode("utf-8")},
        }
        for index, block in enumerate(reply.content)
        if isinstance(block, Call)
    ]
    if calls:
        message["tool_calls"] = calls
    return {
        "id": f"chatcmpl-fake-{seq:06d}",
        "object": "chat.completion",
        "created": created,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if calls else "stop",
                "logprobs": None,
            }
        ],
        "usage": openai_usage(usage, output_tokens(reply)),
    }


def openai_usage(usage: CacheUsage, output: int) -> dict[str, Any]:
    prompt = usage.prompt_tokens
    return {
        "prompt_tokens": prompt,
        "completion_tokens": output,
        "total_tokens": prompt + output,
        "prompt_tokens_details": {"cached_tokens": usage.cache_read_tokens},
    }


def openai_chunks(completion: dict[str, Any], *, include_usage: bool) -> list[bytes]:
    """A completion streamed: role, content pieces, tool-call pieces, finish, usage, ``[DONE]``."""
    base = {key: completion[key] for key in ("id", "created", "model")}
    base["object"] = "chat.completion.chunk"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return sse(None, dumps({**base, "choices": [choice]}))

    message = completion["choices"][0]["message"]
    chunks = [chunk({"role": "assistant", "content": ""})]
    for piece in _pieces(message["content"]) if message["content"] else []:
        chunks.append(chunk({"content": piece}))
    for index, call in enumerate(message.get("tool_calls", [])):
        function = call["function"]
        head = {"index": index, "id": call["id"], "type": "function", "function": {"name": function["name"]}}
        chunks.append(chunk({"tool_calls": [{**head, "function": {**head["function"], "arguments": ""}}]}))
        for piece in _pieces(function["arguments"]):
            chunks.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
    chunks.append(chunk({}, completion["choices"][0]["finish_reason"]))
    if include_usage:
        chunks.append(sse(None, dumps({**base, "choices": [], "usage": completion["usage"]})))
    chunks.append(sse(None, b"[DONE]"))
    return chunks


def openai_error(kind: str, message: str, code: str | None = None) -> bytes:
    return dumps({"error": {"message": message, "type": kind, "param": None, "code": code}})


def title_reply(title: str) -> Reply:
    return Reply((Say(json.dumps({"title": title})),))
