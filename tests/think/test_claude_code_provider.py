"""The claude-code provider without the real CLI: auto-selection, and every way the CLI can fail.

A fake ``claude`` (a small Python script put first on PATH) answers ``auth status --json`` and ``-p`` the
way the failure being tested needs; the real CLI is driven in tests/e2e/test_claude_code_provider_e2e.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from sbcore.config import load_config
from sbcore.observe.model import Observation
from sbcore.packs.loader import validate_detector_data
from sbcore.packs.model import DetectorDef, SourceRef
from sbcore.think import FEEDBACK_TOOL
from sbcore.think.cli_fork import CliFork
from sbcore.think.fork import ForkPlan
from sbcore.think.pass_ import EngineSettings, PassEngine
from sbcore.think.providers import claude_code
from sbcore.think.providers.base import Message, ProviderConfigError, ProviderSettings, Request, Usage
from sbcore.think.providers.choose import choose
from sbcore.think.providers.claude_code import ClaudeCodeOptions, ClaudeCodeProvider
from sbcore.think.tools.base import ToolResult
from sbcore.think.tools.dispatch import Grant, Toolbox
from sbcore.think.tools.relay import RelayHost, _Client
from sbcore.think.window import Window

FAKE_CLAUDE = """\
import json, os, sys, time
mode = os.environ.get("FAKE_CLAUDE_MODE", "")
args = sys.argv[1:]
log = os.environ.get("FAKE_CLAUDE_LOG")
if log:
    with open(log, "a") as handle:
        handle.write(json.dumps({"argv": args, "pid": os.getpid(), "pgid": os.getpgid(0),
                                 "observer": os.environ.get("SBCORE_OBSERVER"),
                                 "session": os.environ.get("CLAUDE_CODE_SESSION_ID")}) + "\\n")
def out(event):
    print(json.dumps(event), flush=True)
if args[:2] == ["auth", "status"]:
    if mode == "auth-hangs":
        time.sleep(30)
    if mode == "auth-garbage":
        print("Segmentation fault")
        sys.exit(139)
    logged = mode != "logged-out"
    out({"loggedIn": logged, "authMethod": "claude.ai" if logged else "none"})
    sys.exit(0 if logged else 1)
stdin = sys.stdin.read()
system = args[args.index("--system-prompt-file") + 1] if "--system-prompt-file" in args else None
if log:
    with open(log, "a") as handle:
        handle.write(json.dumps({"stdin": stdin, "system": open(system).read() if system else None}) + "\\n")
if mode == "unknown-flag":
    print("error: unknown option '--strict-mcp-config'", file=sys.stderr)
    sys.exit(1)
if mode == "slow-start":
    time.sleep(30)
init = {"type": "system", "subtype": "init", "tools": [], "mcp_servers": [], "plugins": []}
if mode == "logged-out":
    out(init)
    out({"type": "result", "subtype": "success", "is_error": True,
         "result": "Invalid API key \\u00b7 Please run /login"})
    sys.exit(1)
if mode in ("rate-limited", "overloaded"):  # what 2.1.328 prints while it backs off, then it waits
    out(init)
    status, error = (429, "rate_limit") if mode == "rate-limited" else (529, "overloaded")
    for attempt in range(1, 4):
        out({"type": "system", "subtype": "api_retry", "attempt": attempt, "max_retries": 10,
             "retry_delay_ms": 1000, "error_status": status, "error": error})
    time.sleep(60)
if mode == "hangs":
    out(init)
    time.sleep(60)
out(init)
out({"type": "assistant", "message": {"id": "m1", "usage": {"input_tokens": 7, "output_tokens": 3,
     "cache_read_input_tokens": 100, "cache_creation_input_tokens": 20}}})
out({"type": "assistant", "message": {"id": "m1", "usage": {"input_tokens": 7, "output_tokens": 3,
     "cache_read_input_tokens": 100, "cache_creation_input_tokens": 20}}})
out({"type": "result", "subtype": "success", "is_error": False, "num_turns": 1, "result": "Looks fine.",
     "total_cost_usd": 0.0012, "usage": {"input_tokens": 7, "output_tokens": 3,
     "cache_read_input_tokens": 100, "cache_creation_input_tokens": 20}})
"""


@pytest.fixture
def fake_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake ``claude`` first on PATH (and nothing else of the machine's); returns its call log."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "claude"
    script.write_text(f"#!{sys.executable}\n{FAKE_CLAUDE}")
    script.chmod(0o755)
    log = tmp_path / "calls.jsonl"
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("FAKE_CLAUDE_LOG", str(log))
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "FAKE_CLAUDE_MODE"):
        monkeypatch.delenv(key, raising=False)
    return log


def logged(log: Path, kind: str) -> list[dict[str, Any]]:
    """The fake CLI's log lines of one kind: ``argv`` (every start) or ``stdin`` (what a fork was given)."""
    lines = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return [line for line in lines if kind in line]


