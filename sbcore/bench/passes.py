"""Whole passes through a scratch pipeline on the loopback fake provider: what ``bench fanout`` and ``bench
cache`` measure.

A pass here is the worker's (policy, pilot, forks, gate) over a synthetic episode of observations, with bench
detectors that call no tool (:mod:`sbcore.bench.lenses`), so what is measured is the engine's own shape:

- :func:`fanout`: the wall time of a pass with one detector against one with N, every model call answered
  after a fixed latency. Pilot then fan-out should cost about two calls' time, not N.
- :func:`cache`: the fake provider's prompt-cache accounting over consecutive passes: how much of the forks'
  shared prefix is read from cache, who writes it, and whether every pass's prefix extends the last one's.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sbcore.testing import FakeProvider
    from sbcore.testing.fake_provider import RecordedRequest
    from sbcore.think.pass_ import EngineSettings
    from sbcore.think.providers.base import Provider


def fanout(latency_ms: int, detectors: int, repeat: int) -> dict[str, Any]:
    """The median pass wall with one detector and with ``detectors``, over ``repeat`` passes each."""
    from sbcore.testing import FakeProvider

    with FakeProvider(latency_ms=latency_ms) as fake:
        narrow = asyncio.run(_pass_walls(fake, 1, repeat))
        wide = asyncio.run(_pass_walls(fake, detectors, repeat))
    one, many = statistics.median(narrow), statistics.median(wide)
    return {
        "latency_ms": latency_ms,
        "detectors": detectors,
        "repeat": repeat,
        "one_detector_s": round(one, 4),
        "n_detectors_s": round(many, 4),
        "ratio": round(many / one, 3),
    }


def cache(detectors: int, passes: int, min_cacheable: int) -> dict[str, Any]:
    """Prompt-cache reads and writes of ``passes`` passes with ``detectors``, pass by pass and in sum."""
    from sbcore.testing import FakeProvider

    with FakeProvider(min_cacheable_tokens=min_cacheable) as fake:
        asyncio.run(_run_passes(fake, detectors, passes))
        records = fake.requests
    rows = cache_rows(records, detectors)
    reads = sum(row["cache_read"] for row in rows if row["cacheable"])
    prefix = sum(row["forks_prefix_tokens"] for row in rows if row["cacheable"])
    return {
        "detectors": detectors,
        "passes": passes,
        "read_share": round(reads / prefix, 4) if prefix else None,
        "target_share": round((detectors - 1) / detectors, 4),
        "identical_across_forks": all(row["identical"] for row in rows),
        "append_only": all(row["extends_previous"] for row in rows),
        "passes_detail": rows,
    }


def cache_rows(records: list[RecordedRequest], width: int) -> list[dict[str, Any]]:
    """One row a pass (``width`` requests: its forks): the prefix each fork sent up to its last cache
    breakpoint, the cache it read and wrote, and whether the forks' prefixes are identical and extend the
    previous pass's."""
    from sbcore.testing.cache_accounting import anthropic_segments

    rows: list[dict[str, Any]] = []
    previous: list[bytes] | None = None
    for index in range(0, len(records), width):
        batch = records[index : index + width]
        prefixes = []
        tokens = []
        for record in batch:
            segments = anthropic_segments(record.body)
            last = max(i for i, s in enumerate(segments) if s.ttl_s is not None)
            prefixes.append([s.data for s in segments[: last + 1]])
            tokens.append(sum(s.tokens for s in segments[: last + 1]))
        read = sum(r.usage.cache_read_tokens for r in batch if r.usage is not None)
        write = sum(r.usage.cache_write_tokens for r in batch if r.usage is not None)
        cacheable = any(
            r.usage is not None and (r.usage.cache_read_tokens or r.usage.cache_write_tokens) for r in batch
        )
        rows.append(
            {
                "pass": index // width + 1,
                "prefix_tokens": tokens[0],
                "forks_prefix_tokens": sum(tokens),
                "cache_read": read,
                "cache_write": write,
                "writers": sum(1 for r in batch if r.usage is not None and r.usage.cache_write_tokens),
                "cacheable": cacheable,
                "read_share": round(read / sum(tokens), 4) if sum(tokens) else 0.0,
                "identical": all(p == prefixes[0] for p in prefixes),
                "extends_previous": previous is None or prefixes[0][: len(previous)] == previous,
            }
        )
        previous = prefixes[0]
    return rows


async def _pass_walls(fake: FakeProvider, count: int, repeat: int) -> list[float]:
    """Wall time of whole passes (policy, forks, gate) through a scratch pipeline, as a worker runs them."""
    from sbcore.conductor.scratch import pass_now
    from sbcore.think.pass_ import EngineSettings

    provider = _provider(fake)
    walls = []
    try:
        with _scratch(provider, count, EngineSettings(max_parallel_forks=max(8, count))) as pipeline:
            await pass_now(pipeline, _episode(0))  # connection set-up and first-call costs stay out
            for number in range(1, repeat + 1):
                started = time.perf_counter()
                await pass_now(pipeline, _episode(number))
                walls.append(time.perf_counter() - started)
    finally:
        await provider.aclose()
    return walls


async def _run_passes(fake: FakeProvider, count: int, passes: int) -> None:
    from sbcore.conductor.scratch import pass_now

    provider = _provider(fake)
    try:
        with _scratch(provider, count) as pipeline:
            for number in range(1, passes + 1):
                await pass_now(pipeline, _episode(number))
    finally:
        await provider.aclose()


@contextlib.contextmanager
def _scratch(provider: Provider, count: int, settings: EngineSettings | None = None) -> Iterator[Any]:
    """A pipeline around ``count`` bench detectors on ``provider``, its gate and mailbox in a temporary
    directory."""
    from sbcore.bench.lenses import bench_detectors
    from sbcore.conductor import assembly
    from sbcore.conductor.scratch import scratch_pipeline
    from sbcore.config import load_config
    from sbcore.gate.settings import GateSettings

    detectors = bench_detectors(count)
    engine = assembly.pass_engine(detectors, provider, settings=settings)
    gate = GateSettings.from_config(load_config(None), detectors)
    with tempfile.TemporaryDirectory(prefix="sbcore-bench-") as scratch:
        yield scratch_pipeline(engine, gate, Path(scratch), session="bench")


def _provider(fake: FakeProvider) -> Provider:
    from sbcore.think.providers.anthropic import AnthropicProvider
    from sbcore.think.providers.base import ProviderSettings, RetryPolicy, Secret

    settings = ProviderSettings(
        "anthropic",
        "claude-haiku-4-5",
        base_url=fake.anthropic_base_url,
        api_key=Secret("bench"),
        retry=RetryPolicy(max_retries=0),
    )
    return AnthropicProvider(settings)


def _episode(number: int) -> list[Any]:
    from sbcore.observe.model import Observation

    return [
        Observation(
            "text",
            f"[text] pass {number} step {step}: reading the parser, then running the unit tests again",
            timestamp=f"2026-01-05T10:{number % 60:02d}:{step:02d}Z",
        )
        for step in range(8)
    ]
