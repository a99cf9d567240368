"""Prompt-cache accounting of the fake provider, checked against the rules the real APIs publish."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sbcore.testing import (
    AnthropicCache,
    CacheUsage,
    FakeProvider,
    OpenAICache,
    detector_marker,
    estimate_tokens,
)
from sbcore.testing.cache_accounting import anthropic_segments, openai_segments
from sbcore.think import FEEDBACK_TOOL
from sbcore.think.providers import Message, ProviderSettings, Request, Secret, ToolSpec, anthropic, openai

FEEDBACK = ToolSpec(FEEDBACK_TOOL, "Return the verdict.", {"type": "object", "properties": {"verdict": {}}})
READ = ToolSpec("Read", "Read a file.", {"type": "object", "properties": {"path": {"type": "string"}}})
BIG_SYSTEM = "You watch a coding session and speak only when it matters. " * 80  # ~1200 tokens


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def window(n: int, chars: int = 2000, *, seed: str = "obs") -> list[str]:
    return [f"[{seed} {i}] " + "x" * chars for i in range(n)]


def fork(
    messages: list[str],
    detector: str = "default",
    *,
    system: str = "You watch.",
    tools: tuple[ToolSpec, ...] = (FEEDBACK,),
    force: bool = False,
    model: str = "m",
) -> Request:
    return Request(
        model=model,
        system=(system,),
        messages=(*(Message.user(text) for text in messages), Message.user(detector_marker(detector))),
        tools=tools,
        breakpoint=len(messages) - 1,
        force_tool=FEEDBACK_TOOL if force else None,
    )


def charge(
    cache: AnthropicCache, request: Request, *, ttl: int | None = None, commit: bool = True
) -> CacheUsage:
    result = cache.charge(anthropic.build_body(request, cache_ttl_s=ttl))
    if commit:
        result.commit()
    return result.usage


def prefix_tokens(request: Request, upto_system: bool = False) -> int:
    """Estimated tokens up to the message breakpoint (or the system breakpoint)."""
    segments = anthropic_segments(anthropic.build_body(request))
    marks = [index for index, segment in enumerate(segments) if segment.ttl_s is not None]
    end = marks[0] if upto_system else marks[-1]
    return sum(segment.tokens for segment in segments[: end + 1])


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def cache(clock: Clock) -> AnthropicCache:
    return AnthropicCache(clock=clock)


def test_cold_then_warm(cache: AnthropicCache) -> None:
    history = window(3)
    cold = charge(cache, fork(history, "repeat-failure"))
    prefix = prefix_tokens(fork(history))
    assert prefix > 1024
    assert cold == CacheUsage(input_tokens=cold.prompt_tokens - prefix, cache_write_tokens=prefix)
    warm = charge(cache, fork(history, "goal-drift"))
    assert warm.cache_read_tokens == prefix and warm.cache_write_tokens == 0
    assert warm.input_tokens == warm.prompt_tokens - prefix
    assert len(cache) == 1


def test_prefix_below_the_minimum_is_never_cached(clock: Clock) -> None:
    short = window(1, chars=1500)
    cache = AnthropicCache(clock=clock)
    for _ in range(2):
        usage = charge(cache, fork(short))
        assert usage.cache_write_tokens == usage.cache_read_tokens == 0
        assert usage.input_tokens == usage.prompt_tokens
    assert len(cache) == 0
    low = AnthropicCache(min_cacheable_tokens=100, clock=clock)
    charge(low, fork(short))
    assert charge(low, fork(short)).cache_read_tokens == prefix_tokens(fork(short))


def test_ttl_expires_and_a_hit_refreshes_it(cache: AnthropicCache, clock: Clock) -> None:
    history = window(3)
    charge(cache, fork(history))
    clock.now += 299
    assert charge(cache, fork(history)).cache_read_tokens > 0
    clock.now += 299  # 598 s after the write, 299 s after the refreshing hit
    assert charge(cache, fork(history)).cache_read_tokens > 0
    clock.now += 301
    expired = charge(cache, fork(history))
    assert expired.cache_read_tokens == 0 and expired.cache_write_tokens == prefix_tokens(fork(history))


def test_one_hour_ttl(cache: AnthropicCache, clock: Clock) -> None:
    history = window(3)
    written = charge(cache, fork(history), ttl=3600)
    assert written.cache_write_1h_tokens == written.cache_write_tokens > 0
    clock.now += 1800
    assert charge(cache, fork(history), ttl=3600).cache_read_tokens > 0
    clock.now += 3601
    assert charge(cache, fork(history), ttl=3600).cache_read_tokens == 0


def test_growing_window_reads_history_and_writes_only_the_increment(cache: AnthropicCache) -> None:
    """The design's measured steady state: each pass reads all earlier passes and writes its own episode."""
    history = window(2)
    first = charge(cache, fork(history))
    for episode in range(3):
        before = prefix_tokens(fork(history))
        history = [*history, f"[episode {episode}] " + "y" * 1200]
        usage = charge(cache, fork(history))
        assert usage.cache_read_tokens == before
        assert usage.cache_write_tokens == prefix_tokens(fork(history)) - before
    assert first.cache_read_tokens == 0


