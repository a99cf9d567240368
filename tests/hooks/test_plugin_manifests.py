"""The plugin's manifests: the shape Claude Code 2.1.328 accepts, and the promises the design makes."""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hook_helpers import ROOT

import sbcore
from sbcore.hooks.dispatch import HANDLERS

PLUGIN = ROOT / "plugin"
EVENTS = set(HANDLERS)
"""The hook events, declared once (sbcore.hooks.dispatch.HANDLERS); hooks.json and the launcher follow."""


def _json(path: Path) -> Any:
    return json.loads(path.read_text())


def _hooks() -> dict[str, list[dict[str, Any]]]:
    hooks: dict[str, list[dict[str, Any]]] = _json(PLUGIN / "hooks" / "hooks.json")["hooks"]
    return hooks


def test_plugin_manifest_matches_the_distribution() -> None:
    manifest = _json(PLUGIN / ".claude-plugin" / "plugin.json")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["dynamic"] == ["version"]  # read from sbcore.__version__ (tests/test_release.py)
    assert manifest["name"] == "second-brain"
    assert manifest["version"] == sbcore.__version__
    assert manifest["description"]


def test_marketplace_lists_the_plugin_in_place() -> None:
    marketplace = _json(ROOT / ".claude-plugin" / "marketplace.json")
    (entry,) = marketplace["plugins"]
    assert entry["name"] == "second-brain"
    assert (ROOT / entry["source"]).resolve() == PLUGIN.resolve()
    assert entry["version"] == _json(PLUGIN / ".claude-plugin" / "plugin.json")["version"]


def test_every_event_runs_the_launcher_with_a_short_timeout() -> None:
    hooks = _hooks()
    assert set(hooks) == EVENTS
    for event, groups in hooks.items():
        (group,) = groups
        (hook,) = group["hooks"]
        assert hook["type"] == "command"
        assert hook["command"] == f'"${{CLAUDE_PLUGIN_ROOT}}/bin/sb-hook" {event}'
        assert 0 < hook["timeout"] <= (10 if event == "Stop" else 5)


def test_no_hook_is_async() -> None:
    """An async hook's systemMessage reaches the model: human-only advice would leak."""
    for groups in _hooks().values():
        for group in groups:
            for hook in group["hooks"]:
                assert not hook.get("async") and not hook.get("asyncRewake")


def test_no_session_end_work() -> None:
    assert "SessionEnd" not in _hooks()


def test_monitor_passes_what_a_monitor_is_not_given() -> None:
    monitors = _json(PLUGIN / "monitors" / "monitors.json")
    assert isinstance(monitors, list)
    (monitor,) = monitors
    assert set(monitor) <= {"name", "command", "description", "when"}
    assert monitor["when"] == "always"
    assert monitor["command"] == (
        '"${CLAUDE_PLUGIN_ROOT}/bin/sb-worker" --data "${CLAUDE_PLUGIN_DATA}" '
        '--root "${CLAUDE_PLUGIN_ROOT}" --project "${CLAUDE_PROJECT_DIR}"'
    )


@pytest.mark.parametrize("name", ["run", "config", "stats", "why", "forget", "doctor"])
def test_commands_run_the_bound_cli(name: str) -> None:
    text = (PLUGIN / "commands" / f"{name}.md").read_text()
    front = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert front is not None
    fields = dict(line.split(": ", 1) for line in front.group(1).splitlines())
    assert fields["description"]
    assert "${CLAUDE_PLUGIN_ROOT}/bin/second-brain" in fields["allowed-tools"]
    subcommand = {"doctor": "doctor --exit-zero"}.get(name, name)
    block = re.search(r"^!`(.*)`$", text, re.M)
    assert block is not None
    command = (
        '"${CLAUDE_PLUGIN_ROOT}/bin/second-brain" --plugin-data "${CLAUDE_PLUGIN_DATA}" '
        f'--session "${{CLAUDE_SESSION_ID}}" {subcommand}'
    )
    # Arguments are passed on exactly when the command advertises them (a hint with no
    # arguments to take, or arguments the CLI would refuse, both fail the user).
    if "argument-hint" in fields:
        assert block.group(1).startswith(f"{command} $ARGUMENTS")
    else:
        assert block.group(1) == f"{command} 2>&1"


@pytest.mark.parametrize("name", ["sb-hook", "sb-worker", "second-brain", "sb-statusline"])
def test_launchers_are_executable_posix_scripts(name: str) -> None:
    launcher = PLUGIN / "bin" / name
    assert os.access(launcher, os.X_OK)
    assert launcher.read_text().startswith("#!/bin/sh\n")


def test_interpreter_binding_is_not_committed() -> None:
    assert "/lib/python-path" in (PLUGIN / ".gitignore").read_text().splitlines()


def test_the_launcher_passes_on_exactly_the_events_the_handlers_declare() -> None:
    """sb-hook answers an event it does not list with exit 0 and nothing: an event added to HANDLERS but not
    to the launcher's case list would be silently dropped, so the two lists are compared here."""
    launcher = (PLUGIN / "bin" / "sb-hook").read_text()
    listed = set()
    for pattern in re.findall(r"^([A-Za-z |]+)\)", launcher, re.M):
        listed |= {name.strip() for name in pattern.split("|") if name.strip()}
    assert listed == EVENTS
