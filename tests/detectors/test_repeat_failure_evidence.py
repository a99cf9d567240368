"""repeat-failure judged from what attempts show, not from a table of tools (issue 22, item 1).

Every command here is a tool no table of the built-in pack names (gleam, crystal, nimble, roc, elm-test,
bal, clj, raco): what decides is the evidence any tool shows — an option's value that only tunes the run,
a directory given either way, an error repeating or changing, what came between two attempts.
"""

from __future__ import annotations

import pytest
from sbcore.detectors.identity import only_waits, work_identity
from sbcore.detectors.triggers import error_headline, repeat_failure

from sbcore.observe.outcome import error_line
from sbcore.observe.project_facts import ProjectFacts
from tests.detectors.test_triggers import Session, fire

UNDEFINED = "Exit code 1\nError: undefined method 'total' for Cart (compile-time type is Cart)"


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("gleam test --seed 42", "gleam test --seed 7"),  # a seed tunes the run
        ("gleam test", "gleam test --timeout=30s"),  # so does a timeout
        ("crystal spec -j 8", "crystal spec --jobs 2"),  # and a parallelism, short or long
        ("raco test --color never src", "raco test src"),  # and a colour mode
        ("cd services/orders && bal test", "bal test --working-directory services/orders"),
        ("cd apps/web && nimble test", "nimble test --dir=apps/web/"),
    ],
)
def test_values_that_tune_and_directory_options_are_the_same_work(left: str, right: str) -> None:
    assert work_identity(left).key == work_identity(right).key


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("gleam test --target erlang", "gleam test --target javascript"),  # a selection, not a mode
        ("raco test src", "raco test tests"),
        ("clj -X:test :ns orders", "clj -X:test :ns billing"),
        ("bal test --working-directory a", "bal test --working-directory b"),
    ],
)
def test_what_selects_the_work_keeps_it_apart(left: str, right: str) -> None:
    assert work_identity(left).key != work_identity(right).key


def test_one_tool_spelt_with_options_it_alone_knows_is_tied_by_its_error() -> None:
    s = Session()
    s.fail("crystal spec", UNDEFINED)
    s.fail("crystal spec --error-trace", UNDEFINED)
    s.fail("crystal spec --order=random --no-color", UNDEFINED)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_disjoint_selections_failing_alike_stay_apart() -> None:
    s = Session()
    for spec in ("spec/cart_spec.cr", "spec/order_spec.cr", "spec/user_spec.cr"):
        s.fail(f"crystal spec {spec}", UNDEFINED)
    assert fire(s) is None


def test_a_build_and_test_chain_and_its_test_step_are_one_loop() -> None:
    error = "Exit code 1\nError: tests/tcart.nim(14, 8) Check failed: cart.total == 3"
    s = Session()
    s.fail("nimble build && nimble test", error)
    s.fail("nimble test", error)
    s.fail("nimble build && nimble test", error)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_a_different_error_after_looking_around_is_investigation_not_a_loop() -> None:
    s = Session()
    s.fail("elm-test", "Exit code 1\nI cannot find module 'Cart.Total'")
    s.run("cat elm.json")
    s.fail("elm-test", "Exit code 1\nelm: Map.!: given key is not an element in the map")
    s.run("ls tests")
    s.fail("elm-test", "Exit code 1\nTEST RUN FAILED: 1 failed, 0 passed; Expect.equal 3 4")
    assert fire(s) is None


def test_the_same_error_after_a_command_that_changed_something_is_a_fix_that_did_not_take() -> None:
    s = Session()
    s.fail("roc test", "Exit code 1\nerror: could not find platform package basic-cli")
    s.run("roc build --bundle .tar.br platform/main.roc")
    s.fail("roc test", "Exit code 1\nerror: could not find platform package basic-cli")
    s.run("rm -rf ~/.cache/roc/packages")
    s.fail("roc test", "Exit code 1\nerror: could not find platform package basic-cli")
    assert fire(s) is not None


def test_run_again_straight_away_it_is_a_blind_retry_whatever_it_printed() -> None:
    s = Session()
    s.fail("bal push", "Exit code 1\nerror: unauthorized: token expired")
    s.fail("bal push", "Exit code 1\nerror: unauthorized: token expired")
    s.fail("bal push", "Exit code 1\nerror: connection reset by peer")
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def _prompt(s: Session, text: str) -> None:
    from sbcore.api import Observation

    s.observations.append(Observation(kind="prompt", text=f"[prompt] {text}", timestamp=s._stamp()))


