"""The wire providers over real loopback sockets, against sbcore.testing.FakeProvider."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import socket
import subprocess
import sys
from typing import Any

import pytest

from sbcore.testing import (
    FakeProvider,
    Fault,
    feedback,
    garbage,
    rate_limit,
    server_error,
    text,
    timeout,
    tool_call,
)
from sbcore.testing import truncated as truncated_fault
from sbcore.think import FEEDBACK_TOOL, detector_marker
from sbcore.think.providers import (
    BadResponse,
    Message,
    ProviderError,
    ProviderSettings,
    RateLimited,
    Request,
    RequestRejected,
    RetryPolicy,
    Secret,
    ServerError,
    TextBlock,
    Timeout,
    ToolSpec,
    ToolUseBlock,
    Unreachable,
    anthropic,
    openai,
)
from sbcore.think.providers.base import encode_body
from sbcore.think.providers.http import HttpProvider
from tests.worker.worker_helpers import wait_for

API_KEY = "sk-test-" + "q7Zr" * 8
FEEDBACK = ToolSpec(FEEDBACK_TOOL, "Return the verdict.", {"type": "object", "properties": {"verdict": {}}})
APIS = ["anthropic", "openai"]


class Sleeps:
    """Stands in for asyncio.sleep: records the delays, waits for nothing."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def make(
    api: str,
    fake: FakeProvider,
    *,
    stream: bool = False,
    timeout_s: float = 10.0,
    retry: RetryPolicy | None = None,
    sleep: Sleeps | None = None,
    base_url: str | None = None,
) -> HttpProvider:
    settings = ProviderSettings(
        api,
        "fake-model",
        base_url=base_url or (fake.anthropic_base_url if api == "anthropic" else fake.openai_base_url),
        api_key=Secret(API_KEY),
        timeout_s=timeout_s,
        stream=stream,
        retry=retry or RetryPolicy(max_retries=2, base_delay_s=0.01, max_delay_s=0.05),
    )
    cls = anthropic.AnthropicProvider if api == "anthropic" else openai.OpenAIProvider
    return cls(settings, sleep=sleep or Sleeps(), rng=random.Random(7))


def fork(detector: str = "repeat-failure", window_chars: int = 200) -> Request:
    return Request(
        model="fake-model",
        system=("You watch a coding session.",),
        messages=(
            Message.user("[observations] " + "x" * window_chars),
            Message.user(detector_marker(detector)),
        ),
        tools=(FEEDBACK,),
        breakpoint=0,
        max_tokens=300,
    )


def send(provider: HttpProvider, request: Request) -> Any:
    async def run() -> Any:
        try:
            return await provider.send(request)
        finally:
            await provider.aclose()

    return asyncio.run(run())


@pytest.fixture
def fake() -> Any:
    with FakeProvider() as server:
        yield server


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize("api", APIS)
def test_scripted_feedback_round_trip(fake: FakeProvider, api: str, stream: bool) -> None:
    fake.script("repeat-failure", feedback("advise", headline="pytest failed 3 times", confidence=0.8))
    reply = send(make(api, fake, stream=stream), fork())
    assert reply.tool_use(FEEDBACK_TOOL).input == {
        "verdict": "advise",
        "headline": "pytest failed 3 times",
        "confidence": 0.8,
    }
    assert reply.stop_reason == "tool_use"
    assert reply.usage.output_tokens > 0 and reply.usage.input_tokens > 0
    (record,) = fake.requests
    assert record.detector == "repeat-failure" and record.scripted and record.stream is stream
    module = anthropic if api == "anthropic" else openai
    assert record.raw == encode_body(module.build_body(fork(), stream=stream))
    assert fake.pending() == {}


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize("api", APIS)
def test_text_and_tool_calls_round_trip(fake: FakeProvider, api: str, stream: bool) -> None:
    fake.script(
        "prior-art",
        tool_call("Grep", {"pattern": "def retry", "path": "src/ü"}, say="Searching first."),
        text("Nothing similar exists. " * 5),
    )
    provider = make(api, fake, stream=stream)
    first = send(provider, fork("prior-art"))
    assert first.content == (
        TextBlock("Searching first."),
        ToolUseBlock(first.tool_uses[0].id, "Grep", {"pattern": "def retry", "path": "src/ü"}),
    )
    second = send(provider, fork("prior-art"))
    assert second.text == "Nothing similar exists. " * 5
    assert second.stop_reason == "end_turn" and second.tool_uses == ()


