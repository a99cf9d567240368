"""The twenty-seventh round: one file named from two places, a failure moving down a file, stopped runners.

repeat-failure: a path written with and without its leading `./`, or from another folder (its digits folded),
is one file in two renderings of one error; a diagnostic at one line of one file is the same failure however
each run names the file's folder (a packaging tool builds a copy of the source elsewhere); a run told to work
elsewhere on the folder it started in (`M=$PWD`) works here; a path climbing out of a `cd`'s folder names its
file from above; a failure reported on a shell's verbose stream is the failure; a failure that moves to
another line of a file nothing edited is the work moving on; a log a failure says to consult is its log; a
coded error is one whatever the case of its word. standard-questions: the user may name what not to run by
its runner or its target; a build tool's `check` target and a unit-test framework's runner run tests; a
test file's name may join its words with a dash or name its framework; any MSBuild project is a build file;
a pointer's `*val = …` is code. The tools are named in no table (`zflash`, `zpkg`, `zmk`, `zopt`, `zrun`,
`zunit`).
"""

from __future__ import annotations

from typing import Any

import pytest
from sbcore.detectors.failures import same_failure
from sbcore.detectors.signatures import signature
from sbcore.detectors.triggers import repeat_failure
from test_judgment_scanners import _asking
from test_judgment_status_rows import loop_failures
from test_triggers import Session, ask, open_ids

from sbcore.observe.edit_reading import code_lines
from sbcore.observe.model import Observation
from sbcore.observe.outcome import error_line, read_outcome
from sbcore.observe.project_facts import is_build_path, is_test_path
from tests.observe.test_log_reads import bash_records, projected_errors

# -- repeat-failure: one file, named from two places ---------------------------------------------------------


def test_a_file_with_and_without_its_leading_dot_slash_or_from_another_folder_is_one_file() -> None:
    def refused(path: str) -> str:
        return f"zflash: ERROR: could not load image {path}: Unknown symbol in image"

    assert (
        loop_failures(
            ("sudo zflash load fw7.bin", refused("fw7.bin")),
            ("sudo zflash load ./fw7.bin debug=1", refused("./fw7.bin")),
            ("sudo zflash load /w/fw7.bin freq=868 debug=1", refused("/w/out-7/fw7.bin")),
        )
        == 3
    )


_COPY = "/var/lib/zpkg/gauge/1.4.2/build/gauge.c:612:22: error: too many arguments to function 'make_class'"
_SOURCE = "/home/dev/gauge/gauge.c:612:22: error: too many arguments to function 'make_class'"


def test_a_diagnostic_in_a_packaging_tools_copy_and_in_the_source_is_one_failure() -> None:
    """The packaging tool's failure says only where its log is; the log, read back, holds the diagnostic."""
    banner = "Error! Bad return status\nConsult /var/lib/zpkg/gauge/1.4.2/build/make.log for more."
    assert (
        loop_failures(
            ("sudo zpkg build -m gauge -v 1.4.2", banner),
            ("grep -n -A8 error: /var/lib/zpkg/gauge/1.4.2/build/make.log", _COPY, False),
            ("sudo zpkg remove gauge/1.4.2 && sudo zpkg install gauge/1.4.2", banner),
            ("tail -n 20 /var/lib/zpkg/gauge/1.4.2/build/make.log", _COPY, False),
            ("zmk -C /usr/src/headers M=$(pwd) modules", _SOURCE),
        )
        == 3
    )


def test_another_file_name_or_another_message_is_another_diagnostic() -> None:
    assert same_failure(signature(_COPY), signature(_SOURCE))
    assert not same_failure(signature(_COPY), signature(_SOURCE.replace("/gauge.c", "/dial.c")))
    assert not same_failure(signature(_COPY), signature(_SOURCE.replace("too many", "too few")))


