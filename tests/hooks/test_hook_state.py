"""State the hooks leave behind: private, whatever the umask; and what the hot path imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hook_helpers import ROOT, Answer, Env

from sbcore import paths

Call = Callable[..., Answer]
CORPUS = ROOT.parent / "shared" / "corpus" / "cli-2.1.328" / "hook_payloads.jsonl"


@pytest.fixture
def open_umask() -> Iterator[None]:
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def _modes(root: Path) -> list[tuple[str, int]]:
    found = [(str(root), root.stat().st_mode & 0o777)]
    for directory, subdirs, files in os.walk(root):
        for name in [*subdirs, *files]:
            path = Path(directory) / name
            found.append((str(path), path.stat().st_mode & 0o777))
    return found


def test_a_full_hook_sequence_leaves_only_private_state(env: Env, call: Call, open_umask: None) -> None:
    from sbcore.config.hot import write_hot_snapshot

    write_hot_snapshot(env.project)
    env.post()
    env.post(finish_gate=True, dedup_key="gate", human_only=False)
    assert call("SessionStart").stdout == ""
    assert call("UserPromptSubmit").stdout
    call("PostToolUse")
    call("PostToolUseFailure", b"not json")  # a failure: the log is state too
    assert call("SubagentStop").stdout == ""
    env.post(finish_gate=True, dedup_key="late")
    assert json.loads(call("Stop").stdout)["decision"] == "block"
    paths.write_private(env.data / "mailbox" / f"{env.session}.json", b"{corrupt")
    call("PostToolUse")  # moves the corrupt mailbox aside
    modes = _modes(env.data)
    names = {Path(path).name for path, _ in modes}
    assert {"hot.json", "hooks.log", f"{env.session}.jsonl", "task-1.jsonl"} <= names
    assert any(".corrupt." in name for name in names)
    for path, mode in modes:
        limit = 0o700 if Path(path).is_dir() else 0o600
        assert mode & ~limit == 0, f"{path} has mode {mode:o}"


HOT_PATH = (
    "import io, json, sys\n"
    "before = set(sys.modules)\n"
    "from sbcore.hooks.dispatch import main\n"
    "out = io.StringIO()\n"
    "main([sys.argv[1]], stdin=io.BytesIO(sys.argv[2].encode()), stdout=out)\n"
    "ours = sorted(m for m in sys.modules if m == 'sbcore' or m.startswith('sbcore.'))\n"
    "loaded = {m.split('.')[0] for m in set(sys.modules) - before}\n"
    "other = sorted(loaded - set(sys.stdlib_module_names) - {'sbcore'})\n"
    "print(json.dumps([ours, other, out.getvalue()]))\n"
)
ALLOWED = {
    "sbcore",
    "sbcore.paths",
    "sbcore.state",
    "sbcore.state.hot",
    "sbcore.state.floors",
    "sbcore.state.document",
    "sbcore.state.turns",  # stdlib only: the drain hooks show a waiting turn-end report
    "sbcore.hooks",
    "sbcore.gate",
    "sbcore.observe",
    "sbcore.observe.sentinel",
    "sbcore.timebound",  # stdlib only: bounds the stale_if re-check at claim time
    # the redactor (standard library only): prompts and messages are stored redacted
    "sbcore.observe.redact",
    "sbcore.observe.secret_contexts",
    "sbcore.observe.secret_forms",
    "sbcore.observe.secret_categories",
    "sbcore.observe.secret_carriers",
    "sbcore.observe.secret_rules",
    "sbcore.observe.secret_values",
    "sbcore.observe.family_needles",
    "sbcore.observe.entropy",
    "sbcore.observe.lazy_pattern",
    "sbcore.observe.rule_patterns",
    "sbcore.problems",  # stdlib only: the base of every error sbcore defines
}


@pytest.mark.parametrize("event", ["PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "SubagentStop"])
def test_the_hot_path_imports_the_standard_library_and_no_projector(wall_clock_env: Env, event: str) -> None:
    env = wall_clock_env
    env.post(finish_gate=True)
    payload = json.dumps(env.payload(event))
    result = subprocess.run(
        [sys.executable, "-P", "-c", HOT_PATH, event, payload],
        capture_output=True,
        text=True,
        check=True,
        env=os.environ | {"SBCORE_DATA_DIR": str(env.data)},
    )
    ours, other, answer = json.loads(result.stdout)
    assert bool(answer) == (event in ("PostToolUse", "UserPromptSubmit", "Stop"))
    assert other == []
    unexpected = [
        m
        for m in ours
        if m not in ALLOWED and not m.startswith(("sbcore.hooks.", "sbcore.gate.", "sbcore.deliver"))
    ]
    assert unexpected == []
    # the Stop hook decides with the finish gate alone: the gate's pipeline, rules and fold stay unloaded
    assert ("sbcore.gate.finish" in ours) == (event == "Stop")
    assert not {"sbcore.gate.gate", "sbcore.gate.rules", "sbcore.gate.fold"} & set(ours)


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.exists(), reason="the shared corpus is not available")
def test_recorded_cli_payloads(env: Env, call: Call, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every payload the real CLI sent in the recorded session, in order, with its environment."""
    handled = {
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "PostToolUseFailure",
        "Stop",
        "SubagentStop",
    }
    seen: list[str] = []
    for line in CORPUS.read_text().splitlines():
        record = json.loads(line)
        if record["event"] not in handled:
            continue
        payload = record["payload"] | {"cwd": str(env.project)}
        for key in ("CLAUDE_CODE_SESSION_ATTENDED", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_SESSION_ID"):
            monkeypatch.setenv(key, record["claude_env"][key])
        monkeypatch.setenv("CLAUDE_CODE_SESSION_ATTENDED", "1")  # observe it as if interactive
        answer = call(record["event"], payload)
        assert (answer.status, answer.stdout, answer.log) == (0, "", "")
        seen.append(record["event"])
    assert set(seen) == handled
    env.session = json.loads(CORPUS.read_text().splitlines()[0])["payload"]["session_id"]
    events = [event["event"] for event in env.events()]
    assert events[0] == "session_start"
    assert events.count("prompt") == 1
    assert events.count("turn_end") == seen.count("Stop")
    assert events.count("subagent_report") == 1