@pytest.mark.parametrize("api", APIS)
def test_headers_carry_the_key_the_right_way(fake: FakeProvider, api: str) -> None:
    send(make(api, fake), fork())
    headers = fake.requests[0].headers
    if api == "anthropic":
        assert headers["x-api-key"] == API_KEY
        assert headers["anthropic-version"] == anthropic.API_VERSION
        assert "authorization" not in headers
    else:
        assert headers["authorization"] == f"Bearer {API_KEY}"
        assert "x-api-key" not in headers
    assert fake.requests[0].path == ("/v1/messages" if api == "anthropic" else "/v1/chat/completions")


FAULTS = [
    (rate_limit(0.0), RateLimited, 3),
    (server_error(500), ServerError, 3),
    (server_error(529), ServerError, 3),
    (timeout(5.0), Timeout, 3),
    (garbage(), BadResponse, 1),
    (truncated_fault(), BadResponse, 1),
]


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(
    ("fault", "error", "attempts"), FAULTS, ids=[f"{f.kind}-{f.status}" for f, _, _ in FAULTS]
)
def test_persistent_fault_raises_after_bounded_retries(
    fake: FakeProvider, api: str, stream: bool, fault: Fault, error: type[ProviderError], attempts: int
) -> None:
    fake.inject(fault, fault, fault, fault)
    sleeps = Sleeps()
    # only the timeout fault needs a short deadline; on a loaded machine 0.3 s can expire before an
    # immediate error reply arrives, which would turn the fault under test into a timeout
    timeout_s = 0.3 if error is Timeout else 5.0
    provider = make(api, fake, stream=stream, timeout_s=timeout_s, sleep=sleeps)
    with pytest.raises(error) as caught:
        send(provider, fork())
    assert type(caught.value) is error
    assert caught.value.attempts == attempts
    assert caught.value.provider == api
    # a request the client gave up on (a 0.3 s deadline) may be recorded by the fake's handler thread a
    # moment after the client returned: wait for that event, then count
    wait_for(lambda: len(fake.requests) >= attempts or None, what=f"the fake recording {attempts} requests")
    assert len(fake.requests) == attempts
    assert len(sleeps.delays) == attempts - 1
    assert fake.pending() == {"faults": 4 - attempts}


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(
    "fault", [rate_limit(0.0), server_error(503), timeout(5.0)], ids=["429", "503", "timeout"]
)
def test_transient_fault_then_success(fake: FakeProvider, api: str, stream: bool, fault: Fault) -> None:
    fake.inject(fault)
    fake.script("repeat-failure", feedback("advise", headline="h"))
    reply = send(make(api, fake, stream=stream, timeout_s=0.3), fork())
    assert reply.tool_use(FEEDBACK_TOOL).input["verdict"] == "advise"
    assert [record.outcome for record in fake.requests] == [fault.kind.value, "reply"]


def test_retry_after_is_honoured(fake: FakeProvider) -> None:
    fake.inject(rate_limit(1.5))
    sleeps = Sleeps()
    send(make("anthropic", fake, sleep=sleeps), fork())
    assert sleeps.delays == [1.5]


def test_retry_after_beyond_the_cap_gives_up_at_once(fake: FakeProvider) -> None:
    fake.inject(rate_limit(120))
    sleeps = Sleeps()
    with pytest.raises(RateLimited) as caught:
        send(make("anthropic", fake, sleep=sleeps), fork())
    assert caught.value.retry_after == 120 and caught.value.attempts == 1
    assert sleeps.delays == []


def test_backoff_is_full_jitter_within_exponential_bounds(fake: FakeProvider) -> None:
    fake.inject(*[server_error()] * 5)
    sleeps = Sleeps()
    retry = RetryPolicy(max_retries=4, base_delay_s=1.0, max_delay_s=3.0)
    with pytest.raises(ServerError):
        send(make("openai", fake, retry=retry, sleep=sleeps), fork())
    assert len(sleeps.delays) == 4
    for attempt, delay in enumerate(sleeps.delays):
        assert 0.0 <= delay <= min(3.0, 2.0**attempt)


