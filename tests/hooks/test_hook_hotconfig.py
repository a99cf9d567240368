"""The hot snapshot: written from the real configuration, read by the hooks with the standard library."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hook_helpers import Answer, Env

from sbcore.cli import main as cli
from sbcore.config import find_workspace, load_config
from sbcore.config.hot import write_hot_snapshot
from sbcore.config.trust import grant
from sbcore.hooks import hotconfig
from sbcore.hooks.hotconfig import HotConfigError, load_hot_config

Call = Callable[..., Answer]


@dataclass(frozen=True)
class Detector:
    id: str
    enabled: bool = True
    confidence_floor: float | None = None
    finish_gate_floor: float | None = None


def test_defaults_without_a_snapshot_are_the_schema_defaults(env: Env) -> None:
    hot = load_hot_config(env.data, str(env.project))
    config = load_config(None)
    assert hot.source == "defaults"
    for group in hotconfig.GROUPS:
        assert hot.get(group) == config.group(group)
    assert hot.enabled and not hot.muted and not hot.headless_observe


@pytest.mark.usefixtures("as_the_user")
def test_snapshot_matches_the_effective_configuration(env: Env) -> None:
    (env.project / ".second-brain").mkdir()
    (env.project / ".second-brain" / "config.yaml").write_text(
        "finish_gate:\n  min_interval_s: 900\ngate:\n  queue_timeout_s: 120\n"
    )
    write_hot_snapshot(env.project)
    hot = load_hot_config(env.data, str(env.project / "src"))
    config = load_config(env.project)
    assert hot.source == f"snapshot:{os.path.realpath(env.project)}"
    for group in hotconfig.GROUPS:
        assert hot.get(group) == config.group(group)
    assert hot.get("gate.queue_timeout_s") == 120
    assert hot.get("finish_gate.min_interval_s") == 3600, "a finish-gate setting of the repo waits for trust"
    assert config.trust is not None
    grant(config.trust)
    write_hot_snapshot(env.project)
    hot = load_hot_config(env.data, str(env.project / "src"))
    assert hot.get("finish_gate.min_interval_s") == 900
    elsewhere = load_hot_config(env.data, str(env.config))
    assert elsewhere.source == "snapshot:*"
    assert elsewhere.get("finish_gate.min_interval_s") == 3600


def test_snapshot_is_private(env: Env) -> None:
    path = write_hot_snapshot(env.project)
    assert path == env.data / "hot.json"
    assert path.stat().st_mode & 0o777 == 0o600
    assert env.data.stat().st_mode & 0o777 == 0o700


@pytest.mark.usefixtures("as_the_user")  # unmuting is the user's own act
def test_config_set_refreshes_the_snapshot_the_hooks_read(
    env: Env, call: Call, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(env.project)
    env.post()
    assert cli(["config", "set", "mute.all", "true"]) == 0
    assert load_hot_config(env.data, str(env.project)).muted
    assert call("PostToolUse").stdout == ""
    assert cli(["config", "reset", "mute.all"]) == 0
    assert not load_hot_config(env.data, str(env.project)).muted
    assert call("PostToolUse").stdout
    capsys.readouterr()


def test_opting_a_workspace_out_reaches_the_hooks(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(env.project)
    assert cli(["config", "set", f"enable.workspaces.{env.project}", "false", "--global"]) == 0
    assert not load_hot_config(env.data, str(env.project)).enabled
    assert load_hot_config(env.data, str(env.config)).enabled


def test_a_global_change_refreshes_every_known_workspace(env: Env, tmp_path: Path) -> None:
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    write_hot_snapshot(env.project)
    write_hot_snapshot(other)
    env.config.mkdir(exist_ok=True)
    (env.config / "config.yaml").write_text("mute:\n  all: true\n")
    write_hot_snapshot(None)
    for place in (env.project, other, tmp_path):
        assert load_hot_config(env.data, str(place)).muted


def test_vanished_workspaces_are_dropped(env: Env, tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    (gone / ".git").mkdir(parents=True)
    write_hot_snapshot(gone)
    (gone / ".git").rmdir()
    gone.rmdir()
    write_hot_snapshot(env.project)
    scopes = json.loads((env.data / "hot.json").read_text())["scopes"]
    assert set(scopes) == {"*", os.path.realpath(env.project)}


def test_catalogue_floors_are_kept_until_replaced(env: Env) -> None:
    write_hot_snapshot(env.project, detectors=[Detector("standard-questions", finish_gate_floor=0.7)])
    write_hot_snapshot(env.project)
    hot = load_hot_config(env.data, str(env.project))
    assert hot.get("detectors") == {"standard-questions": {"enabled": True, "finish_gate_floor": 0.7}}
    write_hot_snapshot(env.project, detectors=[Detector("standard-questions", enabled=False)])
    assert not load_hot_config(env.data, str(env.project)).detector_enabled("standard-questions")


def test_configuration_overrides_beat_the_catalogue(env: Env) -> None:
    env.config.mkdir(exist_ok=True)
    (env.config / "config.yaml").write_text("detectors:\n  standard-questions:\n    enabled: false\n")
    write_hot_snapshot(env.project, detectors=[Detector("standard-questions"), Detector("repeat-failure")])
    hot = load_hot_config(env.data, str(env.project))
    assert not hot.detector_enabled("standard-questions")
    assert hot.detector_enabled("repeat-failure")
    assert hot.detector_enabled("never-heard-of")


def test_gate_settings_build_from_the_snapshot(env: Env) -> None:
    from sbcore.gate.settings import GateSettings

    write_hot_snapshot(env.project, detectors=[Detector("standard-questions", finish_gate_floor=0.95)])
    from_hot = GateSettings.from_config(load_hot_config(env.data, str(env.project)))
    assert from_hot.finish_gate.floor("standard-questions") == 0.95
    assert from_hot.queue_timeout_s == load_config(env.project).get("gate.queue_timeout_s")


def test_an_unreadable_previous_snapshot_is_replaced(env: Env) -> None:
    env.data.mkdir()
    (env.data / "hot.json").write_text("{garbage")
    write_hot_snapshot(env.project)
    assert load_hot_config(env.data, str(env.project)).source.startswith("snapshot:")


def test_snapshot_of_another_version_is_an_error(env: Env) -> None:
    env.data.mkdir()
    (env.data / "hot.json").write_text('{"v": 99, "scopes": {}}')
    with pytest.raises(HotConfigError, match="version-1"):
        load_hot_config(env.data, str(env.project))


def _tree(root: Path, spec: dict[str, str]) -> None:
    for relative, kind in spec.items():
        path = root / relative
        if kind == "dir":
            path.mkdir(parents=True, exist_ok=True)
        elif kind == "file":
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("")


@pytest.mark.parametrize(
    ("spec", "start"),
    [
        ({"repo/.git": "dir", "repo/src/pkg": "dir"}, "repo/src/pkg"),
        ({"repo/.git": "file", "repo/sub": "dir"}, "repo/sub"),
        ({"repo/.git": "dir", "repo/inner/.second-brain": "dir", "repo/inner/x": "dir"}, "repo/inner/x"),
        ({"repo/.second-brain": "file", "repo/.git": "dir", "repo/a": "dir"}, "repo/a"),
        ({"loose/dir": "dir"}, "loose/dir"),
    ],
)
def test_workspace_finder_agrees_with_the_configuration(
    tmp_path: Path, spec: dict[str, str], start: str
) -> None:
    _tree(tmp_path, spec)
    assert hotconfig.find_workspace(tmp_path / start) == str(find_workspace(tmp_path / start))


def test_workspace_finder_resolves_symlinks(tmp_path: Path) -> None:
    _tree(tmp_path, {"real/.git": "dir", "real/src": "dir"})
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert hotconfig.find_workspace(tmp_path / "link" / "src") == str(
        find_workspace(tmp_path / "link" / "src")
    )
    assert hotconfig.find_workspace(tmp_path / "link" / "src") == os.path.realpath(tmp_path / "real")
