"""The loopback fake provider: routing, scripts, faults, recording, request checks, wire shapes."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from sbcore.testing import (
    FAKE_API_KEY,
    FEEDBACK_TOOL,
    FakeProvider,
    detector_marker,
    feedback,
    garbage,
    rate_limit,
    server_error,
    text,
    timeout,
    tool_call,
    truncated,
)
from sbcore.think import DETECTOR_MARKER_RE

CORPUS = Path(__file__).resolve().parents[2] / "../shared/corpus/cli-2.1.328"
FEEDBACK_SPEC = {"name": FEEDBACK_TOOL, "description": "verdict", "input_schema": {"type": "object"}}
READ_SPEC = {"name": "Read", "description": "read", "input_schema": {"type": "object"}}


@pytest.fixture
def fake() -> Any:
    with FakeProvider() as server:
        yield server


def anthropic_body(
    *tail: str, window: tuple[str, ...] = ("[observations] ran pytest",), **extra: Any
) -> dict[str, Any]:
    """A fork-shaped Messages body: window messages, a breakpoint on the last one, then the tail."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": w}]} for w in window
    ]
    messages[-1]["content"][-1]["cache_control"] = {"type": "ephemeral"}
    messages += [{"role": "user", "content": [{"type": "text", "text": t}]} for t in tail]
    body: dict[str, Any] = {
        "model": "fake-model",
        "max_tokens": 256,
        "tools": [FEEDBACK_SPEC],
        "messages": messages,
    }
    body.update(extra)
    return body


def post(
    fake: FakeProvider, body: dict[str, Any], *, path: str = "/v1/messages", **headers: str
) -> httpx.Response:
    return httpx.post(fake.base_url + path, json=body, headers=headers, timeout=10)


def sse_events(raw: bytes) -> list[tuple[str, str]]:
    events = []
    for block in raw.decode().split("\n\n"):
        if not block.strip():
            continue
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((fields.get("event", ""), fields["data"]))
    return events


# -- routing --------------------------------------------------------------------------------------


def test_detector_scripts_are_keyed_by_the_marker_in_the_tail(fake: FakeProvider) -> None:
    fake.script("repeat-failure", feedback("advise", headline="retry loop"), text("second"))
    fake.script("goal-drift", feedback("resolved"))
    replies = [
        post(fake, anthropic_body(detector_marker(detector))).json()["content"]
        for detector in ("goal-drift", "repeat-failure", "repeat-failure", "repeat-failure")
    ]
    assert replies[0][0]["input"] == {"verdict": "resolved"}
    assert replies[1][0]["input"] == {"verdict": "advise", "headline": "retry loop"}
    assert replies[2] == [{"type": "text", "text": "second"}]
    assert replies[3][0]["input"] == {"verdict": "silent"}  # unscripted: the default silent feedback
    assert [record.scripted for record in fake.requests] == [True, True, True, False]
    assert [r.seq for r in fake.requests_for("repeat-failure")] == [2, 3, 4]
    assert fake.pending() == {}


def test_markers_in_the_shared_window_or_in_tool_results_are_ignored(fake: FakeProvider) -> None:
    fake.script("goal-drift", text("right fork"))
    body = anthropic_body(
        detector_marker("goal-drift"), window=(f"agent wrote {detector_marker('prior-art')}",)
    )
    body["messages"].append(
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t", "content": detector_marker("prior-art")}],
        }
    )
    assert post(fake, body).json()["content"] == [{"type": "text", "text": "right fork"}]
    assert fake.requests[0].detector == "goal-drift"


def test_openai_requests_route_by_the_last_user_marker(fake: FakeProvider) -> None:
    fake.script("standard-questions", feedback("advise", headline="no tests run"))
    body = {
        "model": "llama3.1",
        "tools": [{"type": "function", "function": {"name": FEEDBACK_TOOL, "parameters": {}}}],
        "messages": [
            {"role": "system", "content": "You watch."},
            {"role": "user", "content": "window"},
            {"role": "user", "content": f"{detector_marker('standard-questions')}\nAsk the checklist."},
            {"role": "assistant", "content": None, "tool_calls": []},
            {"role": "tool", "tool_call_id": "x", "content": detector_marker("prior-art")},
        ],
    }
    reply = post(fake, body, path="/v1/chat/completions").json()
    call = reply["choices"][0]["message"]["tool_calls"][0]
    assert call["function"]["name"] == FEEDBACK_TOOL
    assert json.loads(call["function"]["arguments"]) == {"verdict": "advise", "headline": "no tests run"}
    assert reply["choices"][0]["finish_reason"] == "tool_calls"


