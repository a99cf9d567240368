"""``set`` and ``reset``: validated before writing, atomic, private, and traceable afterwards."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from sbcore.config import ConfigRejected, load_config, reset_value, set_value

if TYPE_CHECKING:
    from conftest import Dirs


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("layer", ["global", "workspace", "local"])
def test_set_show_reset_round_trip_in_every_layer(dirs: Dirs, layer: str) -> None:
    outcome = set_value("projection.bash_cap", "250", layer=layer, workspace=dirs.workspace)  # type: ignore[arg-type]
    assert outcome.changed
    config = load_config(dirs.workspace)
    assert (config.get("projection.bash_cap"), config.layer_of("projection.bash_cap")) == (250, layer)
    assert (
        outcome.path
        == {"global": dirs.global_file, "workspace": dirs.workspace_file, "local": dirs.local_file}[layer]
    )
    assert "projection.bash_cap = 250 in the " + layer in outcome.notes[0]

    again = set_value("projection.bash_cap", "250", layer=layer, workspace=dirs.workspace)  # type: ignore[arg-type]
    assert not again.changed
    assert "was already 250" in again.notes[0]

    reset = reset_value("projection", layer=layer, workspace=dirs.workspace)  # type: ignore[arg-type]
    assert reset.changed
    config = load_config(dirs.workspace)
    assert (config.get("projection.bash_cap"), config.layer_of("projection.bash_cap")) == (400, "default")
    assert "projection" not in outcome.path.read_text()


def test_set_defaults_to_the_local_layer_outside_the_repository(dirs: Dirs) -> None:
    outcome = set_value("gate.cooldown_s", "60", workspace=dirs.workspace)
    assert outcome.layer == "local"
    assert outcome.path == dirs.local_file
    assert not dirs.local_file.is_relative_to(dirs.workspace)
    assert not (dirs.workspace / ".second-brain").exists()


def test_private_layers_are_0600_in_0700_directories(dirs: Dirs) -> None:
    set_value("gate.cooldown_s", "60", layer="global", workspace=dirs.workspace)
    set_value("gate.cooldown_s", "61", layer="local", workspace=dirs.workspace)
    for path in (dirs.global_file, dirs.local_file):
        assert _mode(path) == 0o600
        assert _mode(path.parent) == 0o700
    assert _mode(dirs.data) == 0o700
    assert _mode(dirs.local_file.parent.parent) == 0o700


def test_a_private_file_with_loose_permissions_is_tightened(dirs: Dirs) -> None:
    dirs.put(dirs.global_file, "gate:\n  cooldown_s: 5\n")
    dirs.global_file.chmod(0o644)
    set_value("gate.cooldown_s", "60", layer="global", workspace=dirs.workspace)
    assert _mode(dirs.global_file) == 0o600


def test_the_workspace_file_keeps_its_repository_mode(dirs: Dirs) -> None:
    old = os.umask(0o022)
    try:
        set_value("gate.cooldown_s", "60", layer="workspace", workspace=dirs.workspace)
        assert _mode(dirs.workspace_file) == 0o644
        dirs.workspace_file.chmod(0o664)
        set_value("gate.cooldown_s", "61", layer="workspace", workspace=dirs.workspace)
        assert _mode(dirs.workspace_file) == 0o664
    finally:
        os.umask(old)
    # Nothing but the config file itself appears in the repository.
    assert sorted(p.name for p in (dirs.workspace / ".second-brain").iterdir()) == ["config.yaml"]


def test_a_symlinked_layer_file_stays_a_symlink(dirs: Dirs, tmp_path: Path) -> None:
    target = dirs.put(tmp_path / "dotfiles" / "sbcore.yaml", "# from my dotfiles\ngate:\n  cooldown_s: 5\n")
    dirs.config.mkdir()
    dirs.global_file.symlink_to(target)
    set_value("gate.cooldown_s", "60", layer="global", workspace=dirs.workspace)
    assert dirs.global_file.is_symlink()
    assert target.read_text() == "# from my dotfiles\ngate:\n  cooldown_s: 60\n"
    assert _mode(target) == 0o600


def test_other_keys_and_comments_survive_a_set(dirs: Dirs) -> None:
    dirs.put(dirs.workspace_file, "# team\ngate:\n  rate_per_hour: 2  # quiet please\nmute:\n  all: false\n")
    outcome = set_value("gate.cooldown_s", "30", layer="workspace", workspace=dirs.workspace)
    assert dirs.workspace_file.read_text() == (
        "# team\ngate:\n  rate_per_hour: 2  # quiet please\n  cooldown_s: 30\nmute:\n  all: false\n"
    )
    assert not any("comments" in warning for warning in outcome.warnings)


def test_a_new_file_starts_with_a_header_saying_what_it_is(dirs: Dirs) -> None:
    set_value("mute.all", "true", layer="workspace", workspace=dirs.workspace)
    text = dirs.workspace_file.read_text()
    assert text.startswith("# sbcore configuration, workspace layer: committed and shared by the team.\n")
    assert text.endswith("mute:\n  all: true\n")


REJECTED = [
    ("gate.rate_per_hour", "200", "gate.rate_per_hour: 200 is greater than the maximum of 60"),
    ("gate.rate_per_hour", "two", 'gate.rate_per_hour: expected integer, got string "two"'),
    ("gate.rate_per_hr", "2", "did you mean 'gate.rate_per_hour'?"),
    ("gate", "{}", "gate is a group"),
    ("model.provider", "antropic", "did you mean 'anthropic'?"),
    ("detectors.Bad.enabled", "true", "detector ids are"),
    ("detectors.git-log.cadence", "hourly", "cadence is every_pass"),
    ("tools.mcp_servers.s", '{"command": "x", "url": "http://h"}', "either command"),
    ("loop.salience_triggers", "[error", "cannot read"),
    ("window.compaction_floor", "0.9", "window.compaction_floor (0.9, from"),
    ("loop.max_interval_s", "60", "loop.min_interval_s (120, from default) must be at most"),
    ("gate.human_floor", "0.7", "must be at most gate.confidence_floor"),
    ("finish_gate.confidence_floor", "0.5", "continuing a finished turn"),
    ("catalogue.file", "does/not/exist", "does not exist"),
]


@pytest.mark.parametrize(("key", "value", "reason"), REJECTED)
@pytest.mark.parametrize("existing", [False, True], ids=["no-files", "existing-files"])
def test_a_rejected_value_changes_nothing(
    dirs: Dirs, key: str, value: str, reason: str, existing: bool
) -> None:
    if existing:
        dirs.put(dirs.global_file, "# mine\ngate:\n  cooldown_s: 5\n")
        dirs.put(dirs.workspace_file, "# team\nmute:\n  all: false\n")
        dirs.put(dirs.local_file, "# me\nprojection:\n  bash_cap: 300\n")
    before = {root: _files(root) for root in (dirs.config, dirs.data, dirs.workspace) if root.exists()}
    roots_before = {root: root.exists() for root in (dirs.config, dirs.data)}
    for layer in ("global", "workspace", "local"):
        with pytest.raises(ConfigRejected) as caught:
            set_value(key, value, layer=layer, workspace=dirs.workspace)  # type: ignore[arg-type]
        assert any(reason in line for line in caught.value.reasons), caught.value.reasons
    assert {
        root: _files(root) for root in (dirs.config, dirs.data, dirs.workspace) if root.exists()
    } == before
    assert {root: root.exists() for root in (dirs.config, dirs.data)} == roots_before
    assert (dirs.workspace / ".second-brain").exists() == existing


def test_invariants_see_every_layer(dirs: Dirs) -> None:
    dirs.put(dirs.global_file, "loop:\n  max_interval_s: 300\n")
    with pytest.raises(ConfigRejected) as caught:
        set_value("loop.min_interval_s", "600", layer="local", workspace=dirs.workspace)
    assert caught.value.reasons == [
        "loop.min_interval_s (600, from local) must be at most loop.max_interval_s (300, from global): "
        "the clock ceiling cannot come before the clock floor"
    ]
    set_value("loop.min_interval_s", "200", layer="local", workspace=dirs.workspace)


def test_set_into_a_layer_with_other_problems_is_refused_and_says_how_to_fix(dirs: Dirs) -> None:
    dirs.put(dirs.local_file, "gate:\n  rate_per_hr: 2\n")
    before = dirs.local_file.read_bytes()
    with pytest.raises(ConfigRejected) as caught:
        set_value("gate.cooldown_s", "30", workspace=dirs.workspace)
    text = "\n".join(caught.value.reasons)
    assert (
        f"==> File {dirs.local_file}:2\n==> At key: gate.rate_per_hr\n=====> unknown key 'rate_per_hr'"
        in text
    )
    assert "config reset KEY" in text
    assert dirs.local_file.read_bytes() == before


def test_set_can_fix_the_value_that_breaks_a_layer(dirs: Dirs) -> None:
    dirs.put(dirs.local_file, "gate:\n  rate_per_hour: 200  # oops\n")
    assert [item.key for item in load_config(dirs.workspace).layers[2].held] == ["gate.rate_per_hour"]
    set_value("gate.rate_per_hour", "20", workspace=dirs.workspace)
    assert dirs.local_file.read_text() == "gate:\n  rate_per_hour: 20  # oops\n"
    config = load_config(dirs.workspace)
    assert (config.get("gate.rate_per_hour"), config.layer_of("gate.rate_per_hour")) == (20, "local")


def test_set_into_unparseable_yaml_is_refused(dirs: Dirs) -> None:
    dirs.put(dirs.workspace_file, "gate:\n  rate_per_hour: [2\n")
    before = dirs.workspace_file.read_bytes()
    with pytest.raises(ConfigRejected, match="not valid YAML"):
        set_value("gate.cooldown_s", "30", layer="workspace", workspace=dirs.workspace)
    with pytest.raises(ConfigRejected, match="not valid YAML"):
        reset_value("gate", layer="workspace", workspace=dirs.workspace)
    assert dirs.workspace_file.read_bytes() == before


def test_reset_removes_a_misspelt_key_that_breaks_a_layer(dirs: Dirs) -> None:
    dirs.put(dirs.local_file, "gate:\n  rate_per_hr: 2\n  cooldown_s: 30\n")
    assert [item.key for item in load_config(dirs.workspace).layers[2].held] == ["gate.rate_per_hr"]
    outcome = reset_value("gate.rate_per_hr", workspace=dirs.workspace)
    assert outcome.changed
    assert outcome.warnings == []
    config = load_config(dirs.workspace)
    assert config.layers[2].status == "ok"
    assert config.get("gate.cooldown_s") == 30


def test_reset_of_an_unknown_key_that_is_not_in_the_file_is_refused(dirs: Dirs) -> None:
    with pytest.raises(ConfigRejected, match="did you mean"):
        reset_value("gate.rate_per_hr", workspace=dirs.workspace)


def test_reset_reports_what_shows_through(dirs: Dirs) -> None:
    dirs.put(dirs.workspace_file, "gate:\n  rate_per_hour: 2\n")
    dirs.put(dirs.local_file, "gate:\n  rate_per_hour: 3\n")
    outcome = reset_value("gate.rate_per_hour", workspace=dirs.workspace)
    assert "gate.rate_per_hour is now 2 (from workspace)" in outcome.notes
    nothing = reset_value("gate.rate_per_hour", workspace=dirs.workspace)
    assert not nothing.changed
    assert nothing.notes[0] == f"gate.rate_per_hour is not set in the local layer ({dirs.local_file})"


def test_reset_all_empties_one_layer_only(dirs: Dirs) -> None:
    dirs.put(dirs.global_file, "mute:\n  all: true\n")
    dirs.put(dirs.local_file, "# mine\ngate:\n  rate_per_hour: 3\nprojection:\n  bash_cap: 300\n")
    outcome = reset_value("all", workspace=dirs.workspace)
    assert outcome.changed
    assert dirs.local_file.read_text() == "# mine\n"
    config = load_config(dirs.workspace)
    assert config.get("mute.all") is True
    assert config.get("gate.rate_per_hour") == 4
    assert not reset_value("all", workspace=dirs.workspace).changed


def test_reset_when_no_file_exists_creates_nothing(dirs: Dirs) -> None:
    outcome = reset_value("gate", layer="workspace", workspace=dirs.workspace)
    assert not outcome.changed
    assert not (dirs.workspace / ".second-brain").exists()


def test_loud_knobs_warn_on_every_set(dirs: Dirs, as_the_user: None) -> None:
    for key, value in (
        ("gate.rate_per_hour", "2"),
        ("finish_gate.min_interval_s", "7200"),
        ("loop.min_interval_s", "300"),
    ):
        outcome = set_value(key, value, workspace=dirs.workspace)
        assert any(warning.startswith(key) for warning in outcome.warnings), outcome.warnings
    quiet = set_value("gate.cooldown_s", "30", workspace=dirs.workspace)
    assert quiet.warnings == []


def test_setting_a_lower_layer_than_the_one_in_force_says_so(dirs: Dirs) -> None:
    dirs.put(dirs.local_file, "gate:\n  cooldown_s: 30\n")
    outcome = set_value("gate.cooldown_s", "90", layer="global", workspace=dirs.workspace)
    assert any(
        "gate.cooldown_s stays 30: the local layer overrides the global layer" in warning
        and "config reset gate.cooldown_s --local" in warning
        for warning in outcome.warnings
    )


def test_detector_overrides_and_user_keyed_entries(dirs: Dirs, as_the_user: None) -> None:
    set_value("detectors.git-log.enabled", "true", layer="workspace", workspace=dirs.workspace)
    set_value(
        "detectors.standard-questions.config.questions", '[{"id": "migrations"}]', workspace=dirs.workspace
    )
    set_value(
        "tools.mcp_servers.search",
        '{"command": "search-server", "args": ["--stdio"]}',
        workspace=dirs.workspace,
    )
    config = load_config(dirs.workspace)
    assert config.detector_overrides("git-log") == {"enabled": (True, "workspace")}
    assert config.detector_overrides("standard-questions") == {
        "config": ({"questions": [{"id": "migrations"}]}, "local")
    }
    assert config.get("tools.mcp_servers.search.command") == "search-server"
    reset_value("detectors.git-log", layer="workspace", workspace=dirs.workspace)
    assert load_config(dirs.workspace).detector_overrides("git-log") == {}
    assert "detectors" not in dirs.workspace_file.read_text()


def test_workspace_paths_are_stored_resolved(dirs: Dirs, tmp_path: Path) -> None:
    link = tmp_path / "alias.d"
    link.symlink_to(dirs.workspace)
    outcome = set_value(f"enable.workspaces.{link}", "false", layer="global", workspace=dirs.workspace)
    assert outcome.key == f"enable.workspaces.{dirs.workspace}"
    config = load_config(dirs.workspace)
    assert config.get("enable.workspaces") == {str(dirs.workspace): False}
    assert config.is_enabled() is False
    assert reset_value(f"enable.workspaces.{link}", layer="global", workspace=dirs.workspace).changed
    assert load_config(dirs.workspace).is_enabled() is True


def test_catalogue_file_is_checked_and_stored_portably(dirs: Dirs, tmp_path: Path, as_the_user: None) -> None:
    dirs.put(dirs.workspace / "team" / "detectors" / "x.yaml", "id: x\n")
    set_value("catalogue.file", "team/detectors", layer="workspace", workspace=dirs.workspace)
    assert "file: team/detectors" in dirs.workspace_file.read_text()
    outside = dirs.put(tmp_path / "mine" / "cat.yaml", "id: y\n")
    set_value("catalogue.file", str(outside), layer="workspace", workspace=dirs.workspace)
    assert f"file: {outside}" in dirs.workspace_file.read_text()
    os.chdir(tmp_path / "mine")
    set_value("catalogue.file", "cat.yaml", layer="global", workspace=dirs.workspace)
    assert f"file: {outside}" in dirs.global_file.read_text()
    set_value("catalogue.file", "null", layer="global", workspace=dirs.workspace)
    reset_value("catalogue", layer="workspace", workspace=dirs.workspace)
    config = load_config(dirs.workspace)
    assert (config.get("catalogue.file"), config.layer_of("catalogue.file")) == (None, "global")


def test_layers_that_need_a_workspace_say_so() -> None:
    with pytest.raises(ConfigRejected, match="needs a workspace"):
        set_value("mute.all", "true", layer="local", workspace=None)
    with pytest.raises(ConfigRejected, match="not a layer that can be written"):
        set_value("mute.all", "true", layer="default", workspace=None)  # type: ignore[arg-type]


def test_a_concurrent_writer_is_not_lost(dirs: Dirs, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file changed between validation and the locked write is recomputed from its new text."""
    from sbcore.config import write

    real_prepare = write._prepare_dir

    def meddling(layer: str, path: Path, workspace: Path | None) -> None:
        real_prepare(layer, path, workspace)  # type: ignore[arg-type]
        dirs.put(path, "mute:\n  all: true\n")

    monkeypatch.setattr(write, "_prepare_dir", meddling)
    set_value("gate.cooldown_s", "30", layer="global", workspace=dirs.workspace)
    config = load_config(dirs.workspace)
    assert config.get("mute.all") is True
    assert config.get("gate.cooldown_s") == 30


