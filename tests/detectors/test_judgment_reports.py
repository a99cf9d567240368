"""The thirty-second round: what a test report says read through its markup, a run that aborts for a failure,
a progress row, a log named by a variable, a build lifecycle that runs the tests, a run told to skip them.

repeat-failure: a report's lines are read without the markup around them (a line of tags alone says nothing;
`<failure message="…">src/a.c:64: FAIL: …</failure>` says what is inside), an assertion printed on two lines
(NUnit's `Expected: 3` over `But was: 2`) is one line with both values, a run saying it aborts for a failure
failed whatever its status, a runner's progress row (`E   1 / 1 (100%)`) is no assertion, and a variable
naming the file a run logs to (`LOG=build-ci.log ./ci/build.sh`) makes that file the run's log, read back as
its result. standard-questions: a build tool's lifecycle phase past the tests (`package`, `install`, `build`)
runs them unless told to skip them; a run told to skip the tests shows there are tests to skip; a
pytest-embedded script (`pytest_nmea.py`) is a test file. The tools are named in no table (`zeditor`, `zci`),
save the build tools whose lifecycle the rule reads.
"""

from __future__ import annotations

from test_judgment_scanners import _asking
from test_judgment_status_rows import loop_failures
from test_triggers import Session, ask, open_ids

from sbcore.observe.outcome import error_line, read_outcome
from tests.observe.test_log_reads import bash_records, projected_errors

_NUNIT = (
    '    <test-suite type="TestFixture" name="InventoryTests" result="Failed" total="9" failed="1">\n'
    '      <test-case name="AddItem_Stacks" result="Failed">\n'
    "        <failure>\n"
    "          <message><![CDATA[  Expected: 3\n  But was:  2\n]]></message>\n"
    "          <stack-trace><![CDATA[at Tests.InventoryTests.AddItem () in /w/Tests/InventoryTests.zz:48\n"
    "]]></stack-trace>\n        </failure>"
)


def test_a_reports_markup_is_read_through_and_a_two_line_assertion_is_one() -> None:
    assert error_line(_NUNIT) == "Expected: 3 But was:  2"
    bare = "exit=2\n        <failure>\n          <message><![CDATA[  Expected: 3\n  But was:  2\n]]>"
    assert error_line(bare) == "Expected: 3 But was:  2"
    record = '<failure message="Unity failed">/w/test_pid.c:64:clamps:FAIL: Expected 100 Was 137</failure>'
    assert error_line(record) == "/w/test_pid.c:64:clamps:FAIL: Expected 100 Was 137"
    assert error_line("<stdin>:3:1: error: expected expression") == "<stdin>:3:1: error: expected expression"


def test_the_same_assertion_read_from_a_report_and_from_a_run_is_one_failure() -> None:
    grep = "grep -B2 -A8 'result=\"Failed\"' results.xml"
    assert (
        loop_failures(
            ("zeditor -batchmode -runTests -testResults results.xml > /dev/null; " + grep, _NUNIT, False),
            ("zeditor -batchmode -nographics -runTests -testResults results.xml", "Exit code 2\n" + _NUNIT),
            ("timeout 1200 zeditor -batchmode -runTests -testResults results.xml", "Exit code 2\n" + _NUNIT),
        )
        == 3
    )


def test_a_run_saying_it_aborts_for_a_failure_failed() -> None:
    text = "No valid license found.\nAborting batchmode due to failure:\nNo valid license."
    outcome = read_outcome(text, "zeditor -batchmode; grep -iE 'licen|abort' /tmp/z.log", is_error=False)
    assert outcome is not None and outcome["failed"]
    assert read_outcome("Aborting is not needed here; all good", None, is_error=False) is None


def test_a_progress_row_is_no_assertion() -> None:
    text = "Testing Tests\\SearchTest\nE      1 / 1 (100%)\nThere was 1 error:\nException: no SIMPLETEST_DB"
    assert error_line(text) == "Exception: no SIMPLETEST_DB"
    assert error_line("E       assert 1 == 2") == "E       assert 1 == 2"


def test_a_variable_naming_the_runs_log_makes_that_file_its_log() -> None:
    records = bash_records(
        ("LOG=build-ci.log ./zci/build-linux.sh", "Exit code 1", True),
        (
            "grep -E 'error CS|Finished' build-ci.log",
            "Assets/Race/Gizmo.zz(3,7): error CS0246: no 'Zed'",
            False,
        ),
    )
    errors = projected_errors(records)
    assert [obs.tool_use_id for obs in errors] == ["toolu_01", "toolu_01"]
    assert errors[-1].outcome is not None and errors[-1].outcome["line"].startswith(
        "Assets/Race/Gizmo.zz(3,7)"
    )


def _tests_asked(*commands: str, seen: str = "ls src/test/java") -> list[str]:
    s = Session()
    if seen:
        s.run(seen)
    s.edit("/repo/src/main/java/org/acme/PaymentResource.zz")
    for command in commands:
        s.run(command)
    return open_ids(ask(s, _asking("tests_run")))


def test_a_lifecycle_phase_past_the_tests_runs_them_unless_told_to_skip() -> None:
    assert "tests_run" not in _tests_asked("./mvnw -pl billing-common,billing-api install")
    assert "tests_run" not in _tests_asked("./gradlew build")
    assert "tests_run" in _tests_asked("./mvnw package -DskipTests")
    assert "tests_run" in _tests_asked("./gradlew build -x test")


def test_a_run_told_to_skip_the_tests_shows_there_are_tests() -> None:
    assert "tests_run" in _tests_asked("./mvnw package -DskipTests", seen="")
    assert "tests_run" not in _tests_asked("./mvnw package", seen="")  # nothing shows tests: not asked


def test_a_pytest_embedded_script_is_a_test_file() -> None:
    assert "tests_run" in _tests_asked(
        "pip install pytest-embedded-idf", seen="cat comp/nmea/zapp/pytest_nmea.py"
    )


def test_a_secret_an_elements_name_marks_is_redacted_before_its_tags_go() -> None:
    token = "a8Kd93LmQz7Xv2Rp4Tn6Ws1Yb5"
    line = error_line(f"<error><smtp-access-token>{token}</smtp-access-token></error>")
    assert token not in line and "[REDACTED" in line
