"""Loading: precedence, provenance, merging, broken layers, change detection."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from sbcore.config import defaults, find_workspace, load_config, workspace_detector_dir
from sbcore.config.trust import grant

if TYPE_CHECKING:
    from conftest import Dirs


def test_defaults_only(dirs: Dirs) -> None:
    config = load_config(dirs.workspace)
    assert config.as_dict() == defaults()
    assert config.get("gate.rate_per_hour") == 4
    assert config.layer_of("gate.rate_per_hour") == "default"
    assert [layer.status for layer in config.layers] == ["missing", "missing", "missing"]
    assert config.problems == []


def test_each_layer_overrides_the_one_below(dirs: Dirs) -> None:
    dirs.put(dirs.global_file, "gate:\n  rate_per_hour: 1\n  cooldown_s: 10\nmute:\n  all: true\n")
    dirs.put(dirs.workspace_file, "gate:\n  rate_per_hour: 2\n  body_cap: 300\n")
    dirs.put(dirs.local_file, "gate:\n  rate_per_hour: 3\n")
    config = load_config(dirs.workspace)
    assert (config.get("gate.rate_per_hour"), config.layer_of("gate.rate_per_hour")) == (3, "local")
    assert (config.get("gate.body_cap"), config.layer_of("gate.body_cap")) == (300, "workspace")
    assert (config.get("gate.cooldown_s"), config.layer_of("gate.cooldown_s")) == (10, "global")
    assert (config.get("gate.advice_ttl_s"), config.layer_of("gate.advice_ttl_s")) == (900, "default")
    assert config.get("mute.all") is True
    assert config.group("gate")["rate_per_hour"] == 3
    assert config.layer_of("gate") == "local"  # the highest layer that touched the group


def test_without_a_workspace_only_defaults_and_global_apply(dirs: Dirs) -> None:
    dirs.put(dirs.global_file, "gate:\n  rate_per_hour: 1\n")
    dirs.put(dirs.workspace_file, "gate:\n  rate_per_hour: 2\n")
    config = load_config(None)
    assert config.get("gate.rate_per_hour") == 1
    assert [layer.name for layer in config.layers if layer.path is not None] == ["global"]
    assert config.workspace_detector_dir() is None


@pytest.mark.usefixtures("as_the_user")
def test_mappings_merge_and_everything_else_replaces(dirs: Dirs) -> None:
    dirs.put(
        dirs.global_file,
        "detectors:\n"
        "  git-log: {enabled: true, tools: [Read, Grep]}\n"
        "  standard-questions:\n"
        "    config: {questions: [a], tone: dry}\n"
        "loop:\n  salience_triggers: [error, prompt, report]\n"
        "tools:\n  mcp_servers:\n    search: {command: search-server, args: [--stdio]}\n"
        "enable:\n  workspaces: {/a: true}\n",
    )
    dirs.put(
        dirs.workspace_file,
        "detectors:\n"
        "  git-log: {tools: [Read]}\n"
        "  standard-questions:\n"
        "    config: {questions: [b]}\n"
        "loop:\n  salience_triggers: [error]\n"
        "tools:\n  mcp_servers:\n    search: {url: 'https://search.invalid/mcp'}\n"
        "enable:\n  workspaces: {/b: false}\n",
    )
    untrusted = load_config(dirs.workspace)
    assert untrusted.get("detectors.git-log.tools") == ["Read"], "a grant of in-repo tools is safe"
    assert untrusted.get("tools.mcp_servers.search") == {"command": "search-server", "args": ["--stdio"]}
    assert untrusted.trust is not None
    grant(untrusted.trust)  # the workspace's MCP server is a capability: merged only once trusted
    config = load_config(dirs.workspace)
    assert config.get("detectors.git-log.enabled") is True
    assert config.get("detectors.git-log.tools") == ["Read"]
    assert config.get("detectors.standard-questions.config") == {"questions": ["b"], "tone": "dry"}
    assert config.layer_of("detectors.standard-questions.config.tone") == "global"
    assert config.layer_of("detectors.standard-questions.config") == "workspace"
    assert config.get("loop.salience_triggers") == ["error"]
    # A server definition is replaced whole, never half-merged into an invalid one.
    assert config.get("tools.mcp_servers.search") == {"url": "https://search.invalid/mcp"}
    assert config.get("enable.workspaces") == {"/a": True, "/b": False}
    assert config.problems == []


def test_detector_overrides_carry_their_layer(dirs: Dirs) -> None:
    dirs.put(dirs.global_file, "detectors:\n  git-log:\n    enabled: true\n    deadline_s: 20\n")
    dirs.put(dirs.local_file, "detectors:\n  git-log:\n    deadline_s: 12\n    cadence: {every_nth: 2}\n")
    config = load_config(dirs.workspace)
    assert config.detector_overrides("git-log") == {
        "enabled": (True, "global"),
        "deadline_s": (12, "local"),
        "cadence": ({"every_nth": 2}, "local"),
    }
    assert config.detector_overrides("default") == {}


def test_get_and_layer_of_for_unset_and_unknown_keys(dirs: Dirs) -> None:
    config = load_config(dirs.workspace)
    assert config.get("detectors.git-log.enabled", None) is None
    with pytest.raises(KeyError):
        config.get("detectors.git-log.enabled")
    with pytest.raises(KeyError, match="did you mean"):
        config.get("gate.rate_per_hr")
    with pytest.raises(KeyError):
        config.group("gate.rate_per_hour")


def test_values_handed_out_are_copies(dirs: Dirs) -> None:
    config = load_config(dirs.workspace)
    config.get("loop.salience_triggers").append("report")
    config.group("gate")["rate_per_hour"] = 60
    config.as_dict()["mute"]["all"] = True
    assert config.get("loop.salience_triggers") == ["error", "prompt"]
    assert config.get("gate.rate_per_hour") == 4
    assert config.get("mute.all") is False


BROKEN = [
    ("gate:\n  rate_per_hour: [2\n", 3, None, "not valid YAML"),
    ("mute:\n  all: true\nmute:\n  all: false\n", 3, "mute", "duplicate key 'mute' (first on line 1)"),
    ("- gate\n", 1, None, "expected a mapping of groups"),
    ("debug:\n  path: 2024-01-01\n", 2, "debug.path", "JSON cannot hold"),
]
"""Files that cannot be read as a mapping of keys at all: skipped whole."""


@pytest.mark.parametrize(("text", "line", "key", "message"), BROKEN)
def test_an_unreadable_layer_is_reported_with_file_line_key_and_skipped(
    dirs: Dirs, caplog: pytest.LogCaptureFixture, text: str, line: int, key: str | None, message: str
) -> None:
    dirs.put(dirs.global_file, "gate:\n  rate_per_hour: 1\n")
    dirs.put(dirs.workspace_file, text)
    dirs.put(dirs.local_file, "gate:\n  body_cap: 300\n")
    before = dirs.workspace_file.read_bytes()
    with caplog.at_level(logging.WARNING, logger="sbcore.config"):
        config = load_config(dirs.workspace)
    workspace_layer = config.layers[1]
    assert workspace_layer.status == "skipped"
    problem = workspace_layer.problems[0]
    assert (problem.file, problem.line, problem.key) == (dirs.workspace_file, line, key)
    assert message in problem.message
    rendered = str(problem)  # one renderer for every problem (sbcore.problems)
    assert rendered.startswith(
        f"==> File {dirs.workspace_file}:{line}\n" + (f"==> At key: {key}\n" if key else "")
    )
    # The rest of the configuration still loads, and the broken file is left alone.
    assert config.get("gate.rate_per_hour") == 1
    assert config.get("gate.body_cap") == 300
    assert config.layer_of("gate.body_cap") == "local"
    assert dirs.workspace_file.read_bytes() == before
    assert "configuration layer workspace is skipped" in caplog.text
    assert message in caplog.text


HELD = [
    (
        "gate:\n  cooldown_s: 5\n  rate_per_hour: 200\n",
        3,
        "gate.rate_per_hour",
        "greater than the maximum of 60",
    ),
    ("gate:\n  cooldown_s: 5\n  rate_per_hr: 2\n", 3, "gate.rate_per_hr", "unknown key 'rate_per_hr'"),
    ("gate:\n  cooldown_s: 5\n  rate_per_hour: '2'\n", 3, "gate.rate_per_hour", 'got string "2"'),
]
"""One bad key among good ones: that key is held back alone."""


@pytest.mark.parametrize(("text", "line", "key", "message"), HELD)
def test_a_bad_key_is_held_back_alone_and_the_rest_of_its_layer_applies(
    dirs: Dirs, caplog: pytest.LogCaptureFixture, text: str, line: int, key: str, message: str
) -> None:
    dirs.put(dirs.global_file, "gate:\n  rate_per_hour: 1\n")
    dirs.put(dirs.workspace_file, text)
    dirs.put(dirs.local_file, "gate:\n  body_cap: 300\n")
    before = dirs.workspace_file.read_bytes()
    with caplog.at_level(logging.WARNING, logger="sbcore.config"):
        config = load_config(dirs.workspace)
    workspace_layer = config.layers[1]
    assert workspace_layer.status == "ok"
    (problem,) = workspace_layer.problems
    assert (problem.file, problem.line, problem.key) == (dirs.workspace_file, line, key)
    assert message in problem.message
    assert [item.key for item in workspace_layer.held] == [key]
    assert config.problems == [problem]
    # The held key falls back to the layer below; the layer's other keys apply.
    assert config.get("gate.rate_per_hour") == 1
    assert config.get("gate.cooldown_s") == 5
    assert config.layer_of("gate.cooldown_s") == "workspace"
    assert config.get("gate.body_cap") == 300
    assert dirs.workspace_file.read_bytes() == before
    assert "configuration layer workspace: keys held back, the rest applies" in caplog.text
    assert f"{key}: held back (the value below this layer applies)" in caplog.text


NARROWED = [
    ("mute:\n  all: 'yes'\n", {"mute.all": True}),
    ("mute: on\n", {"mute.all": True}),
    ("enable:\n  default: nope\n", {"enable.default": False}),
    ("model:\n  provider: Anthropic API\n", {"model.provider": "offline"}),
    ("detectors:\n  repeat-failure:\n    enabled: 'no'\n", {"detectors.repeat-failure.enabled": False}),
    ("detectors:\n  repeat-failure:\n    mode: quiet\n", {"detectors.repeat-failure.mode": "soak"}),
    (
        "detectors:\n  repeat-failure: off\n",
        {"detectors.repeat-failure.enabled": False, "detectors.repeat-failure.mode": "soak"},
    ),
]


@pytest.mark.parametrize(("text", "narrowest"), NARROWED)
def test_a_broken_key_that_narrows_applies_its_narrowest_reading(
    dirs: Dirs, text: str, narrowest: dict[str, object]
) -> None:
    """Falling back below would be wider than the layer meant: a misspelt mute must still mute."""
    dirs.put(
        dirs.global_file, "mute:\n  all: false\nenable:\n  default: true\nmodel:\n  provider: anthropic\n"
    )
    dirs.put(dirs.local_file, text)
    config = load_config(dirs.workspace)
    local = config.layers[2]
    assert local.status == "ok" and local.problems
    for key, value in narrowest.items():
        assert config.get(key) == value, key
        assert config.layer_of(key) == "local"
    (held,) = local.held
    assert held.narrowed == narrowest
    assert "read at its narrowest" in local.held_lines()[0]


def test_an_untrusted_workspace_layer_keeps_its_narrowest_readings(dirs: Dirs) -> None:
    """The narrowest values are the ones that need no trust, so they apply from an untrusted layer too."""
    dirs.put(dirs.workspace_file, "mute:\n  all: 1\nmodel:\n  provider: 'not a provider'\n")
    config = load_config(dirs.workspace)
    assert config.trust is not None and not config.trust.trusted
    assert config.get("mute.all") is True
    assert config.get("model.provider") == "offline"


def test_an_unreadable_layer_is_skipped(dirs: Dirs) -> None:
    dirs.global_file.parent.mkdir(parents=True)
    dirs.global_file.write_bytes(b"gate:\n  rate_per_hour: \xff\n")
    config = load_config(dirs.workspace)
    assert config.layers[0].status == "skipped"
    assert "cannot read" in config.problems[0].message
    assert config.get("gate.rate_per_hour") == 4


def test_an_empty_or_comment_only_layer_is_fine(dirs: Dirs) -> None:
    dirs.put(dirs.global_file, "")
    dirs.put(dirs.workspace_file, "# nothing yet\n")
    config = load_config(dirs.workspace)
    assert [layer.status for layer in config.layers] == ["ok", "ok", "missing"]
    assert config.problems == []


def test_contradicting_knobs_are_reported_not_hidden(dirs: Dirs, caplog: pytest.LogCaptureFixture) -> None:
    dirs.put(dirs.global_file, "window:\n  compaction_threshold: 0.5\n")
    dirs.put(dirs.local_file, "loop:\n  max_interval_s: 60\n")
    with caplog.at_level(logging.WARNING, logger="sbcore.config"):
        config = load_config(dirs.workspace)
    messages = [str(problem) for problem in config.conflicts]
    assert len(messages) == 2
    assert any(
        "loop.min_interval_s (120, from default) must be at most loop.max_interval_s (60, from local)" in m
        and m.startswith(f"==> File {dirs.local_file}:2\n==> At key: loop.max_interval_s\n")
        for m in messages
    )
    assert any("window.compaction_floor (0.6, from default) must be below" in m for m in messages)
    assert config.get("loop.max_interval_s") == 60  # reported, not silently corrected
    assert "configuration conflict" in caplog.text


def test_find_workspace_walks_up_to_the_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "pkg").mkdir(parents=True)
    assert find_workspace(repo / "src" / "pkg") == repo.resolve()
    nested = repo / "tools" / "sub"
    (nested / ".second-brain").mkdir(parents=True)
    assert find_workspace(nested) == nested.resolve()
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    assert find_workspace(lonely) == lonely.resolve()


def test_workspace_is_resolved_through_symlinks(dirs: Dirs, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(dirs.workspace)
    dirs.put(dirs.local_file, "mute:\n  all: true\n")
    config = load_config(link)
    assert config.workspace == dirs.workspace
    assert config.get("mute.all") is True


def test_enablement(dirs: Dirs, tmp_path: Path) -> None:
    assert load_config(dirs.workspace).is_enabled() is True
    dirs.put(dirs.global_file, "enable:\n  default: false\n")
    assert load_config(dirs.workspace).is_enabled() is False
    link = tmp_path / "alias"
    link.symlink_to(dirs.workspace)
    dirs.put(dirs.global_file, f"enable:\n  default: false\n  workspaces:\n    {link}: true\n")
    assert load_config(dirs.workspace).is_enabled() is True
    dirs.put(dirs.local_file, "enable:\n  default: true\n")
    dirs.put(dirs.global_file, f"enable:\n  workspaces:\n    {dirs.workspace}: false\n")
    assert load_config(dirs.workspace).is_enabled() is False


@pytest.mark.usefixtures("as_the_user")
def test_catalogue_file_resolution(dirs: Dirs, tmp_path: Path) -> None:
    assert load_config(dirs.workspace).catalogue_file() is None
    dirs.put(dirs.workspace_file, "catalogue:\n  file: team/detectors\n")
    untrusted = load_config(dirs.workspace)
    assert untrusted.catalogue_file() is None, "a workspace's catalogue.file waits for trust"
    assert untrusted.trust is not None
    grant(untrusted.trust)
    assert load_config(dirs.workspace).catalogue_file() == dirs.workspace / "team" / "detectors"
    dirs.put(dirs.local_file, f"catalogue:\n  file: {tmp_path / 'mine.yaml'}\n")
    assert load_config(dirs.workspace).catalogue_file() == tmp_path / "mine.yaml"
    dirs.put(dirs.local_file, "catalogue:\n  file: ~/cat\n")
    assert load_config(dirs.workspace).catalogue_file() == Path(os.path.expanduser("~/cat"))


def test_workspace_detector_dir(dirs: Dirs) -> None:
    expected = dirs.workspace / ".second-brain" / "detectors"
    assert load_config(dirs.workspace).workspace_detector_dir() == expected
    assert workspace_detector_dir(dirs.workspace) == expected


def test_rows_list_every_knob_and_every_entry(dirs: Dirs) -> None:
    dirs.put(dirs.workspace_file, "detectors:\n  git-log:\n    enabled: true\n")
    rows = {key: (value, layer) for key, value, layer in load_config(dirs.workspace).rows()}
    assert rows["detectors.git-log.enabled"] == (True, "workspace")
    assert rows["gate.rate_per_hour"] == (4, "default")
    assert rows["tools.mcp_servers"] == ({}, "default")
    assert "detectors" not in rows


class TestChangeDetection:
    def test_nothing_changed(self, dirs: Dirs) -> None:
        dirs.put(dirs.global_file, "gate:\n  rate_per_hour: 1\n")
        config = load_config(dirs.workspace)
        assert config.changed() is False
        assert config.fingerprint() == config.fingerprint()

    def test_editing_creating_or_deleting_a_layer_file(self, dirs: Dirs) -> None:
        dirs.put(dirs.global_file, "gate:\n  rate_per_hour: 1\n")
        config = load_config(dirs.workspace)
        dirs.put(dirs.global_file, "gate:\n  rate_per_hour: 2\n")  # same size: the inode/mtime tell
        assert config.changed() is True
        config = load_config(dirs.workspace)
        dirs.put(dirs.local_file, "mute:\n  all: true\n")
        assert config.changed() is True
        config = load_config(dirs.workspace)
        dirs.local_file.unlink()
        assert config.changed() is True

    def test_same_size_rewrite_in_place(self, dirs: Dirs) -> None:
        dirs.put(dirs.global_file, "gate:\n  rate_per_hour: 1\n")
        config = load_config(dirs.workspace)
        status = dirs.global_file.stat()
        with dirs.global_file.open("r+") as handle:  # same inode, same size
            handle.write("gate:\n  rate_per_hour: 2\n")
        os.utime(dirs.global_file, ns=(status.st_atime_ns, status.st_mtime_ns + 1))
        assert config.changed() is True

    def test_workspace_detectors_and_catalogue_file(self, dirs: Dirs, tmp_path: Path) -> None:
        catalogue = tmp_path / "catalogue"
        dirs.put(catalogue / "mine.yaml", "id: mine\n")
        dirs.put(dirs.local_file, f"catalogue:\n  file: {catalogue}\n")
        config = load_config(dirs.workspace)
        dirs.put(dirs.workspace / ".second-brain" / "detectors" / "team.yaml", "id: team\n")
        assert config.changed() is True
        config = load_config(dirs.workspace)
        dirs.put(catalogue / "mine.yaml", "id: mine-but-longer\n")
        assert config.changed() is True
        config = load_config(dirs.workspace)
        dirs.put(catalogue / "prompts" / "mine.j2", "hello\n")
        assert config.changed() is True

    def test_a_change_during_loading_is_not_missed(self, dirs: Dirs, monkeypatch: pytest.MonkeyPatch) -> None:
        """The layer files are stamped before they are read, so a write racing the read shows as a change."""
        from sbcore.config import effective

        dirs.put(dirs.global_file, "gate:\n  rate_per_hour: 1\n")
        real_read = effective.read_layers

        def racing_read(workspace: Path | None) -> list:  # type: ignore[type-arg]
            layers = real_read(workspace)
            dirs.put(dirs.global_file, "gate:\n  rate_per_hour: 22\n")
            return layers

        monkeypatch.setattr(effective, "read_layers", racing_read)
        config = effective.load_config(dirs.workspace)
        assert config.get("gate.rate_per_hour") == 1
        assert config.changed() is True
