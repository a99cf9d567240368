"""Cache discipline, asserted on the request bodies the fake provider recorded.

- all forks of a pass send byte-identical prefixes (tools → system → messages up to the breakpoint);
- over consecutive passes without compaction, each pass's prefix extends the previous one byte for byte;
- once the prefix is cacheable, the pass's cache reads cover at least (N-1)/N of its forks' prefix tokens
  (the pilot writes, the fan-out reads);
- changing one detector's prompt, or its grant within the pass's tool union, changes no prefix byte;
  adding a tool kind nobody had granted necessarily changes the union, and so the prefix (documented here).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sbcore.observe.model import Observation
from sbcore.packs.loader import validate_detector_data
from sbcore.packs.model import DetectorDef, SourceRef
from sbcore.testing import FakeProvider, RecordedRequest
from sbcore.testing.cache_accounting import Segment, anthropic_segments, compact
from sbcore.think.pass_ import EngineSettings, PassEngine
from sbcore.think.providers.anthropic import AnthropicProvider
from sbcore.think.providers.base import Provider, ProviderSettings, RetryPolicy, Secret
from sbcore.think.providers.openai import OpenAIProvider
from sbcore.think.tools.dispatch import Toolbox

N = 8


def detector(
    ident: str, prompt: str = "You are {{ detector.id }}.", tools: Sequence[Any] = ()
) -> DetectorDef:
    data = {
        "schema_version": 1,
        "id": ident,
        "description": "A cache test lens.",
        "enabled": True,
        "prompt": prompt,
        "tools": list(tools),
        "schema": "feedback_v1",
        "max_iterations": 1,
    }
    return validate_detector_data(data, source=SourceRef("<test>"), pack="test")


def episode(number: int) -> list[Observation]:
    return [
        Observation(
            "text",
            f"[text] pass {number}, step {i}: " + "edit the parser and rerun " * 8,
            timestamp=f"2026-01-05T14:{number:02d}:{i:02d}Z",
        )
        for i in range(6)
    ]


def run_passes(
    fake: FakeProvider,
    detectors: Sequence[DetectorDef],
    passes: int,
    *,
    api: str = "anthropic",
    toolbox: Toolbox | None = None,
) -> None:
    async def go() -> None:
        settings = ProviderSettings(
            api,
            "claude-haiku-4-5" if api == "anthropic" else "gpt-4.1-mini",
            base_url=fake.anthropic_base_url if api == "anthropic" else fake.openai_base_url,
            api_key=Secret("t"),
            retry=RetryPolicy(max_retries=0),
        )
        model: Provider = AnthropicProvider(settings) if api == "anthropic" else OpenAIProvider(settings)
        engine = PassEngine(detectors, model, settings=EngineSettings(), toolbox=toolbox, workspace="/repo")
        for number in range(1, passes + 1):
            await engine.run_pass(episode(number))
        assert engine.window.compactions == 0
        await model.aclose()

    asyncio.run(go())


def prefix_segments(record: RecordedRequest) -> list[Segment]:
    """The cacheable prefix of an Anthropic request: every key segment up to the last breakpoint."""
    segments = anthropic_segments(record.body)
    last = max(index for index, segment in enumerate(segments) if segment.ttl_s is not None)
    return segments[: last + 1]


def prefix_bytes(record: RecordedRequest) -> list[bytes]:
    return [segment.data for segment in prefix_segments(record)]


def by_pass(requests: list[RecordedRequest], size: int) -> list[list[RecordedRequest]]:
    assert len(requests) % size == 0
    return [requests[i : i + size] for i in range(0, len(requests), size)]


def test_forks_share_a_prefix_that_grows_append_only() -> None:
    detectors = [detector(f"lens-{i}") for i in range(N)]
    with FakeProvider() as fake:
        run_passes(fake, detectors, 10)
        passes = by_pass(fake.requests, N)
    previous: list[bytes] | None = None
    for number, requests in enumerate(passes, start=1):
        prefixes = [prefix_bytes(r) for r in requests]
        assert all(p == prefixes[0] for p in prefixes), f"pass {number}: forks differ above the breakpoint"
        assert len({r.detector for r in requests}) == N
        if previous is not None:
            assert prefixes[0][: len(previous)] == previous, (
                f"pass {number} rewrote pass {number - 1}'s prefix"
            )
            assert len(prefixes[0]) > len(previous)
        previous = prefixes[0]


def test_fan_out_reads_what_the_pilot_wrote() -> None:
    detectors = [detector(f"lens-{i}") for i in range(N)]
    with FakeProvider(min_cacheable_tokens=1024) as fake:
        run_passes(fake, detectors, 4)
        passes = by_pass(fake.requests, N)
    checked = 0
    for requests in passes:
        prefix_tokens = [sum(s.tokens for s in prefix_segments(r)) for r in requests]
        if min(prefix_tokens) < 1024:
            continue  # not cacheable yet: nothing to read, by the provider's rules
        reads = sum(r.usage.cache_read_tokens for r in requests if r.usage is not None)
        assert reads >= (N - 1) / N * sum(prefix_tokens)
        writers = [r.detector for r in requests if r.usage is not None and r.usage.cache_write_tokens]
        assert writers == [requests[0].detector]  # only the pilot, which went first
        checked += 1
    assert checked == len(passes)


def test_openai_wire_prefixes_are_identical_and_append_only() -> None:
    detectors = [detector(f"lens-{i}") for i in range(4)]
    with FakeProvider() as fake:
        run_passes(fake, detectors, 5, api="openai")
        passes = by_pass(fake.requests, 4)
    previous: list[bytes] | None = None
    for requests in passes:
        # one-iteration forks: the private tail is the last message; everything before it is shared
        prefixes = [
            [compact(t) for t in r.body["tools"]] + [compact(m) for m in r.body["messages"][:-1]]
            for r in requests
        ]
        assert all(p == prefixes[0] for p in prefixes)
        if previous is not None:
            assert prefixes[0][: len(previous)] == previous
        previous = prefixes[0]
    assert passes[-1][-1].usage is not None and passes[-1][-1].usage.cache_read_tokens > 0


def first_pass_prefixes(detectors: Sequence[DetectorDef], toolbox: Toolbox) -> list[list[bytes]]:
    with FakeProvider() as fake:
        run_passes(fake, detectors, 1, toolbox=toolbox)
        return [prefix_bytes(r) for r in fake.requests]


def test_a_detectors_prompt_or_grant_does_not_touch_the_prefix(tmp_path: Path) -> None:
    box = Toolbox(tmp_path)
    base = [detector("alpha", tools=["Read"]), detector("beta", tools=["Grep", "Read"]), detector("gamma")]
    changed = [
        detector("alpha", prompt="An entirely different brief for {{ detector.id }}.", tools=["Grep"]),
        base[1],
        base[2],
    ]
    before, after = first_pass_prefixes(base, box), first_pass_prefixes(changed, box)
    assert before[0] == after[0]
    assert all(p == before[0] for p in before + after)


def test_a_brand_new_tool_kind_changes_the_union(tmp_path: Path) -> None:
    box = Toolbox(tmp_path)
    base = [detector("alpha", tools=["Read"]), detector("gamma")]
    widened = [detector("alpha", tools=["Read", "Glob"]), detector("gamma")]
    before, after = first_pass_prefixes(base, box), first_pass_prefixes(widened, box)
    assert before[0] != after[0]  # the tools list leads the key: a new tool kind is a new prefix
    assert before[0][2:] == after[0][3:]  # only the tools tier differs (Read + feedback, then + Glob)


def test_bench_cache_reports_the_same_discipline(capsys: Any) -> None:
    from sbcore.cli import main

    assert main(["bench", "cache", "--detectors", "4", "--passes", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["identical_across_forks"] and report["append_only"]
    assert report["read_share"] >= report["target_share"] == 0.75
    assert [row["writers"] for row in report["passes_detail"]] == [1, 1, 1]
