"""``second-brain detectors list`` and ``detectors show``: the effective catalogue as a person sees it."""

from __future__ import annotations

import contextlib
import io
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


def test_list_shows_the_twelve_builtins(capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    code, out, err = run(capsys, "detectors", "list", "--workspace", str(workspace))
    assert code == 0, err
    assert err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["ID", "PACK", "ENABLED", "STATUS", "SOURCE"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert len(rows) == 12
    assert rows["drift"].split()[1:5] == ["builtin", "no", "preview,", "soak"], "shipped off, soaks when on"
    assert rows["default"].split()[1:4] == ["builtin", "yes", "stable"]
    assert rows["git-log"].split()[1:5] == ["builtin", "no", "preview,", "soak"], "a preview detector soaks"
    assert rows["cross-task-collision"].split()[1:5] == ["builtin", "no", "preview,", "soak"]
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
            "drift",
            "git-log",
            "goal-drift",
            "prior-art",
            "recall",
            "repeat-failure",
            "stall",
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
        "mode": "advise",
        "available": True,
        "unavailable_reason": None,
        "log_only": None,
        "cadence": "on_trigger",
        "trigger": "repeat_failure",
        "tools": [],
        "source": None,
        "description": None,
    }
    assert all(row["available"] for row in by_id.values())
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
        "detectors:\n  goal-drift:\n    cadence: on_trigger\n"
    )
    code, out, err = run(capsys, "detectors", "list", "--workspace", str(workspace))
    assert code == 1
    assert "goal-drift" in out
    config_file = workspace / ".second-brain" / "config.yaml"
    assert f"==> File {config_file}:3" in err
    assert "cadence 'on_trigger' needs a 'trigger'" in err


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
    code, out, _ = run(capsys, "detectors", "list", "--json", "--workspace", str(workspace))
    [shaky] = json.loads(out)["broken_packs"]
    assert code == 1
    assert shaky | {"error": None, "hint": None} == {
        "name": "shaky",
        "distribution": None,
        "entry_point": "h5_cli_missing_module",
        "stage": "import",
        "step": "importing its entry point module h5_cli_missing_module",
        "error": None,
        "hint": None,
        "frame": None,  # it never reached the pack's code: the module is not there
    }
    assert (
        shaky["error"].startswith("ModuleNotFoundError") and "second-brain pack test shaky" in shaky["hint"]
    )


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
    assert shown["fields"]["cadence"] == {"value": "on_trigger", "layer": "pack builtin"}
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


# -- the authoring loop: what a new team meets first (issue 12, item 7) ---------------------------------

TEAM_DETECTOR = textwrap.dedent(
    """\
    schema_version: 1
    id: team-check
    description: A workspace detector of the team.
    prompt: "Look at {{ nothing_declared }}"
    """
)


def merged(*argv: str) -> tuple[int, str]:
    """Run the command with stdout and stderr into one stream, in the order a terminal shows them."""
    stream = io.StringIO()
    with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
        code = main(list(argv))
    return code, stream.getvalue()


def local_layer(workspace: Path) -> Path:
    from sbcore.config import local_path

    path = local_path(workspace)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def test_validate_without_paths_checks_what_list_loads(
    capsys: pytest.CaptureFixture[str], workspace: Path
) -> None:
    """A workspace detector file and overrides in two layers: validate finds what list finds, and fails."""
    detector_file = workspace / ".second-brain" / "detectors" / "team-check.yaml"
    detector_file.parent.mkdir()
    detector_file.write_text(TEAM_DETECTOR)
    team = workspace / ".second-brain" / "config.yaml"
    team.write_text("detectors:\n  goal-drift:\n    cadence: on_trigger\n")
    mine = local_layer(workspace)
    mine.write_text("detectors:\n  default:\n    cadence: on_trigger\n")

    code, out, _ = run(capsys, "detectors", "validate", "--workspace", str(workspace))
    assert code == 1
    assert f"==> File {detector_file}:4\n==> At detector 'team-check'\n==> At key: prompt\n" in out
    assert f"==> File {team}:3\n==> At detector 'goal-drift'\n" in out
    assert f"==> File {mine}:3\n==> At detector 'default'\n==> At key: detectors.default.cadence\n" in out
    assert out.endswith("3 errors in 3 files\n")

    code, listed, _ = run(capsys, "detectors", "list", "--json", "--workspace", str(workspace))
    assert code == 1
    assert {(p["file"], p["line"], p["key"]) for p in json.loads(listed)["problems"]} == {
        (str(detector_file), 4, "prompt"),
        (str(team), 3, "detectors.goal-drift.cadence"),
        (str(mine), 3, "detectors.default.cadence"),
    }


def test_validate_without_paths_passes_a_clean_workspace(
    capsys: pytest.CaptureFixture[str], workspace: Path
) -> None:
    detector_file = workspace / ".second-brain" / "detectors" / "team-check.yaml"
    detector_file.parent.mkdir()
    detector_file.write_text(TEAM_DETECTOR.replace("{{ nothing_declared }}", "the last edit"))
    code, listed, _ = run(capsys, "detectors", "list", "--json", "--workspace", str(workspace))
    assert code == 0
    count = len(json.loads(listed)["detectors"])
    assert run(capsys, "detectors", "validate", "--workspace", str(workspace))[:2] == (
        0,
        f"{count} detectors OK\n",
    )


