"""Every fault the fake provider injects leaves the pass complete and the next pass running."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sbcore.observe.model import Observation
from sbcore.packs.loader import validate_detector_data
from sbcore.packs.model import DetectorDef, SourceRef
from sbcore.testing import (
    FakeProvider,
    Fault,
    feedback,
    garbage,
    rate_limit,
    server_error,
    timeout,
    truncated,
)
from sbcore.think.pass_ import EngineSettings, PassEngine, PassResult
from sbcore.think.providers.anthropic import AnthropicProvider
from sbcore.think.providers.base import Provider, ProviderSettings, RetryPolicy, Secret
from sbcore.think.providers.openai import OpenAIProvider

SETTINGS = EngineSettings(fork_deadline_s=0.4, fork_grace_s=0.3)


def detector(ident: str) -> DetectorDef:
    data = {
        "schema_version": 1,
        "id": ident,
        "description": "A fault test lens.",
        "enabled": True,
        "prompt": "You are {{ detector.id }}.",
        "schema": "feedback_v1",
        "max_iterations": 1,
    }
    return validate_detector_data(data, source=SourceRef("<test>"), pack="test")


DETECTORS = [detector("repeat-failure"), detector("second"), detector("third")]


def provider(fake: FakeProvider, api: str, *, stream: bool, retries: int) -> Provider:
    settings = ProviderSettings(
        api,
        "claude-haiku-4-5" if api == "anthropic" else "gpt-4.1-mini",
        base_url=fake.anthropic_base_url if api == "anthropic" else fake.openai_base_url,
        api_key=Secret("t"),
        stream=stream,
        timeout_s=5,
        retry=RetryPolicy(max_retries=retries, base_delay_s=0.01, max_delay_s=0.02),
    )
    return AnthropicProvider(settings) if api == "anthropic" else OpenAIProvider(settings)


def two_passes(fake: FakeProvider, api: str, *, stream: bool = False, retries: int = 0) -> list[PassResult]:
    async def go() -> list[PassResult]:
        model = provider(fake, api, stream=stream, retries=retries)
        engine = PassEngine(DETECTORS, model, settings=SETTINGS)
        results = []
        for minute in (1, 2):
            episode = [
                Observation("text", f"[text] minute {minute}", timestamp=f"2026-01-05T14:0{minute}:00Z")
            ]
            results.append(await engine.run_pass(episode))
        await model.aclose()
        return results

    return asyncio.run(go())


FAULTS: list[tuple[str, Fault, bool, str, str]] = [
    ("429", rate_limit(retry_after=0), False, "failed", "RateLimited"),
    ("500", server_error(500), False, "failed", "ServerError"),
    ("timeout", timeout(hang_s=3), False, "timeout", "no answer within 0.7 s"),
    ("garbage", garbage(), False, "failed", "BadResponse"),
    ("garbage-stream", garbage(), True, "failed", "BadResponse"),
    ("truncated", truncated(), False, "failed", "BadResponse"),
    ("truncated-stream", truncated(), True, "failed", "BadResponse"),
]


@pytest.mark.parametrize("api", ["anthropic", "openai"])
@pytest.mark.parametrize(
    ("fault", "stream", "status", "error"), [f[1:] for f in FAULTS], ids=[f[0] for f in FAULTS]
)
def test_fault_fails_one_fork_and_the_next_pass_runs(
    api: str, fault: Fault, stream: bool, status: str, error: str
) -> None:
    with FakeProvider() as fake:
        fake.inject(fault)  # the next request, whoever sends it: the pilot's
        fake.script("second", feedback("advise", headline="still here", confidence=0.7))
        first, second = two_passes(fake, api, stream=stream)
    hit = first.result("repeat-failure")
    assert hit is not None and hit.status == status and hit.verdict is None
    assert hit.error is not None and error in hit.error
    assert [r.status for r in first.results] == [status, "answered", "answered"]
    assert first.result("second").verdict == "advise"  # type: ignore[union-attr]
    assert first.lines[0].startswith("[pass 1 14:01] repeat-failure → no answer (")
    assert [r.status for r in second.results] == ["answered", "answered", "answered"]
    assert second.number == 2


@pytest.mark.parametrize("fault", [rate_limit(retry_after=0), server_error(503)], ids=["429", "503"])
def test_transient_faults_are_retried_by_the_provider(fault: Fault) -> None:
    with FakeProvider() as fake:
        fake.inject(fault)
        first, _ = two_passes(fake, "anthropic", retries=2)
        attempts = [r.outcome for r in fake.requests_for("repeat-failure")]
    assert first.result("repeat-failure").status == "answered"  # type: ignore[union-attr]
    assert attempts[:2] == [fault.kind.value, "reply"]


def test_every_fork_failing_still_completes_the_pass() -> None:
    faults: list[Any] = [server_error(500)] * len(DETECTORS)
    with FakeProvider() as fake:
        fake.inject(*faults)
        first, second = two_passes(fake, "anthropic")
    assert [r.status for r in first.results] == ["failed"] * 3
    assert len(first.lines) == 3 and all("no answer" in line for line in first.lines)
    assert [r.status for r in second.results] == ["answered"] * 3
