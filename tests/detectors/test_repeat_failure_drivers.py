"""repeat-failure where a driver, a host or a task file stands between the agent and the failing work.

The sixteenth round: a compiler driver's closing line and a task's count of its tool's errors are summaries
(the root error under them is quoted, so different errors stay different); a runner saying under a pipe that
the program exited with a status other than 0 shows the failure; a note is no error; a step skipped with a
cross is no failure; a tool's own directory option after a `cd` is a folder inside it; a PowerShell host
handed its work as a string is that work; a shell's script is projected whole; two programs are never one
command's sweep; a Makefile's or a justfile's recipe is read with its variables' values. Every tool here is
named in no table (`zcc`, `qdub`, `knit`, `zpester`, `qlint`, `zeask`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sbcore.detectors.identity import work_identity
from sbcore.detectors.same_work import _swept
from sbcore.detectors.triggers import repeat_failure

from sbcore.observe.elide import elide, shell_structure
from sbcore.observe.outcome import error_line, read_outcome
from sbcore.observe.project import Projector
from sbcore.observe.project_facts import read_project
from sbcore.observe.summaries import is_wrapper_summary
from tests.observe.test_log_reads import bash_records

# -- a driver's closing line ---------------------------------------------------------------------------------


def _unit_missing(unit: str) -> str:
    return (
        "Exit code 1\nZ Compiler 4.2 for x86_64\nCompiling main.zz\n"
        f"main.zz(9,3) Fatal: Can't find unit {unit} used by Main\nFatal: Compilation aborted\n"
        "Error: /usr/lib/zcc/zcc1 returned an error exitcode"
    )


@pytest.mark.parametrize(
    "line",
    [
        "Error: /usr/lib/zcc/zcc1 returned an error exitcode",
        "Script zlint run handling the check event returned with error code 1",
        "knit: the recipe returned exit status 2",
        "Exception: QLint found 3 error(s)",
        "[ERROR] Found 1 error",
    ],
)
def test_a_drivers_closing_line_or_a_tasks_count_is_a_summary(line: str) -> None:
    assert is_wrapper_summary(line)


@pytest.mark.parametrize(
    "line",
    ["the server returned an error: 401 Unauthorized", "upstream returned status 500", "found 3 files"],
)
def test_what_a_server_returned_or_a_count_of_files_is_no_summary(line: str) -> None:
    assert not is_wrapper_summary(line)


def test_the_root_error_under_a_drivers_line_is_quoted_and_tells_attempts_apart() -> None:
    assert error_line(_unit_missing("uParse")) == "main.zz(9,3) Fatal: Can't find unit uParse used by Main"
    command = "zcc -Fusrc/{} main.zz"
    calls = [(command.format(unit), _unit_missing(unit), True) for unit in ("uParse", "uLex", "uEmit")]
    # each attempt adds a unit path and gets further: an experiment, not a loop
    assert repeat_failure(Projector().feed(bash_records(*calls)), {}, {}) is None


# -- a task's count of its tool's errors, under a heading ----------------------------------------------------

QLINT_ROW = "QAvoidPlainSecrets    Error    Set-Account.zs 14    Parameter '$Secret' should not be plain text"


def test_a_tasks_count_under_a_heading_gives_way_to_the_tools_own_finding() -> None:
    text = (
        f"Exit code 1\nRunning Analyze\n\nRule    Severity    File    Line    Message\n{QLINT_ROW}\n"
        "Error: 11/21/2025 10:22:31:\n"
        'At /srv/app/tasks.zs:38 char:9 + throw "QLint found $n error(s)" Exception: QLint found 1 error(s)'
    )
    assert error_line(text) == QLINT_ROW


# -- a runner's own statement under a pipe, and lines that are no error --------------------------------------

QDUB_RUN = (
    "Note: Failed to determine version of package csv at .. Assuming ~master.\n"
    "     Running csv-test-library\n"
    "core.exception.AssertError@source/csv/parse.d(58): unittest failure\n"
    "1/4 modules FAILED unittests\n"
    "Error Program exited with code 1"
)


def test_a_program_that_exited_with_a_status_other_than_zero_under_a_pipe_failed() -> None:
    outcome = read_outcome(QDUB_RUN, "qdub test --verbose 2>&1 | tail -n 25", is_error=False)
    assert outcome is not None and outcome["failed"]
    assert outcome["line"] == "core.exception.AssertError@source/csv/parse.d(58): unittest failure"
    passed = read_outcome("Running csv-test\nProgram exited with code 0", "qdub test | tail", is_error=False)
    assert passed is None or not passed["failed"]


def test_a_step_skipped_with_a_cross_is_no_error() -> None:
    text = (
        "Exit code 2\n  - [1/2] Installing org (9.7)... skipped ✗ (already installed)\n"
        "Test linkify-gh condition:\n    (zeask-test-failed (should (equal url expected)))"
    )
    assert error_line(text) == "(zeask-test-failed (should (equal url expected)))"
    # a failing test whose name says "skips" is a failure
    assert (
        error_line("Exit code 1\n  ✕ skips empty lines (3 ms)\n  ✓ reads a line")
        == "✕ skips empty lines (3 ms)"
    )


# -- the same work spelt through a directory option after a `cd`, a PowerShell host, a script file -----------


def test_a_tools_directory_option_after_a_cd_names_a_folder_inside_it() -> None:
    assert work_identity("cd /home/dev && qdub test --root=csv --compiler=zmd").directory == "/home/dev/csv"
    assert work_identity("cd app && knit -C web test").key == work_identity("knit -C app/web test").key
    assert work_identity("qdub test --root csv").key == work_identity("cd csv && qdub test").key


@pytest.mark.parametrize(
    "spelling",
    [
        "pwsh -NoProfile -c 'zpester ./tests/Rename.Tests.ps1 -CI'",
        "env ZP_TELEMETRY=0 pwsh -NoProfile -Command 'zpester -Path ./tests/Rename.Tests.ps1 -CI'",
        'powershell -NonInteractive -command "zpester ./tests/Rename.Tests.ps1 -Output Detailed"',
    ],
)
def test_a_powershell_host_handed_its_work_as_a_string_is_that_work(spelling: str) -> None:
    assert work_identity(spelling).key == work_identity("zpester ./tests/Rename.Tests.ps1").key


def test_a_script_file_handed_to_powershell_is_that_script() -> None:
    key = work_identity("./build.ps1 -Task Test").key
    assert work_identity("pwsh -NoProfile -File ./build.ps1 -Task Test").key == key
    assert work_identity("pwsh -NonInteractive -File build.ps1 -Task Test").key == key


def test_a_shells_script_is_projected_whole_and_a_long_literal_of_data_is_not() -> None:
    script = "cd /srv/app && ZP_SEED=42 pwsh -NoProfile -Command 'zpester -Path ./tests/Rename.Tests.ps1 -CI'"
    structure = shell_structure(40)
    kept = elide(f'bash -c "{script}"', 2000, 10, structure).text
    assert kept == f'bash -c "{script}"'
    data = elide(f'echo "{script}"', 2000, 10, structure).text
    assert "…[literal" in data


def test_two_programs_are_never_one_commands_sweep() -> None:
    assert not _swept(work_identity("./build.ps1 Test"), work_identity("Invoke-Knit Test"))
    assert _swept(work_identity("knit test --only a"), work_identity("knit test --only b"))


def test_a_loop_through_a_build_script_its_task_runner_and_the_script_again_is_caught() -> None:
    missing = (
        "Exit code 1\nBuild FAILED. 1 tasks, 1 errors, 0 warnings\n"
        "CommandNotFoundException: The term 'ConvertTo-Mrkdwn' is not recognized as a name of a cmdlet"
    )
    spellings = ["./build.ps1 -Task Test", "Invoke-Knit Test", "pwsh -NoProfile -File ./build.ps1 -Task Test"]
    match = repeat_failure(Projector().feed(bash_records(*[(s, missing, True) for s in spellings])), {}, {})
    assert match is not None and match.data["failures"] == 3


# -- a recipe read with its variables ------------------------------------------------------------------------


def _tree(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(exist_ok=True)
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def test_a_makefiles_and_a_justfiles_recipes_are_read_with_their_variables(tmp_path: Path) -> None:
    make = _tree(
        tmp_path / "make",
        {
            "Makefile": "ZEASK ?= zeask\nFLAGS := --strict\n\ntest:\n\t$(ZEASK) test ert test/*.el\n"
            "compile:\n\t${ZEASK} compile $(FLAGS)\nlint:\n\t$(UNKNOWN) lint\n"
        },
    )
    assert read_project(make).scripts == {
        "test": "zeask test ert test/*.el",
        "compile": "zeask compile --strict",
        "lint": "$(UNKNOWN) lint",
    }
    just = _tree(tmp_path / "just", {"justfile": 'lls := "qls"\n\ncheck:\n    {{ lls }} --check lua\n'})
    assert read_project(just).scripts == {"check": "qls --check lua"}


def test_an_aggregate_target_its_member_and_the_tool_by_hand_fail_as_one_loop(tmp_path: Path) -> None:
    project = read_project(
        _tree(
            tmp_path,
            {
                "Makefile": "ZEASK ?= zeask\n\nci: clean test\n\nclean:\n\t$(ZEASK) clean\n\n"
                "test:\n\t$(ZEASK) test ert test/*.el\n"
            },
        )
    )
    failure = (
        'Test linkify-gh condition:\n    (zeask-test-failed (should (equal url "https://x.org/%s/1")))\n'
        "   FAILED  3/3  linkify-gh\n"
    )
    records = bash_records(
        (
            "make ci",
            "Exit code 2\nzeask clean\n  - [1/1] Cleaning... skipped ✗ (nothing to do)\n"
            f"zeask test ert test/*.el\n{failure}make: *** [Makefile:9: test] Error 1",
            True,
        ),
        (
            "make test",
            f"Exit code 2\nzeask test ert test/*.el\n{failure}make: *** [Makefile:9: test] Error 1",
            True,
        ),
        ("zeask test ert test/*.el", f"Exit code 1\n{failure}", True),
    )
    match = repeat_failure(Projector().feed(records), {}, {}, project)
    assert match is not None and match.data["failures"] == 3


def test_a_recipe_is_not_grown_without_bound_by_a_hostile_makefile(tmp_path: Path) -> None:
    uses = "$(X)" * 2000
    project = read_project(
        _tree(tmp_path / "hostile", {"Makefile": f"X := {'y' * 5000}\n\nall:\n\t{uses}\n"})
    )
    assert project.scripts == {"all": uses}
