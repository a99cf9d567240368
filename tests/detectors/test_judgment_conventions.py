"""The thirty-fourth round: what a runner writes by convention, what a console prints as its error block, what
a protocol names as the failing test, and the spellings a shell and a registry give one thing.

repeat-failure: a test report no command named (JUnit's XML where a runner's configuration puts it), read
after a run whose own result said only that it failed, is that run's report; a report's escaped text reads
as the run printed it; a console's error block (`In Log.php line 92:`, the message under it) is the failure;
a TAP `not ok` line names the failing test over the count at the end; a parallel runner's `[script] ` tag is
no part of the failure; an interpreter's settings before its script (`php -d memory_limit=-1 bin/zconsole`),
the working directory spelt `$(pwd)` or `$PWD`, and an image's default `:latest` tag leave the work as it
is.

standard-questions: a class's accessor an edit adds is new code; a compiled language's build tool running the
program builds it; a task quoted with its arguments (`sbt "testOnly acme.FifoSpec"`) runs. The tools are
named in no table (`zorp`, `zconsole`, `ztap`, `zdocker`), save the interpreters, the build tools that run
a program, and sbt: their tables are the hints these rules read.
"""

from __future__ import annotations

from sbcore.detectors.identity import work_identity
from sbcore.detectors.signatures import signature
from test_judgment_scanners import _asking
from test_judgment_status_rows import loop_failures
from test_standard_questions_precision import edit
from test_triggers import Session, ask, open_ids

from sbcore.observe.edit_reading import defined_names
from sbcore.observe.outcome import error_line, says_nothing
from tests.observe.test_log_reads import bash_records, projected_errors

_REPORT = (
    '<testsuite name="pricing" failures="1">\n'
    '  <testcase name="applies the bulk discount">\n'
    '    <failure message="expected 90 but was 100">AssertionError: expected 90 but was 100</failure>\n'
    "  </testcase>\n</testsuite>\n"
)


def test_a_test_report_no_command_named_is_the_report_of_the_run_that_only_said_it_failed() -> None:
    errors = projected_errors(
        bash_records(
            ('zorp verify --reporter=junit > /dev/null 2>&1; echo "zorp exit: $?"', "zorp exit: 1\n", False),
            ("grep -B1 -A3 '<failure' reports/zorp-junit.xml", _REPORT, False),
        )
    )
    assert [error.tool_use_id for error in errors] == ["toolu_01", "toolu_01"]
    assert "expected 90 but was 100" in errors[-1].text
    # a run that named its failing test says more than a status: the report is not tied to it
    errors = projected_errors(
        bash_records(
            ("zorp verify", "Exit code 1\nPricingTest > applies the bulk discount FAILED\n", True),
            ("cat reports/zorp-junit.xml", _REPORT, False),
        )
    )
    assert [error.tool_use_id for error in errors] == ["toolu_01"]
    # nor to a quiet failure before a run that said what failed
    errors = projected_errors(
        bash_records(
            ('zorp verify > /dev/null 2>&1; echo "exit=$?"', "exit=1\n", False),
            ("zorp verify", "Exit code 1\nPricingTest > applies the bulk discount FAILED\n", True),
            ("cat reports/zorp-junit.xml", _REPORT, False),
        )
    )
    assert [error.tool_use_id for error in errors] == ["toolu_01", "toolu_02"]
    # a report read with no failed run before it, or a file that is no report, is a quote
    assert projected_errors(bash_records(("cat reports/zorp-junit.xml", _REPORT, False))) == []
    assert [
        e.tool_use_id
        for e in projected_errors(
            bash_records(
                ('zorp verify > /dev/null 2>&1; echo "exit=$?"', "exit=1\n", False),
                ("cat config/zorp.xml", _REPORT, False),
            )
        )
    ] == ["toolu_01"]


def test_runs_whose_failure_shows_only_in_the_report_read_after_each_make_a_loop() -> None:
    def attempts(*commands: str) -> list[tuple[str, str, bool]]:
        calls: list[tuple[str, str, bool]] = []
        for number, command in enumerate(commands):
            calls.append((command, ("zorp exit: 1\n", "FAILED\n", "exit=1\n")[number % 3], False))
            calls.append(("grep -A3 '<failure' build/test-results/zorp.xml", _REPORT, False))
        return calls

    assert says_nothing("zorp exit: 1") and says_nothing("FAILED") and not says_nothing("PricingTest FAILED")
    calls = attempts(
        'zorp verify > /dev/null 2>&1; echo "zorp exit: $?"',
        "zorp verify >/dev/null 2>&1 || echo FAILED",
        'CI=1 zorp verify > /dev/null 2>&1; echo "exit=$?"',
    )
    assert loop_failures(*calls) == 3


def test_a_reports_escaped_text_reads_as_the_run_printed_it() -> None:
    line = "java.lang.AssertionError: Status expected:&lt;201&gt; but was:&lt;400&gt;"
    assert error_line(line) == "java.lang.AssertionError: Status expected:<201> but was:<400>"
    assert error_line('<failure message="expected:&lt;2&gt;">x</failure>') != ""
    assert signature(error_line(line)) == signature(
        "java.lang.AssertionError: Status expected:<201> but was:<400>"
    )


