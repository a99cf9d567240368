"""Request rendering and reply parsing of the two wire formats, without a server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from sbcore.think import FEEDBACK_TOOL, detector_marker
from sbcore.think.providers import (
    BadResponse,
    Message,
    Request,
    Response,
    ServerError,
    TextBlock,
    ToolResultBlock,
    ToolSpec,
    ToolUseBlock,
    Usage,
    anthropic,
    openai,
)
from sbcore.think.providers.base import ProviderConfigError, encode_body
from sbcore.think.providers.http import SseEvent, iter_sse, parse_retry_after

FEEDBACK = ToolSpec(
    FEEDBACK_TOOL,
    "Return this detector's verdict.",
    {"type": "object", "properties": {"verdict": {"type": "string"}}, "required": ["verdict"]},
)
READ = ToolSpec(
    "Read", "Read a file in the workspace.", {"type": "object", "properties": {"path": {"type": "string"}}}
)


def fork_request(
    detector: str, *, tools: tuple[ToolSpec, ...] = (FEEDBACK, READ), force: bool = False
) -> Request:
    window = (
        Message.user("[observations] the agent ran pytest three times"),
        Message.assistant("Noted."),
        Message.user("[observations] pytest failed again: tests/test_x.py:12"),
    )
    tail = Message.user(f"{detector_marker(detector)}\nLook for repeated failures. You have 8 s.")
    return Request(
        model="claude-haiku-4-5",
        system=("You watch a coding session.", "Workspace: /repo"),
        messages=(*window, tail),
        tools=tools,
        breakpoint=len(window) - 1,
        force_tool=FEEDBACK_TOOL if force else None,
        max_tokens=512,
    )


def prefix_bytes(body: dict[str, Any]) -> bytes:
    """The body bytes with the per-fork tail message removed."""
    trimmed = dict(body)
    trimmed["messages"] = body["messages"][:-1]
    return encode_body(trimmed)


# -- Anthropic rendering -----------------------------------------------------------------------


def test_anthropic_body_puts_breakpoints_on_last_system_block_and_last_prefix_block() -> None:
    body = anthropic.build_body(fork_request("repeat-failure"))
    assert [block.get("cache_control") for block in body["system"]] == [None, {"type": "ephemeral"}]
    marked = [
        (index, position)
        for index, message in enumerate(body["messages"])
        for position, block in enumerate(message["content"])
        if "cache_control" in block
    ]
    assert marked == [(2, 0)]
    assert "tool_choice" not in body
    assert "stream" not in body
    assert body["temperature"] == 0.0


def test_anthropic_forks_share_byte_identical_prefix() -> None:
    one = anthropic.build_body(fork_request("repeat-failure"))
    two = anthropic.build_body(fork_request("standard-questions", tools=(READ, FEEDBACK)))
    assert prefix_bytes(one) == prefix_bytes(two)
    assert encode_body(one) != encode_body(two)


def test_anthropic_body_is_deterministic_and_keeps_unicode() -> None:
    request = Request("m", ("système — ünïcode",), (Message.user("naïve café ✓"),))
    first, second = encode_body(anthropic.build_body(request)), encode_body(anthropic.build_body(request))
    assert first == second
    assert "naïve café ✓".encode() in first
    assert b" " not in first.replace("naïve café ✓".encode(), b"").replace("système — ünïcode".encode(), b"")


def test_anthropic_tools_sorted_by_name_and_forced_through_tool_choice() -> None:
    body = anthropic.build_body(fork_request("repeat-failure", force=True))
    assert [tool["name"] for tool in body["tools"]] == ["Read", FEEDBACK_TOOL]
    assert body["tool_choice"] == {"type": "tool", "name": FEEDBACK_TOOL}
    unforced = anthropic.build_body(fork_request("repeat-failure"))
    assert body["tools"] == unforced["tools"] and body["system"] == unforced["system"]


def test_anthropic_renders_tool_use_and_results() -> None:
    request = Request(
        "m",
        (),
        (
            Message.user("go"),
            Message.assistant("Reading.", ToolUseBlock("toolu_1", "Read", {"path": "a.py"})),
            Message.user(ToolResultBlock("toolu_1", "no such file", is_error=True), "continue"),
        ),
        tools=(READ,),
    )
    body = anthropic.build_body(request, stream=True)
    assert body["messages"][1]["content"] == [
        {"type": "text", "text": "Reading."},
        {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"path": "a.py"}},
    ]
    assert body["messages"][2]["content"][0] == {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": "no such file",
        "is_error": True,
    }
    assert body["stream"] is True
    assert "system" not in body


def test_anthropic_one_hour_ttl_and_invalid_ttl() -> None:
    body = anthropic.build_body(fork_request("repeat-failure"), cache_ttl_s=3600)
    assert body["system"][-1]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    with pytest.raises(ProviderConfigError, match=r"model\.cache_ttl"):
        anthropic.build_body(fork_request("repeat-failure"), cache_ttl_s=42)


def test_request_validation() -> None:
    with pytest.raises(ValueError, match="breakpoint"):
        Request("m", (), (Message.user("x"),), breakpoint=1)
    with pytest.raises(ValueError, match="force_tool"):
        Request("m", (), (Message.user("x"),), tools=(READ,), force_tool=FEEDBACK_TOOL)
    with pytest.raises(ValueError, match="duplicate"):
        Request("m", (), (Message.user("x"),), tools=(READ, READ))
    with pytest.raises(ValueError, match="at least one message"):
        Request("m", (), ())
    with pytest.raises(ValueError, match="role"):
        Message("system", (TextBlock("x"),))


# -- Anthropic parsing -------------------------------------------------------------------------


def test_anthropic_parse_message() -> None:
    reply = anthropic.parse_message(
        {
            "id": "msg_1",
            "type": "message",
            "model": "m",
            "content": [
                {"type": "thinking", "thinking": "hidden"},
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "t1", "name": FEEDBACK_TOOL, "input": {"verdict": "silent"}},
            ],
            "stop_reason": "tool_use",
            "usage": {
                "input_tokens": 10,
                "output_tokens": 5,
                "cache_read_input_tokens": 900,
                "cache_creation_input_tokens": 100,
            },
        }
    )
    assert reply.text == "Checking."
    assert reply.tool_use(FEEDBACK_TOOL) == ToolUseBlock("t1", FEEDBACK_TOOL, {"verdict": "silent"})
    assert reply.usage == Usage(10, 5, 900, 100)
    assert reply.usage.prompt_tokens == 1010
    assert reply.stop_reason == "tool_use"


@pytest.mark.parametrize(
    "payload",
    [
        [],
        {"type": "error"},
        {"type": "message", "content": "text"},
        {"type": "message", "content": [{"type": "text"}]},
        {"type": "message", "content": [{"type": "tool_use", "name": "x", "id": "1", "input": []}]},
    ],
)
def test_anthropic_parse_rejects_malformed(payload: object) -> None:
    with pytest.raises(BadResponse):
        anthropic.parse_message(payload)


async def _events(*pairs: tuple[str, object]) -> AsyncIterator[SseEvent]:
    for name, data in pairs:
        yield SseEvent(name, data if isinstance(data, str) else json.dumps(data))


def _stream(*pairs: tuple[str, object]) -> Response:
    return asyncio.run(anthropic.read_stream(_events(*pairs)))


START = (
    "message_start",
    {"type": "message_start", "message": {"id": "m1", "model": "m", "usage": {"input_tokens": 7}}},
)


def test_anthropic_stream_assembles_text_and_tool_input() -> None:
    reply = _stream(
        START,
        ("ping", {"type": "ping"}),
        (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}},
        ),
        (
            "content_block_delta",
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi "}},
        ),
        (
            "content_block_delta",
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "there"}},
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 1,
                "content_block": {"type": "tool_use", "id": "t", "name": "Read"},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": '{"pa'},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": 'th":"a"}'},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 1}),
        (
            "message_delta",
            {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}},
        ),
        ("message_stop", {"type": "message_stop"}),
    )
    assert reply.content == (TextBlock("Hi there"), ToolUseBlock("t", "Read", {"path": "a"}))
    assert reply.usage == Usage(input_tokens=7, output_tokens=9)


@pytest.mark.parametrize(
    ("pairs", "error"),
    [
        ((START,), BadResponse),  # no message_stop: truncated
        ((("content_block_start", {"type": "content_block_start", "index": 0}),), BadResponse),
        ((START, ("content_block_delta", "{not json")), BadResponse),
        (
            (START, ("content_block_delta", {"type": "content_block_delta", "index": 3, "delta": {}})),
            BadResponse,
        ),
        (
            (START, ("error", {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}})),
            ServerError,
        ),
    ],
    ids=["truncated", "delta-before-start", "garbage-event", "unknown-block", "error-event"],
)
def test_anthropic_stream_failures(pairs: tuple[tuple[str, object], ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        _stream(*pairs)


def test_anthropic_stream_with_broken_tool_json_is_bad_response() -> None:
    with pytest.raises(BadResponse, match="malformed JSON"):
        _stream(
            START,
            (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "tool_use", "id": "t", "name": "R"},
                },
            ),
            (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": '{"a'},
                },
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_stop", {"type": "message_stop"}),
        )


# -- OpenAI rendering and parsing --------------------------------------------------------------


def test_openai_body_renders_system_tools_and_tool_turns() -> None:
    request = Request(
        "llama3.1",
        ("one", "two"),
        (
            Message.user("go"),
            Message.assistant(ToolUseBlock("c1", "Read", {"path": "ä.py"})),
            Message.user(ToolResultBlock("c1", "boom", is_error=True), "and then?"),
        ),
        tools=(READ, FEEDBACK),
        breakpoint=0,
        force_tool=FEEDBACK_TOOL,
    )
    body = openai.build_body(request, stream=True)
    assert body["messages"] == [
        {"role": "system", "content": "one\n\ntwo"},
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "Read", "arguments": '{"path":"ä.py"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "ERROR: boom"},
        {"role": "user", "content": "and then?"},
    ]
    assert [tool["function"]["name"] for tool in body["tools"]] == ["Read", FEEDBACK_TOOL]
    assert body["tools"][1]["function"]["parameters"] == dict(FEEDBACK.input_schema)
    assert body["tool_choice"] == {"type": "function", "function": {"name": FEEDBACK_TOOL}}
    assert body["stream_options"] == {"include_usage": True}
    assert "cache_control" not in encode_body(body).decode()


def test_openai_forks_share_byte_identical_prefix() -> None:
    one = openai.build_body(fork_request("repeat-failure"))
    two = openai.build_body(fork_request("goal-drift", tools=(READ, FEEDBACK)))
    assert prefix_bytes(one) == prefix_bytes(two)


def test_openai_parse_completion_converts_cached_usage() -> None:
    reply = openai.parse_completion(
        {
            "id": "c",
            "model": "m",
            "choices": [
                {
                    "message": {
                        "content": "ok",
                        "tool_calls": [
                            {
                                "id": "k",
                                "function": {"name": FEEDBACK_TOOL, "arguments": '{"verdict":"advise"}'},
                            },
                            {"id": "j", "function": {"name": "Read", "arguments": {"path": "x"}}},
                        ],
                    },
                    "finish_reason": "tool_calls",
                }
            ],
            "usage": {
                "prompt_tokens": 2000,
                "completion_tokens": 12,
                "prompt_tokens_details": {"cached_tokens": 1536},
            },
        }
    )
    assert reply.text == "ok"
    assert [(call.name, dict(call.input)) for call in reply.tool_uses] == [
        (FEEDBACK_TOOL, {"verdict": "advise"}),
        ("Read", {"path": "x"}),
    ]
    assert reply.usage == Usage(input_tokens=464, output_tokens=12, cache_read_tokens=1536)
    assert reply.stop_reason == "tool_use"


@pytest.mark.parametrize(
    "payload",
    [
        "text",
        {"choices": []},
        {"choices": [{"message": "hi"}]},
        {"choices": [{"message": {"tool_calls": [{"function": {"name": "x", "arguments": "{oops"}}]}}]},
        {"choices": [{"message": {"tool_calls": [{"function": {"arguments": "{}"}}]}}]},
    ],
)
def test_openai_parse_rejects_malformed(payload: object) -> None:
    with pytest.raises(BadResponse):
        openai.parse_completion(payload)


def test_openai_error_in_a_200_is_a_server_error() -> None:
    with pytest.raises(ServerError):
        openai.parse_completion({"error": {"message": "model overloaded"}})


async def _data(*chunks: object) -> AsyncIterator[SseEvent]:
    for chunk in chunks:
        yield SseEvent("", chunk if isinstance(chunk, str) else json.dumps(chunk))


def test_openai_stream_assembles_pieces_and_requires_done() -> None:
    chunks = [
        {"id": "c", "model": "m", "choices": [{"delta": {"role": "assistant", "content": "He"}}]},
        {"choices": [{"delta": {"content": "llo"}}]},
        {
            "choices": [
                {
                    "delta": {
                        "tool_calls": [{"index": 0, "id": "k", "function": {"name": "Read", "arguments": ""}}]
                    }
                }
            ]
        },
        {"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": '{"path":'}}]}}]},
        {"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": '"b"}'}}]}}]},
        {"choices": [{"delta": {}, "finish_reason": "tool_calls"}]},
        {"choices": [], "usage": {"prompt_tokens": 30, "completion_tokens": 4}},
    ]
    reply = asyncio.run(openai.read_stream(_data(*chunks, "[DONE]")))
    assert reply.content == (TextBlock("Hello"), ToolUseBlock("k", "Read", {"path": "b"}))
    assert reply.usage == Usage(input_tokens=30, output_tokens=4)
    with pytest.raises(BadResponse, match=r"\[DONE\]"):
        asyncio.run(openai.read_stream(_data(*chunks)))
    with pytest.raises(BadResponse):
        asyncio.run(openai.read_stream(_data("{broken", "[DONE]")))


# -- transport helpers -------------------------------------------------------------------------


def test_iter_sse_groups_lines_and_drops_an_unterminated_tail() -> None:
    async def lines() -> AsyncIterator[str]:
        for line in [
            ": comment",
            "event: a",
            "data: 1",
            "data: 2",
            "",
            "data: x",
            "",
            "event: cut",
            "data: {",
        ]:
            yield line

    async def collect() -> list[SseEvent]:
        return [event async for event in iter_sse(lines())]

    assert asyncio.run(collect()) == [SseEvent("a", "1\n2"), SseEvent("", "x")]


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after": "3"}, 3.0),
        ({"retry-after": "0.25"}, 0.25),
        ({"retry-after-ms": "1500", "retry-after": "9"}, 1.5),
        ({"retry-after": "Thu, 01 Jan 1970 00:00:30 GMT"}, 20.0),
        ({"retry-after": "soon"}, None),
        ({}, None),
    ],
)
def test_parse_retry_after(headers: dict[str, str], expected: float | None) -> None:
    assert parse_retry_after(headers, now=lambda: 10.0) == expected


def test_a_reply_becomes_the_next_assistant_message() -> None:
    reply = Response((TextBlock("Reading."), ToolUseBlock("t", "Read", {"path": "a"})), "tool_use", Usage())
    message = reply.as_message()
    assert message.role == "assistant" and message.content == reply.content
    assert anthropic.build_body(Request("m", (), (Message.user("go"), message)))["messages"][1]["content"][
        1
    ] == {
        "type": "tool_use",
        "id": "t",
        "name": "Read",
        "input": {"path": "a"},
    }
    with pytest.raises(ValueError, match="at least one content block"):
        Response((), "end_turn", Usage()).as_message()
    assert Usage(1, 2, 3, 4) + Usage(10, 20, 30, 40) == Usage(11, 22, 33, 44)
