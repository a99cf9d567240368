"""The thirty-sixth round: what a runner logs when a pipe hid its exit status, and what compiles.

repeat-failure: a log record at error severity saying the task, job or run failed (`{taskinstance.py:2905}
ERROR - Task failed with exception`) is the run's own verdict where a pipe hid its exit status (`… 2>&1 |
tail -n 12`), so that attempt fails as the others did; a run that exits 0 without a pipe is believed (it may
have retried and passed). The tool is named in no table (`zflow`).

standard-questions: the source of more languages that run only once compiled (ReScript, Elm, Odin, Gleam,
Nim) asks whether it still builds, and its compiler's own check answers (`nim check`, `odin check`, `elm
make`, a plain `rescript`): the catalogue's tables, read as hints. A replay's project from the session's own
listings is tested in ``tests/conductor/test_listings.py``.
"""

from __future__ import annotations

import pytest
from test_judgment_scanners import _asking
from test_judgment_status_rows import loop_failures
from test_triggers import Session, ask, open_ids

from sbcore.observe.outcome import read_outcome

_LOG = (
    "[2024-06-03T09:15:37] {zrunner.py:2905} ERROR - Task failed with exception\n"
    "zflow.exceptions.ZflowError: relation staging.orders does not exist\n"
    "real\t0m7.412s\n"
)


def test_a_logged_failure_behind_a_pipe_is_the_runs_verdict() -> None:
    outcome = read_outcome(_LOG, "zflow run etl 2>&1 | tail -n 12", is_error=False)
    assert outcome is not None and outcome["failed"]
    assert read_outcome(_LOG, "zflow run etl", is_error=False) is None  # no pipe: its exit 0 stands
    retried = "[x] {zrunner.py:1} ERROR - could not reach the cache, retrying\n"
    assert read_outcome(retried, "zflow run etl | tail", is_error=False) is None  # no failed run in it


def test_runs_piped_away_between_failing_runs_keep_the_loop() -> None:
    failing = (
        "Traceback (most recent call last):\n  File x\n"
        "zflow.exceptions.ZflowError: relation staging.orders does not exist\n"
    )
    assert (
        loop_failures(
            ("zflow run etl", failing),
            ("cd /w && time zflow run etl 2>&1 | tail -n 12", _LOG, False),
            ("zflow run etl --verbose", failing),
        )
        == 3
    )


@pytest.mark.parametrize(
    ("path", "check"),
    [
        ("/repo/src/Cart.res", "npx rescript"),
        ("/repo/src/Main.elm", "elm make src/Main.elm --output=/dev/null"),
        ("/repo/src/ring.odin", "odin check src -vet"),
        ("/repo/src/durfmt.nim", "nim check --hints:off src/durfmt.nim"),
        ("/repo/src/cart.gleam", "gleam check"),
    ],
)
def test_a_compiled_languages_source_asks_whether_it_builds_and_its_compilers_check_answers(
    path: str, check: str
) -> None:
    s = Session()
    s.edit(path)
    s.run("ls")
    assert "compiles" in open_ids(ask(s, _asking("compiles")))
    s.run(check)
    assert ask(s, _asking("compiles")) is None
