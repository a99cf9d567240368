"""A command whose only output is a fallback's: ``work > log 2>&1 || tail log`` printed only because the work
failed, so its result is a failure whatever it shows (``sbcore/observe/fallbacks.py``)."""

from __future__ import annotations

import json

import pytest

from sbcore.observe.fallbacks import printed, prints_only_on_failure
from sbcore.observe.outcome import read_outcome
from sbcore.observe.project import Projector
from tests.observe.test_log_reads import bash_records


@pytest.mark.parametrize(
    "command",
    [
        "quarry bundle > /tmp/bundle.log 2>&1 || tail -n 20 /tmp/bundle.log",
        "quarry bundle &> b.log || grep -c 'cannot resolve' b.log",
        "quarry bundle >> b.log 2>> b.err || cat b.err | head -5",
        "quarry bundle >/dev/null 2>&1 || echo 'bundle failed'",
        "QUARRY_ENV=ci quarry bundle --out dist > b.log 2>&1 || { tail -n 30 b.log; exit 1; }",
        "quarry bundle > b.log 2>&1 || (tail -n 30 b.log; false)",
        'quarry bundle --name "a || b; c" > "my log.txt" 2>&1 || tail "my log.txt"',
        "quarry bundle -j ${JOBS} > b.log 2>&1 || tail b.log || cat b.log",
    ],
)
def test_a_fallback_that_prints_only_when_the_work_failed(command: str) -> None:
    assert prints_only_on_failure(command)


@pytest.mark.parametrize(
    "command",
    [
        "quarry bundle > b.log || tail b.log",  # its errors reach the result either way
        "quarry bundle 2>&1 > b.log || tail b.log",  # errors to where the output went before: the result
        "quarry bundle > b.log 2>&1 || tail b.log; echo done",  # `echo` prints after a success too
        "quarry bundle > b.log 2>&1 || tail b.log && echo checked",
        "cd web && quarry bundle > b.log 2>&1 || tail b.log",  # two steps before the fallback
        "quarry lint | tee l.log > /dev/null 2>&1 || tail l.log",
        "time quarry bundle > b.log 2>&1 || tail b.log",  # the shell's report goes to the result
        "quarry bundle $(cat flags) > b.log 2>&1 || tail b.log",  # the substitution's errors do too
        "(echo start; quarry bundle > b.log 2>&1) || tail b.log",  # a group may print
        "quarry bundle > b.log 2>&1 &",
        "quarry bundle > b.log 2>&1",
        "echo 'x > y 2>&1 || z'",
        "quarry bundle > b.log 2>&1 || tail 'b.log",  # a quote left open
        "quarry bundle > b.log 2>&1 ||\ntail b.log",
        None,
        "",
    ],
)
def test_no_fallback_is_read_where_output_may_come_from_a_success(command: str | None) -> None:
    assert not prints_only_on_failure(command)


def test_what_the_harness_adds_is_not_printed_by_the_command() -> None:
    reminder = "\n\n<system-reminder>\nPostToolUse:Bash hook additional context: x\n</system-reminder>\n"
    assert printed(reminder) == ""
    assert printed("Shell cwd was reset to /home/dev/site\n") == ""
    assert printed("bundle failed\n" + reminder) == "bundle failed"


def test_the_fallbacks_output_is_a_failure_whatever_it_says() -> None:
    command = "quarry bundle > b.log 2>&1 || grep -c 'cannot resolve' b.log"
    outcome = read_outcome("3\n", command, is_error=False)
    assert outcome == {"failed": True, "line": "3"}
    assert read_outcome("", command, is_error=False) is None
    reminder = "<system-reminder>\nPostToolUse:Bash hook additional context: x\n</system-reminder>"
    assert read_outcome(reminder, command, is_error=False) is None
    assert read_outcome("3\n", "quarry bundle | grep -c 'cannot resolve'", is_error=False) is None


def test_the_projection_reads_such_a_result_though_it_holds_no_failure_mark() -> None:
    """The fast path drops a successful result with no failure mark unread; this one must be read."""
    records = bash_records(("quarry bundle > b.log 2>&1 || grep -c 'cannot resolve' b.log", "3", False))
    lines = b"\n".join(json.dumps(record).encode() for record in records) + b"\n"
    for errors in (
        [obs for obs in Projector().feed(records) if obs.kind == "error"],
        [obs for obs in Projector().feed_bytes(lines) if obs.kind == "error"],
    ):
        assert [obs.outcome for obs in errors] == [{"failed": True, "line": "3"}]