def test_primary_subagent_and_title_calls(fake: FakeProvider) -> None:
    fake.script_primary(tool_call("Bash", {"command": "pytest -q"}, say="Running tests."))
    fake.script_subagent(text("subagent report"))
    tools = [{"name": "Bash", "description": "shell", "input_schema": {"type": "object"}}]
    main = {
        "model": "claude-opus-5-5",
        "max_tokens": 100,
        "tools": tools,
        "messages": [{"role": "user", "content": "go"}],
    }
    first = post(fake, main).json()
    assert [block["type"] for block in first["content"]] == ["text", "tool_use"]
    assert first["content"][1]["input"] == {"command": "pytest -q"} and first["stop_reason"] == "tool_use"
    assert (
        post(fake, main, **{"x-claude-code-agent-id": "a1"}).json()["content"][0]["text"] == "subagent report"
    )
    assert post(fake, main).json()["content"] == [{"type": "text", "text": "Done."}]
    title_call = {
        "model": "claude-opus-5-5",
        "max_tokens": 100,
        "tools": [],
        "output_config": {"format": {"type": "json_schema", "schema": {"type": "object"}}},
        "messages": [{"role": "user", "content": "<session>\nfix the bug\n</session>"}],
    }
    title = post(fake, title_call).json()["content"][0]["text"]
    assert json.loads(title) == {"title": "Fake session"}
    assert [record.route for record in fake.requests] == ["primary", "subagent", "primary", "title"]


def test_unscripted_detector_without_the_feedback_tool_gets_text(fake: FakeProvider) -> None:
    body = anthropic_body(detector_marker("default"), tools=[READ_SPEC])
    assert post(fake, body).json()["content"] == [{"type": "text", "text": "Done."}]


def test_forced_tool_choice_is_honoured_like_the_real_api(fake: FakeProvider) -> None:
    fake.script("default", text("I think all is fine."))
    body = anthropic_body(detector_marker("default"), tool_choice={"type": "tool", "name": FEEDBACK_TOOL})
    content = post(fake, body).json()["content"]
    assert [(block["name"], block["input"]) for block in content] == [(FEEDBACK_TOOL, {"verdict": "silent"})]
    assert "tool_choice forced" in fake.requests[0].note


# -- faults ---------------------------------------------------------------------------------------


def test_faults_in_a_detector_script_hit_only_that_detector(fake: FakeProvider) -> None:
    fake.script("prior-art", rate_limit(2), server_error(529), feedback("silent"))
    assert post(fake, anthropic_body(detector_marker("goal-drift"))).status_code == 200
    limited = post(fake, anthropic_body(detector_marker("prior-art")))
    assert limited.status_code == 429 and limited.headers["retry-after"] == "2"
    assert limited.json()["error"]["type"] == "rate_limit_error"
    overloaded = post(fake, anthropic_body(detector_marker("prior-art")))
    assert overloaded.status_code == 529 and overloaded.json()["error"]["type"] == "overloaded_error"
    assert post(fake, anthropic_body(detector_marker("prior-art"))).status_code == 200
    assert [record.outcome for record in fake.requests] == ["reply", "rate_limit", "server_error", "reply"]


def test_injected_faults_come_before_any_script(fake: FakeProvider) -> None:
    fake.script_primary(text("scripted"))
    fake.inject(server_error(502), rate_limit(None))
    body = {
        "model": "m",
        "max_tokens": 5,
        "tools": [READ_SPEC],
        "messages": [{"role": "user", "content": "x"}],
    }
    assert post(fake, body).status_code == 502
    no_header = post(fake, body)
    assert no_header.status_code == 429 and "retry-after" not in no_header.headers
    assert post(fake, body).json()["content"][0]["text"] == "scripted"


def test_openai_error_bodies(fake: FakeProvider) -> None:
    fake.inject(rate_limit(1))
    reply = post(
        fake, {"model": "m", "messages": [{"role": "user", "content": "x"}]}, path="/v1/chat/completions"
    )
    assert reply.status_code == 429 and reply.json()["error"]["type"] == "rate_limit_error"


@pytest.mark.parametrize("stream", [False, True])
def test_garbage_and_truncated_replies(fake: FakeProvider, stream: bool) -> None:
    body = anthropic_body(detector_marker("default"), stream=stream)
    fake.inject(garbage())
    broken = post(fake, body)
    assert broken.status_code == 200
    with pytest.raises(ValueError):
        json.loads(broken.content if not stream else sse_events(broken.content)[0][1])
    fake.inject(truncated())
    with pytest.raises(httpx.RemoteProtocolError):
        post(fake, body)
    assert [record.outcome for record in fake.requests] == ["garbage", "truncated"]


