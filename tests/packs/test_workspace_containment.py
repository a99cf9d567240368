"""A workspace's own detectors are read only from inside the workspace, and never from a FIFO."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sbcore.packs.catalogue import assemble_catalogue
from sbcore.packs.errors import CatalogueError
from sbcore.packs.loader import load_detector_file
from sbcore.packs.manager import get_plugin_manager

DETECTOR = "schema_version: 1\nid: {id}\ndescription: d\nprompt: x\n"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    return root


def test_a_detector_file_linked_from_outside_is_refused(workspace: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.yaml"
    outside.write_text(DETECTOR.format(id="from-outside"))
    detectors = workspace / ".second-brain" / "detectors"
    detectors.mkdir(parents=True)
    (detectors / "inside.yaml").write_text(DETECTOR.format(id="from-inside"))
    (detectors / "linked.yaml").symlink_to(outside)
    catalogue = assemble_catalogue(get_plugin_manager(autoload=False), workspace=workspace)
    assert catalogue.get("from-inside") is not None
    assert catalogue.get("from-outside") is None
    (problem,) = [p for p in catalogue.errors if p.source.path.endswith("linked.yaml")]
    assert "leads outside the workspace" in problem.problem


def test_a_detectors_directory_linked_from_outside_is_refused(workspace: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "x.yaml").write_text(DETECTOR.format(id="elsewhere"))
    (workspace / ".second-brain").mkdir()
    (workspace / ".second-brain" / "detectors").symlink_to(elsewhere)
    catalogue = assemble_catalogue(get_plugin_manager(autoload=False), workspace=workspace)
    assert catalogue.get("elsewhere") is None
    assert any("leads outside the workspace" in p.problem for p in catalogue.errors)


def test_a_fifo_named_as_a_detector_file_is_refused_not_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "d.yaml"
    os.mkfifo(fifo)
    with pytest.raises(CatalogueError, match="a FIFO"):
        load_detector_file(fifo, pack="test")