def test_a_held_back_key_comes_first_names_the_fix_and_fails(workspace: Path) -> None:
    mine = local_layer(workspace)
    mine.write_text("detectors:\n  git-log:\n    enabled: true\ngate:\n  rate_per_hour: -3\n")
    code, text = merged("detectors", "list", "--workspace", str(workspace))
    assert code == 1
    assert text.startswith(
        f"==> File {mine}:5\n==> At key: gate.rate_per_hour\n=====> -3 is less than the minimum of 0; "
        "so this key is held back (the rest of the layer applies)\n"
        "hint: fix the value in the file, or remove it: "
        "second-brain config reset gate.rate_per_hour --local\n"
    )
    assert text.index("hint: fix the value") < text.index("ID  ")
    [row] = [line for line in text.splitlines() if line.startswith("git-log")]
    assert " yes " in row  # the layer's other keys apply: its override turned git-log on

    code, text = merged("detectors", "validate", "--workspace", str(workspace))
    assert (code, text.splitlines()[-1]) == (1, "1 error in 1 file")
    code, text = merged("detectors", "show", "git-log", "--workspace", str(workspace))
    assert code == 1 and text.startswith(f"==> File {mine}:5")
    stream = io.StringIO()
    with contextlib.redirect_stdout(stream):
        code = main(["detectors", "list", "--json", "--workspace", str(workspace)])
    [problem] = json.loads(stream.getvalue())["problems"]
    assert (code, problem["file"], problem["line"], problem["key"]) == (1, str(mine), 5, "gate.rate_per_hour")


def test_validate_by_path_reports_an_id_an_installed_pack_uses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    copy = tmp_path / ".second-brain" / "detectors" / "default.yaml"  # a team's copy, to tweak it
    copy.parent.mkdir(parents=True)
    copy.write_text(TEAM_DETECTOR.replace("team-check", "default").replace("{{ nothing_declared }}", "it"))
    code, out, _ = run(capsys, "detectors", "validate", str(copy))
    assert code == 1
    assert f"==> File {copy}:2\n==> At detector 'default'\n==> At key: id\n" in out
    assert "=====> detector id 'default' is already used by installed pack 'builtin' at " in out
    assert "catalogue/default.yaml:" in out
    assert "hint: ids are unique across installed packs and the workspace: rename this detector" in out
    assert out.endswith("1 error in 1 file\n")


def test_validate_by_path_of_an_installed_file_is_no_clash(capsys: pytest.CaptureFixture[str]) -> None:
    from sbcore.cli.detectors import effective_sources

    [(_, catalogue)] = [source for source in effective_sources() if source[0] == "builtin"]
    code, out, _ = run(capsys, "detectors", "validate", str(catalogue / "default.yaml"))
    assert (code, out) == (0, "1 detector OK\n")


def test_validate_without_paths_checks_an_override_a_higher_layer_hides(
    capsys: pytest.CaptureFixture[str], workspace: Path, tmp_path: Path
) -> None:
    """Every layer's overrides are checked, not only the merged ones `detectors list` applies today."""
    hidden = tmp_path / "config" / "config.yaml"  # the global layer (SBCORE_CONFIG_DIR)
    hidden.parent.mkdir(parents=True)
    hidden.write_text("detectors:\n  default:\n    cadence: on_trigger\n")
    local_layer(workspace).write_text("detectors:\n  default:\n    cadence: turn_end\n")
    assert run(capsys, "detectors", "list", "--workspace", str(workspace))[0] == 0
    code, out, _ = run(capsys, "detectors", "validate", "--workspace", str(workspace))
    assert code == 1
    assert f"==> File {hidden}:3\n==> At detector 'default'\n==> At key: detectors.default.cadence\n" in out
    assert out.endswith("1 error in 1 file\n")


@pytest.mark.timeout(60)  # a guard against the hang this test is about (it hung for minutes), not a timing
@pytest.mark.parametrize(
    "expression",
    ["9 ** (9 ** 9)", "'%1500000000s' % 'x'"],  # the second took 4 GB while the template compiled
)
def test_a_workspace_template_computing_a_huge_power_is_refused_at_its_line(
    capsys: pytest.CaptureFixture[str], workspace: Path, expression: str
) -> None:
    detectors = workspace / ".second-brain" / "detectors"
    detectors.mkdir()
    (detectors / "huge.yaml").write_text(
        "schema_version: 1\nid: huge\ndescription: x\n"
        f"prompt: |\n  Hi {{{{ detector.id }}}}\n  {{{{ {expression} }}}}\n"
    )
    code, out, err = run(capsys, "detectors", "list", "--workspace", str(workspace))
    assert code == 1
    assert f"==> File {detectors / 'huge.yaml'}:6" in err
    assert "template computes too much" in err
    assert "default" in out  # the rest of the catalogue still loads


def test_validate_reports_a_clash_beside_another_files_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """One broken file used to hide every other file's clash with an installed pack."""
    (tmp_path / "a.yaml").write_text(
        'schema_version: 1\nid: repeat-failure\ndescription: mine\nprompt: "Say something."\n'
    )
    (tmp_path / "b.yaml").write_text("id: broken-one\nprompt: 3\n")
    code, out, _ = run(capsys, "detectors", "validate", str(tmp_path))
    assert code == 1
    assert "detector id 'repeat-failure' is already used by installed pack 'builtin'" in out
    assert "expected string, got integer 3" in out
    assert out.rstrip().endswith("4 errors in 2 files")
