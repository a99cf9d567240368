"""Fixtures for the hook tests: private directories, a session, advisories in its mailbox, and hook calls."""

from __future__ import annotations

import io
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hook_helpers import NOW, Answer, Env

from sbcore.hooks.dispatch import main


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Env]:
    """Private directories and an interactive session's environment, nothing inherited from the caller."""
    for key in list(os.environ):
        if key.startswith(("SBCORE_", "CLAUDE")):
            monkeypatch.delenv(key)
    world = Env(tmp_path / "data", tmp_path / "config", tmp_path / "project")
    world.project.mkdir()
    (world.project / ".git").mkdir()
    monkeypatch.setenv("SBCORE_DATA_DIR", str(world.data))
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(world.config))
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", world.session)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(world.project))
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ATTENDED", "1")
    monkeypatch.setenv("CLAUDE_CODE_ENTRYPOINT", "cli")
    yield world


@pytest.fixture
def call(env: Env) -> Callable[..., Answer]:
    """Run one hook in-process: ``call(event, payload_or_raw_bytes, now=NOW)``."""

    def run(event: str, payload: dict[str, Any] | bytes | None = None, *, now: float = NOW) -> Answer:
        if payload is None:
            payload = env.payload(event)
        raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        out = io.StringIO()
        status = main([event], stdin=io.BytesIO(raw), stdout=out, now=now)
        return Answer(status, out.getvalue(), env.log())

    return run


@pytest.fixture
def wall_clock_env(env: Env) -> Env:
    """``env`` for subprocess calls, which run on the real clock."""
    env.now = time.time()
    return env
