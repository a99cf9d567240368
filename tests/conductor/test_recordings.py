"""Recorded model answers: ``replay --labels --record`` keeps every fork's model I/O and tool results, and
``--recorded`` replays them offline, in a fresh process, with the same verdicts; a replay that leaves its
recording fails its cases, naming the call; replayed tool calls meet live dispatch's refusals."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from sbcore import paths
from sbcore.cli import main
from sbcore.config import load_config
from sbcore.config.trust import grant
from sbcore.testing import Call, FakeProvider, Reply, feedback
from sbcore.think.providers.base import Message, Request, Response, TextBlock, Usage
from sbcore.think.recording import RecordedProvider, Tape, ToolAnswers, playing, request_parts
from sbcore.think.tools.base import ToolResult
from sbcore.think.tools.dispatch import Grant, Toolbox

CASES = Path(__file__).parent.parent / "think" / "replay_cases"
SESSION = CASES / "sq-docs-only.jsonl"  # a short session with turn ends: each lens runs at them
MCP_FIXTURE = Path(__file__).resolve().parents[1] / "think" / "mcp_server_fixture.py"
LENS = """\
schema_version: 1
id: {id}
description: A lens of the team's that needs a model.
enabled: true
mode: advise
cadence: turn_end
max_iterations: 3
prompt: {prompt}
tools: {tools}
"""


def workspace(tmp_path: Path, prompt: str = "Say whether the turn left anything undone.") -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True, exist_ok=True)
    detectors = root / ".second-brain" / "detectors"
    detectors.mkdir(parents=True, exist_ok=True)
    (detectors / "turn-check.yaml").write_text(LENS.format(id="turn-check", prompt=prompt, tools="[]"))
    (detectors / "docs-lookup.yaml").write_text(
        LENS.format(
            id="docs-lookup", prompt="Look the change up in the docs server.", tools='["mcp:docs/echo"]'
        )
    )
    return root


def trust(root: Path) -> None:
    """The user's approval of the workspace, as ``second-brain trust`` records it at their terminal."""
    state = load_config(root).trust
    assert state is not None
    with mock.patch("sbcore.config.user_act.refusal", lambda *args, **kwargs: None):
        grant(state)


def user_config(server: dict[str, Any]) -> None:
    """The user's own layer: the MCP server the workspace's docs lens is granted."""
    glob = paths.config_dir() / "config.yaml"
    glob.parent.mkdir(parents=True, exist_ok=True)
    glob.write_text(json.dumps({"tools": {"mcp_servers": {"docs": server}}}))


def labels(tmp_path: Path) -> Path:
    path = tmp_path / "labels.yaml"
    path.write_text(
        "cases:\n"
        f"  - {{id: turn, transcript: {SESSION}, detector: turn-check, expect: fire}}\n"
        f"  - {{id: docs, transcript: {SESSION}, detector: docs-lookup, expect: fire}}\n"
    )
    return path


def verdicts(document: dict[str, Any]) -> list[tuple[str, bool | None, str | None]]:
    return [(case["id"], case["fired"], case["failure"]) for case in document["by_case"]]


