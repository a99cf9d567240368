"""End to end (issue 14): the observer thinks through the user's own ``claude`` CLI (``model.provider:
claude-code``).

The primary session is the real pinned CLI with the plugin installed; its worker runs each detector fork as
another ``claude -p`` of the same CLI (found on PATH, as a user's would be), and that CLI's backend is the
loopback fake, which scripts the fork: read ``app.py`` through our relayed Read tool, try a tool outside the
grant, answer through the feedback tool. The HOME also holds a user hook, a user CLAUDE.md and a user MCP
server: none of them may reach the observer's CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from e2e_helpers import Harness, texts

from sbcore.testing.fake_provider import FakeProvider, RecordedRequest
from sbcore.testing.scripts import Reply, text, tool_call

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

HEADLINE = "add() subtracts: app.py returns a - b"
CLAUDE_MD_MARKER = "SB-USER-CLAUDE-MD-7731"
CLI_FEEDBACK = "mcp__sbcore__second_brain_detector_feedback"


def bash(command: str, *, delay_ms: int = 0) -> Reply:
    return tool_call("Bash", {"command": command, "description": "run a command"}, delay_ms=delay_ms)


def customise_user(harness: Harness) -> Path:
    """A user hook (logging every payload), a user CLAUDE.md and a user MCP server; returns the hook log."""
    claude = harness.home / ".claude"
    log = harness.root / "user-hook.jsonl"
    settings_path = claude / "settings.json"
    settings = json.loads(settings_path.read_text()) if settings_path.exists() else {}
    hook = {"hooks": [{"type": "command", "command": f"cat >> {log}; echo >> {log}"}]}
    settings["hooks"] = {"SessionStart": [hook], "UserPromptSubmit": [hook]}
    settings_path.write_text(json.dumps(settings))
    (claude / "CLAUDE.md").write_text(f"{CLAUDE_MD_MARKER}: always mention bananas.\n")
    started = harness.root / "user-mcp-started"  # one line per start: "1" when an observer started it
    config_path = harness.home / ".claude.json"
    config = json.loads(config_path.read_text()) if config_path.exists() else {}
    script = f'echo "$SBCORE_OBSERVER" >> {started}; sleep 30'
    config["mcpServers"] = {"usersrv": {"type": "stdio", "command": "sh", "args": ["-c", script]}}
    config_path.write_text(json.dumps(config))
    return log


def tool_results(request: RecordedRequest) -> list[dict[str, object]]:
    return [
        block
        for message in request.body.get("messages", [])
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if isinstance(block, dict) and block.get("type") == "tool_result"
    ]


def test_a_fork_runs_through_the_users_claude_cli_with_only_our_tools(harness: Harness) -> None:
    harness.configure(
        {
            "headless.observe": True,
            "model.provider": "claude-code",
            "model.claude_code": {"min_interval_s": 0, "max_parallel_forks": 1},
            "loop.salience_per_hour": 120,
            "detectors.default.tools": ["Read"],
            "detectors.default.max_iterations": 5,
            # A second fork granted Glob puts Glob on the pass's wire list: only the grant can refuse it.
            # goal-drift names no trigger, so it runs in every pass the default fork runs in.
            "detectors.goal-drift.enabled": True,
            "detectors.goal-drift.cadence": "every_pass",
            "detectors.goal-drift.tools": ["Glob"],
            "loop.fork_deadline_s": 30,
        }
    )
    hook_log = customise_user(harness)
    cli_dir = str(harness.claude.parent)
    with FakeProvider() as fake:
        fake.script(
            "default",
            tool_call("mcp__sbcore__Read", {"path": "app.py"}),
            tool_call("mcp__sbcore__Glob", {"pattern": "**/*"}),
            tool_call("Bash", {"command": "cat /etc/passwd"}),
            tool_call(
                CLI_FEEDBACK,
                {
                    "verdict": "advise",
                    "headline": HEADLINE,
                    "body": "The test expects add(2, 1) == 3; app.py line 2 subtracts.",
                    "confidence": 0.9,
                    "dedup_key": "default:add-subtracts",
                    "evidence": ["app.py:2 return a - b"],
                },
            ),
            text("Done."),
        )
        fake.script_primary(
            bash("python3 -c 'import app; assert app.add(2, 1) == 3'"),
            *[bash(f"sleep 2; echo waiting {n}", delay_ms=300) for n in range(8)],
            text("I will fix add next."),
        )
        run = harness.run(
            fake, "make add work", env={"PATH": f"{cli_dir}:{harness.base_env()['PATH']}"}, timeout=240
        )
        forks = fake.requests_for("default")
    assert run.returncode == 0, run.stderr[-3000:]
    status = harness.wait_for_worker_exit(run.session, timeout=30)

    # The fork went through `claude -p` (the CLI's own user agent), offered only our relayed tools.
    assert forks, "the default detector's fork reached the fake"
    assert all("claude-cli/2.1.328" in fork.headers.get("user-agent", "") for fork in forks)
    for fork in forks:
        names = [tool["name"] for tool in fork.body.get("tools", [])]
        assert names and all(name.startswith("mcp__sbcore__") for name in names), names
        assert CLI_FEEDBACK in names
        assert not any(CLAUDE_MD_MARKER in chunk for chunk in texts(fork.body)), "no user CLAUDE.md"

    # Read ran inside the jail and its result came back; Glob, on the wire but outside this detector's
    # grant, was refused by our dispatch; Bash, a built-in, does not exist in the fork at all.
    assert "mcp__sbcore__Glob" in [tool["name"] for tool in forks[-1].body["tools"]]
    results = [str(result.get("content")) for fork in forks for result in tool_results(fork)]
    assert any("return a - b" in result for result in results), results
    assert any("refused" in result and "Glob" in result for result in results), results
    assert any("No such tool available: Bash" in result for result in results), results

    # The advisory was delivered in the live session: to the agent, and shown to the user.
    delivered = harness.delivered(run.session)
    assert [advice.headline for advice in delivered] == [HEADLINE]
    advisory = harness.framed(run.session)[0]
    assert run.carrying(advisory), "a later request of the primary carried the advisory"

    # Nothing of the user's reached the observer's CLI: its hooks fired only for the primary session,
    # the user's MCP server never started, and the CLI left no session of its own behind.
    payloads = [json.loads(line) for line in hook_log.read_text().splitlines() if line.strip()]
    assert payloads and {payload["session_id"] for payload in payloads} == {run.session}
    mcp_starts = harness.root / "user-mcp-started"
    starts = mcp_starts.read_text().splitlines() if mcp_starts.exists() else []
    assert "1" not in starts, "the user's MCP server was started by the observer's CLI"
    events = sorted(path.name for path in (harness.data / "events").glob("*.jsonl"))
    assert events == [f"{run.session}.jsonl"], "the plugin's hooks recorded the primary session only"
    projects = harness.home / ".claude" / "projects"
    transcripts = sorted(path.name for path in projects.glob("*/*.jsonl"))
    assert transcripts == [f"{run.session}.jsonl"], "no observer session is left to /resume"

    # The choice and the CLI's own cost report are in the status file.
    assert status is not None
    assert status["provider_choice"]["provider"] == "claude-code"
    assert status["provider_choice"]["reason"] == "model.provider is claude-code"
    # the fork's pass (the worker's last pass judges the turn the CLI ended on, after it exited)
    spent = [one for one in status["recent_passes"] if one["tokens"] > 0]
    assert spent and spent[0]["cost_usd"] > 0, "the CLI's own usage and cost report"
