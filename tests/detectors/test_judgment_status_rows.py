"""The twenty-second round: status rows, a limit's value, build steps' summaries, one test run three ways.

repeat-failure: an item's status row (`Test #2: tst_queue ....***Failed  0.04 sec`) is a summary over the
root error under it; a time limit's value (`Test timeout computed to be: 1500`) is no error; a test's number
before each line of its output (`2: `) is a tag; a build step's outputs after `FAILED:`, a build that stopped
for the errors above it, and an error tag over "<operation> failed" are summaries, and a warning at a file's
place under them is what failed; a name rooted at a slash names what failed, and a runner's rendering of the
last error (`E       AssertionError: …`) is that error; a run showing only its count or its status row
beside a run showing its details with that same row failed alike. standard-questions: a program named for
testing (`<lang>_tester`, `<lang>testrunner`) runs tests. The tools are named in no table (`zbench`, `zlint`,
`zlaunch`, `zcol`, `zship`).
"""

from __future__ import annotations

import pytest
from sbcore.detectors.progress import Attempt, Call
from sbcore.detectors.signatures import signature
from sbcore.detectors.triggers import repeat_failure
from test_judgment_scanners import _asking
from test_triggers import Session, ask, open_ids

from sbcore.observe.model import Observation
from sbcore.observe.outcome import error_line
from sbcore.observe.project import Projector
from tests.observe.test_log_reads import bash_records

_ROW = "1/1 Test #2: tst_queue ........................***Failed    0.04 sec"
_ASSERTION = "FAIL!  : tst_Queue::pop() Compared values are not the same"


def loop_failures(*calls: tuple[str, str] | tuple[str, str, bool]) -> int:
    """How many failures the loop that Bash calls ``(command, output[, failed])`` make holds (0: no loop),
    projected as Claude Code writes them in the project's folder: a failed call (the default) has its output
    opened by the harness's exit status."""
    records = bash_records(
        *(
            (call[0], f"Exit code 1\n{call[1]}" if failed else call[1], failed)
            for call in calls
            for failed in (call[2] if len(call) == 3 else True,)
        )
    )
    for record in records:
        record["cwd"] = "/w"
    match = repeat_failure(Projector().feed(records), {}, {})
    return 0 if match is None else int(match.data["failures"])


# -- the error line --------------------------------------------------------------------------------------


def test_an_items_status_row_with_its_time_is_a_summary_over_the_root_error() -> None:
    text = f"Test project /w/build\n    Start 2: tst_queue\n{_ROW}\n{_ASSERTION}\n   Actual (q.size()): 4"
    assert error_line(text) == _ASSERTION
    assert error_line(f"Test project /w/build\n{_ROW}\n") == _ROW  # the row alone: what the run says


def test_a_time_limits_value_is_no_error_and_a_tests_number_is_a_tag() -> None:
    text = f"2: Test command: /w/build/tst_queue\n2: Test timeout computed to be: 1500\n2: {_ASSERTION}"
    assert error_line(text) == f"2: {_ASSERTION}"
    assert error_line("Timeout of 2000ms exceeded. Ensure the done() callback is called") != ""
    assert signature(f"2: {_ASSERTION}") == signature(_ASSERTION)


@pytest.mark.parametrize(
    "stopped",
    ["zninja: build stopped: subcommand failed.", "zmake: cannot make progress due to previous errors."],
)
def test_a_warning_at_a_place_is_what_failed_under_a_build_steps_summary(stopped: str) -> None:
    warning = "Warning: /w/qml/Gauge.qml:42:21: Unqualified access [unqualified]"
    text = (
        "[1/2] Running zlint for target gauge\n"
        "FAILED: CMakeFiles/gauge_zlint /w/build/CMakeFiles/gauge_zlint\n"
        f"cd /w && /opt/zlint @/w/build/gauge.rsp\n{warning}\n        text: speed\n"
        f"{stopped}"
    )
    assert error_line(text) == warning
    assert error_line("\r\n".join(text.splitlines())) == warning  # read line by line too


def test_an_error_tag_over_the_operation_failing_is_a_summary() -> None:
    row = " ZClass    Billing   Method does not exist or incorrect signature: void calc(Decimal)  23:18"
    text = f"Status: Failed\n\nComponent Failures [1]\n{row}\n\nError (ShipFailed): Ship failed."
    assert error_line(text) == row.strip()


# -- repeat-failure --------------------------------------------------------------------------------------


