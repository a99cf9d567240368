"""One assembly: what a configuration makes of the packs is worked out in ``Parts``, for every driver."""

from __future__ import annotations

from pathlib import Path

from sbcore.conductor import assembly
from sbcore.conductor.assembly import Parts
from sbcore.conductor.replay import Replayer
from sbcore.config import load_config
from sbcore.config.layers import local_path, workspace_path
from sbcore.pace.clock import SimulatedClock
from sbcore.think.providers.offline import OfflineProvider


def _workspace(tmp_path: Path, team: str = "", mine: str = "") -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    if team:
        workspace_path(root).parent.mkdir(parents=True, exist_ok=True)
        workspace_path(root).write_text(team)
    if mine:
        local_path(root).parent.mkdir(parents=True, exist_ok=True)
        local_path(root).write_text(mine)
    return root


def test_the_parts_follow_the_users_configuration(tmp_path: Path) -> None:
    root = _workspace(
        tmp_path,
        mine=(
            "detectors:\n  standard-questions:\n    enabled: false\n"
            "window:\n  budget_chars: 123456\nmute:\n  all: true\n"
        ),
    )
    parts = Parts.load(load_config(root))
    ids = {d.id for d in parts.definitions}
    assert {"repeat-failure", "standard-questions"} <= ids  # a detector switched off can still run
    assert "standard-questions" not in {d.id for d in parts.enabled}
    assert "repeat-failure" in {d.id for d in parts.enabled}
    assert parts.problems == []
    engine = assembly.engine(
        parts.config,
        parts.enabled,
        OfflineProvider(),
        triggers=parts.triggers,
        environment=parts.environment,
    )
    assert engine.settings.budget_chars == 123456  # the configuration's engine settings
    assert engine.detectors == parts.enabled
    clock = SimulatedClock(0.0)
    assert assembly.policy(parts.config, clock).muted  # the live worker honours mute.all
    assert not assembly.policy(parts.config, clock, muted=False).muted  # replay asks what would be said


def test_a_replayer_is_built_from_the_same_parts(tmp_path: Path) -> None:
    root = _workspace(tmp_path, mine="detectors:\n  repeat-failure:\n    enabled: false\n")
    parts = Parts.load(load_config(root))
    replayer = Replayer.of(parts, parts.enabled, OfflineProvider(), keep_reports=False)
    assert replayer.config is parts.config
    assert replayer.triggers is parts.triggers
    assert replayer.environment is parts.environment  # one template environment per parts
    assert replayer.log_only == parts.log_only
    assert "repeat-failure" not in {d.id for d in replayer.detectors}
    assert not replayer.keep_reports


def test_a_catalogue_problem_is_one_of_the_parts_problems(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    detectors = root / ".second-brain" / "detectors"
    detectors.mkdir(parents=True)
    (detectors / "broken.yaml").write_text("id: broken\nmode: [not, a, mode]\n")
    parts = Parts.load(load_config(root))
    assert any("broken.yaml" in problem for problem in parts.problems)
    assert "broken" not in {d.id for d in parts.definitions}
