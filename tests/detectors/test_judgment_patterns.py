"""The thirty-third round: a runner's selection pattern and the file it matches, an exception chain's root
cause, a runner told to list its tests.

repeat-failure: a selection that is a pattern the other run's file's name holds (`orders.service` and
`src/orders/orders.service.spec.ts`) selects that file, so the two runs failing on one error are one work; an
exception chain's last `Caused by:` is the failure, whichever cut of the log each run's read shows.
standard-questions: a runner told to list what it would run (`--listTests`, `--collect-only`) runs nothing.
The tools are named in no table (`zjest`, `zgradle`), save the runners whose listing options the rule names.
"""

from __future__ import annotations

from test_judgment_scanners import _asking
from test_judgment_status_rows import loop_failures
from test_triggers import Session, ask, open_ids

from detectors.identity import work_identity
from detectors.same_work import related
from sbcore.observe.outcome import error_line

_DI = "● OrdersService › is defined\n\n  Nest can't resolve dependencies of OrdersService (?, ConfigService)."


def test_a_selection_pattern_and_the_file_it_matches_are_one_work() -> None:
    assert related(
        work_identity("zjest orders.service"), work_identity("zjest src/orders/orders.service.spec.ts")
    )
    assert not related(
        work_identity("zjest payments"), work_identity("zjest src/orders/orders.service.spec.ts")
    )
    assert (
        loop_failures(
            ("zjest orders.service", _DI),
            ("zjest src/orders/orders.service.spec.ts", _DI),
            ("zjest src/orders/orders.service.spec.ts --verbose --no-cache", _DI),
        )
        == 3
    )


_WRAPPER = (
    "org.springframework.beans.BeanCreationException: Error creating bean with name 'flywayInitializer'\n"
    "\tat org.springframework.beans.factory.support.AbstractBean.doCreateBean(AbstractBean.java:99)\n"
    "Caused by: org.flywaydb.core.FlywayValidateException: Validate failed: checksum mismatch V3\n"
)


def test_an_exception_chains_last_cause_is_the_failure() -> None:
    cause = "Caused by: org.flywaydb.core.FlywayValidateException: Validate failed: checksum mismatch V3"
    assert error_line(_WRAPPER) == cause
    assert error_line(cause) == cause
    assert (
        error_line("java.lang.IllegalStateException: no bean") == "java.lang.IllegalStateException: no bean"
    )


def test_a_runner_told_to_list_its_tests_runs_none() -> None:
    s = Session()
    s.run("ls src/pricing")
    s.edit("/repo/src/pricing/pricing.service.spec.ts")
    s.edit("/repo/src/pricing/pricing.service.ts")
    s.run("npx jest --listTests | grep pricing")
    assert "tests_run" in open_ids(ask(s, _asking("tests_run")))
    s.run("npx jest pricing")
    assert "tests_run" not in open_ids(ask(s, _asking("tests_run")))
