"""OpenAI-compatible chat completions (``POST {base_url}/chat/completions``), streamed or not.

One renderer serves api.openai.com and the servers that copy its wire format —
Ollama, vLLM, llama.cpp's server, OpenRouter — so it sticks to the fields they
all accept: ``max_tokens`` (not ``max_completion_tokens``), one joined system
message, function tools. These servers cache prefixes automatically, so the
request's breakpoint is not rendered; byte-stable ordering is all they need.

Usage is converted to the neutral meaning: ``prompt_tokens`` includes cached
tokens, so ``input_tokens = prompt_tokens - cached_tokens``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from sbcore.think.providers.base import (
    BadResponse,
    KeyedEndpoint,
    Message,
    ProviderConfigError,
    ProviderSettings,
    Request,
    Response,
    ServerError,
    StopReason,
    TextBlock,
    ToolResultBlock,
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

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MODEL = "gpt-4.1-mini"
ENDPOINT = KeyedEndpoint(
    "openai", "OPENAI_API_KEY", "OPENAI_BASE_URL", DEFAULT_MODEL, DEFAULT_BASE_URL, keyless_with_base_url=True
)

_FINISH_REASONS: dict[str, StopReason] = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
}


def render_messages(request: Request) -> list[dict[str, Any]]:
    """Neutral messages as chat messages: tool results become ``tool`` messages, tool uses ``tool_calls``."""
    rendered: list[dict[str, Any]] = []
    if request.system:
        rendered.append({"role": "system", "content": "\n\n".join(request.system)})
    for message in request.messages:
        rendered.extend(_render_message(message))
    return rendered


def _render_message(message: Message) -> list[dict[str, Any]]:
    texts = [block.text for block in message.content if isinstance(block, TextBlock)]
    if message.role == "assistant":
        calls = [
            {
                "id": block.id,
                "type": "function",
                "function": {
                    "name": block.name,
                    "arguments": json.dumps(dict(block.input), ensure_ascii=False, separators=(",", ":")),
                },
            }
            for block in message.content
            if isinstance(block, ToolUseBlock)
        ]
        out: dict[str, Any] = {"role": "assistant", "content": "".join(texts) if texts else None}
        if calls:
            out["tool_calls"] = calls
        return [out]
    results = [
        {
            "role": "tool",
            "tool_call_id": block.tool_use_id,
            "content": f"ERROR: {block.content}" if block.is_error else block.content,
        }
        for block in message.content
        if isinstance(block, ToolResultBlock)
    ]
    if texts:
        results.append({"role": "user", "content": "\n\n".join(texts)})
    return results


def build_body(request: Request, *, stream: bool = False) -> dict[str, Any]:
    """The chat completions body for ``request``, in a fixed key order (see base.encode_body)."""
    body: dict[str, Any] = {
        "model": request.model,
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
    }
    if request.tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": dict(tool.input_schema),
                },
            }
            for tool in sorted(request.tools, key=lambda tool: tool.name)
        ]
    if request.force_tool is not None:
        body["tool_choice"] = {"type": "function", "function": {"name": request.force_tool}}
    body["messages"] = render_messages(request)
    if stream:
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}
    return body


def parse_usage(raw: Any) -> Usage:
    if not isinstance(raw, dict):
        return Usage()
    prompt = token_count(raw.get("prompt_tokens"))
    cached = min(token_count(as_dict(raw.get("prompt_tokens_details")).get("cached_tokens")), prompt)
    return Usage(
        input_tokens=prompt - cached,
        output_tokens=token_count(raw.get("completion_tokens")),
        cache_read_tokens=cached,
    )


def finish_reason(raw: Any) -> StopReason:
    return _FINISH_REASONS.get(raw, "other") if isinstance(raw, str) else "other"


def parse_completion(payload: Any) -> Response:
    """A non-streamed chat completion."""
    if not isinstance(payload, dict):
        raise BadResponse(f"not a chat completion: {str(payload)[:80]!r}")
    if isinstance(payload.get("error"), dict | str):
        raise ServerError(f"error in a 2xx reply: {str(payload['error'])[:200]}")
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise BadResponse("chat completion without choices")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise BadResponse("chat completion choice without a message")
    content: list[TextBlock | ToolUseBlock] = []
    if isinstance(message.get("content"), str) and message["content"]:
        content.append(TextBlock(message["content"]))
    for call in message.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise BadResponse(f"malformed tool call: {call!r:.120}")
        arguments = function.get("arguments", "")
        if isinstance(arguments, dict):  # some servers send an object instead of a JSON string
            arguments = json.dumps(arguments)
        name = function["name"]
        arguments = parse_tool_input(str(arguments), tool=name)
        content.append(ToolUseBlock(str(call.get("id", "")), name, arguments))
    return Response(
        content=tuple(content),
        stop_reason=finish_reason(choices[0].get("finish_reason")),
        usage=parse_usage(payload.get("usage")),
        model=str(payload.get("model", "")),
        id=str(payload.get("id", "")),
    )


async def read_stream(events: AsyncIterator[SseEvent]) -> Response:
    """Assemble streamed chunks; a stream that stops before ``[DONE]`` is a BadResponse."""
    text: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    reason: Any = None
    usage: Any = None
    ident = model = ""
    async for event in events:
        if event.data.strip() == "[DONE]":
            content: list[TextBlock | ToolUseBlock] = [TextBlock("".join(text))] if text else []
            for index in sorted(calls):
                call = calls[index]
                arguments = parse_tool_input("".join(call["args"]), tool=call["name"])
                content.append(ToolUseBlock(call["id"], call["name"], arguments))
            return Response(tuple(content), finish_reason(reason), parse_usage(usage), model, ident)
        chunk = load_event(event)
        if "error" in chunk:
            raise ServerError(f"stream error: {str(chunk['error'])[:200]}")
        ident = str(chunk.get("id", ident))
        model = str(chunk.get("model", model))
        if isinstance(chunk.get("usage"), dict):
            usage = chunk["usage"]
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict):
                raise BadResponse(f"malformed stream choice: {choice!r:.80}")
            reason = choice.get("finish_reason") or reason
            delta = as_dict(choice.get("delta"))
            if isinstance(delta.get("content"), str):
                text.append(delta["content"])
            for part in delta.get("tool_calls") or []:
                _merge_call(calls, part)
    raise BadResponse("the stream ended before [DONE]")


def _merge_call(calls: dict[int, dict[str, Any]], part: Any) -> None:
    if not isinstance(part, dict) or not isinstance(part.get("index"), int):
        raise BadResponse(f"malformed streamed tool call: {part!r:.80}")
    call = calls.setdefault(part["index"], {"id": "", "name": "", "args": []})
    if part.get("id"):
        call["id"] = str(part["id"])
    function = as_dict(part.get("function"))
    if function.get("name"):
        call["name"] = str(function["name"])
    if isinstance(function.get("arguments"), str):
        call["args"].append(function["arguments"])


class OpenAIProvider(HttpProvider):
    """OpenAI-compatible chat completions over httpx.

    The key (``OPENAI_API_KEY`` or ``model.api_key_env``) is optional when a base
    URL points at a local server that needs none (Ollama, llama.cpp, vLLM).
    """

    name = ENDPOINT.name
    default_base_url = DEFAULT_BASE_URL

    def __init__(self, settings: ProviderSettings, **kwargs: Any) -> None:
        if not settings.api_key and not settings.base_url:
            raise ProviderConfigError(
                "the openai provider needs OPENAI_API_KEY, or OPENAI_BASE_URL for a server that needs no key"
            )
        super().__init__(settings, **kwargs)

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}/chat/completions"

    def headers(self) -> dict[str, str]:
        headers = {"content-type": "application/json", "accept": "application/json"}
        if self.settings.api_key:
            headers["authorization"] = f"Bearer {self.settings.api_key.reveal()}"
        return headers

    def wire_body(self, request: Request) -> dict[str, Any]:
        return build_body(request, stream=self.settings.stream)

    def parse_body(self, payload: Any) -> Response:
        return parse_completion(payload)

    async def parse_stream(self, events: AsyncIterator[SseEvent]) -> Response:
        return await read_stream(events)