def test_timeout_holds_the_request_and_stop_releases_it() -> None:
    fake = FakeProvider().start()
    fake.inject(timeout(hang_s=60))
    with pytest.raises(httpx.ReadTimeout):
        post_with_timeout(fake, 0.2)
    started = time.monotonic()
    fake.stop()
    assert time.monotonic() - started < 5  # well short of the 60 s hang


def post_with_timeout(fake: FakeProvider, seconds: float) -> httpx.Response:
    return httpx.post(fake.base_url + "/v1/messages", json=anthropic_body("x"), timeout=seconds)


def test_latency_delays_every_answer() -> None:
    with FakeProvider(latency_ms=150) as fake:
        fake.script("default", feedback("silent", delay_ms=100))
        started = time.monotonic()
        post(fake, anthropic_body(detector_marker("default")))
        assert time.monotonic() - started >= 0.25


def test_concurrent_requests_are_served_in_parallel() -> None:
    """Two held requests are in flight at once: the second is answered while the first still hangs."""
    with FakeProvider() as fake:
        fake.script("prior-art", feedback("silent", delay_ms=1500))
        slow = threading.Thread(target=post, args=(fake, anthropic_body(detector_marker("prior-art"))))
        slow.start()
        deadline = time.monotonic() + 5
        while not fake.requests and time.monotonic() < deadline:
            time.sleep(0.01)
        assert post(fake, anthropic_body(detector_marker("goal-drift"))).status_code == 200
        assert slow.is_alive()
        slow.join()


# -- request checks -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"max_tokens": 5, "messages": [{"role": "user", "content": "x"}]}, "model"),
        ({"model": "m", "messages": [{"role": "user", "content": "x"}]}, "max_tokens"),
        ({"model": "m", "max_tokens": 5, "messages": []}, "messages"),
        ({"model": "m", "max_tokens": 5, "messages": [{"role": "robot", "content": "x"}]}, "role"),
        (
            anthropic_body("x", tool_choice={"type": "tool", "name": "Write"}),
            "tool_choice: tool 'Write' is not among the tools",
        ),
        (
            anthropic_body("x", window=("a", "b", "c", "d", "e"), system=[{"type": "text", "text": "s"}])
            | {
                "messages": [
                    {
                        "role": "user",
                        "content": [{"type": "text", "text": c, "cache_control": {"type": "ephemeral"}}],
                    }
                    for c in "abcde"
                ]
            },
            "A maximum of 4 blocks with cache_control",
        ),
    ],
    ids=["no-model", "no-max-tokens", "no-messages", "bad-role", "unknown-forced-tool", "five-breakpoints"],
)
def test_bodies_the_real_api_rejects_get_a_400(
    fake: FakeProvider, body: dict[str, Any], message: str
) -> None:
    reply = post(fake, body)
    assert reply.status_code == 400
    assert reply.json()["error"]["type"] == "invalid_request_error"
    assert message in reply.json()["error"]["message"]
    assert fake.requests[0].outcome == "rejected" and message in fake.requests[0].note


def test_invalid_json_unknown_paths_and_gets(fake: FakeProvider) -> None:
    assert httpx.post(fake.base_url + "/v1/messages", content=b"{nope").status_code == 400
    assert post(fake, anthropic_body("x"), path="/v2/complete").status_code == 404
    assert httpx.get(fake.base_url + "/v1/models").status_code == 404
    bad_openai = post(
        fake, {"model": "m", "messages": [{"role": "narrator", "content": "x"}]}, path="/chat/completions"
    )
    assert bad_openai.status_code == 400 and "role" in bad_openai.json()["error"]["message"]
    assert [record.outcome for record in fake.requests] == ["rejected", "rejected", "rejected"]


# -- recording and wire shapes --------------------------------------------------------------------


def test_every_request_is_recorded_verbatim(fake: FakeProvider) -> None:
    body = anthropic_body(detector_marker("default"))
    raw = json.dumps(body).encode()
    httpx.post(
        fake.base_url + "/v1/messages?beta=true", content=raw, headers={"x-api-key": "k", "X-Custom": "1"}
    )
    (record,) = fake.requests
    assert record.raw == raw and record.body == body
    assert record.query == "beta=true" and record.path == "/v1/messages" and record.api == "anthropic"
    assert record.headers["x-api-key"] == "k" and record.headers["x-custom"] == "1"
    assert record.usage is not None and record.usage.input_tokens > 0
    assert record.reply is not None and record.reply.calls(FEEDBACK_TOOL)