def fresh_replay(*args: str) -> subprocess.CompletedProcess[str]:
    """``second-brain replay`` in a new process with no provider in its environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    program = "import sys; from sbcore.cli import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", program, "replay", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_recorded_run_replays_offline_in_a_fresh_process_and_a_changed_prompt_fails_naming_the_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(tmp_path)
    user_config({"command": sys.executable, "args": [str(MCP_FIXTURE)]})
    trust(root)
    cases, tapes = labels(tmp_path), tmp_path / "tapes"
    advise = feedback("advise", headline="The turn left the changelog undone", confidence=0.9)
    found = feedback("advise", headline="The docs server lists a migration step", confidence=0.9)
    with FakeProvider() as fake:
        for key, value in fake.env().items():
            monkeypatch.setenv(key, value)
        fake.script("turn-check", *[advise] * 20)
        looked_up = Reply((Call("mcp__docs__echo", {"text": "changelog"}),))
        fake.script("docs-lookup", *[looked_up, found] * 20)
        code = main(
            [
                *("replay", "--json", "--raw", "--labels", str(cases), "--workspace", str(root)),
                *("--provider", "anthropic", "--record", str(tapes)),
            ]
        )
        out, err = capsys.readouterr()
        recorded = json.loads(out)
        sent = len(fake.requests)
    assert code == 0, err
    assert verdicts(recorded) == [("turn", True, None), ("docs", True, None)]
    tape_files = sorted(path.name for path in tapes.iterdir())
    assert tape_files == ["docs.json"]  # both cases replay the same session: one recording
    for name in tape_files:
        assert (tapes / name).stat().st_mode & 0o777 == 0o600
    docs = json.loads((tapes / "docs.json").read_text())
    echoed = [call for call in docs["tool_calls"] if call["tool"] == "mcp__docs__echo"]
    assert echoed and echoed[0]["result"].endswith("fixture echo: changelog")
    assert [tool["name"] for tool in docs["remote_tools"]] and sent > 0

    # Offline, in another process, with the user's MCP server gone: the same verdicts from the tapes.
    user_config({"command": str(tmp_path / "no-such-server")})
    again = fresh_replay(
        "--json", "--raw", "--labels", str(cases), "--workspace", str(root), "--recorded", str(tapes)
    )
    assert again.returncode == 0, again.stderr
    assert verdicts(json.loads(again.stdout)) == verdicts(recorded)
    assert json.loads(again.stdout)["turn-check"] == recorded["turn-check"]

    # The team changes the lens's prompt (and trusts the change): its recorded answers no longer apply.
    workspace(tmp_path, prompt="Say whether the turn left any test unrun.")
    trust(root)
    changed = fresh_replay("--labels", str(cases), "--workspace", str(root), "--recorded", str(tapes))
    assert changed.returncode == 1
    assert "Traceback (most recent call last)" not in changed.stderr
    [line] = [line for line in changed.stderr.splitlines() if line.startswith("Error:")]
    assert line.startswith(
        "Error: turn-check failed in 1 case: left its recording: turn-check model call 1: "
    )
    assert "the detector's instructions (its private tail) differ from the recording" in line


def test_a_missing_recording_is_an_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(tmp_path)
    user_config({"command": sys.executable, "args": [str(MCP_FIXTURE)]})
    trust(root)
    (tmp_path / "tapes").mkdir()
    code = main(
        [
            *("replay", "--labels", str(labels(tmp_path)), "--workspace", str(root)),
            *("--recorded", str(tmp_path / "tapes")),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "Traceback (most recent call last)" not in err
    assert "no recording of case 'docs'" in err and str(tmp_path / "tapes" / "docs.json") in err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--record", "t", "--recorded", "t"], "give one"),
        (["--recorded", "t", "--provider", "anthropic"], "drop --provider"),
        (["--record", "t"], "give a --provider that has one"),
    ],
)
def test_recording_flags_that_cannot_go_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    (tmp_path / "t").mkdir()
    code = main(
        ["replay", "--labels", str(labels(tmp_path)), *[str(tmp_path / f) if f == "t" else f for f in flags]]
    )
    assert code == 2 and message in capsys.readouterr().err


def test_without_labels_there_is_no_case_to_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SESSION), "--record", "x"]) == 2
    assert "--record comes with --labels FILE" in capsys.readouterr().err


# -- tool calls: replayed through live dispatch ----------------------------------------------------------


def _dispatch(box: Toolbox, grant_: Grant, tape: Tape, command: str) -> ToolResult:
    async def call() -> ToolResult:
        with playing(tape):
            return await box.dispatch("builder", grant_, "Run", {"command": command})

    return asyncio.run(call())


@pytest.mark.parametrize("trusted", [False, True])
def test_a_recorded_run_of_repository_code_is_refused_in_replay_as_live(
    tmp_path: Path, trusted: bool
) -> None:
    """``make check`` runs the repository's Makefile: live, only a trusted workspace (or the user's own
    grant) runs it, and a replay answers it from the recording under the same rule, never running it."""
    marker = tmp_path / "ran"
    (tmp_path / "Makefile").write_text(f"check:\n\ttouch {marker}\n")
    tape = Tape("case")
    tape.tool_calls.append(
        {
            "detector": "builder",
            "tool": "Run",
            "input": {"command": "make check"},
            "result": "ok",
            "is_error": False,
        }
    )
    box = Toolbox(tmp_path, trusted_workspace=trusted, answers=ToolAnswers(replaying=True))
    result = _dispatch(box, Grant(run=("make check",)), tape, "make check")
    assert not marker.exists()
    if trusted:
        assert (result.text, result.refused, tape.misses) == ("ok", False, [])
    else:
        assert result.refused and "executes code from the repository" in result.text
        assert "not trusted" in result.text


def test_a_replayed_call_outside_the_grant_is_refused_before_the_recording_is_read(tmp_path: Path) -> None:
    tape = Tape("case")
    tape.tool_calls.append(
        {
            "detector": "builder",
            "tool": "Run",
            "input": {"command": "git log -p"},
            "result": "x",
            "is_error": False,
        }
    )
    box = Toolbox(tmp_path, answers=ToolAnswers(replaying=True))
    result = _dispatch(box, Grant(run=("git status --short",)), tape, "git log -p")
    assert result.refused and "is not in detector 'builder''s allowlist" in result.text


def test_a_call_the_recording_does_not_hold_is_named() -> None:
    tape = Tape("case")
    system = ("You watch a coding agent.",)
    window = (Message.user("the session"),)

    def request(tail: str, *later: Message) -> Request:
        return Request("m", system, (*window, Message.user(tail), *later), breakpoint=0)

    reply = Response((TextBlock("fine"),), "end_turn", Usage(1, 1))
    tape.keep_call(request("[detector: turn-check]\nSay what is undone."), reply)
    assert tape.calls[0]["parts"] == request_parts(request("[detector: turn-check]\nSay what is undone."))

    async def ask(req: Request) -> Response:
        with playing(tape):
            return await RecordedProvider("m").send(req)

    assert asyncio.run(ask(request("[detector: turn-check]\nSay what is undone."))).text == "fine"
    with pytest.raises(Exception, match="turn-check model call 1: the detector's instructions"):
        asyncio.run(ask(request("[detector: turn-check]\nSay what is left.")))
    with pytest.raises(Exception, match="the recording holds no call of other"):
        asyncio.run(ask(request("[detector: other]\nSay.")))
    tape.replaying = True
    assert tape.problem("turn-check").startswith("left its recording: turn-check model call 1:")
    assert tape.problem("other").startswith("left its recording: other model call 1: the recording holds")
    assert "(and" not in tape.problem("turn-check")
