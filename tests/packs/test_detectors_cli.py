"""``second-brain detectors list`` and ``detectors show``: the effective catalogue as a person sees it."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from sbcore.cli import detectors as detectors_cli
from sbcore.cli import main
from sbcore.packs.hookspecs import hookimpl


@pytest.fixture(autouse=True)
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))
    for name in ("SBCORE_STRICT_PACKS", "SBCORE_DISABLE_PLUGIN_AUTOLOAD", "SBCORE_PACKS"):
        monkeypatch.delenv(name, raising=False)
    detectors_cli._plugin_manager.cache_clear()
    yield
    detectors_cli._plugin_manager.cache_clear()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".second-brain").mkdir(parents=True)
    (root / ".git").mkdir()
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_list_shows_the_nine_builtins(capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    code, out, err = run(capsys, "detectors", "list", "--workspace", str(workspace))
    assert code == 0, err
    assert err == ""  # the unavailable cross-task-collision is a status, not a warning
    lines = out.splitlines()
    assert lines[0].split() == ["ID", "PACK", "ENABLED", "STATUS", "SOURCE"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert len(rows) == 9
    assert rows["default"].split()[1:4] == ["builtin", "yes", "stable"]
    assert rows["git-log"].split()[1:4] == ["builtin", "no", "preview"]
    assert "preview, unavailable" in rows["cross-task-collision"]
    assert rows["repeat-failure"].rstrip().endswith("repeat-failure.yaml:3")


def test_list_json(capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    code, out, _ = run(capsys, "detectors", "list", "--json", "--workspace", str(workspace))
    assert code == 0
    report = json.loads(out)
    assert report["catalogue"] == "packs"
    by_id = {row["id"]: row for row in report["detectors"]}
    assert sorted(by_id) == sorted(
        [
            "constraint-drift",
            "cross-task-collision",
            "default",
            "git-log",
            "goal-drift",
            "prior-art",
            "repeat-failure",
            "standard-questions",
            "static-analysis",
        ]
    )
    assert by_id["repeat-failure"] | {"source": None, "description": None} == {
        "id": "repeat-failure",
        "pack": "builtin",
        "enabled": True,
        "enabled_by": "pack builtin",
        "status": "stable",
        "available": True,
        "unavailable_reason": None,
        "log_only": None,
        "cadence": "on_trigger",
        "trigger": "repeat_failure",
        "tools": [],
        "source": None,
        "description": None,
    }
    assert by_id["cross-task-collision"]["available"] is False
    builtin = next(p for p in report["packs"] if p["name"] == "builtin")
    assert builtin["builtin"] is True and builtin["hooks"] == ["register_catalogues", "register_triggers"]
    assert report["broken_packs"] == [] and report["problems"] == []


def test_list_names_the_layer_that_enabled_a_detector(
    capsys: pytest.CaptureFixture[str], workspace: Path
) -> None:
    (workspace / ".second-brain" / "config.yaml").write_text("detectors:\n  git-log:\n    enabled: true\n")
    code, out, _ = run(capsys, "detectors", "list", "--workspace", str(workspace))
    assert code == 0
    [row] = [line for line in out.splitlines() if line.startswith("git-log")]
    assert "yes (workspace config)" in row


def test_list_reports_problems_and_fails(capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    (workspace / ".second-brain" / "config.yaml").write_text(
        "detectors:\n  cross-task-collision:\n    enabled: true\n"
    )
    code, out, err = run(capsys, "detectors", "list", "--workspace", str(workspace))
    assert code == 1
    assert "cross-task-collision" in out
    config_file = workspace / ".second-brain" / "config.yaml"
    assert f"==> File {config_file}:3" in err
    assert "not available in this version" in err


def test_list_names_a_broken_pack(
    capsys: pytest.CaptureFixture[str], workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = list(metadata.entry_points(group="sbcore"))
    broken = metadata.EntryPoint(name="shaky", value="h5_cli_missing_module", group="sbcore")
    original = metadata.entry_points
    monkeypatch.setattr(
        metadata,
        "entry_points",
        lambda **kw: [*real, broken] if kw.get("group") == "sbcore" else original(**kw),
    )
    code, out, err = run(capsys, "detectors", "list", "--workspace", str(workspace))
    assert code == 1
    assert (
        "sbcore: skipped pack 'shaky': importing its entry point module h5_cli_missing_module failed" in err
    )
    assert "ModuleNotFoundError" in err and "fix: " in err
    assert "repeat-failure" in out  # the rest still works
    detectors_cli._plugin_manager.cache_clear()
    code, out, err = run(capsys, "detectors", "list", "--packs")
    assert code == 1
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:]}
    assert rows["builtin"][1:5] == [
        metadata.version("sbcore"),
        "built-in",
        "register_catalogues,",
        "register_triggers",
    ]
    assert rows["shaky"][1:4] == ["-", "skipped", "import:"]


def test_show_annotates_each_field_with_its_layer(
    capsys: pytest.CaptureFixture[str], workspace: Path
) -> None:
    (workspace / ".second-brain" / "config.yaml").write_text(
        textwrap.dedent(
            """\
            detectors:
              standard-questions:
                confidence_floor: 0.7
                config:
                  questions:
                    - id: tests_run
                      enabled: false
            """
        )
    )
    code, out, err = run(capsys, "detectors", "show", "standard-questions", "--workspace", str(workspace))
    assert code == 0, err
    assert out.startswith("# standard-questions: pack builtin, defined at ")
    assert "confidence_floor: 0.7  # workspace config" in out
    assert "config:  # pack builtin + workspace config" in out
    assert "prompt: |  # pack builtin (prompts/standard-questions.j2)" in out
    assert "deadline_s: 8  # configuration (loop.fork_deadline_s)" in out
    document = yaml.safe_load(out)  # the annotations are YAML comments: the output is still YAML
    assert document["config"]["questions"][0] == {**document["config"]["questions"][0], "enabled": False}
    assert document["prompt"].startswith("You are the `{{ detector.id }}` lens")


def test_show_json(capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    code, out, _ = run(capsys, "detectors", "show", "git-log", "--json", "--workspace", str(workspace))
    assert code == 0
    shown: dict[str, Any] = json.loads(out)
    assert shown["id"] == "git-log" and shown["pack"] == "builtin"
    assert shown["fields"]["enabled"] == {"value": False, "layer": "pack builtin"}
    assert shown["fields"]["cadence"] == {"value": {"every_nth": 3}, "layer": "pack builtin"}
    assert shown["fields"]["tools"]["value"][0]["run"][0].startswith("git log")


def test_show_an_unknown_id(capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    code, out, err = run(capsys, "detectors", "show", "repeat-failures", "--workspace", str(workspace))
    assert code == 1 and out == ""
    assert "no detector 'repeat-failures' in the catalogue in force; did you mean 'repeat-failure'?" in err


def test_validate_knows_the_registered_triggers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file naming a built-in trigger validates: the CLI checks against what the packs register."""
    filters = ModuleType("h5_cli_filters")
    filters.prepare_jinja2_environment = hookimpl(  # type: ignore[attr-defined]
        lambda env: env.filters.update(shout=str.upper)
    )
    monkeypatch.setitem(sys.modules, "h5_cli_filters", filters)
    real = list(metadata.entry_points(group="sbcore"))
    extra = metadata.EntryPoint(name="filters", value="h5_cli_filters", group="sbcore")
    original = metadata.entry_points
    monkeypatch.setattr(
        metadata,
        "entry_points",
        lambda **kw: [*real, extra] if kw.get("group") == "sbcore" else original(**kw),
    )
    path = tmp_path / "loops.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            schema_version: 1
            id: loops
            description: Our take on retry loops.
            enabled: true
            prompt: "{{ match.summary | shout }}"
            cadence: on_trigger
            trigger: {name: repeat_failure, params: {min_failures: 4}}
            """
        )
    )
    code, out, err = run(capsys, "detectors", "validate", str(path))
    assert (code, out.strip()) == (0, "1 detector OK"), err