def test_one_test_through_its_runner_verbosely_and_directly_is_one_loop() -> None:
    details = f"{_ASSERTION}\n   Actual   (q.size()): 4\nTotals: 4 passed, 1 failed"
    verbose = "\n".join(f"2: {line}" for line in ("Test timeout computed to be: 1500", *details.split("\n")))
    assert (
        loop_failures(
            ("zbench --test-dir build -R tst_queue", f"Test project /w/build\n{_ROW}\n{details}"),
            ("cd build && zbench -R queue -V", f"Test project /w/build\n{verbose}\n{_ROW}"),
            ("./build/tests/tst_queue pop", details),
        )
        == 3
    )


def test_a_linters_aggregate_target_its_member_and_the_linter_on_the_file_are_one_loop() -> None:
    def lint(target: str) -> str:
        return (
            "[1/2] Running zlint for target gauge\n"
            f"FAILED: CMakeFiles/{target} /w/build/CMakeFiles/{target}\n"
            "cd /w && /opt/zlint @/w/build/gauge.rsp\n"  # the step's command, echoed
            "Warning: /w/qml/Gauge.qml:42:21: Unqualified access [unqualified]\n"
            "zninja: build stopped: subcommand failed."
        )

    assert (
        loop_failures(
            ("zmake --build build --target all_zlint", lint("gauge_zlint")),
            ("zmake --build build --target gauge_zlint", lint("gauge_zlint")),
            (
                "/opt/zlint -I build qml/Gauge.qml",
                "Warning: /w/qml/Gauge.qml:42:21: Unqualified access [unqualified]\n    text: speed",
            ),
            ("zmake --build build --target all_zlint -- -k 0", lint("gauge_zlint")),
        )
        >= 3
    )


def test_one_assertion_naming_a_rooted_name_from_three_programs_is_one_loop() -> None:
    message = "AssertionError: False is not true : no message on /beat within 5.0 s"
    assert (
        loop_failures(
            (
                "zlaunch src/beat/test/test_beat.py",
                f"test_published ... FAIL\n{message}\n\nFAILED (failures=1)",
            ),
            ("python3 -m pytest src/beat/test/test_beat.py -q", f"F\n>       assert got\nE       {message}"),
            ("zcol test --packages-select beat --repeat 2", f"Finished <<< beat\n    {message}"),
        )
        == 3
    )


def test_a_run_showing_only_its_row_and_count_beside_runs_showing_the_details_is_one_loop() -> None:
    row = "1/3 Test #7: golden_pbr ...............***Failed    2.41 sec"
    quiet = f"Test project /w/build\n{row}\n\n67% tests passed, 1 tests failed out of 3"
    loud = f"Test project /w/build\n{row}\n[golden] FAIL pbr: 3.84% of pixels exceed delta 4/255"
    assert (
        loop_failures(
            ("zbench --test-dir build -R golden", quiet),
            ("zbench --test-dir build --rerun-failed --output-on-failure", loud),
            ("zbench --test-dir build -R golden_pbr -j1 --output-on-failure", loud),
        )
        == 3
    )


def test_the_rows_an_attempt_reported_its_failure_with() -> None:
    error = Observation(
        kind="error",
        text=f"[error] Bash: Exit code 8\n{_ROW}\nFAIL!  : x\n\n0% tests passed, 1 tests failed out of 1",
    )
    attempt = Attempt(Call(0, Observation(kind="tool", text="zbench"), "zbench", error), _ASSERTION)
    assert attempt.summaries == {signature(_ROW), "#% tests passed, # tests failed out of #"}


def test_two_tests_reported_alike_with_different_details_are_not_one_failure() -> None:
    row = "1/1 Test #7: golden_{} ...............***Failed    2.41 sec"
    assert not loop_failures(
        ("zbench --test-dir build -R golden_pbr", f"{row.format('pbr')}\n[golden] FAIL pbr: 3% exceed"),
        ("zbench --test-dir build -R golden_ssao", f"{row.format('ssao')}\n[golden] FAIL ssao: 9% exceed"),
        ("zbench --test-dir build -R golden_sky", f"{row.format('sky')}\n[golden] FAIL sky: 1% exceed"),
    )


# -- standard-questions ----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["zlang_tester -p swi", "zqtestrunner -input qml", "zz-test-runner"])
def test_a_program_named_for_testing_runs_tests(command: str) -> None:
    s = Session()
    s.run("ls src")
    s.edit("/repo/src/app.zz")
    s.run(command)
    assert ask(s, _asking("tests_run")) is None
    unrun = Session()
    unrun.run(command)
    unrun.edit("/repo/src/app.zz")
    assert "tests_run" in open_ids(ask(unrun, _asking("tests_run")))  # its run shows the project has tests