def env(**values: str) -> dict[str, str]:
    return {**os.environ, **values}


# -- item 2: model.provider auto, in order ---------------------------------------------------------------


def test_an_explicit_provider_wins_over_a_key_and_a_logged_in_cli(fake_cli: Path) -> None:
    choice = choose({"provider": "anthropic"}, env(ANTHROPIC_API_KEY="k"))
    assert (choice.provider, choice.reason) == ("anthropic", "model.provider is anthropic")
    choice = choose({"provider": "claude-code"}, env(ANTHROPIC_API_KEY="k"))
    assert (choice.provider, choice.model) == ("claude-code", claude_code.DEFAULT_MODEL)
    assert not fake_cli.exists(), "an explicit choice asks the CLI nothing"


def test_an_api_key_in_the_environment_comes_before_the_cli(fake_cli: Path) -> None:
    choice = choose({}, env(ANTHROPIC_API_KEY="k"))
    assert (choice.provider, choice.reason) == ("anthropic", "ANTHROPIC_API_KEY is set")
    assert choose({}, env(OPENAI_API_KEY="k")).provider == "openai"
    assert not fake_cli.exists()


def test_with_no_key_a_logged_in_cli_is_chosen_and_the_reason_says_so(fake_cli: Path) -> None:
    choice = choose({}, env())
    assert choice.provider == "claude-code"
    assert "is logged in (claude.ai)" in choice.reason and "no ANTHROPIC_API_KEY" in choice.reason
    assert "through the claude CLI" in choice.describe()
    assert choice.to_json()["provider"] == "claude-code"
    calls = logged(fake_cli, "argv")
    assert [call["argv"] for call in calls] == [["auth", "status", "--json"]]
    assert calls[0]["observer"] == "1"


@pytest.mark.parametrize(
    ("mode", "why"),
    [
        ("logged-out", "is not logged in"),
        ("auth-garbage", "did not report its login: exit 139"),
        ("auth-hangs", "did not report its login: TimeoutExpired"),
    ],
)
def test_a_cli_that_is_not_logged_in_leaves_the_observer_offline(
    fake_cli: Path, monkeypatch: pytest.MonkeyPatch, mode: str, why: str
) -> None:
    monkeypatch.setattr(claude_code, "AUTH_TIMEOUT_S", 1.0)
    choice = choose({}, env(FAKE_CLAUDE_MODE=mode))
    assert choice.provider == "offline"
    assert why in choice.reason


def test_no_cli_on_path_leaves_the_observer_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    choice = choose({}, dict(os.environ))
    assert choice.provider == "offline"
    assert choice.reason.endswith("and no claude CLI on PATH")


def test_a_model_name_that_could_be_read_as_a_flag_is_refused() -> None:
    with pytest.raises(ProviderConfigError, match=r"model\.name"):
        choose({"provider": "claude-code", "name": "--dangerously-skip-permissions"}, {})


