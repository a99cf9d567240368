"""The thirtieth round: a project's test script and the tool it runs, a build's verdict over its cause, an
echoed status among the lines after it.

repeat-failure: two programs' test runs making one selection (a package manager's ``test`` script and the tool
it runs, spelt with the same options) that fail on one error are one piece of work; a verdict that says only
that the work failed to compile, or that a step of a package failed (``ERROR: app-1.0-r0 do_compile:
make_step failed``), or an exception carrying only a step's script and its status, yields to the error under
it; a status a command echoed under its own label is read wherever its line is, the lines a later command
printed after it included. The tools are named in no table (``zunit``, ``zpack``, ``zbake``).
"""

from __future__ import annotations

from test_judgment_status_rows import loop_failures

from detectors.identity import work_identity
from detectors.same_work import related
from sbcore.observe.outcome import error_line, read_outcome

_SPEC = "Firefox 128.0 (Linux x86_64) LedgerRow formats totals in the ledger currency FAILED"


def test_a_package_managers_test_script_and_the_tool_it_runs_are_one_work() -> None:
    assert (
        loop_failures(
            ("zunit test --browsers=Firefox > /tmp/z.log 2>&1", "exit status 1"),
            ("grep -A4 FAILED /tmp/z.log", _SPEC, False),
            ("pnpm test -- --browsers=Firefox > /tmp/z.log 2>&1", "exit status 1"),
            ("grep -A4 FAILED /tmp/z.log", _SPEC, False),
            ("zunit test --browsers=Firefox --no-coverage > /tmp/z.log 2>&1", "exit status 1"),
            ("grep -A4 FAILED /tmp/z.log", _SPEC, False),
        )
        == 3
    )
    script = work_identity("pnpm test -- --browsers=Firefox")
    assert related(script, work_identity("zunit test --browsers=Firefox"))


def test_two_test_runs_selecting_different_things_stay_apart() -> None:
    assert not related(work_identity("pnpm test -- src/a.spec.ts"), work_identity("zunit test src/b.spec.ts"))
    assert not related(work_identity("zunit test"), work_identity("zpack build"))


_NEXT = (
    "   Creating an optimized production build ...\nFailed to compile.\n\n./app/orders/page.tsx\n"
    "Module not found: Can't resolve '@/lib/db'\n\n> Build failed because of webpack errors"
)
_BAKE = (
    "NOTE: Executing Tasks\nERROR: relay-0.9+git-r0 do_compile: make_step failed\n"
    "ERROR: relay-0.9+git-r0 do_compile: StepError('/w/tmp/relay/temp/run.do_compile.5120', 1, None, None)\n"
    "| src/codec.c:88:5: error: implicit declaration of function 'strlcpy'\n"
    "ERROR: Task (/w/meta/relay.bb:do_compile) failed with exit code '1'"
)


def test_a_verdict_that_the_work_failed_to_compile_yields_to_its_cause() -> None:
    assert error_line(_NEXT) == "Module not found: Can't resolve '@/lib/db'"
    assert error_line("Failed to compile.") == "Failed to compile."  # alone, it is what the run says


def test_a_packages_failed_step_and_its_scripts_status_yield_to_the_error_under_them() -> None:
    assert error_line(_BAKE) == "| src/codec.c:88:5: error: implicit declaration of function 'strlcpy'"
    first, again = _BAKE, _BAKE.replace("5120", "6247")
    assert (
        loop_failures(
            ("zbake build relay", first),
            ("zbake status", "relay: modified", False),
            ("timeout 1800 zbake build relay", again),
            ("nice -n 10 zbake -c compile relay", again.replace("6247", "7001")),
        )
        == 3
    )


def test_a_status_echoed_under_its_label_is_read_among_the_lines_after_it() -> None:
    command = "zpack build > /tmp/b.log 2>&1; echo \"built=$?\"; grep -A3 'not found' /tmp/b.log"
    shown = (
        "built=2\nModule not found: Can't resolve '@/lib/db'\n\nhttps://example.com/docs/module-not-found\n"
    )
    outcome = read_outcome(shown, command, is_error=False)
    assert outcome is not None and outcome["failed"] and outcome["exit_code"] == 2
    assert outcome["line"] == "Module not found: Can't resolve '@/lib/db'"
    assert read_outcome(shown.replace("built=2", "built=0"), command, is_error=False) is None
