"""Every configuration test runs against its own config dir, data dir and workspace."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass
class Dirs:
    config: Path
    data: Path
    workspace: Path

    @property
    def global_file(self) -> Path:
        return self.config / "config.yaml"

    @property
    def workspace_file(self) -> Path:
        return self.workspace / ".second-brain" / "config.yaml"

    @property
    def local_file(self) -> Path:
        from sbcore.config import local_path

        return local_path(self.workspace)

    def put(self, path: Path, text: str) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Dirs]:
    config = tmp_path / "config"
    data = tmp_path / "data"
    workspace = tmp_path / "repo"
    (workspace / ".git").mkdir(parents=True)
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(config))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(data))
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)
    monkeypatch.chdir(workspace)
    yield Dirs(config, data, workspace.resolve())
