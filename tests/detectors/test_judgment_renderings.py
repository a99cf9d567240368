"""The twenty-third round: one test named by three runners, a formatter's finding, builds in other spellings.

repeat-failure: a task runner's "Target 'Test' failed." is a summary; a count of none (`0 Error(s)`) is no
error; a line that names a failing test and says no more is the same failure
whichever runner decorates the name (`Failed <name> [3 ms]`, `[09:13:02 ERR] <name> failed in 00:00:00.003`);
a formatter's check finding files it would change (`aren't formatted properly`, `would reformat`) is the
error. standard-questions: the source of a language that runs only once compiled shows the project has a
build; a build program spelt with a capital (`Build.sh`, `MSBuild.exe`), a compiler's syntax-only check, a
Maven wrapper and a task in a scope (`<tool> Test/compile`) answer it; a tool's dotfile of settings
(`.editorconfig`) is not code; a dependency added through a sub-tool (`<tool> <sub-tool> add`) runs nothing.
The tools are named in no table (`zfake`, `zexpecto`, `zfmt`, `zcc`, `zsbt`, `qdot`, `qpak`).
"""

from __future__ import annotations

import pytest
from sbcore.detectors.checklist import invocations
from sbcore.detectors.failures import failing_test, same_failure
from test_judgment_scanners import _asking
from test_judgment_status_rows import loop_failures
from test_triggers import Session, ask, open_ids

from sbcore.observe.outcome import error_line

_NAME = "parser.numbers.parses negative literal"
_REASON = "expected: Ok (Number -3.5)\n  actual: Error \"unexpected '-' at 1:1\""


# -- repeat-failure --------------------------------------------------------------------------------------


def test_a_task_runners_target_failing_is_a_summary_and_none_counted_is_no_error() -> None:
    text = (
        "Starting target 'Build'\nBuild succeeded.\n    0 Warning(s)\n    0 Error(s)\n"
        f"Starting target 'Test'\n[09:13:02 INF] ZEXPECTO? Running tests...\n"
        f"[09:13:02 ERR] {_NAME} failed in 00:00:00.0031220.\n{_REASON}\n"
        "Finished (Failed) 'Test' in 00:00:02.44\nStatus:    Failure\n"
        "-> BuildFailedException: Target 'Test' failed."
    )
    assert error_line(text) == f"[09:13:02 ERR] {_NAME} failed in 00:00:00.0031220."


def test_one_failing_test_named_by_two_runners_is_one_failure() -> None:
    plain = f"failed {_NAME} [# ms]"
    logged = f"[#:#:# err] {_NAME} failed in #:#:#.…."
    assert failing_test(plain) == failing_test(logged) == _NAME
    assert same_failure(plain, logged)
    assert not same_failure(plain, f"[#:#:# err] {_NAME} twice failed in #:#:#.….")
    assert (
        failing_test("failed: cmakefiles/x")
        == failing_test("-> buildfailedexception: target 'test' failed.")
        == ""
    )


def test_a_test_through_the_task_runner_the_test_runner_and_the_test_binary_is_one_loop() -> None:
    task = (
        "Starting target 'Test'\n"
        f"[09:13:02 ERR] {_NAME} failed in 00:00:00.0031220.\n{_REASON}\n"
        "Finished (Failed) 'Test' in 00:00:02.44\n-> BuildFailedException: Target 'Test' failed."
    )
    runner = f"  Failed {_NAME} [3 ms]\n  Error Message:\n{_REASON}\nFailed!  - Failed: 1, Passed: 57"
    binary = f"[09:15:40 ERR] {_NAME} failed in 00:00:00.0029871.\n{_REASON}"
    assert (
        loop_failures(
            ("zfake build -t Test", task),
            ("qdot test tests/Parser.Tests", runner),
            ('qdot run --project tests/Parser.Tests -- --filter "parser.numbers"', binary),
        )
        == 3
    )


@pytest.mark.parametrize(
    "found",
    [
        "The following files aren't formatted properly:\n- /w/src/Routes.zz",
        "would reformat /w/src/routes.zz\nOh no! 1 file would be reformatted.",
    ],
)
def test_a_formatters_finding_is_the_error_under_its_task_runners_summaries(found: str) -> None:
    task = f"Starting target 'CheckFormat'\n{found}\nFinished (Failed) 'CheckFormat' in 00:00:02.90\n"
    task += "Status: Failure"
    assert error_line(task).startswith(found.split("\n")[0])
    assert (
        loop_failures(
            ("zfake build -t CheckFormat", task), ("zfmt --check src", found), ("zfmt --check src", found)
        )
        == 3
    )


# -- standard-questions ----------------------------------------------------------------------------------


def test_a_compiled_languages_source_shows_the_project_has_a_build() -> None:
    s = Session()
    s.edit("/repo/Source/Game/Private/Inventory.cpp")
    assert "compiles" in open_ids(ask(s, _asking("compiles")))
    script = Session()
    script.edit("/repo/tools/report.zz")
    assert ask(script, _asking("compiles")) is None  # a language nobody compiles: no build to ask of


@pytest.mark.parametrize(
    "command",
    [
        "/opt/Engine/Build/BatchFiles/Linux/Build.sh GameEditor Linux Development -Project=/r/Game.uproject",
        "MSBuild.exe Game.sln /p:Configuration=Release",
        "zcc -fsyntax-only -I copy src/TAXCALC.cbl",
        "./mvnw -q -DskipTests package",
        "zsbt Test/compile",
    ],
)
def test_a_build_in_another_spelling_answers_the_build_question(command: str) -> None:
    s = Session()
    s.edit("/repo/src/Inventory.cpp")
    s.run(command)
    assert ask(s, _asking("compiles")) is None


def test_a_tools_settings_dotfile_is_not_code() -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/.editorconfig")
    assert ask(s, _asking("tests_run")) is None


def test_a_dependency_added_through_a_sub_tool_runs_nothing() -> None:
    assert invocations("qdot qpak add FsCheck --project tests/Geo.Tests/Geo.Tests.fsproj") == []
    assert invocations("qdot tool install zfmt") == []
    assert invocations("qdot test tests/Geo.Tests") == ["qdot test tests/Geo.Tests"]
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/Distance.zz")
    s.run("qdot qpak add FsCheck --project tests/Geo.Tests/Geo.Tests.fsproj")
    assert "tests_run" in open_ids(ask(s, _asking("tests_run")))
