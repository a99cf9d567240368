"""The thirty-first round: a survey the user asked for, a driver's one-word verdict, an assertion's program
before its place, a harness's numbered row, a runner's cross, a report's failure record, a line saying none.

repeat-failure: runs that fail differently one after another with nothing done between are the looks the user
asked for when the turn's prompt said to change nothing yet (the same failure again stays a loop); an error
whose message is one word saying only that something failed (`error: fatalError`) yields to the diagnostic
above it; C's `assert` line (`prog: file.c:#: fn: Assertion … failed.`) is a diagnostic at a file's place,
whatever ran it; a harness's numbered row (`7/12 lib:unit / t_queue  FAIL  0.02s …`) is a summary of the
failure under it; a runner's cross before an item it says failed, and a test report's `<failure …>` record,
are failures of a run whose exit status hid them; a line saying none failed (`[OK] No errors`) is no error; a
tool handing a script to the interpreter it names runs that script. standard-questions: an interpreter handed
a script by its path runs the script. The tools are named in no table (`zq`, `zharness`, `zrepo`, `zcli`).
"""

from __future__ import annotations

from test_judgment_scanners import _asking
from test_judgment_status_rows import loop_failures
from test_triggers import Session, ask, fire, open_ids

from detectors.failures import located
from detectors.identity import work_identity
from detectors.signatures import signature
from sbcore.observe.outcome import error_line, read_outcome

_SEEDS = ("seed=11: test_total: coupon leaked", "seed=42: test_refund: coupon leaked", "seed=7: test_cart: x")


def _survey(prompt: str, errors: tuple[str, ...]) -> bool:
    s = Session()
    s.observations.append(_prompt(prompt))
    for error in errors:
        s.fail("zq test --force src/orders/checkout_test.zz", f"Exit code 1\n{error}")
    return fire(s) is not None


def _prompt(text: str):  # type: ignore[no-untyped-def]
    from sbcore.api import Observation

    return Observation(kind="prompt", text=text, timestamp="2026-01-01T09:59:00Z")


def test_different_failures_the_user_asked_to_look_at_are_no_loop() -> None:
    asked = "tests fail about half the time, never the same one. Don't change anything yet, just investigate."
    assert not _survey(asked, _SEEDS)
    assert _survey("tests fail about half the time. fix them", _SEEDS)  # rerun blind, hoping: a loop
    assert _survey(asked, (_SEEDS[0],) * 3)  # the same failure again shows nothing new


def test_a_one_word_verdict_yields_to_the_diagnostic_above_it() -> None:
    text = "Compiling Dto.zz\n/w/App/Dto.zz:22:72: error: extra argument 'due' in call\nerror: fatalError"
    assert error_line(text) == "/w/App/Dto.zz:22:72: error: extra argument 'due' in call"
    assert error_line("error: fatalError") == "error: fatalError"


_ROWS = (
    " 6/12 lib:unit / t_resize   OK     0.02s\n"
    " 7/12 lib:unit / t_queue    FAIL   0.02s   killed by signal 6 SIGABRT\n"
    "stderr:\nt_queue: ../tests/t_queue.c:142: t_wrap: Assertion `len(q) == 3' failed.\n"
)
_ROW_ONLY = " 7/12 lib:unit / t_queue    FAIL   0.02s   killed by signal 6 SIGABRT\nFail: 1"
_ASSERT = "t_queue: ../tests/t_queue.c:142: t_wrap: Assertion `len(q) == 3' failed.\nAborted (core dumped)"


def test_an_assertion_and_a_numbered_row_tie_every_entry_point_to_one_failure() -> None:
    assert located(signature("t_queue: ../tests/t_queue.c:142: t_wrap: Assertion `len(q) == 3' failed."))
    assert error_line(_ROWS).startswith("t_queue: ../tests/t_queue.c:142: t_wrap: Assertion")
    assert error_line(_ROW_ONLY).startswith(" 7/12 lib:unit / t_queue") or error_line(_ROW_ONLY).startswith(
        "7/12"
    )
    assert (
        loop_failures(
            ("zharness test -C build --print-errorlogs", _ROWS),
            ("./build/tests/t_queue", _ASSERT),
            ("zharness test -C build t_queue -v", f"{_ASSERT}\n{_ROW_ONLY}"),
        )
        == 3
    )


def test_a_runners_cross_and_a_reports_failure_record_are_failures() -> None:
    crossed = read_outcome(
        "\n\n✕ src/pay/refund_test.zz:tests failed in 0.85s.", "zrepo test x | tail -4", is_error=False
    )
    assert crossed is not None and crossed["failed"]
    record = (
        '  <failure type="Expectation">Tests\\ApiTokenTest::testGrants\nFailed asserting that 401 is 200.'
    )
    reported = read_outcome(
        record, "zq --log-junit r.xml t >/dev/null; grep -A3 '<failure' r.xml", is_error=False
    )
    assert reported is not None and reported["failed"]
    assert read_outcome('<testsuite tests="9" failures="0" errors="0">', None, is_error=False) is None
    assert read_outcome("✓ a passed\n✓ b passed", None, is_error=False) is None


def test_a_line_saying_none_failed_is_no_error_line() -> None:
    text = "> zstan analyse\n [OK] No errors\n> zq\nTests: 36, Assertions: 90, Deprecations: 1."
    assert error_line(text) == "Tests: 36, Assertions: 90, Deprecations: 1."


def test_a_tool_handing_a_script_to_the_interpreter_it_names_runs_that_script() -> None:
    assert work_identity("zcli php bin/zunit --display-deprecations").key == work_identity("bin/zunit").key
    assert work_identity("zcli run web").key != work_identity("run web").key  # no interpreter named


def test_an_interpreter_handed_a_script_by_its_path_runs_the_script() -> None:
    s = Session()
    s.run("ls tests/Functional")
    s.edit("/repo/src/Controller/WebhookController.zz")
    s.run("php bin/phpunit")
    assert "tests_run" not in open_ids(ask(s, _asking("tests_run")))
