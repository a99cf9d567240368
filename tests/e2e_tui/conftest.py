"""Fixtures for the interactive end-to-end tests: the pinned CLI, tmux, a fake provider, a TUI per test.

The CLI is found the way tests/e2e finds it — ``$SBCORE_CLAUDE_BIN`` or
``.e2e/node_modules/.bin/claude`` (``.ci/run`` installs it from npm) — and
tmux is ``$SBCORE_TMUX_BIN`` or ``tmux`` on PATH. Without either the tests
are skipped with the way to get it, except under ``CI=true``, where a missing
tool fails them: CI must really run them.

Every fixture cleans up whatever happens in the test: the tmux server is
ended, then every process still running with the test's HOME (a CLI, an
orphaned monitor or worker) is killed by pid.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tui_harness import REPO, SETTINGS, Tui, TuiWorld, tmux_binary

from sbcore.testing import FakeProvider

CLAUDE_VERSION = "2.1.328"
INSTALL_HINT = f"npm install --prefix .e2e --no-audit --no-fund @anthropic-ai/claude-code@{CLAUDE_VERSION}"


def _missing(message: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and {message}")
    pytest.skip(message)


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    given = os.environ.get("SBCORE_CLAUDE_BIN")
    found = Path(given) if given else REPO / ".e2e" / "node_modules" / ".bin" / "claude"
    if not (found.is_file() and os.access(found, os.X_OK)):
        _missing(f"the Claude Code CLI is not installed (set SBCORE_CLAUDE_BIN, or run: {INSTALL_HINT})")
    version = subprocess.run([str(found), "--version"], capture_output=True, text=True, timeout=60)
    if CLAUDE_VERSION not in version.stdout:
        pytest.fail(
            f"{found} is {version.stdout.strip()!r}; these tests pin {CLAUDE_VERSION} ({INSTALL_HINT})"
        )
    return found


@pytest.fixture(scope="session")
def tmux_bin() -> str:
    found = tmux_binary()
    if found is None:
        _missing("tmux is not installed (set SBCORE_TMUX_BIN, or install the tmux package)")
    assert found is not None
    return found


@pytest.fixture
def fake() -> Iterator[FakeProvider]:
    with FakeProvider() as provider:
        yield provider


@pytest.fixture
def world(tmp_path: Path, claude_bin: Path) -> Iterator[TuiWorld]:
    """A seeded HOME with the plugin installed; every process left running in it is killed afterwards."""
    made = TuiWorld(tmp_path, claude_bin)
    made.seed()
    try:
        made.install()
        made.configure(SETTINGS)
        yield made
    finally:
        made.reap()


@pytest.fixture
def start_tui(world: TuiWorld, fake: FakeProvider, tmux_bin: str) -> Iterator[Callable[[], Tui]]:
    """``start_tui()`` opens the CLI in tmux and waits for its prompt; every TUI is closed afterwards."""
    opened: list[Tui] = []

    def start() -> Tui:
        tui = Tui(world, fake, tmux_bin)
        opened.append(tui)
        return tui.start()

    try:
        yield start
    finally:
        for tui in opened:
            tui.close()
        world.reap()
