"""Fixtures for the gate tests: a private data directory and a fake clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gate_helpers import FakeClock


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private data directory, also what ``sbcore.paths.data_dir()`` returns."""
    root = tmp_path / "data"
    monkeypatch.setenv("SBCORE_DATA_DIR", str(root))
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)
    yield root


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