def test_a_run_told_to_work_elsewhere_on_the_folder_it_started_in_works_here() -> None:
    undefined = 'ERROR: modpost: "__devm_regmap_init_i2c" [/w/adc7924.ko] undefined!'
    assert (
        loop_failures(
            ("zmk", undefined),
            ("nice -n 10 zmk -j8 -C ~/src/linux M=$PWD modules", undefined),
            ("zmk W=1", undefined),
        )
        == 3
    )


def test_a_path_climbing_out_of_a_cds_folder_names_its_file_from_above() -> None:
    unknown = "zopt: unknown pass name 'loop-fuse-lite'"
    assert (
        loop_failures(
            ("zopt -load-pass-plugin=out/lib/Fuse.so -passes=loop-fuse-lite cases/adj.ll", unknown),
            ("zopt --load-pass-plugin ./out/lib/Fuse.so --passes=loop-fuse-lite cases/adj.ll", unknown),
            ("cd out && zopt -load-pass-plugin lib/Fuse.so -passes=loop-fuse-lite ../cases/adj.ll", unknown),
        )
        == 3
    )


# -- repeat-failure: what the failure is ---------------------------------------------------------------------

_VERBOSE = (
    "VERBOSE: [InvoiceTests].[test late fee inserts one row] failed: (Error) Message: Invalid object name "
    "'dbo.LateFee'. | Procedure: dbo.usp_ApplyLateFee (14)"
)
_BUILT = (
    "/w/db/usp_ApplyLateFee.sql(14,17,14,17): Build warning SQL71502: has an unresolved reference\n"
    "Build succeeded.\n    1 Warning(s)\n    0 Error(s)\nPublishing to database 'BillingTest'.\n"
)


def test_a_failure_reported_on_a_shells_verbose_stream_is_the_failure() -> None:
    assert error_line(f"{_BUILT}{_VERBOSE}\nVERBOSE: +------+") == _VERBOSE
    assert error_line("VERBOSE: Looking up 3 packages with mismatched versions\nfatal: it broke") == (
        "fatal: it broke"
    )  # an informational record with an error word in it stays one
    assert signature(_VERBOSE) == signature(_VERBOSE.removeprefix("VERBOSE: "))
    bare = _VERBOSE.removeprefix("VERBOSE: ")
    assert (
        loop_failures(
            ("zrun -File ./build.zr -Task Test", f"{_BUILT}{_VERBOSE}"),
            ("zsql -d BillingTest -Q 'EXEC tSQLt.RunAll'", bare),
            ("zrun -File ./build.zr -Task Test -Server 127.0.0.1", f"{_BUILT}{_VERBOSE}"),
        )
        == 3
    )


def test_a_coded_error_counts_whatever_the_case_of_its_word() -> None:
    text = "*** Could not deploy package.\nError SQL72014: Msg 547, The ALTER TABLE statement conflicted"
    outcome = read_outcome(text, "tail -n 4 /tmp/deploy.log | cat", is_error=False)
    assert outcome is None  # a viewer's output is a quote, never a verdict of its own
    outcome = read_outcome(text, "zdeploy TestDb | tee /tmp/deploy2.log", is_error=False)
    assert outcome is not None and outcome["failed"]
    assert read_outcome("Error handling: see docs", "zdeploy --help", is_error=False) is None


def _located_failures(session: Session, lines: list[int], edited: list[str | None]) -> Any:
    for number, (line, path) in enumerate(zip(lines, edited, strict=True)):
        session.fail(
            "zlit -v out/cases/reduction.ll",
            f"Exit code 1\n/w/cases/reduction.ll:{line}:10: error: CHECK: expected string not found in input",
        )
        if path is not None and number < len(lines) - 1:
            session.edit(path)
    return repeat_failure(session.observations, {}, {})


def test_a_failure_moving_down_a_file_nothing_edited_is_progress() -> None:
    edited = ["/w/lib/Fuse.cpp", "/w/lib/Fuse.cpp", None]
    assert _located_failures(Session(), [4, 5, 7], edited) is None
    assert _located_failures(Session(), [4, 4, 4], edited) is not None  # the same check each time: a loop
    # the failing file itself edited: its lines may have moved under the same failure
    assert _located_failures(Session(), [4, 5, 7], ["/w/cases/reduction.ll"] * 3) is not None