def test_a_retry_the_user_answered_for_in_any_words_is_theirs() -> None:
    s = Session()
    error = "Exit code 1\nError: quota exceeded for project sb-staging"
    s.fail("clj -X:deploy", error)
    _prompt(s, "I've bumped the quota on my side, go")
    s.fail("clj -X:deploy", error)
    _prompt(s, "ok now it should be fine")
    s.fail("clj -X:deploy", error)
    assert fire(s) is None


def test_a_prompt_about_something_else_does_not_excuse_the_loop() -> None:
    s = Session()
    error = "Exit code 1\nError: quota exceeded for project sb-staging"
    s.fail("clj -X:deploy", error)
    s.fail("clj -X:deploy", error)
    _prompt(s, "also, can you rename the deploy alias later?")
    s.run("cat deps.edn")
    s.fail("clj -X:deploy", error)
    assert fire(s) is not None
    interrupted = Session()
    interrupted.fail("clj -X:deploy", error)
    _prompt(interrupted, "[Request interrupted by user for tool use]")
    interrupted.fail("clj -X:deploy", error)
    interrupted.fail("clj -X:deploy", error)
    assert fire(interrupted) is not None


def test_polling_wrapped_in_another_program_or_split_over_calls_is_not_a_loop() -> None:
    wrapped = Session()
    for _ in range(3):
        wrapped.fail("timeout 120 sh -c 'until roc check; do sleep 3; done'", "Exit code 124\ntimed out")
    assert fire(wrapped) is None
    split = Session()
    for _ in range(3):
        split.fail("clj -X:smoke", "Exit code 1\nError: connection refused localhost:7000")
        split.run("sleep 20")
    assert fire(split) is None
    assert only_waits("sleep 20") and only_waits("sleep 5 && echo ready")
    assert not only_waits("sleep 2; gleam test")


ROOT_UNDER_BANNERS = (
    "Exit code 1\n"
    "> Task :spec FAILED\n"
    "spec/cart_spec.cr:12: assertion failed: expected 3, got 4\n"
    "error: recipe `spec` failed on line 2 with exit code 1"
)


def test_the_root_error_is_quoted_not_a_runners_banner() -> None:
    assert error_headline(ROOT_UNDER_BANNERS) == "spec/cart_spec.cr:12: assertion failed: expected 3, got 4"
    assert error_line(ROOT_UNDER_BANNERS) == "spec/cart_spec.cr:12: assertion failed: expected 3, got 4"
    only_banners = "Exit code 2\nmake: *** [Makefile:9: spec] Error 1"
    assert error_line(only_banners) == "make: *** [Makefile:9: spec] Error 1"  # nothing better to quote


def test_two_root_errors_under_one_banner_are_two_failures() -> None:
    banner = "\nerror: script `test` exited with code 1"
    s = Session()
    s.fail("gleam test", "Exit code 1\nerror: Unknown variable `totl`" + banner)
    s.edit("src/cart.gleam")
    s.fail("gleam test", "Exit code 1\nerror: Type mismatch in `total`" + banner)
    s.edit("src/cart.gleam")
    s.fail("gleam test", "Exit code 1\npanic: assertion 3 == 4 failed" + banner)
    assert fire(s) is None


def test_a_project_script_and_the_command_its_manifest_gives_it_are_one_piece_of_work() -> None:
    error = "Exit code 1\nraco test: 1/3 test failures in src/cart.rkt: total: expected 3, got 4"
    s = Session()
    s.fail("just verify", error)
    s.edit("src/cart.rkt")
    s.fail("just verify", error)
    s.edit("src/cart.rkt")
    s.fail("raco test src", error)
    # the session ties the recipe to the command: one specific error from both, the edits between left it
    assert (match := fire(s)) is not None and match.data["failures"] == 3
    # the manifest ties them by name, before any error could
    project = ProjectFacts(root="/repo", paths=("justfile",), scripts={"verify": "raco test src"})
    match = repeat_failure(s.observations, {"min_failures": 3}, {}, project)
    assert match is not None and match.data["failures"] == 3 and match.key == "raco test src"