def test_lookback_is_limited_to_twenty_blocks(cache: AnthropicCache) -> None:
    history = window(3)
    charge(cache, fork(history))
    near = [*history, *window(19, chars=10, seed="near")]
    assert charge(cache, fork(near), commit=False).cache_read_tokens == prefix_tokens(fork(history))
    far = [*history, *window(20, chars=10, seed="far")]
    assert charge(cache, fork(far)).cache_read_tokens == 0


def test_divergent_prefix_misses_from_the_point_of_divergence(cache: AnthropicCache) -> None:
    history = window(3)
    charge(cache, fork(history, system=BIG_SYSTEM))
    edited = [history[0].replace("x", "z", 1), *history[1:]]  # a "small fix" to an early observation
    usage = charge(cache, fork(edited, system=BIG_SYSTEM))
    assert usage.cache_read_tokens == prefix_tokens(fork(history, system=BIG_SYSTEM), upto_system=True)
    assert usage.cache_write_tokens == prefix_tokens(fork(edited)) - prefix_tokens(
        fork(edited), upto_system=True
    )


def test_per_fork_tools_destroy_the_whole_prefix(cache: AnthropicCache) -> None:
    history = window(3)
    charge(cache, fork(history, system=BIG_SYSTEM, tools=(FEEDBACK,)))
    assert charge(cache, fork(history, system=BIG_SYSTEM, tools=(FEEDBACK, READ))).cache_read_tokens == 0


def test_reordered_schema_keys_are_a_different_prefix(cache: AnthropicCache) -> None:
    history = window(3)
    one = ToolSpec("Read", "Read a file.", {"type": "object", "properties": {}})
    two = ToolSpec("Read", "Read a file.", {"properties": {}, "type": "object"})
    charge(cache, fork(history, tools=(FEEDBACK, one)))
    assert charge(cache, fork(history, tools=(FEEDBACK, two))).cache_read_tokens == 0


def test_forcing_the_tool_invalidates_only_the_messages_tier(cache: AnthropicCache) -> None:
    history = window(3)
    charge(cache, fork(history, system=BIG_SYSTEM))
    forced = charge(cache, fork(history, system=BIG_SYSTEM, force=True))
    system_tier = prefix_tokens(fork(history, system=BIG_SYSTEM), upto_system=True)
    assert forced.cache_read_tokens == system_tier
    assert forced.cache_write_tokens == prefix_tokens(fork(history, system=BIG_SYSTEM)) - system_tier


def test_another_model_has_its_own_cache(cache: AnthropicCache) -> None:
    history = window(3)
    charge(cache, fork(history, model="claude-haiku-4-5"))
    assert charge(cache, fork(history, model="claude-sonnet-4-5")).cache_read_tokens == 0


