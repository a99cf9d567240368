"""standard-questions where the evidence comes through a host, a task option, a compiler or a file's kind.

The sixteenth round: a `spec` folder named anywhere shows the project has tests, whatever a command does
with it; a formatter named for style runs no test on the folder it is given; a PowerShell host's script is
read as the commands it runs; a task runner told by an option to run its test task runs the tests; a compiler
handed a source file and an output, or a program named for building, builds; prose in any markup, the files
a project names for its prose, a tool's dotfile settings and PowerShell's data files are not code; a block
comment (`<# … #>`, `/* … */`, POD) changes no code; "don't run the suite" makes the tests moot. The tools
here are named in no table (`zfmt`, `zstyle`, `qtask`, `zcc`, `qbuild`).
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from sbcore.detectors.checklist import invocations, runs_test_path
from test_triggers import ROOT, Session, ask, open_ids

from sbcore.observe.edit_reading import comments_only


@pytest.fixture
def checklist() -> dict[str, Any]:
    document = yaml.safe_load((ROOT / "catalogue" / "standard-questions.yaml").read_text())
    config: dict[str, Any] = document["config"]
    return config


def only(config: dict[str, Any], *ids: str) -> dict[str, Any]:
    return {**config, "questions": [q for q in config["questions"] if q["id"] in ids]}


def test_a_spec_folder_a_command_names_shows_the_project_has_tests(checklist: dict[str, Any]) -> None:
    s = Session()
    s.edit("/repo/lua/fence/parser.lua")
    s.run("zfmt lua/ spec/")
    s.say("Formatted; the fences work now.")
    assert "tests_run" in open_ids(ask(s, only(checklist, "tests_run")))
    for command in ("zfmt lua/ plugin/", "zfmt lua/specimen.lua"):
        quiet = Session()
        quiet.edit("/repo/lua/fence/parser.lua")
        quiet.run(command)
        assert ask(quiet, only(checklist, "tests_run")) is None, command  # nothing shows tests


@pytest.mark.parametrize("command", ["zstyle lua/ spec/", "js-beautify -r tests/", "zstylua spec/"])
def test_a_program_named_for_style_runs_no_test_on_a_test_folder(command: str) -> None:
    assert not runs_test_path(command)
    assert runs_test_path("zrun spec/")


def test_a_powershell_hosts_script_is_read_as_the_commands_it_runs() -> None:
    steps = invocations("pwsh -NoProfile -Command 'qtask ./tasks.ps1 -taskList Test; exit $LASTEXITCODE'")
    assert "qtask ./tasks.ps1 -taskList Test" in steps


@pytest.mark.parametrize(
    "run",
    [
        "pwsh -NoProfile -c 'qtask ./tasks.ps1 -taskList Test; exit ([int](-not $ok))'",
        "qtask build.qt --target=test",
        "qtask ./tasks.q --task Tests",
    ],
)
def test_a_runner_told_by_an_option_to_run_its_test_task_runs_the_tests(
    checklist: dict[str, Any], run: str
) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/Get-Item.ps1")
    assert "tests_run" in open_ids(ask(s, only(checklist, "tests_run")))
    s.run(run)
    assert ask(s, only(checklist, "tests_run")) is None


def test_a_task_option_naming_another_task_runs_no_tests(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/Get-Item.ps1")
    s.run("qtask ./tasks.ps1 -taskList Analyze")
    assert "tests_run" in open_ids(ask(s, only(checklist, "tests_run")))


@pytest.mark.parametrize(
    "build", ["zcc -Fusrc -obin/app src/app.lpr", "zcc -o bin/tool src/main.d", "qbuild app.lpi"]
)
def test_a_compiler_given_a_source_and_an_output_or_a_program_named_for_building_builds(
    checklist: dict[str, Any], build: str
) -> None:
    s = Session()
    s.run(build)  # shows the project builds
    s.edit("/repo/src/uweek.pas")
    assert "compiles" in open_ids(ask(s, only(checklist, "compiles")))
    s.run(build)
    assert ask(s, only(checklist, "compiles")) is None


@pytest.mark.parametrize(
    "command", ["zcc --version", "curl -o out.html https://example.org", "zdoc -o site/ docs.md"]
)
def test_no_source_file_or_no_output_is_no_build(checklist: dict[str, Any], command: str) -> None:
    s = Session()
    s.run(command)
    s.edit("/repo/src/uweek.zz")  # a language the checklist does not know is compiled
    assert ask(s, only(checklist, "compiles")) is None  # nothing shows the project builds


@pytest.mark.parametrize(
    "path",
    [
        "/repo/CHANGELOG.org",
        "/repo/NEWS",
        "/repo/lib/Zq/Guide.pod",
        "/repo/HISTORY.rdoc",
        "/repo/.luacheckrc",
        "/repo/.zlintrc",
        "/repo/ZSettings.psd1",
        "/repo/doc/manual.texi",
    ],
)
def test_prose_settings_and_data_files_are_not_code(checklist: dict[str, Any], path: str) -> None:
    s = Session()
    s.run("ls tests")
    s.edit(path)
    assert ask(s, only(checklist, "tests_run")) is None
    s.edit("/repo/src/zq.lua")
    assert "tests_run" in open_ids(ask(s, only(checklist, "tests_run")))


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (
            "function Send-Batch {\n    <#\n    .SYNOPSIS\n    Pushes lines.\n    #>\n    [CmdletBinding()]",
            "function Send-Batch {\n    [CmdletBinding()]",
        ),
        ("/* Totals a cart.\n   Rounds half up. */\nint total(void);", "int total(void);"),
        ("=pod\n\nTotals a cart.\n\n=cut\n\nsub total {}", "sub total {}"),
        ("{- Totals a cart.\n   Rounds half up. -}\ntotal = sum", "total = sum"),
    ],
)
def test_a_block_comment_changes_no_code(new: str, old: str) -> None:
    assert comments_only(new, old)


def test_code_after_a_block_comment_is_code() -> None:
    assert not comments_only("<#\n.SYNOPSIS\n#>\nWrite-Host 'x'", "")
    assert not comments_only("/* note */\nint total(int x);", "int total(void);")


@pytest.mark.parametrize(
    "prompt",
    [
        "Don't run the ERT suite, CI will run it.",
        "Please do not run the specs, the fixtures are broken today.",
    ],
)
def test_the_user_saying_not_to_run_the_suite_makes_the_tests_moot(
    checklist: dict[str, Any], prompt: str
) -> None:
    from sbcore.observe.model import Observation

    s = Session()
    s.observations.append(
        Observation(kind="prompt", text=f"[prompt] {prompt}", timestamp="2026-01-01T09:59:00Z")
    )
    s.run("ls tests")
    s.edit("/repo/src/linkify.el")
    assert ask(s, only(checklist, "tests_run")) is None
