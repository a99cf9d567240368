"""The forty-second round: a run's own closing words read as its verdict, and the line that says what failed.

repeat-failure, tuned on the older tuning batches' misses (R CMD check, busted, nginx, FiveAM, Jenkins,
conftest, an ESP-IDF link, dotnet's padded counts, tcltest):

* a run whose status a pipe or a log hid still says it failed in its closing words: a status counting
  errors (`Status: 1 ERROR, 1 NOTE`), a status alone (`Finished: FAILURE`), a row of counts between bars
  (`[ FAIL 1 | WARN 0 | PASS 47 ]`), separated by slashes, padded into columns or given without colons, a
  Test Anything Protocol `not ok`, a server's `[emerg]`, `Encountered 1 build error`, its own `EXIT CODE: -1`;
* the line quoted is the one that says what failed: a verdict alone on its line reads with the sentence
  after it, a count of failures gives way to the first failure listed under its details' heading, a
  driver's `ld returned 1 exit status` to what the linker printed, a table's row to its cells (its message
  signs it), a banner drawn in block characters is no line at all, and a runner's `[error]` tag or a
  program's name before a file leaves the file where it is.

The programs are named in no table (`zcheck`, `zlint`, `zserve`, ...).
"""

from __future__ import annotations

import pytest
from sbcore.detectors.signatures import signature
from test_judgment_status_rows import loop_failures

from sbcore.observe.outcome import error_line, read_outcome
from sbcore.observe.summaries import is_wrapper_summary

_PIPED = "zcheck run . 2>&1 | tail -n 30"


@pytest.mark.parametrize(
    "text",
    [
        "* checking tests ... ERROR\n* DONE\n\nStatus: 1 ERROR, 1 NOTE\nSee\n  'out/00check.log'\n",
        "Summary: 0 warnings, 3 errors\n",
        "groovy.lang.MissingPropertyException: No such property: ENV\nFinished: FAILURE\n",
        "[ FAIL 1 | WARN 0 | SKIP 2 | PASS 47 ]\n",
        "3 successes / 0 failures / 1 error / 0 pending : 0.012 seconds\n",
        "Failed!  - Failed:     6, Passed:     0, Skipped:     0, Total:     6\n",
        "all.zt:\tTotal\t38\tPassed\t37\tSkipped\t0\tFailed\t1\n",
        "ok 1 - parses\nnot ok 2 - rejects an empty claim\n1..2\n",
        "[zspec] not ok 9 - price-tag: formats cents\n",
        'zserve: [emerg] unknown directive "cache_lock_timout" in /etc/zserve/cache.conf:14\n',
        "Encountered 1 build error while trying to build a supergraph.\n",
        "ZAuto: Error: Expected 'Slot' to be 5, but it was 4.\n**** TEST COMPLETE. EXIT CODE: -1 ****\n",
        "  Liquid Exception: Liquid syntax error (_includes/nav.html line 14): 'for' tag was never closed\n",
        "             Error: Liquid syntax error (_includes/nav.html line 14): 'for' tag was never closed\n",
    ],
)
def test_a_runs_closing_words_say_it_failed_whatever_hid_its_status(text: str) -> None:
    outcome = read_outcome(text, _PIPED, is_error=False)
    assert outcome is not None and outcome["failed"], text


@pytest.mark.parametrize(
    "text",
    [
        "Status: OK\n",
        "Status: 0 ERRORs, 2 NOTEs\n",
        "[ FAIL 0 | WARN 1 | SKIP 0 | PASS 12 ]\n",
        "5 successes / 0 failures / 0 errors / 0 pending\n",
        "all.zt:\tTotal\t38\tPassed\t38\tSkipped\t0\tFailed\t0\n",
        "not ok 3 - parses dates # TODO not written yet\n",
        'zserve: [warn] the "listen" directive is deprecated\nzserve: configuration test is successful\n',
        "Process finished with exit code: 0\n",
        "The exit code is 1 when the check finds problems.\n",
        "render: console.error: Error: nope (handled)\n",
    ],
)
def test_a_passing_runs_closing_words_and_prose_about_failing_are_no_failure(text: str) -> None:
    outcome = read_outcome(text, _PIPED, is_error=False)
    assert outcome is None or not outcome["failed"], text


def test_a_verdict_alone_on_its_line_is_read_with_the_sentence_after_it() -> None:
    text = (
        "* checking tests ...\n  Running 'testthat.R'\n ERROR\n"
        "Running the tests in 'tests/testthat.R' failed.\nComplete output:\n* DONE\n\nStatus: 1 ERROR\n"
    )
    assert error_line(text) == "ERROR Running the tests in 'tests/testthat.R' failed."
    # a verdict with a rule of dashes after it stays alone
    assert (
        error_line("zrun native\nFAIL\n---------------- native:debounce [FAILED] ----------------\n")
        == "FAIL"
    )