def test_a_log_a_failure_says_to_consult_is_its_log() -> None:
    records = bash_records(
        ("zpkg build -m gauge", "Exit code 10\nConsult /var/lib/zpkg/gauge/build/make.log for more.", True),
        ("tail -n 20 /var/lib/zpkg/gauge/build/make.log", _COPY, False),
    )
    errors = projected_errors(records)
    assert [obs.tool_use_id for obs in errors] == ["toolu_01", "toolu_01"]
    assert errors[-1].outcome is not None and errors[-1].outcome["line"] == _COPY


# -- standard-questions -------------------------------------------------------------------------------------


def _prompt(session: Session, text: str) -> None:
    session.observations.insert(
        0, Observation(kind="prompt", text=f"[prompt] {text}", timestamp="2026-01-01T09:59:00Z")
    )


@pytest.mark.parametrize(
    ("said", "moot"),
    [
        ("Fix the count. Don't bother with zunit, the emulator is broken on this branch.", True),
        ("Add the option. Don't run check-fuse, the box is shared; CI will run it.", True),
        ("Please skip the phpunit run this time.", True),
        ("We don't have component tests yet, please add one for this.", False),
        ("Don't bother with the docs for now.", False),
    ],
)
def test_the_user_may_name_what_not_to_run_by_its_runner_or_target(said: str, moot: bool) -> None:
    s = Session()
    s.run("zmk test")  # the project's tests, run once before the edit
    s.edit("/repo/src/fuse.zz")
    _prompt(s, said)
    assert ("tests_run" not in open_ids(ask(s, _asking("tests_run")))) is moot


@pytest.mark.parametrize(
    "command",
    [
        "ninja -C out check-fuse",
        "make -C tests check TESTS=t_parse",
        "cmake --build out --target check-fuse",
        "./tools/testing/zunit/zunit.py run --kunitconfig=drivers/x",
        "zunit2 spec/",
    ],
)
def test_a_build_tools_check_target_and_a_unit_frameworks_runner_run_tests(command: str) -> None:
    s = Session()
    s.run("ls")
    s.edit("/repo/src/fuse.zz")
    s.run(command)
    assert "tests_run" not in open_ids(ask(s, _asking("tests_run")))
    unrun = Session()
    unrun.run(command)
    unrun.edit("/repo/src/fuse.zz")
    assert "tests_run" in open_ids(ask(unrun, _asking("tests_run")))  # its run shows the project has tests


@pytest.mark.parametrize(
    "name", ["list-test.c", "ring-tests.zz", "card-spec.ts", "a_unittest.cc", "ring_kunit.c"]
)
def test_a_test_files_name_may_join_its_words_with_a_dash_or_name_its_framework(name: str) -> None:
    assert is_test_path(f"src/{name}")
    s = Session()
    s.run(f"cat src/{name}")
    s.edit("/repo/src/ring.zz")
    assert "tests_run" in open_ids(ask(s, _asking("tests_run")))


@pytest.mark.parametrize("name", ["Db.sqlproj", "Setup.wixproj", "Engine.vcxproj", "App.csproj"])
def test_any_msbuild_project_is_a_build_file(name: str) -> None:
    assert is_build_path(f"src/Db/{name}")
    assert not is_build_path("src/Db/projection.zz") and not is_build_path("src/proj")


def test_a_pointers_assignment_is_code_and_a_block_comments_lines_are_not() -> None:
    assert code_lines("\t*val = st->vref_uV / 1000;\n\t*(p + 1) = 0;") == [
        "*val = st->vref_uV / 1000;",
        "*(p + 1) = 0;",
    ]
    assert code_lines("/*\n * restores LCSSA\n */\n      *----------*\n      *> COBOL note") == []