def test_zero_retries_means_one_attempt(fake: FakeProvider) -> None:
    fake.inject(server_error())
    with pytest.raises(ServerError) as caught:
        send(make("anthropic", fake, retry=RetryPolicy(max_retries=0)), fork())
    assert caught.value.attempts == 1 and len(fake.requests) == 1


@pytest.mark.parametrize("api", APIS)
def test_client_errors_are_not_retried(fake: FakeProvider, api: str) -> None:
    provider = make(api, fake, base_url=fake.base_url + "/wrong")
    with pytest.raises(RequestRejected) as caught:
        send(provider, fork())
    assert caught.value.status == 404 and caught.value.attempts == 1
    assert "not_found_error" in str(caught.value)


def test_invalid_request_is_rejected_with_the_servers_reason(fake: FakeProvider) -> None:
    provider = make("anthropic", fake)
    body = anthropic.build_body(fork())
    body.pop("max_tokens")
    provider.wire_body = lambda request: body  # type: ignore[method-assign]
    with pytest.raises(RequestRejected, match="max_tokens") as caught:
        send(provider, fork())
    assert caught.value.status == 400


def test_unreachable_server_after_retries() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = ProviderSettings(
        "openai",
        "m",
        base_url=f"http://127.0.0.1:{port}/v1",
        retry=RetryPolicy(max_retries=1, base_delay_s=0.0),
    )
    with pytest.raises(Unreachable) as caught:
        send(openai.OpenAIProvider(settings, sleep=Sleeps()), fork())
    assert caught.value.attempts == 2


def test_cache_usage_reaches_the_neutral_response(fake: FakeProvider) -> None:
    provider = make("anthropic", fake)
    cold = send(provider, fork(window_chars=8000))
    warm = send(provider, fork("goal-drift", window_chars=8000))
    assert cold.usage.cache_write_tokens > 1024 and cold.usage.cache_read_tokens == 0
    assert (
        warm.usage.cache_read_tokens == cold.usage.cache_write_tokens and warm.usage.cache_write_tokens == 0
    )


def test_provider_survives_successive_event_loops(fake: FakeProvider) -> None:
    provider = make("openai", fake)
    for _ in range(2):
        assert asyncio.run(provider.send(fork())).tool_use(FEEDBACK_TOOL) is not None
    asyncio.run(provider.aclose())


def test_credentials_never_reach_reprs_errors_or_logs(
    fake: FakeProvider, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    messages: list[str] = []
    for api in APIS:
        provider = make(api, fake, timeout_s=0.3)
        messages.append(repr(provider))
        messages.append(repr(provider.settings))
        fake.inject(rate_limit(0), server_error(), timeout(5))
        with pytest.raises(ProviderError) as caught:
            send(provider, fork())
        messages.append(str(caught.value))
        messages.append(repr(caught.value))
    messages.extend(record.getMessage() for record in caplog.records)
    assert any("retry" in message for message in messages)
    assert "api_key=set" in messages[0]
    assert not [message for message in messages if API_KEY in message or API_KEY[8:] in message]


def test_httpx_is_imported_at_the_first_request_not_with_the_providers(tmp_path: Any) -> None:
    """An offline replay (and any command that never sends) loads the providers to choose one: importing
    httpx with them cost more than the rest of a small replay's start."""
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(
        '{"type": "user", "uuid": "u1", "timestamp": "2026-01-01T00:00:00Z",'
        ' "message": {"role": "user", "content": "make the build pass"}}\n'
    )
    probe = (
        "import contextlib, io, sys\n"
        "import sbcore.think.providers.anthropic, sbcore.think.providers.openai\n"
        "import sbcore.think.providers.choose\n"
        "from sbcore.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main(['replay', {str(transcript)!r}])\n"
        "print(code, 'httpx' in sys.modules)\n"
    )
    env = {**os.environ, "SBCORE_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    assert result.stdout.split() == ["0", "False"], result.stderr