def test_a_count_of_failures_gives_way_to_the_first_failure_under_its_details() -> None:
    text = (
        " Did 31 checks.\n    Pass: 30 (96%)\n    Skip: 0 ( 0%)\n    Fail: 1 ( 3%)\n\n"
        " Failure Details:\n --------------------------------\n"
        ' PARSE-EMPTY-LINE []: (ZTALLY:PARSE-LINE "") evaluated to (""), which is not EQUAL to NIL\n'
    )
    assert error_line(text).startswith("PARSE-EMPTY-LINE []:")
    assert error_line("    Fail: 1 ( 3%)\n") == "Fail: 1 ( 3%)"  # nothing listed: the count is what it said


def test_a_drivers_line_that_its_linker_failed_gives_way_to_what_the_linker_printed() -> None:
    overflow = "/opt/ztool/bin/ld: region `iram0_0_seg' overflowed by 812 bytes"
    whole = (
        "FAILED: fob.elf\n: && /opt/ztool/bin/zcc -o fob.elf main.o\n"
        f"/opt/ztool/bin/ld: fob.elf section `.iram0.text' will not fit in region `iram0_0_seg'\n{overflow}\n"
        "collect2: error: ld returned 1 exit status\nzninja: build stopped: subcommand failed.\n"
    )
    assert error_line(whole) == overflow
    assert error_line(whole.split("\n", 2)[2]) == overflow  # cut to its tail: the same line


def test_a_table_of_errors_reads_as_its_rows_and_a_row_is_signed_by_its_message() -> None:
    table = (
        "+---------+-------+-----------+---------------------------------------------------------+\n"
        "| RESULT  | FILE  | NAMESPACE | MESSAGE                                                 |\n"
        "+---------+-------+-----------+---------------------------------------------------------+\n"
        "| success | -     | main      | SUCCESS                                                 |\n"
        "| failure | -     | main      | Deployment/indexer: container 'ix' must set limits.cpu  |\n"
        "+---------+-------+-----------+---------------------------------------------------------+\n"
    )
    line = error_line(table)
    assert line == "failure | - | main | Deployment/indexer: container 'ix' must set limits.cpu"
    assert signature(line) == signature("Deployment/indexer: container 'ix' must set limits.cpu")
    wrapped = (
        "filepath          | error\n"
        "==================+==================================================\n"
        "/w/dags/sync.py   | Traceback (most recent call last):\n"
        '                  |   File "/w/dags/sync.py", line 38, in <module>\n'
        "                  | zflow.exceptions.DuplicateTaskIdFound: Task id 'load' has already been added\n"
    )
    assert error_line(wrapped).startswith("zflow.exceptions.DuplicateTaskIdFound:")
    assert signature("1 | 11 | parse") == "# | # | parse"  # short cells: no message to sign by


def test_a_banner_drawn_in_blocks_is_no_line_and_a_tag_before_a_file_leaves_the_file() -> None:
    finding = "Finding:     aws_secret_access_key = REDACTED"
    assert error_line(f"    ░░░░    \n    ░    zleaks\n\n{finding}\nleaks found: 1\n") == finding
    scala = (
        "[error] /w/jobs/src/main/scala/Events.scala:15:67: value withColumnRenamed is not a member of Column"
    )
    assert signature(
        error_line(f"[info] compiling 4 sources\n{scala}\n[error] one error found\n")
    ).startswith("/w/jobs/src/main/scala/events.scala:#:#:")
    assertion = "test_parser: tests/test_parser.c:88: test_quoted_key: Assertion `tok.len == 5' failed."
    assert error_line(f"FAIL: tests/test_parser\n{assertion}\n") == assertion


def test_the_same_failure_read_three_ways_behind_a_pipe_is_a_loop() -> None:
    closing = (
        "* checking tests ...\n  Running 'testthat.R'\n ERROR\n"
        "Running the tests in 'tests/testthat.R' failed.\n* DONE\n\nStatus: 1 ERROR\n"
    )
    assert (
        loop_failures(
            ("zcheck build . && zcheck run pkg.tar.gz > check.log 2>&1; tail -12 check.log", closing, False),
            ("zcheck build . && zcheck run pkg.tar.gz > check.log 2>&1; tail -12 check.log", closing, False),
            (
                "zcheck build . && zcheck run --no-manual pkg.tar.gz > check.log 2>&1; tail -12 check.log",
                closing,
                False,
            ),
        )
        == 3
    )


@pytest.mark.parametrize(
    "line",
    [
        "Status: 1 ERROR, 1 NOTE",
        "Error: zcheck found errors",
        "Error: Test failures",
        "Encountered 2 build errors while trying to build a supergraph.",
        "[ FAIL 1 | WARN 0 | SKIP 2 | PASS 47 ]",
        "zserve: configuration file /etc/zserve/zserve.conf test failed",
        "⬢  functions: FirebaseError: Functions codebase could not be analyzed successfully.",
    ],
)
def test_a_closing_line_that_only_says_it_failed_gives_way_to_the_root_error(line: str) -> None:
    assert is_wrapper_summary(line)
    root = "zlint: rules/ingest.z:14: unknown field 'ttl' in block 'cache'"
    assert error_line(f"{root}\n{line}\n") == root
