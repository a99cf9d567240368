"""The thirty-ninth round: a runner's count of errors, a status in parentheses, one assertion indented twice.

repeat-failure, tuned on the tuning batches' log-only misses (b26, b30), never on the never-tuned pool:

* a summary row counting errors above zero beside the tests or failures it counts (Minitest's `41 runs, 63
  assertions, 0 failures, 1 errors, 0 skips`, JUnit's `Tests run: 9, Failures: 0, Errors: 1`) says the run
  failed: a test that raised is a failed one, whatever the runner calls it (read in a log read back too);
* a runner saying it failed with a status in parentheses (`Command failed with status (1): […]`) says so as
  with one after a colon;
* one assertion rendered by a short and a long traceback (`E   assert 422 == 201`, `E       assert 422 ==
  201`) is one failure: spacing is not what failed.

The programs are named in no table (`zspec`, `zrake`).
"""

from __future__ import annotations

from test_judgment_status_rows import loop_failures

from sbcore.observe.outcome import read_outcome

_RAISED = (
    "  1) Error:\nCartTest#test_total:\nArgumentError: wrong number of arguments (given 2, expected 1)\n"
    "    lib/cart.rb:33:in `total'\n\n41 runs, 63 assertions, 0 failures, 1 errors, 0 skips\n"
)


def test_a_count_row_with_errors_above_zero_is_a_failed_run() -> None:
    outcome = read_outcome(_RAISED, "zspec", is_error=False)
    assert outcome is not None and outcome["failed"]
    assert outcome["line"] == "ArgumentError: wrong number of arguments (given 2, expected 1)"
    row = read_outcome("Tests run: 9, Failures: 0, Errors: 1, Skipped: 0\n", "zspec", is_error=False)
    assert row is not None and row["failed"]
    passed = read_outcome("41 runs, 63 assertions, 0 failures, 0 errors, 0 skips\n", "zspec", is_error=False)
    assert passed is None or not passed["failed"]
    # a log's level beside a time is no count of errors
    logged = read_outcome("10:01:08 ERROR cache miss, retrying\n", "zspec", is_error=False)
    assert logged is None or not logged["failed"]


def test_a_status_in_parentheses_is_a_failed_run() -> None:
    outcome = read_outcome(
        "zrake aborted!\nCommand failed with status (1): [zspec -w]\n", None, is_error=False
    )
    assert outcome is not None and outcome["failed"]
    assert read_outcome("Command failed with status (0): [zspec]\n", None, is_error=False) is None


def test_runs_whose_only_verdict_is_a_count_of_errors_in_their_log_are_a_loop() -> None:
    ci = "zrake ci > tmp/ci.log 2>&1; echo exit=$?"
    assert (
        loop_failures(
            (ci, "exit=1", False),
            ("tail -n 20 tmp/ci.log", _RAISED, False),
            (ci, "exit=1", False),
            ("tail -n 20 tmp/ci.log", _RAISED, False),
            (ci, "exit=1", False),
            ("tail -n 20 tmp/ci.log", _RAISED, False),
        )
        >= 3
    )


def test_one_assertion_under_a_short_and_a_long_traceback_is_one_failure() -> None:
    long, short = "E       assert 422 == 201", "E   assert 422 == 201"
    trace = (
        "tests/test_api.py:88: in test_create\n    assert resp.status == 201\n{}\n1 failed, 17 passed in 2.1s"
    )
    assert (
        loop_failures(
            ("zspec tests/test_api.py", trace.format(long)),
            ("zspec tests/test_api.py --tb=short", trace.format(short)),
            ("cd tests && zspec test_api.py", trace.format(long)),
        )
        == 3
    )
