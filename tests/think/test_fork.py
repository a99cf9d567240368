"""One fork's loop against the loopback fake provider: tools, refusals, forcing, deadlines, bad answers."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from sbcore.observe.model import Observation
from sbcore.packs.loader import validate_detector_data
from sbcore.packs.model import DetectorDef, SourceRef
from sbcore.packs.types import TriggerMatch
from sbcore.testing import FEEDBACK_TOOL, FakeProvider, feedback, server_error, text, tool_call
from sbcore.think import detector_marker
from sbcore.think.feedback import FeedbackResult, feedback_tool
from sbcore.think.fork import Fork, ForkPlan, render_tail
from sbcore.think.providers.anthropic import AnthropicProvider
from sbcore.think.providers.base import ProviderSettings, RetryPolicy, Secret, ToolSpec
from sbcore.think.tools.dispatch import Grant, Toolbox
from sbcore.think.window import Window


def detector(ident: str = "probe", **fields: Any) -> DetectorDef:
    data = {
        "schema_version": 1,
        "id": ident,
        "description": "A test lens.",
        "enabled": True,
        "prompt": "You are {{ detector.id }}. Look closely.",
        "schema": "feedback_v1",
        **fields,
    }
    return validate_detector_data(data, source=SourceRef("<test>"), pack="test")


def provider(fake: FakeProvider) -> AnthropicProvider:
    settings = ProviderSettings(
        "anthropic",
        "claude-haiku-4-5",
        base_url=fake.anthropic_base_url,
        api_key=Secret("test"),
        timeout_s=5,
        retry=RetryPolicy(max_retries=0),
    )
    return AnthropicProvider(settings)


def run_fork(
    fake: FakeProvider,
    det: DetectorDef,
    *,
    toolbox: Toolbox | None = None,
    others: Sequence[DetectorDef] = (),
    deadline_s: float = 8.0,
    token_budget: int | None = None,
    match: TriggerMatch | None = None,
) -> FeedbackResult:
    async def go() -> FeedbackResult:
        window = Window(("observer", "workspace"))
        window.append_episode(
            1, [Observation("text", "[text] working on it", timestamp="2026-01-05T14:00:00Z")]
        )
        grants = [Grant.parse(d.tools) for d in (det, *others)]
        wire = toolbox.build_wire_tools(grants) if toolbox is not None else []
        tools = [ToolSpec(t["name"], t["description"], t["input_schema"]) for t in wire]
        snapshot = window.snapshot(sorted([*tools, feedback_tool([det, *others])], key=lambda t: t.name))
        grant = Grant.parse(det.tools)
        tail = render_tail(
            det,
            match=match,
            grant_names=toolbox.granted_names(grant) if toolbox else [],
            open_advisories=[],
            deadline_s=deadline_s,
            max_iterations=det.max_iterations,
            body_cap=600,
        )
        plan = ForkPlan(det, tail, grant, deadline_s, 2.0, det.max_iterations, match, token_budget)
        model = provider(fake)
        try:
            return await Fork(plan, snapshot, model, toolbox=toolbox).run()
        finally:
            await model.aclose()

    return asyncio.run(go())


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        block
        for message in body["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]


def test_tool_loop_reads_a_file_and_answers(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("the retry helper lives in util/retry.py\n")
    det = detector(tools=["Read"], max_iterations=3)
    with FakeProvider() as fake:
        fake.script(
            "probe",
            tool_call("Read", {"path": "notes.txt"}),
            feedback("silent", evidence=["notes.txt names util/retry.py"]),
        )
        result = run_fork(fake, det, toolbox=Toolbox(tmp_path))
        first, second = fake.requests_for("probe")
    assert result.status == "answered" and result.verdict == "silent" and result.iterations == 2
    assert [call.name for call in result.tool_calls] == ["Read"]
    assert "util/retry.py" in tool_results(second.body)[0]["content"]
    assert tool_results(first.body) == []
    assert "tool_choice" not in first.body and "tool_choice" not in second.body
    assert result.usage.output_tokens > 0


def test_grant_is_rechecked_at_dispatch(tmp_path: Path) -> None:
    det = detector(tools=["Read"], max_iterations=3)
    sibling = detector("sibling", tools=["Grep"])
    with FakeProvider() as fake:
        fake.script("probe", tool_call("Grep", {"pattern": "x"}), feedback("silent"))
        result = run_fork(fake, det, toolbox=Toolbox(tmp_path), others=[sibling])
        first, second = fake.requests_for("probe")
    assert sorted(t["name"] for t in first.body["tools"]) == ["Grep", "Read", FEEDBACK_TOOL]  # offered...
    refusal = tool_results(second.body)[0]
    assert refusal["is_error"] is True and "not granted 'Grep'" in refusal["content"]  # ...but refused
    assert result.tool_calls[0].refused and result.status == "answered"


def test_no_toolbox_refuses_every_call() -> None:
    det = detector(max_iterations=2)
    with FakeProvider() as fake:
        fake.script("probe", tool_call("Read", {"path": "x"}), feedback("silent"))
        result = run_fork(fake, det)
    assert result.tool_calls[0].refused and "no tools are available" in result.tool_calls[0].result


def test_prose_only_reply_is_silent() -> None:
    det = detector(max_iterations=3)
    with FakeProvider() as fake:
        fake.script("probe", text("Everything looks fine to me."))
        result = run_fork(fake, det)
        assert len(fake.requests_for("probe")) == 1
    assert result.status == "prose" and result.verdict == "silent"


def test_last_iteration_forces_the_feedback_tool(tmp_path: Path) -> None:
    det = detector(tools=["Read"], max_iterations=2)
    (tmp_path / "a.txt").write_text("a")
    with FakeProvider() as fake:
        fake.script("probe", tool_call("Read", {"path": "a.txt"}), text("let me look further"))
        result = run_fork(fake, det, toolbox=Toolbox(tmp_path))
        first, second = fake.requests_for("probe")
    assert "tool_choice" not in first.body
    assert second.body["tool_choice"] == {"type": "tool", "name": FEEDBACK_TOOL}
    assert [t["name"] for t in first.body["tools"]] == [
        t["name"] for t in second.body["tools"]
    ]  # never shrunk
    assert result.status == "answered" and result.verdict == "silent"


def test_single_iteration_detector_is_forced_at_once() -> None:
    with FakeProvider() as fake:
        fake.script("probe", text("prose the API would never allow here"))
        result = run_fork(fake, detector(max_iterations=1))
        (only,) = fake.requests_for("probe")
    assert only.body["tool_choice"] == {"type": "tool", "name": FEEDBACK_TOOL}
    assert result.status == "answered"


def test_soft_deadline_makes_the_next_call_the_last(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a")
    det = detector(tools=["Read"], max_iterations=6)
    with FakeProvider(latency_ms=150) as fake:
        fake.script("probe", *[tool_call("Read", {"path": "a.txt"})] * 6)
        result = run_fork(fake, det, toolbox=Toolbox(tmp_path), deadline_s=0.1)
        requests = fake.requests_for("probe")
    assert len(requests) == 2
    assert requests[1].body["tool_choice"]["name"] == FEEDBACK_TOOL
    assert result.iterations == 2 and result.status == "answered"


def test_token_budget_makes_the_next_call_the_last(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a")
    det = detector(tools=["Read"], max_iterations=6)
    with FakeProvider() as fake:
        fake.script("probe", *[tool_call("Read", {"path": "a.txt"})] * 6)
        result = run_fork(fake, det, toolbox=Toolbox(tmp_path), token_budget=10)
    assert result.iterations == 2


def test_invalid_feedback_is_silent_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    with FakeProvider() as fake, caplog.at_level(logging.WARNING, "sbcore.think.feedback"):
        fake.script("probe", feedback("maybe", confidence=3))
        result = run_fork(fake, detector())
    assert result.status == "invalid" and result.verdict == "silent"
    assert result.error is not None and "confidence" in result.error and "verdict" in result.error
    assert "invalid feedback read as silent" in caplog.text


def test_extended_schema_reaches_the_wire_and_validates() -> None:
    extended = detector(
        schema={"extends": "feedback_v1", "properties": {"severity": {"enum": ["low", "high"]}}},
        max_iterations=1,
    )
    with FakeProvider() as fake:
        fake.script("probe", feedback("advise", headline="h", severity="high"))
        result = run_fork(fake, extended)
        (only,) = fake.requests_for("probe")
    (tool,) = [t for t in only.body["tools"] if t["name"] == FEEDBACK_TOOL]
    assert "severity" in tool["input_schema"]["properties"]
    assert (
        result.status == "answered" and result.feedback is not None and result.feedback["severity"] == "high"
    )


def test_provider_failure_fails_the_fork() -> None:
    with FakeProvider() as fake:
        fake.inject(server_error(500))
        result = run_fork(fake, detector())
    assert result.status == "failed" and result.verdict is None
    assert result.error is not None and "ServerError" in result.error


def test_tail_carries_marker_instructions_grant_budget_and_match(tmp_path: Path) -> None:
    det = detector(tools=["Read", "Glob"], prompt="Lens {{ detector.id }} with {{ grant | join('+') }}.")
    match = TriggerMatch(key="k", summary="`make` failed 3 times", evidence=("14:01: boom",))
    tail = render_tail(
        det,
        match=match,
        grant_names=["Glob", "Read"],
        open_advisories=[{"advice_id": "probe:k", "headline": "stop looping"}],
        deadline_s=8,
        max_iterations=4,
        body_cap=400,
    )
    lines = tail.splitlines()
    assert lines[0] == detector_marker("probe")
    assert lines[1] == "Lens probe with Read+Glob."
    assert "Structural check that selected you: `make` failed 3 times" in tail and "· 14:01: boom" in tail
    assert "Tools you may call: Glob, Read." in tail
    assert "- probe:k: stop looping" in tail  # listed by the tail: the prompt does not mention them
    assert "about 8 seconds in all, 4 model calls, and 400 characters" in tail


def test_tail_without_tools_says_so() -> None:
    tail = render_tail(
        detector(),
        match=None,
        grant_names=[],
        open_advisories=[],
        deadline_s=6,
        max_iterations=1,
        body_cap=600,
    )
    assert "You have no tools for this answer" in tail and "1 model call," in tail
