"""repeat-failure on a runner that only says, in its own words, that the command under it failed.

Package managers and task runners end a failing run with a line of their own (yarn's `error Command failed
with exit code 1.`, pnpm's `ELIFECYCLE  Command failed with exit code 1.`, a task runner's `step 'x' failed
with exit status 2`). Behind a pipe, or in a log read back by a later call, the harness marks the result
successful, and that line is what shows the work failing; the error it stands under is what is quoted, not
a runner's bare mark (`✖`) above it. The tests use a runner named in no table.
"""

from __future__ import annotations

import pytest
from sbcore.detectors.triggers import repeat_failure

from sbcore.observe.outcome import error_line, is_noise, read_outcome
from sbcore.observe.project import Projector
from tests.observe.test_log_reads import bash_records

BUNDLE = (
    "quarry 3.1 | bundling web\n"
    "  ✖\n"
    "    cannot resolve asset 'brand/logo.svg' from 'src/header.ts'\n"
    "quarry: step 'bundle' failed with exit code 2\n"
)


@pytest.mark.parametrize(
    "output",
    [
        BUNDLE,
        "error Command failed with exit code 1.\ninfo Visit the docs for this command.",
        " ELIFECYCLE  Command failed with exit code 1.",
        "Job 'lint' FAILED with status 3",
        "runner: the task failed with an exit code of -1",
    ],
)
def test_a_runner_saying_the_command_failed_shows_the_failure_a_pipe_hid(output: str) -> None:
    outcome = read_outcome(output, "quarry bundle 2>&1 | tail -n 5", is_error=False)
    assert outcome is not None and outcome["failed"]


@pytest.mark.parametrize(
    "output",
    [
        "quarry: step 'bundle' failed with exit code 0",  # a status of 0 is no failure
        "the first try failed with a timeout; the retry passed\nquarry: bundle done",  # no status at all
        "quarry: 12 steps, none failed with status",
    ],
)
def test_no_failure_is_read_without_a_status_other_than_zero(output: str) -> None:
    outcome = read_outcome(output, "quarry bundle 2>&1 | tail -n 5", is_error=False)
    assert outcome is None or not outcome["failed"]


def test_the_error_is_quoted_not_a_bare_mark_above_it() -> None:
    assert error_line(BUNDLE) == "cannot resolve asset 'brand/logo.svg' from 'src/header.ts'"
    assert is_noise("✖") and is_noise("-- • --")
    assert not is_noise("✖ header renders the logo") and not is_noise("2")


def test_a_loop_a_pipe_hid_is_caught_from_the_runners_own_statement() -> None:
    command = "quarry bundle 2>&1 | tail -n {}"
    records = bash_records(*[(command.format(lines), BUNDLE, False) for lines in (5, 8, 12)])
    match = repeat_failure(Projector().feed(records), {}, {})
    assert match is not None and match.data["failures"] == 3
    assert "cannot resolve asset 'brand/logo.svg'" in match.data["error"]