def test_entries_are_readable_only_after_the_writer_completes(cache: AnthropicCache) -> None:
    history = window(3)
    pending = cache.charge(anthropic.build_body(fork(history, "repeat-failure")))
    racing = charge(cache, fork(history, "goal-drift"), commit=False)
    assert racing.cache_write_tokens == pending.usage.cache_write_tokens > 0
    pending.commit()
    assert charge(cache, fork(history, "prior-art")).cache_read_tokens == pending.usage.cache_write_tokens


def test_token_estimate_is_a_quarter_of_utf8_bytes() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("ü" * 4) == 2  # 8 bytes


# -- OpenAI automatic prefix caching -------------------------------------------------------------


def openai_charge(cache: OpenAICache, request: Request) -> CacheUsage:
    result = cache.charge(openai.build_body(request))
    result.commit()
    return result.usage


def test_openai_caches_prefixes_from_1024_tokens_in_128_token_steps(clock: Clock) -> None:
    cache = OpenAICache(clock=clock)
    history = window(4)
    assert openai_charge(cache, fork(history, "repeat-failure")).cache_read_tokens == 0
    warm = openai_charge(cache, fork(history, "goal-drift"))
    shared = sum(segment.tokens for segment in openai_segments(openai.build_body(fork(history)))[:-1])
    assert shared > 1024 + 128
    assert warm.cache_read_tokens == 1024 + (shared - 1024) // 128 * 128
    assert warm.input_tokens == warm.prompt_tokens - warm.cache_read_tokens
    clock.now += 301
    assert openai_charge(cache, fork(history, "goal-drift")).cache_read_tokens == 0


def test_openai_short_prompts_are_not_cached(clock: Clock) -> None:
    cache = OpenAICache(clock=clock)
    short = window(1, chars=1000)
    openai_charge(cache, fork(short))
    assert openai_charge(cache, fork(short)).cache_read_tokens == 0


# -- through the server: the pilot-then-fan-out economics ----------------------------------------


def _provider(fake: FakeProvider, api: str) -> Any:
    cls = anthropic.AnthropicProvider if api == "anthropic" else openai.OpenAIProvider
    base = fake.anthropic_base_url if api == "anthropic" else fake.openai_base_url
    return cls(ProviderSettings(api, "m", base_url=base, api_key=Secret("k")))


DETECTORS = ["default", "repeat-failure", "standard-questions", "goal-drift", "prior-art"]


@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_pilot_then_fan_out_writes_once_and_reads_the_rest(api: str) -> None:
    history = window(4)

    async def pass_() -> list[Any]:
        provider = _provider(fake, api)
        try:
            pilot = await provider.send(fork(history, DETECTORS[0]))
            rest = await asyncio.gather(*(provider.send(fork(history, d)) for d in DETECTORS[1:]))
            return [pilot, *rest]
        finally:
            await provider.aclose()

    with FakeProvider(latency_ms=100) as fake:
        usages = [reply.usage for reply in asyncio.run(pass_())]
    reads = {usage.cache_read_tokens for usage in usages[1:]}
    assert usages[0].cache_read_tokens == 0 and len(reads) == 1 and reads.pop() > 1024
    if api == "anthropic":
        assert usages[0].cache_write_tokens > 1024
        assert all(usage.cache_write_tokens == 0 for usage in usages[1:])


def test_fan_out_on_a_cold_prefix_pays_every_write() -> None:
    """Without a pilot every fork races to write the same prefix: N creations instead of one."""
    history = window(4)

    async def cold_fan_out() -> list[Any]:
        provider = _provider(fake, "anthropic")
        try:
            return list(await asyncio.gather(*(provider.send(fork(history, d)) for d in DETECTORS)))
        finally:
            await provider.aclose()

    with FakeProvider(latency_ms=500) as fake:
        usages = [reply.usage for reply in asyncio.run(cold_fan_out())]
        assert {record.detector for record in fake.requests} == set(DETECTORS)
    assert all(usage.cache_write_tokens > 1024 and usage.cache_read_tokens == 0 for usage in usages)
