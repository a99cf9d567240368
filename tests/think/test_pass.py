"""Pass orchestration: selection, pilot then fan-out, merge order, offline fallbacks, demotion, MCP, debug."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from sbcore.conductor.scratch import detector_case
from sbcore.observe.model import Observation
from sbcore.pace.clock import SimulatedClock
from sbcore.packs.catalogue import assemble_catalogue
from sbcore.packs.loader import validate_detector_data
from sbcore.packs.manager import get_plugin_manager
from sbcore.packs.model import DetectorDef, SourceRef
from sbcore.packs.registry import TriggerSpec
from sbcore.packs.types import TriggerMatch
from sbcore.testing import FEEDBACK_TOOL, FakeProvider, feedback, tool_call
from sbcore.think import DETECTOR_MARKER_RE
from sbcore.think.debug import DebugCapture
from sbcore.think.demotion import DemotionLadder, Stage
from sbcore.think.fork import ForkPlan
from sbcore.think.pass_ import EngineSettings, PassEngine, choose_pilots
from sbcore.think.providers import OfflineProvider
from sbcore.think.providers.anthropic import AnthropicProvider
from sbcore.think.providers.base import (
    ProviderSettings,
    Request,
    Response,
    RetryPolicy,
    Secret,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)
from sbcore.think.tools.dispatch import Grant, Toolbox
from sbcore.think.tools.mcp_adapter import McpHub

MCP_FIXTURE = str(Path(__file__).with_name("mcp_server_fixture.py"))


def detector(ident: str, **fields: Any) -> DetectorDef:
    data = {
        "schema_version": 1,
        "id": ident,
        "description": "A test lens.",
        "enabled": True,
        "prompt": "You are {{ detector.id }}.",
        "schema": "feedback_v1",
        "max_iterations": 1,
        **fields,
    }
    triggers = {"flag": None}
    return validate_detector_data(data, source=SourceRef("<test>"), pack="test", triggers=triggers)


def obs(text: str, kind: str = "text", minute: int = 0, **extra: Any) -> Observation:
    return Observation(kind, text, timestamp=f"2026-01-05T14:{minute:02d}:00Z", **extra)  # type: ignore[arg-type]


def flag_trigger(
    observations: Sequence[Observation], params: Mapping[str, Any], state: dict[str, Any]
) -> TriggerMatch | None:
    """Matches once per observation whose text says FLAG."""
    flagged = [o for o in observations if "FLAG" in o.text]
    if len(flagged) <= state.get("seen", 0):
        return None
    state["seen"] = len(flagged)
    return TriggerMatch(
        key=f"flag-{len(flagged)}", summary=f"{len(flagged)} flag(s)", evidence=(flagged[-1].text,)
    )


TRIGGERS = {"flag": TriggerSpec("flag", flag_trigger, None, "test", False)}

Behaviour = Callable[[Request], Awaitable[Response]]


class ScriptedProvider:
    """An in-process provider: answers per detector (read from the tail marker), records timing and order."""

    name = "scripted"
    model = "scripted-model"
    has_model = True

    def __init__(self, behaviours: Mapping[str, Behaviour] | None = None, delay: float = 0.02) -> None:
        self.behaviours = dict(behaviours or {})
        self.delay = delay
        self.events: list[tuple[str, str]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.requests: list[Request] = []

    async def send(self, request: Request) -> Response:
        self.requests.append(request)
        detector_id = _detector_of(request)
        self.events.append(("start", detector_id))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            behaviour = self.behaviours.get(detector_id)
            if behaviour is not None:
                return await behaviour(request)
            await asyncio.sleep(self.delay)
            return answer({"verdict": "silent"})
        finally:
            self.in_flight -= 1
            self.events.append(("end", detector_id))

    async def aclose(self) -> None:
        return None


def _detector_of(request: Request) -> str:
    for message in reversed(request.messages):
        for block in message.content:
            if isinstance(block, TextBlock) and (found := DETECTOR_MARKER_RE.search(block.text)):
                return found.group(1)
    return "(none)"


def answer(payload: Mapping[str, Any], usage: Usage | None = None) -> Response:
    return Response((ToolUseBlock("t1", FEEDBACK_TOOL, dict(payload)),), "tool_use", usage or Usage(10, 5))


def engine(dets: Sequence[DetectorDef], provider: Any, **kwargs: Any) -> PassEngine:
    settings = kwargs.pop("settings", EngineSettings(fork_deadline_s=2, fork_grace_s=1))
    return PassEngine(dets, provider, settings=settings, triggers=TRIGGERS, **kwargs)


# -- pilot and fan-out -------------------------------------------------------------------------------------


def test_pilot_runs_alone_then_the_rest_fan_out_within_the_cap() -> None:
    dets = [detector(f"lens-{i}") for i in range(6)]
    provider = ScriptedProvider(delay=0.05)
    result = asyncio.run(
        engine(dets, provider, settings=EngineSettings(max_parallel_forks=3)).run_pass([obs("[text] hi")])
    )
    assert result.pilots == ("lens-0",)
    assert provider.events[:2] == [("start", "lens-0"), ("end", "lens-0")]  # alone, and finished first
    assert provider.max_in_flight == 3  # the cap, not 5
    assert [r.detector for r in result.results] == [f"lens-{i}" for i in range(6)]
    assert [r.pilot for r in result.results] == [True, False, False, False, False, False]


def test_merge_order_is_detector_name_not_completion_order() -> None:
    dets = [detector(name) for name in ("alpha", "beta", "gamma")]

    def slow(seconds: float, verdict: str) -> Behaviour:
        async def behaviour(request: Request) -> Response:
            await asyncio.sleep(seconds)
            return answer({"verdict": verdict, "headline": f"from {verdict}"})

        return behaviour

    provider = ScriptedProvider({"beta": slow(0.15, "advise"), "gamma": slow(0.01, "silent")})
    eng = engine(dets, provider)
    result = asyncio.run(eng.run_pass([obs("[text] hi", minute=7)]))
    assert result.lines == (
        "[pass 1 14:07] alpha → silent",
        '[pass 1 14:07] beta → advise "from advise"',
        "[pass 1 14:07] gamma → silent",
    )
    assert eng.window.blocks[-1].lines == result.lines
    assert [e for e in provider.events if e[0] == "end"][-1] == ("end", "beta")  # beta really finished last


def test_pilot_fallback_chain() -> None:
    def plan(det: DetectorDef) -> ForkPlan:
        return ForkPlan(det, "", Grant.parse(det.tools), 1, 1, det.max_iterations)

    declared = detector("repeat-failure")
    toolless = detector("b-lens")
    tooled = detector("a-lens", tools=["Read"])
    assert [p.detector.id for p in choose_pilots([plan(tooled), plan(toolless), plan(declared)])] == [
        "repeat-failure"
    ]
    # disabling the declared pilot never breaks the warm-up: the first tool-less one takes over...
    assert [p.detector.id for p in choose_pilots([plan(tooled), plan(toolless)])] == ["b-lens"]
    # ...and with only tool users, the first by name
    assert [
        p.detector.id for p in choose_pilots([plan(tooled), plan(detector("c-lens", tools=["Glob"]))])
    ] == ["a-lens"]
    # forks whose first request differs in tool_choice warm their own entry
    multi = detector("z-multi", max_iterations=3)
    assert [p.detector.id for p in choose_pilots([plan(toolless), plan(multi)])] == ["b-lens", "z-multi"]


# -- selection ---------------------------------------------------------------------------------------------


def test_cadences_and_triggers_decide_who_runs() -> None:
    dets = [
        detector("every"),
        detector("nth", cadence={"every_nth": 2}),
        detector("turn", cadence="turn_end"),
        detector("flagged", cadence="on_trigger", trigger={"name": "flag"}),
    ]
    provider = ScriptedProvider()
    eng = engine(dets, provider)

    async def passes() -> list[list[str]]:
        ran = []
        for episode, turn_end in (([obs("a")], False), ([obs("b FLAG")], False), ([obs("c")], True)):
            result = await eng.run_pass(episode, turn_end=turn_end)
            ran.append([r.detector for r in result.results])
        return ran

    assert asyncio.run(passes()) == [["every"], ["every", "flagged", "nth"], ["every", "turn"]]
    # the match reached the shared window as a note, and the flagged fork's tail as evidence
    notes = [line for block in eng.window.blocks for line in block.lines if line.startswith("[note]")]
    assert notes == ["[note] check flag matched (flagged): 1 flag(s)"]
    tail = next(r for r in provider.requests if _detector_of(r) == "flagged").messages[-1].content[0]
    assert isinstance(tail, TextBlock) and "Structural check that selected you: 1 flag(s)" in tail.text


def test_unregistered_trigger_and_failing_trigger_skip_with_a_reason() -> None:
    def broken(observations: Sequence[Observation], params: Mapping[str, Any], state: dict[str, Any]) -> None:
        raise RuntimeError("boom")

    dets = [detector("needs-flag", trigger={"name": "flag"})]
    eng = PassEngine(
        dets, ScriptedProvider(), triggers={"flag": TriggerSpec("flag", broken, None, "test", False)}
    )
    result = asyncio.run(eng.run_pass([obs("FLAG")]))
    assert result.results == () and result.skipped == (
        ("needs-flag", "trigger flag failed: RuntimeError: boom"),
    )
    eng = PassEngine(dets, ScriptedProvider(), triggers={})
    result = asyncio.run(eng.run_pass([obs("FLAG")]))
    assert result.skipped == (("needs-flag", "trigger flag is not registered by any loaded pack"),)


# -- offline -----------------------------------------------------------------------------------------------


def test_offline_pass_uses_fallbacks_and_skips_model_only_detectors() -> None:
    manager = get_plugin_manager()
    catalogue = assemble_catalogue(manager, overrides={})
    chosen = [catalogue.get(name).definition for name in ("default", "repeat-failure")]  # type: ignore[union-attr]
    eng = PassEngine(
        chosen,
        OfflineProvider(),
        triggers=manager.registry.triggers,
        environment=manager.template_environment(),
    )
    failures = []
    for i in range(3):
        failures.append(
            obs(
                f"[tool] Bash: pytest -x #{i}",
                "tool",
                i,
                tool="Bash",
                tool_use_id=f"c{i}",
                args={"command": "pytest -x"},
            )
        )
        failures.append(
            obs(
                "[error] Bash: ImportError: no module named foo", "error", i, tool="Bash", tool_use_id=f"c{i}"
            )
        )
    failures.append(obs("[text] trying again", minute=5))
    result = asyncio.run(eng.run_pass(failures))
    by_id = {r.detector: r for r in result.results}
    assert by_id["default"].status == "skipped" and by_id["default"].label == "skipped: no model"
    fired = by_id["repeat-failure"]
    assert fired.status == "fallback" and fired.verdict == "advise"
    assert fired.headline == "`pytest -x` has failed 3 times in a row: ImportError: no module named foo"
    assert fired.feedback is not None and fired.feedback["dedup_key"].startswith("repeat-failure:")
    assert result.lines == (
        '[pass 1 14:05] repeat-failure → advise "`pytest -x` has failed 3 times in a row: '
        'ImportError: no module named foo" (0.75, key repeat-failure:pytest)',
    )
    assert result.usage == Usage()


def test_detector_case_for_golden_cases() -> None:
    manager = get_plugin_manager()
    repeat = assemble_catalogue(manager).get("repeat-failure").definition  # type: ignore[union-attr]
    calls = [
        obs("[tool] Bash: make", "tool", 1, tool="Bash", tool_use_id="m1", args={"command": "make"}),
        obs("[text] done", minute=2),
    ]
    silent = asyncio.run(detector_case(repeat, calls))
    assert (
        silent.status == "untriggered" and silent.verdict == "silent" and "no match" in (silent.error or "")
    )
    fails = []
    for i in range(4):
        fails.append(
            obs("[tool] Bash: make", "tool", i, tool="Bash", tool_use_id=f"m{i}", args={"command": "make"})
        )
        fails.append(
            obs("[error] Bash: make: *** [all] Error 2", "error", i, tool="Bash", tool_use_id=f"m{i}")
        )
    fails.append(obs("[text] hmm", minute=9))
    fired = asyncio.run(detector_case(repeat, fails))
    assert fired.status == "fallback" and "failed 4 times" in fired.headline


# -- open advisories ---------------------------------------------------------------------------------------


def test_open_advisories_reach_the_next_tail_and_close() -> None:
    det = detector("watch")
    replies = iter(
        [
            {"verdict": "advise", "headline": "tests never ran", "dedup_key": "tests:a"},
            {"verdict": "still_open"},
            {"verdict": "resolved", "dedup_key": "tests:a", "evidence": ["pytest ran at 14:09"]},
            {"verdict": "silent"},
        ]
    )

    async def next_reply(request: Request) -> Response:
        return answer(next(replies))

    provider = ScriptedProvider({"watch": next_reply})
    eng = engine([det], provider)

    async def run() -> list[str]:
        tails = []
        for i in range(4):
            await eng.run_pass([obs(f"step {i}", minute=i)])
            tail = provider.requests[-1].messages[-1].content[0]
            assert isinstance(tail, TextBlock)
            tails.append(tail.text)
        return tails

    tails = asyncio.run(run())
    assert "tests:a: tests never ran" not in tails[0]
    assert "- tests:a: tests never ran" in tails[1] and "- tests:a: tests never ran" in tails[2]
    assert "tests:a" not in tails[3]
    assert eng.window.blocks[-3].lines == (
        "[pass 3 14:02] watch → resolved (key tests:a; checked: pytest ran at 14:09)",
    )


# -- demotion ----------------------------------------------------------------------------------------------


def test_demotion_ladder_steps() -> None:
    clock = SimulatedClock(0)
    ladder = DemotionLadder(stride=3, retry_s=100, clock=clock)
    assert ladder.record("slow", 1, timed_out=True) is None
    step = ladder.record("slow", 2, timed_out=True)
    assert step is not None and step.action == "demoted"
    assert [ladder.admits("slow", n)[0] for n in range(3, 9)] == [False, False, True, False, False, True]
    assert ladder.record("slow", 5, timed_out=True) is None
    step = ladder.record("slow", 8, timed_out=True)
    assert step is not None and step.action == "disabled" and ladder.health("slow").stage is Stage.DISABLED
    assert ladder.admits("slow", 9) == (False, None)
    clock.advance(100)
    admitted, retry = ladder.admits("slow", 10)
    assert admitted and retry is not None and retry.action == "retried"
    step = ladder.record("slow", 10, timed_out=True)
    assert step is not None and step.action == "disabled" and "retry timed out" in step.reason
    clock.advance(100)
    assert ladder.admits("slow", 11)[0]
    step = ladder.record("slow", 11, timed_out=False)
    assert step is not None and step.action == "restored" and ladder.health("slow").stage is Stage.ACTIVE
    # a provider failure neither advances nor resets the count
    ladder.record("flaky", 1, timed_out=True)
    ladder.record("flaky", 2, timed_out=False, failed=True)
    assert ladder.health("flaky").timeouts == 1


def test_a_straggler_is_demoted_then_disabled_by_the_engine(caplog: pytest.LogCaptureFixture) -> None:
    async def hang(request: Request) -> Response:
        await asyncio.sleep(10)
        raise AssertionError("cancelled before this")

    provider = ScriptedProvider({"slow": hang})
    clock = SimulatedClock(0)
    settings = EngineSettings(fork_deadline_s=0.05, fork_grace_s=0.05, demote_stride=2, demote_retry_s=60)
    eng = engine([detector("fast"), detector("slow")], provider, settings=settings, clock=clock)

    async def run() -> list[tuple[list[str], list[str]]]:
        out = []
        for i in range(1, 9):
            result = await eng.run_pass([obs(f"step {i}")])
            out.append(
                ([f"{r.detector}:{r.status}" for r in result.results], [s.action for s in result.steps])
            )
        return out

    with caplog.at_level(logging.INFO, "sbcore.think.demotion"):
        history = asyncio.run(run())
    assert history[0] == (["fast:answered", "slow:timeout"], [])
    assert history[1] == (["fast:answered", "slow:timeout"], ["demoted"])
    assert history[2] == (["fast:answered"], [])  # pass 3: not its turn
    assert history[3] == (["fast:answered", "slow:timeout"], [])
    assert history[5] == (["fast:answered", "slow:timeout"], ["disabled"])
    assert history[6][0] == ["fast:answered"] and history[7][0] == ["fast:answered"]
    assert (
        "detector slow demoted at pass 2" in caplog.text and "detector slow disabled at pass 6" in caplog.text
    )
    clock.advance(60)
    result = asyncio.run(eng.run_pass([obs("later")]))
    assert [s.action for s in result.steps] == ["retried", "disabled"]
    assert eng.window.blocks[-1].lines[-1] == "[pass 9 14:00] slow → no answer (timed out)"


# -- MCP through a fork ------------------------------------------------------------------------------------


def test_detector_uses_an_mcp_tool_through_its_fork(tmp_path: Path) -> None:
    det = detector("prior-art", tools=["mcp:fx/echo"], max_iterations=3)
    bystander = detector("bystander")

    async def run(fake: FakeProvider) -> Any:
        settings = ProviderSettings(
            "anthropic",
            "claude-haiku-4-5",
            base_url=fake.anthropic_base_url,
            api_key=Secret("t"),
            retry=RetryPolicy(max_retries=0),
        )
        model = AnthropicProvider(settings)
        async with McpHub({"fx": {"command": sys.executable, "args": [MCP_FIXTURE]}}, cwd=tmp_path) as hub:
            box = Toolbox(tmp_path, remote=hub)
            eng = PassEngine([det, bystander], model, toolbox=box, triggers={})
            result = await eng.run_pass([obs("[text] writing a retry loop")])
        await model.aclose()
        return result

    with FakeProvider() as fake:
        fake.script(
            "prior-art",
            tool_call("mcp__fx__echo", {"text": "retry helper"}),
            feedback("silent", evidence=["fixture echo: retry helper (searched: nothing to reuse)"]),
        )
        result = asyncio.run(run(fake))
        first, second = fake.requests_for("prior-art")
        (other,) = fake.requests_for("bystander")
    assert [t["name"] for t in first.body["tools"]] == [t["name"] for t in other.body["tools"]]
    assert "mcp__fx__echo" in [t["name"] for t in first.body["tools"]]
    results = [
        block
        for message in second.body["messages"]
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    assert results == [
        {
            "type": "tool_result",
            "tool_use_id": results[0]["tool_use_id"],
            "content": "fixture echo: retry helper",
        }
    ]
    fork = result.result("prior-art")
    assert fork.tool_calls[0].result == "fixture echo: retry helper"
    assert fork.feedback["evidence"] == ["fixture echo: retry helper (searched: nothing to reuse)"]
    assert "prior-art → silent (checked: fixture echo: retry helper" in "\n".join(result.lines)


# -- debug capture -----------------------------------------------------------------------------------------


def test_debug_capture_writes_digest_and_each_fork(tmp_path: Path) -> None:
    async def tooled(request: Request) -> Response:
        if not any(isinstance(b, ToolResultBlock) for m in request.messages for b in m.content):
            return Response(
                (TextBlock("checking"), ToolUseBlock("u1", "Read", {"path": "a.txt"})),
                "tool_use",
                Usage(1, 1),
            )
        return answer({"verdict": "advise", "headline": "look at a.txt"})

    (tmp_path / "a.txt").write_text("alpha")
    provider = ScriptedProvider({"reader": tooled})
    capture = DebugCapture(tmp_path / "debug", "sess/1")
    dets = [detector("plain"), detector("reader", tools=["Read"], max_iterations=2)]
    eng = engine(dets, provider, toolbox=Toolbox(tmp_path), debug=capture)
    asyncio.run(eng.run_pass([obs("[text] unique-episode-text")]))
    pass_dir = tmp_path / "debug" / "sess-1" / "0001"
    assert sorted(p.name for p in pass_dir.iterdir()) == ["digest.txt", "plain.txt", "reader.txt"]
    digest = (pass_dir / "digest.txt").read_text()
    assert "unique-episode-text" in digest and "[cache breakpoint]" in digest and "- Read:" in digest
    assert "[detector: reader]" not in digest  # tails are private
    fork_log = (pass_dir / "reader.txt").read_text()
    for expected in (
        "=== private tail ===",
        "[detector: reader]",
        "tool call Read",
        "=== tool result Read ===",
        "alpha",
        '"verdict": "advise"',
    ):
        assert expected in fork_log
    assert (pass_dir.stat().st_mode & 0o777) == 0o700 and (
        (pass_dir / "reader.txt").stat().st_mode & 0o777
    ) == 0o600


def test_model_compaction_folds_into_the_ledger() -> None:
    async def summarise(request: Request) -> Response:
        return Response(
            (TextBlock("The agent set up the project and ran the tests."),), "end_turn", Usage(50, 10)
        )

    provider = ScriptedProvider({"(none)": summarise})
    settings = EngineSettings(budget_chars=4_000, compaction_threshold=0.5, compaction_floor=0.2)
    eng = engine([detector("lens")], provider, settings=settings)

    async def run() -> list[Any]:
        return [await eng.run_pass([obs("[text] " + "v" * 700, minute=i)]) for i in range(4)]

    results = asyncio.run(run())
    compactions = [r.compaction for r in results if r.compaction is not None]
    assert compactions and compactions[0].by_model
    ledger = eng.window.messages[0].content[0]
    assert isinstance(ledger, TextBlock) and "The agent set up the project and ran the tests." in ledger.text
    summary_request = next(r for r in provider.requests if _detector_of(r) == "(none)")
    assert summary_request.tools == () and summary_request.breakpoint is None


def test_bench_fanout_prints_both_walls_and_the_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    from sbcore.cli import main

    assert main(["bench", "fanout", "--detectors", "3", "--latency-ms", "20", "--repeat", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["detectors"] == 3 and report["one_detector_s"] > 0.02 and report["n_detectors_s"] > 0.04
    assert report["ratio"] == pytest.approx(report["n_detectors_s"] / report["one_detector_s"], rel=0.01)


def test_trigger_history_is_bounded_by_the_window_budget() -> None:
    from sbcore.observe.model import Observation

    eng = PassEngine([], ScriptedProvider(), settings=EngineSettings(budget_chars=1_000), triggers={})
    eng.remember([Observation("text", "x" * 100, uuid=str(i)) for i in range(25)])
    assert len(eng.history) == 10 and eng.history[0].uuid == "15"
    eng.remember([Observation("text", "y" * 5_000)])  # one oversize observation is still kept
    assert [o.text[0] for o in eng.history] == ["y"]


def test_an_empty_turn_end_pass_runs_only_the_turn_end_lenses() -> None:
    dets = [detector("every"), detector("ends", cadence="turn_end")]
    model = ScriptedProvider()
    eng = engine(dets, model)
    asyncio.run(eng.run_pass([obs("[text] working")]))
    model.requests.clear()
    result = asyncio.run(eng.run_pass([], turn_end=True))  # an earlier pass took the turn's last steps
    assert {_detector_of(request) for request in model.requests} == {"ends"}
    assert "nothing new" in dict(result.skipped)["every"]
    model.requests.clear()
    asyncio.run(eng.run_pass([]))  # a manual pass with nothing new still asks everyone but turn-end lenses
    assert {_detector_of(request) for request in model.requests} == {"every"}