_CONSOLE = (
    "Compilation was started.\n"
    "Interceptors generation... 6/9 [======>---]  66% 38 secs\n"
    "                                                          \n"
    "In Log.php line 92:\n"
    "                                                          \n"
    "  Incompatible argument type: Required type: \\Acme\\Reader. Actual type: \\Acme\\Writer; File:\n"
    "  /srv/app/code/Acme/Fee/Model/FeeProvider.php\n"
    "                                                          \n"
    "zconsole compile\n"
)


def test_a_consoles_error_block_is_the_failure_over_its_progress_lines() -> None:
    line = error_line(_CONSOLE)
    assert line.startswith("In Log.php line 92: Incompatible argument type: Required type:")
    assert error_line(_CONSOLE.replace("\n", "\r\n")).startswith("In Log.php line 92: Incompatible")
    assert error_line("In the beginning line 3: nothing") == "In the beginning line 3: nothing"
    other = _CONSOLE.replace("Flushed cache", "x").replace("Compilation was started.", "Cache cleared")
    assert signature(error_line(other)) == signature(line)


def test_a_consoles_failure_through_chains_and_an_interpreters_settings_is_one_loop() -> None:
    assert work_identity("php -d memory_limit=-1 bin/zconsole compile").body == (
        work_identity("bin/zconsole compile").body
    )
    assert work_identity("python3 -X dev -W error tools/zgen.py").body == work_identity("tools/zgen.py").body
    assert (
        loop_failures(
            ("bin/zconsole upgrade && bin/zconsole compile", _CONSOLE),
            ("bin/zconsole compile", _CONSOLE),
            ("rm -rf var/cache/* && php -d memory_limit=-1 bin/zconsole compile", _CONSOLE),
        )
        == 3
    )


_TAP = (
    "ok 1 Chrome 120.0 - [13 ms] - Unit | widget: it exists\n"
    "not ok 2 Chrome 120.0 - [21 ms] - Integration | widget: it formats cents\n"
    "    ---\n        actual: >\n            $1250.00\n        expected: >\n            $12.50\n    ...\n"
    "1..2\n# tests 2\n# pass  1\n# skip  0\n# fail  1\n"
)


def test_a_tap_failure_names_the_test_over_the_count_and_a_runners_tag_is_no_part_of_it() -> None:
    assert error_line(_TAP) == "not ok 2 Chrome 120.0 - [21 ms] - Integration | widget: it formats cents"
    tagged = "".join(f"[test:ztap] {line}\n" for line in _TAP.splitlines())
    assert signature(error_line(tagged)) == signature(error_line(_TAP))
    assert signature("[error] a") != signature("a")  # a log level's tag is no runner's
    # a line saying how it failed beats the line naming the test
    worded = "not ok 3 ring wraps\n# ring_wraps: EXPECTATION FAILED at ring_test.c:146\n# fail 1\n"
    assert error_line(worded) == "# ring_wraps: EXPECTATION FAILED at ring_test.c:146"


def test_the_working_directory_and_an_images_default_tag_spelt_either_way_are_one_work() -> None:
    one = work_identity('zdocker run --rm -v "$(pwd)":/work ghcr.io/acme/zlint')
    assert work_identity("zdocker run --rm -v $PWD:/work ghcr.io/acme/zlint:latest").body == one.body
    assert work_identity("zdocker run --rm -v ${PWD}:/work ghcr.io/acme/zlint").body == one.body
    assert work_identity("zdocker run --rm -v $PWD:/work ghcr.io/acme/zlint:2.1").body != one.body


def test_a_class_accessor_an_edit_adds_is_new_code() -> None:
    added = (
        "export default class Loan {\n  get daysOverdue() {\n    return 3;\n  }\n"
        "  static get rate(): number {\n"
    )
    assert defined_names(added) == {"Loan", "daysOverdue", "rate"}
    assert defined_names("  get(url) {\n  set -euo pipefail\n") == set()
    s = Session()
    s.run("ls tests/unit/models")
    old = "export default class Loan extends Model {\n  @attr dueAt;\n}"
    new = old.replace("}", "\n  get daysOverdue() {\n    return 3;\n  }\n}")
    edit(s, "/repo/app/models/loan.js", new, old)
    assert "tests_added" in open_ids(ask(s, _asking("tests_added")))


def test_a_compiled_languages_build_tool_running_the_program_builds_it() -> None:
    for command in (
        'sbt "runMain acme.Emit --target-dir generated"',
        "cargo run --release -- serve",
        "./gradlew bootRun",
        "mill acme.run",
        "dotnet run --project src/Api",
    ):
        s = Session()
        s.edit("/repo/src/main/scala/acme/Top.scala")
        assert "compiles" in open_ids(ask(s, _asking("compiles")))
        s.run(command)
        assert "compiles" not in open_ids(ask(s, _asking("compiles"))), command
    s = Session()
    s.edit("/repo/src/main/scala/acme/Top.scala")
    s.run("npm run dev")  # a script manager's run builds nothing of its own
    assert "compiles" in open_ids(ask(s, _asking("compiles")))


def test_a_task_quoted_with_its_arguments_is_run() -> None:
    s = Session()
    s.run("ls src/test/scala/acme")
    s.edit("/repo/src/main/scala/acme/Fifo.scala")
    assert "tests_run" in open_ids(ask(s, _asking("tests_run")))
    s.run('sbt "testOnly acme.FifoSpec -- -oF"')
    assert "tests_run" not in open_ids(ask(s, _asking("tests_run")))