def test_anthropic_stream_has_the_real_event_sequence(fake: FakeProvider) -> None:
    fake.script(
        "default", tool_call("Read", {"path": "a" * 40}, say="Let me read the module first, then decide.")
    )
    reply = post(fake, anthropic_body(detector_marker("default"), stream=True))
    assert reply.headers["content-type"].startswith("text/event-stream")
    events = sse_events(reply.content)
    names = [name for name, _ in events]
    assert names[:2] == ["message_start", "ping"]
    assert names[-2:] == ["message_delta", "message_stop"]
    assert names.count("content_block_start") == names.count("content_block_stop") == 2
    deltas = [json.loads(data)["delta"] for name, data in events if name == "content_block_delta"]
    assert (
        "".join(d["text"] for d in deltas if d["type"] == "text_delta")
        == "Let me read the module first, then decide."
    )
    partial = "".join(d["partial_json"] for d in deltas if d["type"] == "input_json_delta")
    assert json.loads(partial) == {"path": "a" * 40}
    assert len([d for d in deltas if d["type"] == "input_json_delta"]) > 1
    start = json.loads(events[0][1])["message"]
    assert start["content"] == [] and set(start["usage"]) >= {
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
    }
    final = json.loads(events[-2][1])
    assert final["delta"]["stop_reason"] == "tool_use" and final["usage"]["output_tokens"] > 0


def test_openai_stream_has_chunks_usage_and_done(fake: FakeProvider) -> None:
    fake.script("default", feedback("advise", headline="h" * 60))
    body = {
        "model": "m",
        "stream": True,
        "stream_options": {"include_usage": True},
        "messages": [{"role": "user", "content": detector_marker("default")}],
    }
    reply = post(fake, body, path="/v1/chat/completions")
    datas = [data for _, data in sse_events(reply.content)]
    assert datas[-1] == "[DONE]"
    chunks = [json.loads(data) for data in datas[:-1]]
    assert {chunk["object"] for chunk in chunks} == {"chat.completion.chunk"}
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["prompt_tokens_details"] == {
        "cached_tokens": 0
    }
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls"
    arguments = "".join(
        part["function"].get("arguments", "")
        for chunk in chunks[:-1]
        for part in chunk["choices"][0]["delta"].get("tool_calls", [])
    )
    assert json.loads(arguments) == {"verdict": "advise", "headline": "h" * 60}


def test_env_points_clients_at_the_fake(fake: FakeProvider) -> None:
    assert fake.env() == {"ANTHROPIC_BASE_URL": fake.base_url, "ANTHROPIC_API_KEY": FAKE_API_KEY}
    assert fake.env("openai") == {"OPENAI_BASE_URL": fake.base_url + "/v1", "OPENAI_API_KEY": FAKE_API_KEY}
    assert fake.base_url.startswith("http://127.0.0.1:")


def test_base_url_needs_a_running_server() -> None:
    with pytest.raises(RuntimeError, match="not running"):
        _ = FakeProvider().base_url


def test_detector_marker_round_trips() -> None:
    marker = detector_marker("cross-task-collision")
    assert marker == "[detector: cross-task-collision]"
    found = DETECTOR_MARKER_RE.search(f"head\n{marker}\nrest")
    assert found is not None and found.group(1) == "cross-task-collision"
    with pytest.raises(ValueError):
        detector_marker("Not An Id")


@pytest.mark.corpus
def test_a_real_claude_code_request_is_served_as_the_primary_agent(fake: FakeProvider) -> None:
    recorded = CORPUS / "request_first_full.json"
    if not recorded.exists():
        pytest.skip("the shared corpus is not available")
    request = json.loads(recorded.read_text())
    fake.script_primary(
        tool_call("Bash", {"command": "echo hi", "description": "say hi"}, say="I will run it.")
    )
    headers = {
        name: request["headers"][name] for name in ("user-agent", "anthropic-version", "anthropic-beta")
    }
    reply = httpx.post(
        f"{fake.base_url}{request['path']}?{request['query']}",
        content=json.dumps(request["body"]).encode(),
        headers={**headers, "x-api-key": FAKE_API_KEY, "content-type": "application/json"},
        timeout=10,
    )
    assert reply.status_code == 200, reply.text
    events = sse_events(reply.content)
    assert events[-1][0] == "message_stop"
    tool_start = [json.loads(data) for name, data in events if name == "content_block_start"][1][
        "content_block"
    ]
    assert tool_start["name"] == "Bash"
    (record,) = fake.requests
    assert record.route == "primary" and record.detector is None and record.stream
    assert (
        record.usage is not None and record.usage.cache_write_tokens > 1024
    )  # the CLI marks its system prompt