def test_the_options_defaults_are_the_schema_defaults(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert ClaudeCodeOptions.from_mapping(config.get("model.claude_code")) == ClaudeCodeOptions()


# -- item 5: failure is silence ---------------------------------------------------------------------------


def detector(ident: str, **fields: Any) -> DetectorDef:
    data = {
        "schema_version": 1,
        "id": ident,
        "description": "A test lens.",
        "enabled": True,
        "prompt": "You are {{ detector.id }}.",
        "schema": "feedback_v1",
        "max_iterations": 3,
        **fields,
    }
    return validate_detector_data(data, source=SourceRef("<test>"), pack="test", triggers={})


def provider(**options: Any) -> ClaudeCodeProvider:
    values = {"min_interval_s": 0.0, "start_allowance_s": 2.0, **options}
    return ClaudeCodeProvider(
        ProviderSettings("claude-code", "claude-haiku-4-5"), ClaudeCodeOptions(**values)
    )


def engine(cli: ClaudeCodeProvider, tmp_path: Path, *detectors: DetectorDef) -> PassEngine:
    return PassEngine(
        list(detectors) or [detector("lens-a"), detector("lens-b")],
        cli,
        settings=EngineSettings(fork_deadline_s=2, fork_grace_s=1),
        toolbox=Toolbox(root=tmp_path),
        workspace=str(tmp_path),
    )


def one_pass(cli: ClaudeCodeProvider, tmp_path: Path) -> Any:
    return asyncio.run(engine(cli, tmp_path).run_pass([Observation("text", "I edited app.py")]))


@pytest.mark.parametrize(
    ("mode", "why"),
    [
        ("unknown-flag", "refused a flag"),
        ("logged-out", "not logged in"),
        ("rate-limited", "rate-limited (HTTP 429"),
        ("overloaded", "keep failing (HTTP 529, overloaded; 3 retries)"),
        ("slow-start", "started no session within 2 s"),
    ],
)
def test_a_cli_that_cannot_run_turns_the_pass_offline_and_says_why(
    fake_cli: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, why: str
) -> None:
    monkeypatch.setenv("FAKE_CLAUDE_MODE", mode)
    result = one_pass(provider(), tmp_path)
    assert why in result.offline_because
    assert [(r.detector, r.status, r.error) for r in result.results] == [
        ("lens-a", "skipped", "skipped: no model"),
        ("lens-b", "skipped", "skipped: no model"),
    ]
    runs = logged(fake_cli, "argv")
    assert len(runs) == 1, "after the pilot failed, no further CLI was started in that pass"
    assert "offline_because" in result.to_json()


def test_a_missing_cli_turns_the_pass_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    result = one_pass(provider(), tmp_path)
    assert result.offline_because == "no claude CLI on PATH"
    assert {r.status for r in result.results} == {"skipped"}


def test_the_hard_deadline_kills_the_cli_process_group(
    fake_cli: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_CLAUDE_MODE", "hangs")
    hanging = engine(provider(start_allowance_s=1.0), tmp_path, detector("lens"))
    result = asyncio.run(hanging.run_pass([Observation("text", "x")]))
    assert [r.status for r in result.results] == ["timeout"]
    assert result.offline_because == "", "a slow answer is the detector's timeout, not an unusable CLI"
    pid = logged(fake_cli, "argv")[0]["pid"]
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_usage_and_cost_come_from_the_cli_report_and_count_once_per_message(
    fake_cli: Path, tmp_path: Path
) -> None:
    result = asyncio.run(engine(provider(), tmp_path, detector("lens")).run_pass([Observation("text", "x")]))
    (only,) = result.results
    assert only.status == "prose" and only.feedback == {"verdict": "silent"}
    usage = only.usage
    assert (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens, usage.cache_write_tokens) == (
        7,
        3,
        100,
        20,
    )
    assert result.cost_usd == pytest.approx(0.0012)
    (run,) = logged(fake_cli, "argv")
    assert run["observer"] == "1" and run["pgid"] == run["pid"], "its own process group, observer env set"
    argv = run["argv"]
    for flag in (
        "--tools=",
        "--strict-mcp-config",
        "--setting-sources=",
        "--disable-slash-commands",
        "--no-session-persistence",
        "--model=claude-haiku-4-5",
        "--max-budget-usd=0.05",
    ):
        assert flag in argv
    assert "--safe-mode" not in argv and "--bare" not in argv


def test_the_parent_sessions_variables_do_not_reach_the_fork() -> None:
    given = {"HOME": "/h", "CLAUDE_CODE_SESSION_ID": "s", "CLAUDECODE": "1", "CLAUDE_CONFIG_DIR": "/c"}
    forked = claude_code.fork_env(given)
    assert forked["HOME"] == "/h" and forked["CLAUDE_CONFIG_DIR"] == "/c", "the login stays reachable"
    assert "CLAUDE_CODE_SESSION_ID" not in forked and "CLAUDECODE" not in forked
    assert forked["SBCORE_OBSERVER"] == "1" and forked["CLAUDE_CODE_DISABLE_CLAUDE_MDS"] == "1"


# -- item 3: the provider's own pace ----------------------------------------------------------------------


def test_a_pass_sooner_than_the_providers_interval_runs_offline(fake_cli: Path, tmp_path: Path) -> None:
    clock = [1000.0]
    cli = ClaudeCodeProvider(
        ProviderSettings("claude-code", "claude-haiku-4-5"),
        ClaudeCodeOptions(min_interval_s=600, tokens_per_hour=100),
        monotonic=lambda: clock[0],
    )
    assert cli.begin_pass() is None
    clock[0] += 60
    assert "next model pass in 540 s" in (cli.begin_pass() or "")
    assert cli.begin_pass(turn_end=True) is None, "a turn end's pass is exempt from the interval"
    clock[0] += 600
    cli.spent(Usage(90, 20))
    assert "reached model.claude_code.tokens_per_hour 100" in (cli.begin_pass() or "")


# -- the fork's tool boundary (the relay's handler) ------------------------------------------------------


def test_the_relay_answers_with_the_grant_the_jail_and_the_feedback_schema(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def add(a, b):\n    return a - b\n")
    lens = detector("lens", tools=["Read"])
    plan = ForkPlan(lens, "[detector: lens]", Grant.parse(["Read"]), 30.0, 1.0, 5)
    window = Window(("system",))
    window.append_episode(1, [Observation("text", "x")])
    fork = CliFork(plan, window.snapshot(()), provider(), toolbox=Toolbox(root=tmp_path))

    async def calls() -> list[ToolResult]:
        return [
            await fork._handle("Read", {"path": "app.py"}),
            await fork._handle("Read", {"path": "../outside.txt"}),
            await fork._handle("Glob", {"pattern": "*.py"}),
            await fork._handle(FEEDBACK_TOOL, {"verdict": "maybe"}),
            await fork._handle(FEEDBACK_TOOL, {"verdict": "silent"}),
            await fork._handle("Read", {"path": "app.py"}),
        ]

    inside, outside, ungranted, invalid, valid, late = asyncio.run(calls())
    assert "return a - b" in inside.text and not inside.is_error
    assert outside.refused
    assert ungranted.refused and "Glob" in ungranted.text
    assert invalid.is_error and "not accepted" in invalid.text
    assert not valid.is_error and fork.feedback == {"verdict": "silent"}
    assert late.refused


def test_the_relay_socket_needs_the_token(tmp_path: Path) -> None:
    seen: list[tuple[str, dict[str, Any]]] = []

    async def handler(name: str, args: dict[str, Any]) -> ToolResult:
        seen.append((name, args))
        return ToolResult(f"ran {name}")

    async def scenario() -> tuple[ToolResult, ToolResult]:
        async with RelayHost(tmp_path, [], handler) as host:
            good = await _Client(str(host.socket_path), host.token).call("Read", {"path": "a"})
            bad = await _Client(str(host.socket_path), "wrong").call("Read", {"path": "b"})
            assert oct(host.spec_path.stat().st_mode & 0o777) == "0o600"
        return good, bad

    good, bad = asyncio.run(scenario())
    assert good.text == "ran Read" and seen == [("Read", {"path": "a"})]
    assert bad.refused and "token" in bad.text


def test_a_pass_with_nothing_to_run_does_not_use_up_the_providers_interval(
    fake_cli: Path, tmp_path: Path
) -> None:
    cli = provider(min_interval_s=600)
    paced = engine(cli, tmp_path, detector("lens", cadence={"every_nth": 2}))
    first = asyncio.run(paced.run_pass([Observation("text", "x")]))
    second = asyncio.run(paced.run_pass([Observation("text", "y")]))
    assert first.results == () and first.offline_because == ""
    assert second.offline_because == "" and [r.status for r in second.results] == ["prose"]


def test_the_window_is_the_shared_system_prompt_and_the_tail_the_user_message(
    fake_cli: Path, tmp_path: Path
) -> None:
    wide = engine(provider(), tmp_path, detector("lens-a"), detector("lens-b"))
    asyncio.run(wide.run_pass([Observation("text", "I edited the parser in app.py")]))
    given = logged(fake_cli, "stdin")
    assert len(given) == 2
    assert given[0]["system"] == given[1]["system"], "every fork of a pass shares the system prompt"
    assert "I edited the parser in app.py" in given[0]["system"]
    for fork, name in zip(given, ("lens-a", "lens-b"), strict=True):
        message = json.loads(fork["stdin"])
        text = json.dumps(message["message"]["content"])
        assert f"[detector: {name}]" in text and "I edited the parser" not in text
        assert f"[detector: {name}]" not in fork["system"]


def test_a_tool_less_call_runs_one_cli_and_reads_its_result(fake_cli: Path) -> None:
    request = Request(model="m", system=("Summarise.",), messages=(Message.user("the evicted blocks"),))
    response = asyncio.run(provider().send(request))
    assert response.text == "Looks fine."
    assert response.usage.cache_read_tokens == 100
    (given,) = logged(fake_cli, "stdin")
    assert given["system"] == "Summarise." and "the evicted blocks" in given["stdin"]


def test_a_pass_that_went_offline_says_why_in_its_status_line() -> None:
    from sbcore.worker.status import summarise_pass

    report = {
        "number": 4,
        "reason": "volume",
        "verdicts": [],
        "offline_because": "the claude CLI is rate-limited",
    }
    assert summarise_pass(report) == "pass 4 (volume): 0 silent; offline: the claude CLI is rate-limited"
