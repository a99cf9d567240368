"""The end-to-end fixtures: the pinned Claude Code CLI (or a clear skip), and a fresh installed HOME per test.

The CLI is ``$SBCORE_CLAUDE_BIN`` or ``.e2e/node_modules/.bin/claude``, which
``.ci/run`` installs from npm (``@anthropic-ai/claude-code@2.1.328``). Without
it the end-to-end tests are skipped with the command that installs it —
except under ``CI=true``, where a missing CLI fails them: CI must really run
them.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_helpers import CLAUDE_VERSION, Harness, find_claude

INSTALL_HINT = f"npm install --prefix .e2e --no-audit --no-fund @anthropic-ai/claude-code@{CLAUDE_VERSION}"


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    found = find_claude()
    if found is None:
        message = f"the Claude Code CLI is not installed (set SBCORE_CLAUDE_BIN, or run: {INSTALL_HINT})"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {message}")
        pytest.skip(message)
    version = subprocess.run([str(found), "--version"], capture_output=True, text=True, timeout=60)
    if CLAUDE_VERSION not in version.stdout:
        pytest.fail(
            f"{found} is {version.stdout.strip()!r}; these tests pin {CLAUDE_VERSION} ({INSTALL_HINT})"
        )
    return found


@pytest.fixture
def harness(tmp_path: Path, claude_bin: Path) -> Iterator[Harness]:
    made = Harness(tmp_path, claude_bin)
    made.install()
    yield made
