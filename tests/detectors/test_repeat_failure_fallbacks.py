"""repeat-failure on runs whose failure shows only through a fallback (``work > log 2>&1 || tail log``).

The harness marks such a result successful; read as a success, it ended the loop's streak. Its output is
the fallback's, printed because the work failed: a failure, quoting what the fallback showed; a count
alone (``grep -c``) says no more than that the work failed, like an echoed status, so it is the same
failure as the runs beside it that say why when nothing was edited between. The tests use a runner named
in no table.
"""

from __future__ import annotations

from sbcore.detectors.triggers import repeat_failure

from sbcore.observe.project import Projector
from tests.observe.test_log_reads import bash_records

RESOLVE = "quarry: cannot resolve asset 'brand/logo.svg' from 'src/header.ts'"


def test_a_loop_seen_only_through_its_fallbacks_fires() -> None:
    command = "quarry bundle > /tmp/bundle.log 2>&1 || tail -n {} /tmp/bundle.log"
    records = bash_records(
        *[(command.format(lines), f"bundling web\n{RESOLVE}\n", False) for lines in (3, 5, 9)]
    )
    match = repeat_failure(Projector().feed(records), {}, {})
    assert match is not None and match.data["failures"] == 3
    assert "cannot resolve asset 'brand/logo.svg'" in match.data["error"]


def test_a_fallbacks_count_continues_the_failure_it_counts() -> None:
    records = bash_records(
        ("quarry bundle", f"Exit code 2\n{RESOLVE}", True),
        ("quarry bundle > /tmp/bundle.log 2>&1 || grep -c 'cannot resolve' /tmp/bundle.log", "1", False),
        (
            "quarry bundle --verbose > /tmp/bundle.log 2>&1 || grep -c 'cannot resolve' /tmp/bundle.log",
            "1",
            False,
        ),
    )
    match = repeat_failure(Projector().feed(records), {}, {})
    assert match is not None and match.data["failures"] == 3


def test_a_fallback_that_printed_nothing_is_a_success_that_ends_the_streak() -> None:
    records = bash_records(
        ("quarry bundle", f"Exit code 2\n{RESOLVE}", True),
        ("quarry bundle", f"Exit code 2\n{RESOLVE}", True),
        ("quarry bundle > /tmp/bundle.log 2>&1 || tail -n 20 /tmp/bundle.log", "", False),
        ("quarry bundle", f"Exit code 2\n{RESOLVE}", True),
    )
    assert repeat_failure(Projector().feed(records), {}, {}) is None