def test_unreadable_or_unwritable_layers_are_refused_cleanly(
    dirs: Dirs, monkeypatch: pytest.MonkeyPatch
) -> None:
    dirs.local_file.mkdir(parents=True)  # a directory where the file should be
    with pytest.raises(ConfigRejected, match="cannot read"):
        set_value("mute.all", "true", workspace=dirs.workspace)
    dirs.local_file.rmdir()

    from sbcore.config import write

    def refuse(path: Path, data: bytes) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(write, "write_private", refuse)
    with pytest.raises(ConfigRejected, match=r"cannot write .*: Permission denied"):
        set_value("mute.all", "true", workspace=dirs.workspace)
    assert not dirs.local_file.exists()


def test_a_provider_a_pack_registers_can_be_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from sbcore.cli import main

    choose = importlib.import_module("sbcore.think.providers.choose")
    monkeypatch.setattr(choose, "registered_factories", lambda manager=None: {"acme-llm": object()})
    # A capability into the local layer is the user's act: refused without a terminal (as under pytest).
    assert main(["config", "set", "model.provider", "acme-llm", "-C", str(tmp_path)]) == 2
    monkeypatch.setattr("sbcore.config.user_act.refusal", lambda *args, **kwargs: None)  # as at a terminal
    assert main(["config", "set", "model.provider", "acme-llm", "-C", str(tmp_path)]) == 0
    assert main(["config", "set", "model.provider", "acme-lm", "-C", str(tmp_path)]) == 2


