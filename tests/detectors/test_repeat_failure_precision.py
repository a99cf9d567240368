"""repeat-failure's precision: a runner's failing-test line carries the reason, a chain is its steps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sbcore.detectors.identity import work_identity
from sbcore.detectors.same_work import failed_step, runs_tests
from test_triggers import Session, fire

from sbcore.observe import failing_test
from sbcore.observe.failing_test import NAME_CAP, explained
from sbcore.observe.model import Observation
from sbcore.observe.outcome import LINE_CAP, error_line, read_outcome


def go(message: str, *, verbose: bool = False) -> str:
    if verbose:
        return (
            f"Exit code 1\n=== RUN   TestParseRate\n    rate_test.go:18: {message}\n"
            "--- FAIL: TestParseRate (0.00s)\n=== RUN   TestFormat\n--- PASS: TestFormat (0.00s)\n"
            "FAIL\nFAIL\tgithub.com/acme/rates\t0.006s\nFAIL"
        )
    return (
        f"Exit code 1\n--- FAIL: TestParseRate (0.00s)\n    rate_test.go:18: {message}\n"
        "FAIL\nFAIL\tgithub.com/acme/rates\t0.004s\nFAIL"
    )


def jest(received: str) -> str:
    return (
        "Exit code 1\nFAIL src/cart.test.js\n  Cart\n    ✕ applies the discount (4 ms)\n\n"
        "  ● Cart › applies the discount\n\n"
        "    expect(received).toBe(expected) // Object.is equality\n\n"
        f"    Expected: 90\n    Received: {received}\n\n"
        "    > 11 |   expect(cart.total()).toBe(90);\n         |                        ^\n\n"
        "      at Object.<anonymous> (src/cart.test.js:11:26)\n\n"
        "Tests:       1 failed, 1 passed, 2 total"
    )


def cargo(panic: str) -> str:
    return (
        "Exit code 101\nrunning 2 tests\ntest tests::sums ... FAILED\ntest tests::empty ... ok\n\n"
        f"failures:\n\n---- tests::sums stdout ----\n\nthread 'tests::sums' panicked at {panic}\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n"
        "test result: FAILED. 1 passed; 1 failed; 0 ignored\n\nerror: test failed, to rerun pass `--lib`"
    )


def rspec(under: str) -> str:
    return (
        "Exit code 1\nF..\n\nFailures:\n\n  1) Invoice#total applies VAT\n"
        f"     Failure/Error: expect(invoice.total).to eq(120)\n\n{under}\n\n       (compared using ==)\n"
        "     # ./spec/invoice_spec.rb:9:in `block (2 levels)'\n\n3 examples, 1 failure\n\n"
        "Failed examples:\n\nrspec ./spec/invoice_spec.rb:7 # Invoice#total applies VAT"
    )


PHPUNIT = (
    "Exit code 1\nPHPUnit 10.5.0 by Sebastian Bergmann and contributors.\n\nF.   2 / 2 (100%)\n\n"
    "There was 1 failure:\n\n1) Tests\\CartTest::testTotal\nFailed asserting that 100 is identical to 90.\n\n"
    "/app/tests/CartTest.php:12\n\nFAILURES!\nTests: 2, Assertions: 2, Failures: 1."
)
DOTNET = (
    "Exit code 1\n  Shop.Tests -> /src/Shop.Tests/bin/Debug/net8.0/Shop.Tests.dll\n"
    "  Failed Shop.Tests.CartTests.Total [12 ms]\n  Error Message:\n"
    "   Assert.Equal() Failure: Values differ\nExpected: 90\nActual:   100\n  Stack Trace:\n"
    "     at Shop.Tests.CartTests.Total() in CartTests.cs:line 14\n\n"
    "Failed!  - Failed:     1, Passed:     4, Skipped:     0, Total:     5"
)
GRADLE = (
    "Exit code 1\n> Task :app:test FAILED\n\nCartTest > total() FAILED\n"
    "    org.opentest4j.AssertionFailedError at CartTest.java:12\n\n3 tests completed, 1 failed\n\n"
    "FAILURE: Build failed with an exception."
)
MOCHA = (
    "Exit code 1\n\n  Cart\n    1) applies the discount\n\n  0 passing (6ms)\n  1 failing\n\n"
    "  1) Cart\n       applies the discount:\n\n"
    "      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n100 !== 90\n\n"
    "      at Context.<anonymous> (test/cart.test.js:9:12)"
)


def line_of(result: str) -> str:
    outcome = read_outcome(result, "x", is_error=True)
    assert outcome is not None
    return str(outcome["line"])


# -- the reason joined to the failing test's name ----------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "line"),
    [
        (go("got 0.75, want 0.075"), "--- FAIL: TestParseRate — rate_test.go:18: got 0.75, want 0.075"),
        (
            go("got 0.75, want 0.075", verbose=True),  # -v prints the test's output above its FAIL line
            "--- FAIL: TestParseRate — rate_test.go:18: got 0.75, want 0.075",
        ),
        (
            "Exit code 2\n--- FAIL: TestParseRate (0.00s)\npanic: runtime error: index out of range [3]\n"
            "\ngoroutine 7 [running]:\nFAIL\tgithub.com/acme/rates\t0.005s",
            "--- FAIL: TestParseRate — panic: runtime error: index out of range [3]",
        ),
        (
            jest("100"),
            "● Cart › applies the discount — expect(received).toBe(expected) // Object.is equality; "
            "Expected: 90; Received: 100",
        ),
        (
            cargo("src/lib.rs:41:9:\nassertion `left == right` failed\n  left: 5\n right: 6"),
            "test tests::sums — assertion `left == right` failed; left: 5; right: 6",
        ),
        (
            cargo("'called `Option::unwrap()` on a `None` value', src/lib.rs:41:9"),  # before Rust 1.73
            "test tests::sums — called `Option::unwrap()` on a `None` value",
        ),
        (
            rspec("       expected: 120\n            got: 100"),
            "Invoice#total applies VAT — Failure/Error: expect(invoice.total).to eq(120); "
            "expected: 120; got: 100",
        ),
        (
            rspec("     NoMethodError:\n       undefined method `rate' for nil"),
            "Invoice#total applies VAT — Failure/Error: expect(invoice.total).to eq(120); NoMethodError: "
            "undefined method `rate' for nil",
        ),
        (PHPUNIT, "Tests\\CartTest::testTotal — Failed asserting that 100 is identical to 90."),
        (
            DOTNET,
            "Failed Shop.Tests.CartTests.Total — Assert.Equal() Failure: Values differ; Expected: 90; "
            "Actual:   100",
        ),
        (GRADLE, "CartTest > total() — org.opentest4j.AssertionFailedError at CartTest.java:12"),
        (
            MOCHA,
            "1) Cart applies the discount — AssertionError [ERR_ASSERTION]: Expected values to be strictly "
            "equal: 100 !== 90",
        ),
    ],
)
def test_a_line_naming_the_failing_test_carries_why_it_failed(result: str, line: str) -> None:
    assert line_of(result) == line
    assert error_line(result.replace("\n", "\r\n")) == line  # the line-by-line reading agrees


def test_different_failures_of_one_test_read_as_different_errors() -> None:
    assert line_of(go("got 7.5, want 0.075")) != line_of(go("got 0.75, want 0.075"))
    assert line_of(jest("100")) != line_of(jest("undefined"))
    assert line_of(cargo("src/lib.rs:4:9:\nattempt to subtract with overflow")) != line_of(
        cargo("src/lib.rs:4:9:\nassertion failed: total > 0")
    )


@pytest.mark.parametrize(
    "result",
    [
        "Exit code 1\nE       assert 4 == 3\nFAILED tests/test_x.py::test_y - assert 4 == 3",
        "Exit code 1\nFAIL src/cart.test.js\n  ● Cart › adds\n\n    TypeError: cart.add is not a function",
        "Exit code 1\nsrc/a.ts(3,1): error TS2304: Cannot find name 'x'.",
    ],
)
def test_a_line_that_already_says_why_is_kept_as_it_is(result: str) -> None:
    outcome = read_outcome(result, "x", is_error=True)
    assert outcome is not None and " — " not in outcome["line"]


def test_a_test_line_with_no_reason_in_sight_stays_as_it_was() -> None:
    assert line_of("Exit code 1\n--- FAIL: TestParseRate (0.00s)\nFAIL") == "--- FAIL: TestParseRate (0.00s)"
    assert explained("Failures:\n", "Failures:") == "Failures:"


def test_the_joined_line_is_capped_and_redacted_like_any_other() -> None:
    name = "T" + "x" * 150
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    result = f"Exit code 1\n--- FAIL: {name} (0.00s)\n    a_test.go:3: token {secret} rejected " + "y" * 300
    line = line_of(result)
    assert len(line) == LINE_CAP and line.endswith("…")
    assert line.startswith("--- FAIL: T") and line.index(" — ") == NAME_CAP
    assert secret not in line


_PIECES = st.sampled_from(
    [
        "--- FAIL: TestA (0.00s)",
        "    a_test.go:3: want 1",
        "  ● S › t",
        "    Expected: 1",
        "Failures:",
        "1 failing",
        "  1) S",
        "     Failure/Error: x",
        "thread 't' panicked at a.rs:1:1:",
        "note: x",
        "There was 1 failure:",
        "1) T::t",
        "  Failed A.B [1 ms]",
        "X > t() FAILED",
        "panic: boom",
        "",
        " ",
        "\t",
    ]
)


@given(st.lists(st.one_of(_PIECES, st.text(max_size=20)), max_size=12), _PIECES)
def test_reading_a_reason_never_raises(lines: list[str], chosen: str) -> None:
    assert isinstance(explained("\n".join(lines), chosen), str)


@given(st.lists(st.one_of(_PIECES, st.text(max_size=20)), max_size=12))
def test_a_reader_whose_text_is_absent_would_have_read_nothing(lines: list[str]) -> None:
    """``explained`` runs a runner's reader only on a text holding that reader's piece of text."""
    text = "\n".join(lines)
    for needle, read in failing_test._READERS:
        if needle not in text:
            assert read(text.splitlines()) is None, needle


def test_a_piped_run_carries_the_reason_in_its_outcome() -> None:
    outcome = read_outcome(
        jest("100").removeprefix("Exit code 1\n"), "npm test 2>&1 | tail -30", is_error=False
    )
    assert outcome is not None and outcome["failed"] and "Received: 100" in outcome["line"]


# -- the trigger: progress under one test's name, and its loop -----------------------------------------------


def fail_read(session: Session, command: str, result: str) -> None:
    """A failed command as the projector records it: the error head plus the outcome read from it."""
    tool_use_id = session.run(command)
    session.observations.append(
        Observation(
            kind="error",
            text=result[:400],
            tool="Bash",
            tool_use_id=tool_use_id,
            outcome=read_outcome(result, command, is_error=True),
        )
    )


def test_a_new_reason_under_the_same_test_after_each_edit_is_progress() -> None:
    s = Session()
    for message in ("got 7.5, want 0.075", 'parsing "7.5%": invalid syntax', "got 0.012, want 0.12"):
        fail_read(s, "go test ./internal/rates/ -run TestParseRate", go(message))
        s.edit("/repo/internal/rates/rate.go")
    assert fire(s) is None


def test_the_same_reason_under_the_same_test_after_edits_is_a_loop() -> None:
    s = Session()
    for index, command in enumerate(("go test ./pkg/", "go test -v ./pkg/", "go test ./pkg/ -count=1")):
        fail_read(s, command, go("got 0.75, want 0.075", verbose=index == 1))
        s.edit("/repo/pkg/format.go")
    match = fire(s)
    assert match is not None and match.data["failures"] == 3
    assert match.data["error"] == "--- FAIL: TestParseRate — rate_test.go:18: got 0.75, want 0.075"


# -- a chain is its steps ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("npm run build && npm test", "npm run build && npm run lint"),
        ("mise run fmt && mise run lint", "mise run fmt"),
        ("mise run fmt && mise run lint", "mise run lint && mise run fmt"),
        ("export X=a && ./run.sh", "export X=b && ./run.sh"),
        ("export X=a && ./run.sh", "./run.sh"),
        ("make build; make test", "make build && make test"),
    ],
)
def test_chains_with_different_steps_are_different_work(left: str, right: str) -> None:
    assert work_identity(left).key != work_identity(right).key


@pytest.mark.parametrize(
    "spellings",
    [
        ["npm test", "cd /repo && npm test", "CI=1 npm test 2>&1 | tail -20", "npm test; echo $?"],
        ["pytest tests/a.py", "pytest tests/a.py || echo failed", "mkdir -p out && pytest tests/a.py"],
        ["source .venv/bin/activate && pytest", "pytest", ". .venv/bin/activate; pytest"],
        ["npm run build && npm test", "CI=1 npm run build && npm test -- --silent 2>&1 | tail -5"],
        ["export A=1 B=2 && make test", "export B=2 A=1 && make test"],
    ],
)
def test_steps_that_do_no_work_are_not_part_of_a_chain(spellings: list[str]) -> None:
    # the body: a command naming no directory continues the target of one that did (the trigger's `_target`)
    assert len({work_identity(command).body for command in spellings}) == 1


def test_the_chain_keeps_its_directory_and_probes_stay_probes() -> None:
    assert work_identity("cd web && npm ci && npm test").directory == "web"
    assert work_identity("cd web && npm ci && npm test").steps[1].key == "[web] js-test"
    assert work_identity("sleep 5 && curl -s localhost:3000/health && npm test").probe


def test_runs_tests() -> None:
    tests = ["npm test", "go test ./...", "cargo test x", "make test", "bundle exec rspec", "mise run test"]
    assert all(runs_tests(work_identity(command)) for command in tests)
    assert not any(runs_tests(work_identity(command)) for command in ("npm ci", "npm run build", "go vet"))


@pytest.mark.parametrize(
    ("command", "counts", "failed"),
    [
        ("npm ci && npm test", {"failed": 1, "passed": 11}, "js-test"),
        ("npm ci && npm test", {"errors": 2}, "npm ci && js-test"),  # not tests failing: the whole chain
        ("npm ci && npm test", {}, "npm ci && js-test"),
        ("npm test && npm run test:e2e", {"failed": 1}, "js-test && js-script test:e2e"),  # two test steps
        ("npm test && npm run lint", {"passed": 12}, "js-test && js-script lint"),  # tests passed: not them
        ("export CI=1 && npm ci && npm test", {"failed": 2}, "export CI=1 && js-test"),
    ],
)
def test_the_failed_step_of_a_chain_is_read_from_failing_test_counts(
    command: str, counts: dict[str, int], failed: str
) -> None:
    assert failed_step(work_identity(command), {"failed": True, "counts": counts}).body == failed


@pytest.mark.parametrize(
    ("command", "text", "failed"),
    [
        (
            "mise run fmt && mise run lint",
            "[error] Bash: Exit code 1\n[fmt] $ gofmt -w .\n[lint] $ golangci-lint\n[lint] ERROR task failed",
            "mise run lint",
        ),
        (
            "npm run build && npm run lint",
            "npm error Lifecycle script `lint` failed with error:",
            "js-script lint",
        ),
        ("npm ci && npm test", "npm ERR! Lifecycle script `test` failed", "js-test"),
        ("make fmt && make lint", "x.c:3: warning\nmake: *** [Makefile:9: lint] Error 1", "make lint"),
        ("make fmt && make lint", "make[1]: *** [lint] Error 2", "make lint"),
        (
            "make build && make test",
            "make: *** [Makefile:4: deps] Error 1",
            "make build && make test",
        ),  # no step
        (
            "make lint && make lint-docs",
            "[lint] ERROR task failed",
            "make lint && make lint-docs",
        ),  # not mise's
        ("mise run lint && mise run fmt", "lint failed", "mise run lint && mise run fmt"),  # no task named
    ],
)
def test_the_failed_step_of_a_chain_is_the_task_its_runner_says_failed(
    command: str, text: str, failed: str
) -> None:
    assert failed_step(work_identity(command), {"failed": True}, text).body == failed


def test_a_chain_whose_tests_fail_is_that_test_run_failing() -> None:
    s = Session()
    fail_read(s, "npm ci && npm test", jest("100"))
    s.edit("/repo/src/discount.js")
    fail_read(s, "npm test", jest("100"))
    s.edit("/repo/src/discount.js")
    fail_read(s, "npm test -- --silent", jest("100"))
    match = fire(s)
    assert match is not None and match.data["failures"] == 3 and match.data["normalised"] == "js-test"


def test_three_checks_in_one_chain_prefix_are_three_pieces_of_work() -> None:
    s = Session()
    for check in ("npm test", "npm run lint", "npm run typecheck"):
        s.fail(f"npm run build && {check}", "Exit code 1\nerror: it broke")
    assert fire(s) is None


def test_a_chain_of_and_steps_succeeding_ends_each_steps_streak() -> None:
    s = Session()
    fail_read(s, "npm test", jest("100"))
    fail_read(s, "npm test", jest("100"))
    s.run("npm ci && npm test")  # every step ran and passed
    s.say("passing now")
    fail_read(s, "npm test", jest("100"))
    assert fire(s) is None
