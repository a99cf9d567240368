"""Anthropic Messages API (``POST /v1/messages``), streamed or not.

The renderer is where the cache discipline becomes bytes: tools first (sorted
by name, so the pass's union renders the same whichever detector listed a tool
first), then system blocks with a breakpoint on the last one, then messages with
a breakpoint on the last block of the shared prefix. The feedback tool is forced
through ``tool_choice``, which leaves the tools and system tiers of the cache
intact.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from sbcore.think.providers.base import (
    BadResponse,
    Block,
    KeyedEndpoint,
    ProviderConfigError,
    ProviderSettings,
    Request,
    Response,
    ServerError,
    StopReason,
    TextBlock,
    ToolUseBlock,
    Usage,
)
from sbcore.think.providers.http import (
    HttpProvider,
    SseEvent,
    as_dict,
    load_event,
    parse_tool_input,
    token_count,
)

API_VERSION = "2023-06-01"
DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_MODEL = "claude-haiku-4-5"
ENDPOINT = KeyedEndpoint(
    "anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", DEFAULT_MODEL, DEFAULT_BASE_URL
)

_TTL_LABELS = {300: "5m", 3600: "1h"}
_STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
}


def cache_control(cache_ttl_s: int | None = None) -> dict[str, str]:
    """The breakpoint marker; the default five-minute TTL is left implicit, as the API defaults it."""
    if cache_ttl_s is None or cache_ttl_s == 300:
        return {"type": "ephemeral"}
    label = _TTL_LABELS.get(cache_ttl_s)
    if label is None:
        raise ProviderConfigError(
            f"model.cache_ttl must be 300 or 3600 seconds for anthropic, not {cache_ttl_s}"
        )
    return {"type": "ephemeral", "ttl": label}


def render_block(block: Block) -> dict[str, Any]:
    if isinstance(block, TextBlock):
        return {"type": "text", "text": block.text}
    if isinstance(block, ToolUseBlock):
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": dict(block.input)}
    rendered: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": block.tool_use_id,
        "content": block.content,
    }
    if block.is_error:
        rendered["is_error"] = True
    return rendered


def build_body(request: Request, *, stream: bool = False, cache_ttl_s: int | None = None) -> dict[str, Any]:
    """The Messages API body for ``request``, in a fixed key order (see base.encode_body)."""
    marker = cache_control(cache_ttl_s)
    body: dict[str, Any] = {
        "model": request.model,
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
    }
    if request.tools:
        body["tools"] = [
            {"name": tool.name, "description": tool.description, "input_schema": dict(tool.input_schema)}
            for tool in sorted(request.tools, key=lambda tool: tool.name)
        ]
    if request.force_tool is not None:
        body["tool_choice"] = {"type": "tool", "name": request.force_tool}
    if request.system:
        system: list[dict[str, Any]] = [{"type": "text", "text": text} for text in request.system]
        if request.breakpoint is not None:
            system[-1]["cache_control"] = marker
        body["system"] = system
    messages = []
    for index, message in enumerate(request.messages):
        content = [render_block(block) for block in message.content]
        if index == request.breakpoint:
            content[-1]["cache_control"] = marker
        messages.append({"role": message.role, "content": content})
    body["messages"] = messages
    if stream:
        body["stream"] = True
    return body


def parse_usage(raw: Any) -> Usage:
    if not isinstance(raw, dict):
        return Usage()
    return Usage(
        input_tokens=token_count(raw.get("input_tokens")),
        output_tokens=token_count(raw.get("output_tokens")),
        cache_read_tokens=token_count(raw.get("cache_read_input_tokens")),
        cache_write_tokens=token_count(raw.get("cache_creation_input_tokens")),
    )


def parse_content(raw: Any) -> tuple[TextBlock | ToolUseBlock, ...]:
    """Content blocks of a reply; block types this client never asks for (thinking, …) are skipped."""
    if not isinstance(raw, list):
        raise BadResponse("reply has no content list")
    blocks: list[TextBlock | ToolUseBlock] = []
    for item in raw:
        if not isinstance(item, dict):
            raise BadResponse(f"content block is not an object: {item!r:.80}")
        kind = item.get("type")
        if kind == "text":
            if not isinstance(item.get("text"), str):
                raise BadResponse("text block without text")
            blocks.append(TextBlock(item["text"]))
        elif kind == "tool_use":
            name, ident, arguments = item.get("name"), item.get("id"), item.get("input", {})
            if not isinstance(name, str) or not isinstance(ident, str) or not isinstance(arguments, dict):
                raise BadResponse(f"malformed tool_use block: {item!r:.120}")
            blocks.append(ToolUseBlock(ident, name, arguments))
    return tuple(blocks)


def stop_reason(raw: Any) -> StopReason:
    return _STOP_REASONS.get(raw, "other") if isinstance(raw, str) else "other"


def parse_message(payload: Any) -> Response:
    """A non-streamed Messages API reply."""
    if not isinstance(payload, dict) or payload.get("type") != "message":
        raise BadResponse(f"not a Messages API reply: {str(payload)[:80]!r}")
    return Response(
        content=parse_content(payload.get("content")),
        stop_reason=stop_reason(payload.get("stop_reason")),
        usage=parse_usage(payload.get("usage")),
        model=str(payload.get("model", "")),
        id=str(payload.get("id", "")),
    )


async def read_stream(events: AsyncIterator[SseEvent]) -> Response:
    """Assemble a streamed reply; anything short of ``message_stop`` is a BadResponse."""
    message: dict[str, Any] | None = None
    blocks: dict[int, dict[str, Any]] = {}
    usage: dict[str, Any] = {}
    reason: Any = None
    async for event in events:
        payload = load_event(event)
        kind = payload.get("type", event.event)
        if kind == "error":
            error = as_dict(payload.get("error"))
            detail = str(error.get("message", ""))[:200]
            raise ServerError(f"stream error: {error.get('type', 'error')}: {detail}")
        if kind == "message_start":
            message = as_dict(payload.get("message"))
            usage.update(as_dict(message.get("usage")))
        elif message is None:
            if kind != "ping":
                raise BadResponse(f"stream event {kind!r} before message_start")
        elif kind == "content_block_start":
            blocks[_index(payload)] = {**as_dict(payload.get("content_block")), "_json": [], "_text": []}
        elif kind == "content_block_delta":
            block, delta = blocks.get(_index(payload)), as_dict(payload.get("delta"))
            if block is None:
                raise BadResponse("content_block_delta for a block that never started")
            if delta.get("type") == "text_delta":
                block["_text"].append(str(delta.get("text", "")))
            elif delta.get("type") == "input_json_delta":
                block["_json"].append(str(delta.get("partial_json", "")))
        elif kind == "message_delta":
            reason = as_dict(payload.get("delta")).get("stop_reason", reason)
            usage.update(as_dict(payload.get("usage")))
        elif kind == "message_stop":
            return Response(
                content=_finish_blocks(blocks),
                stop_reason=stop_reason(reason),
                usage=parse_usage(usage),
                model=str(message.get("model", "")),
                id=str(message.get("id", "")),
            )
    raise BadResponse("the stream ended before message_stop")


def _finish_blocks(blocks: dict[int, dict[str, Any]]) -> tuple[TextBlock | ToolUseBlock, ...]:
    content: list[TextBlock | ToolUseBlock] = []
    for index in sorted(blocks):
        block = blocks[index]
        if block.get("type") == "text":
            content.append(TextBlock(str(block.get("text", "")) + "".join(block["_text"])))
        elif block.get("type") == "tool_use":
            name = str(block.get("name", ""))
            arguments = parse_tool_input("".join(block["_json"]), tool=name) if block["_json"] else {}
            content.append(ToolUseBlock(str(block.get("id", "")), name, arguments))
    return tuple(content)


def _index(payload: dict[str, Any]) -> int:
    index = payload.get("index")
    if not isinstance(index, int):
        raise BadResponse(f"stream event {payload.get('type')!r} without an index")
    return index


class AnthropicProvider(HttpProvider):
    """Anthropic Messages over httpx; key from ``ANTHROPIC_API_KEY`` (or ``model.api_key_env``)."""

    name = ENDPOINT.name
    default_base_url = DEFAULT_BASE_URL

    def __init__(self, settings: ProviderSettings, **kwargs: Any) -> None:
        if not settings.api_key:
            raise ProviderConfigError("the anthropic provider needs an API key (ANTHROPIC_API_KEY)")
        cache_control(settings.cache_ttl_s)  # validate early, not on the first call
        super().__init__(settings, **kwargs)

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}/v1/messages"

    def headers(self) -> dict[str, str]:
        return {
            "content-type": "application/json",
            "accept": "application/json",
            "anthropic-version": API_VERSION,
            "x-api-key": self.settings.api_key.reveal(),
        }

    def wire_body(self, request: Request) -> dict[str, Any]:
        return build_body(request, stream=self.settings.stream, cache_ttl_s=self.settings.cache_ttl_s)

    def parse_body(self, payload: Any) -> Response:
        return parse_message(payload)

    async def parse_stream(self, events: AsyncIterator[SseEvent]) -> Response:
        return await read_stream(events)