def test_the_built_in_provider_names_are_the_schemas_and_the_registrys() -> None:
    """Three lists used to be kept by hand: the schema's (docs), config set's, the built-in registry's."""
    from sbcore.config import config_schema
    from sbcore.packs.manager import get_plugin_manager

    examples = set(config_schema()["properties"]["model"]["properties"]["provider"]["examples"])
    registered = set(get_plugin_manager(autoload=False).registry.providers)
    assert examples == registered | {"auto", "offline"}


def test_a_widening_change_asks_for_the_users_own_act_in_the_library_too(dirs: Dirs) -> None:
    """The check lives in the functions that write: a script calling them from inside a session (no terminal
    here) is refused as the CLI is, and nothing is written."""
    with pytest.raises(ConfigRejected) as refused:
        set_value("model.base_url", "http://127.0.0.1:9/steal", layer="global", workspace=dirs.workspace)
    assert "capability" in str(refused.value) and not dirs.global_file.exists()
    dirs.put(dirs.global_file, "mute:\n  all: true\n")
    with pytest.raises(ConfigRejected) as again:
        reset_value("mute", layer="global", workspace=dirs.workspace)
    assert "holds the observer back" in str(again.value)
    assert dirs.global_file.read_text() == "mute:\n  all: true\n"
    set_value("gate.cooldown_s", "60", layer="global", workspace=dirs.workspace)  # a safe knob needs nothing
