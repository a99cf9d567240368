"""The twenty-eighth round: a verdict naming what failed, a log that says how, a failure pointing at its log.

repeat-failure: a verdict and only the name it is about (`FAIL: test_utf8`) is a summary, so a run showing
only it and a run showing the details beside it failed alike; a run whose own result said only its status
(`zbuild exit: 1`) fails as its log, read back, says, in whatever words its tool logs a failure (` ERROR
[zite]: …`), unless its own result said more; a failure that says only where its details were written
(`Full output written to logs/deploy.log`) beside one that says what failed, with nothing edited between,
failed alike. The tools are named in no table (`zcheck`, `zbuild`, `zdeploy`).
"""

from __future__ import annotations

from test_judgment_status_rows import loop_failures

from sbcore.observe.log_reads import names_a_log
from sbcore.observe.outcome import only_status
from tests.observe.test_log_reads import bash_records, projected_errors

_SUMMARY = "PASS: t_escape\nFAIL: t_utf8\n# TOTAL: 2\n# FAIL:  1\nSee tests/test-suite.log"
_DETAILS = "t_utf8.c:142: decode_overlong: expected -1 (U8_EINVAL), got 2\nFAIL: t_utf8\n# FAIL: 1"


def test_a_verdict_naming_what_failed_is_a_summary_of_the_details_beside_it() -> None:
    assert (
        loop_failures(
            ("zcheck", _SUMMARY),
            ("zcheck -C tests TESTS=t_utf8", _SUMMARY),
            ("cat tests/t_utf8.log", "t_utf8.c:142: decode_overlong: expected -1 (U8_EINVAL), got 2", False),
            ("zcheck -C tests TESTS=t_utf8 VERBOSE=1", _DETAILS),
        )
        == 3
    )


def test_another_verdict_is_another_failure() -> None:
    """The count lines (`# FAIL:  1`) are alike; the verdict names another test."""
    other = _DETAILS.replace("t_utf8", "t_norm")
    assert (
        loop_failures(
            ("zcheck", _SUMMARY),
            ("cat tests/t_utf8.log", "t_utf8.c:142: decode_overlong: expected -1", False),
            ("zcheck -C tests TESTS=t_norm VERBOSE=1", other),
            ("cat tests/t_norm.log", "t_norm.c:142: decode_overlong: expected -1", False),
            ("zcheck -C tests TESTS=t_utf8", _SUMMARY),
        )
        != 3
    )


_LOGGED = (
    '8: ERROR  x Build failed in 3.52s\n9-\n10-[zite]: failed to resolve import "~/utils/price"\n'
    '15: ERROR  [zite]: failed to resolve import "~/utils/price" from "/w/components/Tag.vue".'
)


def test_a_run_that_said_only_its_status_fails_as_its_log_says() -> None:
    records = bash_records(
        ("zbuild > /tmp/zbuild.log 2>&1; echo zbuild exit: $?", "zbuild exit: 1", False),
        ("grep -n -B2 -A6 ERROR /tmp/zbuild.log", _LOGGED, False),
    )
    errors = projected_errors(records)
    assert [obs.tool_use_id for obs in errors] == ["toolu_01", "toolu_01"]
    assert errors[-1].outcome is not None
    assert errors[-1].outcome["line"].startswith('ERROR  [zite]: failed to resolve import "~/utils/price"')
    assert only_status("zbuild exit: 1") and only_status("") and not only_status("ERROR  x Build failed")


def test_a_run_that_said_what_failed_keeps_its_line_over_its_logs_noise() -> None:
    said = "Exit code 1\n! Configure failed for Net-Zeay-1.94. See /w/.zpan/work/1/build.log for details."
    records = bash_records(
        ("zpan --installdeps .", said, True),
        ("tail -n 30 /w/.zpan/work/1/build.log", "These tests *will* *fail* without network. [n] n", False),
    )
    errors = projected_errors(records)
    assert len(errors) == 1  # the log's words are no failure of their own, and the run said what failed


def test_a_failure_saying_only_where_its_details_went_is_the_failure_they_show() -> None:
    taken = 'ERROR: {"code":"StorageAccountAlreadyTaken","message":"The storage account named st1 is taken."}'
    pointed = "[zdeploy] deployment FAILED (exit 1). Full output written to logs/deploy-test.log"
    assert names_a_log(pointed) and not names_a_log(taken)
    assert (
        loop_failures(
            ("./scripts/zdeploy test", taken),
            ("zcache purge", "done", False),
            ("./scripts/zdeploy test", pointed),
            ("bash scripts/zdeploy test 2>&1 | tee /tmp/out.txt", taken),
        )
        == 3
    )
