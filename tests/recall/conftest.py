"""A workspace with the team's notes, and its recall index in the (test-private) data directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from recall_helpers import GUIDE, PAST_FIX

from sbcore.conductor.recall_index import RecallSettings, recall_window, refresh_workspace
from sbcore.paths import data_dir
from sbcore.state.recall import RecallWindow


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "docs" / "decisions").mkdir(parents=True)
    (root / "docs" / "decisions" / "0007-pool.md").write_text(PAST_FIX)
    (root / "CLAUDE.md").write_text(GUIDE)
    return root


@pytest.fixture
def settings() -> RecallSettings:
    return RecallSettings(advisories=False)


@pytest.fixture
def window(workspace: Path, settings: RecallSettings) -> RecallWindow:
    refresh_workspace(workspace, settings)
    found = recall_window(workspace, settings, data=data_dir())
    assert found is not None
    return found
