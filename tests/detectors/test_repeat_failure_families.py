"""repeat-failure on families of sessions no rule was written for (issue 22, second round).

Found by replaying loops written for ecosystems the tables never named (OpenTofu, Leiningen, Ant, V,
Perl's prove): the same failure came back three times, yet nothing fired. Each rule here reads evidence
any tool shows, and each test uses a tool named in no table of the built-in pack:

- a long option naming the working directory is one whatever its dashes (`tofu -chdir=infra plan`);
- a project script run by its relative path is one script, however it is started;
- an edit between two spellings that left their one specific error as it was does not untie them;
- a program with no selection runs everything, so it includes any selection of its own; a path inside
  a folder is part of that folder's selection;
- a failure hidden by a pipe (`| tail`, `| tee`) is read from the runner's own failure banner or counts
  (`[ERROR]`, `BUILD FAILED`, `Result: FAIL`, `1 failures`), and the assertion under it is quoted.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sbcore.detectors import retries_asked
from sbcore.detectors.identity import work_identity
from sbcore.detectors.triggers import repeat_failure

from sbcore.observe.model import Observation
from sbcore.observe.outcome import error_line, read_outcome
from sbcore.observe.project import Projector
from tests.detectors.test_triggers import Session, fire
from tests.observe.test_log_reads import bash_records

NO_PROVIDER = (
    'Exit code 1\n│ Error: Invalid provider configuration\n│ Provider "acme" requires explicit configuration.'
)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("cd infra && tofu plan", "tofu -chdir=infra plan"),  # one dash or two, a directory option
        ("cd infra && tofu plan", "tofu --chdir infra plan"),
        ("python tools/seed.py --dry-run", "tools/seed.py --dry-run"),  # a script by its relative path
        ("python3 tools/seed.py", "./tools/seed.py"),
    ],
)
def test_directory_options_and_script_paths_are_the_same_work(left: str, right: str) -> None:
    assert work_identity(left).key == work_identity(right).key


@pytest.mark.parametrize(
    "wrapped",
    [
        "bash -c 'tofu plan'",  # a shell handed the work as one string
        "sh -ec 'tofu plan'",
        "nix-shell --run 'tofu plan'",
        "nix develop -c tofu plan",
        "timeout --signal=KILL 600 tofu plan",  # wrappers with options of their own
        "timeout -k 10 5m tofu plan",
        "/usr/bin/time -v tofu plan",
        "nice -n 10 tofu plan",
        "stdbuf -oL tofu plan",
        "env -u TF_LOG tofu plan",
        "direnv exec . tofu plan",
        "tofu plan > plan.log 2>&1; tail -40 plan.log",  # output sent to a file, then read
        "tofu plan 2> err.log",
    ],
)
def test_wrappers_shells_and_redirections_leave_the_work_as_it_is(wrapped: str) -> None:
    assert work_identity(wrapped).key == work_identity("tofu plan").key


def test_a_shell_string_keeps_its_own_directory_and_polling() -> None:
    assert work_identity("bash -c 'cd infra && tofu plan'").key == work_identity("cd infra && tofu plan").key
    assert work_identity("timeout 60 sh -c 'until tofu plan; do sleep 5; done'").probe
    assert work_identity("bash -x scripts/plan.sh").key == work_identity("./scripts/plan.sh").key
    assert work_identity("psql < a.sql").key != work_identity("psql < b.sql").key  # what it reads stays


def test_a_loop_with_edits_between_and_the_spelling_changing_each_time_is_caught() -> None:
    s = Session()
    s.fail("cd infra && tofu plan", NO_PROVIDER)
    s.edit("/repo/infra/providers.tf")
    s.fail("tofu -chdir=infra plan -no-color", NO_PROVIDER)
    s.edit("/repo/infra/providers.tf")
    s.fail("cd infra && tofu plan -no-color", NO_PROVIDER)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3 and match.data["edits_between"] == 2


SPEC = "Exit code 1\nsrc/cart_test.v:12: fn test_total\n   > assert c.total() == 3\n     Left value: 4"


def test_a_selection_inside_the_folder_run_before_is_the_same_work_through_edits() -> None:
    s = Session()
    s.fail("v test src", SPEC)
    s.edit("/repo/src/cart.v")
    s.fail("v test src/cart_test.v", SPEC)
    s.edit("/repo/src/cart.v")
    s.fail("v -stats test src/cart_test.v", SPEC)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_the_program_with_no_selection_includes_any_of_its_selections() -> None:
    failure = (
        "Exit code 1\nFAIL in (test-total) (core_test.clj:9)\n"
        "expected: (= 3 (total cart))\n  actual: (not (= 3 4))"
    )
    s = Session()
    s.fail("lein test", failure)
    s.edit("/repo/src/orders/core.clj")
    s.fail("lein test :only orders.core-test", failure)
    assert fire(s) is None
    s.edit("/repo/src/orders/core.clj")
    s.fail("lein test :only orders.core-test/test-total", failure)  # one test of that namespace
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


# One error each of two targets can meet on its own (a missing module), at no place in a file.
MISSING = "Exit code 1\nerror: cannot import module `shared` (not found)"


def test_disjoint_selections_stay_apart_through_edits_too() -> None:
    s = Session()
    for name in ("src/cart_test.v", "src/order_test.v", "src/user_test.v"):
        s.fail(f"v test {name}", MISSING)
        s.edit("/repo/src/shared.v")
    assert fire(s) is None


def test_a_folder_named_like_the_subcommand_is_not_a_container() -> None:
    s = Session()
    for name in ("test/cart_test.v", "test/order_test.v", "test/user_test.v"):
        s.fail(f"v test {name}", MISSING)
    assert fire(s) is None


# -- failures a pipe hides ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "output"),
    [
        (
            "ant test 2>&1 | tail -5",
            "test:\n    [junit] Tests run: 4, Failures: 1, Errors: 0\n\n"
            "BUILD FAILED\n/repo/build.xml:41: Test failed",
        ),
        ("lein test | tee test.log", "Ran 3 tests containing 5 assertions.\n1 failures, 0 errors."),
        ("prove -l t 2>&1 | tail -3", "Files=1, Tests=6,  0 wallclock secs\nResult: FAIL"),
        (
            "ant dist 2>&1 | tail",
            "[ERROR] /repo/src/Cart.java:[14,9] cannot find symbol\n[ERROR]   symbol: method total()",
        ),
    ],
)
def test_a_runner_banner_shows_the_failure_a_pipe_hid(command: str, output: str) -> None:
    outcome = read_outcome(output, command, is_error=False)
    assert outcome is not None and outcome["failed"]


@pytest.mark.parametrize(
    "output",
    [
        "BUILD SUCCESSFUL\nTotal time: 3 seconds",
        "Ran 3 tests containing 5 assertions.\n0 failures, 0 errors.",
        "Tests run: 4, Failures: 0, Errors: 0",
        "Result: PASS",
    ],
)
def test_a_passing_summary_stays_a_success(output: str) -> None:
    outcome = read_outcome(output, "ant test | tail", is_error=False)
    assert outcome is None or not outcome["failed"]


def test_the_assertion_is_quoted_over_level_tags_and_the_runners_banner() -> None:
    text = (
        "[ERROR] Failed to execute goal on project core: There are test failures.\n[ERROR] \n"
        "[ERROR]   CartTest.total:31 expected:<3> but was:<4>"
    )
    assert error_line(text) == "[ERROR]   CartTest.total:31 expected:<3> but was:<4>"


def transcript(*steps: tuple[str, str, int]) -> list[bytes]:
    """A session running each (command, output, exit code), an edit after each; as transcript lines."""
    lines: list[dict[str, Any]] = []
    for index, (command, output, code) in enumerate(steps):
        call = f"toolu_{index:03d}"
        stamp = f"2026-01-01T10:{index * 2:02d}:00Z"
        use = {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": command}}
        lines.append(
            {"type": "assistant", "timestamp": stamp, "message": {"role": "assistant", "content": [use]}}
        )
        content = (f"Exit code {code}\n" if code else "") + output
        result = {"type": "tool_result", "tool_use_id": call, "content": content, "is_error": bool(code)}
        lines.append({"type": "user", "timestamp": stamp, "message": {"role": "user", "content": [result]}})
        edit = {
            "type": "tool_use",
            "id": f"edit_{index}",
            "name": "Edit",
            "input": {"file_path": "/repo/build.xml"},
        }
        lines.append(
            {"type": "assistant", "timestamp": stamp, "message": {"role": "assistant", "content": [edit]}}
        )
    return [json.dumps(line).encode() for line in lines]


def test_a_loop_behind_a_pipe_is_caught_from_the_projected_session() -> None:
    output = (
        "    [junit] Tests run: 4, Failures: 1, Errors: 0\n"
        "    [junit] CartTest.total: expected:<3> but was:<4>\n\nBUILD FAILED"
    )
    lines = transcript(*[(f"ant test 2>&1 | tail -{n}", output, 0) for n in (20, 30, 40)])
    observations = Projector().feed_lines(lines)
    match = repeat_failure(observations, {}, {})
    assert match is not None and match.data["failures"] == 3
    assert "expected:<3> but was:<4>" in match.data["error"]


# -- tuned on blind batch b1 (tuning split), written with tools of no table -----------------------------


def test_a_line_or_a_test_of_a_file_is_part_of_that_file() -> None:
    failure = "Exit code 1\nAssertion with == failed\ncode: assert Cart.total(c) == 107.00\nleft: 106.99"
    s = Session()
    s.fail("roc test tests/cart.roc", failure)
    s.run("grep -n total src/cart.roc")
    s.fail("roc test tests/cart.roc:42", failure)
    s.run("cat src/cart.roc")
    s.fail("roc test tests/cart.roc::total", failure)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_different_subcommands_of_one_program_failing_alike_are_one_failure() -> None:
    """The failure sits under both (a dependency that cannot build): `gleam test`, `gleam build`, `gleam
    deps download && gleam build` all stop at the same specific error."""
    failure = "Exit code 1\nerror: Dependency build failed: esqlite: cc: No such file or directory"
    s = Session()
    s.fail("gleam test", failure)
    s.fail("gleam build", failure)
    s.fail("gleam deps download && gleam build", failure)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_two_named_scripts_stay_two_works_though_they_fail_alike() -> None:
    failure = "Exit code 1\nerror: Dependency build failed: esqlite: cc: No such file or directory"
    s = Session()
    s.fail("just lint", failure)
    s.fail("just typecheck", failure)
    s.fail("just docs", failure)
    assert fire(s) is None


def test_a_failure_joins_the_streak_it_repeats_whatever_failed_in_between() -> None:
    """The same error three times, another tool's different error between the second and the third: the
    third still joins the first two (a chain holding their step)."""
    failure = "Exit code 1\nerror: Target of URI hasn't been generated: 'note.g.ext' (lib/note.ext:6)"
    s = Session()
    s.fail("hare build", failure)
    s.fail("hare build", failure)
    s.fail("harec -o out lib/note.ha", "Exit code 1\nlib/note.ha:6:6: error: unknown module note_g")
    s.fail("rm -rf .cache && hare build", failure)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_a_formatters_line_and_the_tools_line_of_one_assertion_are_one_failure() -> None:
    formatted = 'Exit code 2\n✗ testTotal, CheckEqual failed: ("21.0") is not equal to ("21.5")'
    raw = (
        "Exit code 65\n/src/CartTests.ext:34: error: -[CartTests testTotal] : CheckEqual failed: "
        '("21.0") is not equal to ("21.5")'
    )
    s = Session()
    s.fail("just check", formatted)
    s.fail("odin test cart -all-packages", raw)
    s.fail("odin test cart", raw)
    s.fail("just check", formatted)
    match = fire(s)
    assert match is not None and match.data["failures"] == 4


def test_another_name_before_one_ending_is_another_failure() -> None:
    s = Session()
    for name in ("discount", "total", "subtotal"):
        s.fail("odin check src", f"Exit code 1\nsrc/cart.odin:12:7: '{name}' is declared but not used here")
        s.edit("/repo/src/cart.odin")
    assert fire(s) is None


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("tofu plan -parallelism 2G", "tofu plan -parallelism 512M"),  # a size tunes the run
        ("tofu plan --output table", "tofu plan --output raw"),  # and so does a display mode
    ],
)
def test_sizes_and_display_modes_are_tuning_values(left: str, right: str) -> None:
    assert work_identity(left).key == work_identity(right).key


def test_an_echoed_command_is_never_the_error_quoted() -> None:
    text = (
        "> phpstan analyse --memory-limit=512M '--error-format=table'\n"
        "set -o pipefail && xcodebuild test | xcpretty\n"
        "  88  Method Gateway::fetch() should return string but returns int."
    )
    assert error_line(text) == "88  Method Gateway::fetch() should return string but returns int."


def _asked(s: Session, text: str) -> None:
    s.observations.append(
        Observation(kind="prompt", text=f"[prompt] {text}", timestamp="2026-01-01T09:59:00Z")
    )


FETCH = "Exit code 1\nerror: unable to fetch https://pkgs.example/acme.tar.gz: ConnectionTimedOut"


@pytest.mark.parametrize(
    "prompt",
    [
        "the proxy is flaky today, just rerun it a few times until it gets through",
        "Keep trying the sync, the mirror comes back within a minute or two",
        "retry the deploy until it works, the registry is rate limiting us",
    ],
)
def test_retries_the_user_asked_for_before_the_loop_are_theirs(prompt: str) -> None:
    """A grant said before the first attempt, in the user's own words: running it again straight away is
    what they asked for (a tool named in no table: `kraftpkg`)."""
    s = Session()
    _asked(s, prompt)
    for _ in range(4):
        s.fail("kraftpkg sync --locked", FETCH)
    assert fire(s) is None


def test_a_prompt_that_asks_for_no_retry_leaves_the_blind_loop_a_loop() -> None:
    s = Session()
    _asked(s, "the sync fails again, can you fix it?")
    for _ in range(3):
        s.fail("kraftpkg sync --locked", FETCH)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_asked_retries_do_not_excuse_fixes_that_do_not_take() -> None:
    """The grant covers running it again, not editing around the same error three times."""
    s = Session()
    _asked(s, "rerun the sync until it works")
    s.fail("kraftpkg sync --locked", FETCH)
    s.edit("/repo/kraft.toml")
    s.fail("kraftpkg sync --locked", FETCH)
    s.edit("/repo/kraft.toml")
    s.fail("kraftpkg sync --locked", FETCH)
    assert fire(s) is not None


_GRANT_PIECES = (
    *("rerun", "re-run", "RETRY", "re-try", "try it again", "Try again", "run that again", "a few times"),
    *("a couple of more times", "many times", "keep on trying", "Keep re-running", "keep running it"),
    *("until it works", "UNTIL IT CONNECTS", "until it goes through", "rerunning", "trying", "ſ", "K", "İ"),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_GRANT_PIECES), st.text(alphabet="aeiK sſt-İ\n", max_size=8))))
def test_a_prompt_asks_for_retries_where_the_pattern_finds_it(pieces: list[str]) -> None:
    """Prompts are tested for the pattern's words before its scan, and remembered: the same answers."""
    prompt = "".join(pieces)
    assert retries_asked.asks_retries(prompt) == bool(retries_asked.RETRIES_ASKED.search(prompt))


# -- tuned on blind batch b4 (tuning split), written with tools of no table -----------------------------


def test_a_pause_before_the_work_is_the_work_run_again_not_a_poll() -> None:
    assert work_identity("sleep 2; jpm test").probe is False
    assert work_identity("sleep 2 && jpm test").key == work_identity("jpm test").key
    # a wait that asks again and again, or asks after the wait, still polls
    assert work_identity("until jpm test; do sleep 2; done").probe
    assert work_identity("sleep 5 && curl -sf localhost:9000/ready").probe
    assert work_identity("sleep 10; tail -n 20 /tmp/jpm.log").probe
    failure = 'Exit code 1\ntest/parse.janet:14: assertion failed: (= (parse "1h30m") 5400)'
    s = Session()
    s.fail("jpm test", failure)
    s.run("cat src/parse.janet")
    s.fail("timeout 120 jpm test", failure)
    s.fail("sleep 2; jpm test", failure)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


GOT_OVER_TWO_LINES = (
    "  Compiling tempo\n    Running tests\n.......F..\nFailures:\n\n"
    "  1) parse_compound_test: module 'tempo_test'\n     Values were not equal\n"
    '     expected: Ok(5400)\n          got: Error(BadUnit("h30m"))\n\n10 tests, 1 failures'
)


def test_a_value_wanted_over_a_value_got_is_the_reason_under_a_failures_heading() -> None:
    """Any runner printing the two values on two lines, under a heading that only says failures follow."""
    assert error_line(GOT_OVER_TWO_LINES) == (
        "parse_compound_test: module 'tempo_test' — Values were not equal; expected: Ok(5400); "
        'got: Error(BadUnit("h30m"))'
    )
    assert error_line(GOT_OVER_TWO_LINES.replace("\n", "\r\n")) == error_line(GOT_OVER_TWO_LINES)


def test_a_loop_quoting_a_two_line_assertion_is_caught_and_a_new_value_is_progress() -> None:
    """The count line and the heading are the same every run; only the assertion tells two failures
    apart, so it is what the signature reads."""
    same = [(command, GOT_OVER_TWO_LINES, 1) for command in ("arx test", "arx test -v", "arx test --seed 7")]
    match = repeat_failure(Projector().feed_lines(transcript(*same)), {}, {})
    assert match is not None and match.data["failures"] == 3
    assert match.data["error"].endswith('expected: Ok(5400); got: Error(BadUnit("h30m"))')
    moving = [
        ("arx test", GOT_OVER_TWO_LINES, 1),
        ("arx test", GOT_OVER_TWO_LINES.replace('"h30m"', '"30m"'), 1),
        ("arx test", GOT_OVER_TWO_LINES.replace('"h30m"', '"m"'), 1),
    ]
    assert repeat_failure(Projector().feed_lines(transcript(*moving)), {}, {}) is None


UNDEFINED_AT = (
    "ponyc -o build src\nBuilding builtin -> /usr/lib/pony/builtin\n"
    "src/geo.pony:44:19: couldn't find 'haversine' in 'GeoMath'\n"
    "    let d = GeoMath.haversine(a, b)\n                  ^\n"
    "make: *** [Makefile:4: all] Error 1"
)


def test_a_diagnostic_at_a_file_line_is_quoted_over_an_echoed_recipe() -> None:
    assert error_line(UNDEFINED_AT) == "src/geo.pony:44:19: couldn't find 'haversine' in 'GeoMath'"
    warned = "src/geo.pony:3:1: warning: unused variable x\nsrc/geo.pony:9:2: can't reassign to a let field\n"
    assert error_line(warned) == "src/geo.pony:9:2: can't reassign to a let field"
    assert error_line("tests/geo.pony:12: in test_near\nValueError: bad point") == "ValueError: bad point"


def test_one_diagnostic_at_a_file_line_ties_whatever_ran_the_compiler() -> None:
    """The build by its task runner, after clearing the build output, then the compiler on the one file:
    every program met the same fault at the same place, and no edit between them reached it."""
    lines = transcript(
        ("make", UNDEFINED_AT, 2),
        ("rm -rf build && make", UNDEFINED_AT, 2),
        ("ponyc -o out --path lib src", "src/geo.pony:44:19: couldn't find 'haversine' in 'GeoMath'", 1),
    )
    match = repeat_failure(Projector().feed_lines(lines), {}, {})
    assert match is not None and match.data["failures"] == 3
    assert match.data["error"] == "src/geo.pony:44:19: couldn't find 'haversine' in 'GeoMath'"
    # two modules' builds stopped at one place in the code they share: one fault, whatever was built
    shared = transcript(
        *[(f"ponyc -o out src/{name}", UNDEFINED_AT.replace("make: ***", "x"), 1) for name in ("a", "b", "c")]
    )
    assert repeat_failure(Projector().feed_lines(shared), {}, {}) is not None
    # an error at no place, shared by three unrelated programs, ties nothing
    refused = "Exit code 1\nconnection refused: localhost:5432"
    apart = Session()
    for command in ("arx migrate", "psql -c 'select 1'", "arx seed"):
        apart.fail(command, refused)
    assert fire(apart) is None


def test_a_verdict_closing_a_line_shows_the_failure_a_pipe_hid() -> None:
    output = (
        "CartSuite > totals across a price change FAILED\n"
        "    java.lang.AssertionError: expected:<3> but was:<4>\n--\n> Task :core:check FAILED"
    )
    outcome = read_outcome(output, "./mill core.check 2>&1 | grep -A3 FAILED", is_error=False)
    assert outcome is not None and outcome["failed"]
    assert outcome["line"] == "java.lang.AssertionError: expected:<3> but was:<4>"
    passing = read_outcome("12 examples, 0 failed\nOK", "./mill core.check | tail -2", is_error=False)
    assert passing is not None and passing["failed"] is False  # none failed: a passing summary


KOTLINC_LIKE = (
    "> Task :app:compileGleam FAILED\n"
    "e: file:///home/dev/ledger/app/src/Ledger.kt:42:31 Unresolved reference 'toMoney'.\n\n"
    "FAILURE: Build failed with an exception.\n* What went wrong:\n"
    "org.gradle.api.tasks.TaskExecutionException: Execution failed for task ':app:compileGleam'."
)


def test_a_diagnostic_after_a_severity_letter_is_the_error_and_ties_the_build_spellings() -> None:
    assert error_line(KOTLINC_LIKE) == (
        "e: file:///home/dev/ledger/app/src/Ledger.kt:42:31 Unresolved reference 'toMoney'."
    )
    lines = transcript(
        ("./bldr build", KOTLINC_LIKE, 1),
        ("./bldr :app:compileGleam --stacktrace", KOTLINC_LIKE, 1),
        ("./bldr -q :app:build -x test", KOTLINC_LIKE, 1),
    )
    match = repeat_failure(Projector().feed_lines(lines), {}, {})
    assert match is not None and match.data["failures"] == 3


# -- tuned on blind batch b5 (tuning split), written with tools of no table -----------------------------


def test_where_a_run_puts_its_output_is_not_what_it_runs() -> None:
    plain = work_identity("gren make src/Main.gren").key
    assert work_identity("gren make src/Main.gren --output=/dev/null").key == plain
    assert work_identity("gren make src/Main.gren --optimize --output=public/app.js").key == plain
    assert work_identity("odin build src -o bin/app").key == work_identity("odin build src").key
    assert work_identity("odin build src -o bin/app").key != work_identity("odin build tools").key


GREN_MISMATCH = (
    "Compiling ...\nDetected problems in 1 module.\n"
    "-- TYPE MISMATCH ----------------------------------------- src/Page/Checkout.gren\n\n"
    "The 2nd argument to `viewSummary` is not what I expect:\n"
)


def test_a_compilers_own_words_and_a_failing_tests_mark_are_errors_a_heading_and_a_table_not() -> None:
    assert error_line(GREN_MISMATCH).startswith("-- TYPE MISMATCH ---")
    assert error_line(
        "Compiling Cart\nError found:\nin module Cart\n\n  Module Data.Codec was not found.\n"
    ) == ("Module Data.Codec was not found.")
    tally = (
        "Build succeeded.\n           Src   Lib\nErrors       0     0\n\n✗ splits mixed-rate baskets\n\n"
        "TEST RUN FAILED"
    )
    assert error_line(tally) == "✗ splits mixed-rate baskets"


def test_a_compile_error_behind_different_build_spellings_is_one_loop() -> None:
    lines = transcript(
        ("gren make src/Main.gren --output=/dev/null", GREN_MISMATCH, 1),
        ("make build", GREN_MISMATCH + "make: *** [Makefile:4: build] Error 1", 2),
        ("timeout 120 gren make src/Main.gren --output=public/app.js", GREN_MISMATCH, 1),
    )
    match = repeat_failure(Projector().feed_lines(lines), {}, {})
    assert match is not None and match.data["failures"] == 3


def test_a_diagnostic_at_a_file_line_and_column_in_parentheses_ties_the_builds() -> None:
    at = "/home/dev/uptime/src/probe.vala(14, 16) Error: undeclared identifier: 'newClient'"
    lines = transcript(
        ("valabuild build", f"Building probe\n{at}\n", 1),
        ("rm -rf ~/.cache/vala && valabuild build", f"Building probe\n{at}\n", 1),
        ("valac --force -o bin/uptime src/main.vala", f"{at}\n", 1),
    )
    match = repeat_failure(Projector().feed_lines(lines), {}, {})
    assert match is not None and match.data["failures"] == 3


def test_a_runner_that_echoes_what_it_runs_ties_itself_to_that_command() -> None:
    """`npm test` printing `> gren-spec` above the failure ran `gren-spec`: one piece of work with it,
    whichever was run first; the package line npm prints above the command ties nothing."""
    failure = "✗ splits mixed-rate baskets per line:\n  expected 2 lines, got 1\n\nTEST RUN FAILED"
    through_npm = f"\n> tillpoint@2.4.1 test\n> gren-spec\n\n{failure}"
    lines = transcript(
        ("npm test", through_npm, 1), ("npx gren-spec", failure, 1), ("npm test", through_npm, 1)
    )
    match = repeat_failure(Projector().feed_lines(lines), {}, {})
    assert match is not None and match.data["failures"] == 3
    tool_first = transcript(
        ("gren-spec", failure, 1), ("npm test", through_npm, 1), ("gren-spec --seed 4", failure, 1)
    )
    match = repeat_failure(Projector().feed_lines(tool_first), {}, {})
    assert match is not None and match.data["failures"] == 3


# -- tuned on blind batch b6 (tuning split), written with tools of no table -----------------------------


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("bake test V=1", "bake test"),  # a variable that tunes the run, as an option's value does
        ("bake test VERBOSE=1 COLOR=never", "bake test"),
        ("cd spec && gerbil run.ss", "gerbil spec/run.ss"),  # a path from inside the folder a cd left
        ("ztest --test-dir out -R halo", "cd out && ztest -R halo"),  # a directory option named for tests
    ],
)
def test_variables_that_tune_and_paths_from_a_cd_leave_the_work_as_it_is(left: str, right: str) -> None:
    assert work_identity(left).body == work_identity(right).body


def test_a_one_word_heading_gets_the_reason_under_it_whichever_value_comes_first() -> None:
    output = (
        '==> gerbil run.ss\nFAILURE\nname:       check-equal?\nactual:     "<b>"\nexpected:   "&lt;b&gt;"\n'
    )
    assert error_line(output) == 'Failure — expected:   "&lt;b&gt;"; actual:     "<b>"'


def test_inline_snippets_tie_when_the_failure_names_what_both_call_and_not_otherwise() -> None:
    undefined = "Exit code 1\nqueue-drain!: undefined;\n cannot reference an identifier before its definition"
    s = Session()
    s.fail("""gerbil -e '(import "q") (def q (make-queue)) (queue-drain! q)'""", undefined)
    s.fail("""gerbil -e '(import "q") (queue-drain! (make-queue))'""", undefined)
    s.fail("""gerbil q.ss -e '(displayln (queue-drain! (make-queue)))'""", undefined)
    assert fire(s) is not None
    generic = "Exit code 1\nerror: not a procedure;\n expected a procedure that can be applied"
    apart = Session()
    for name in ("queue-drain!", "stack-pop!", "heap-peek"):  # three probes, three different things
        apart.fail(f"gerbil -e '(import \"q\") ({name} (make-queue))'", generic)
    assert fire(apart) is None


UNDECLARED = (
    "Exit code 1\nsrc/pool.qb:41:9:\n\n"
    "error: identifier 'frame_pool' is undeclared here; did you mean 'frame_cache'?"
)


def test_a_compiler_error_naming_the_code_at_fault_ties_two_ways_of_building() -> None:
    """The same error naming the identifier at fault, from the build tool and from the compiler under it in
    the build folder, is one fault in the code, whatever ran the compiler (sixth round)."""
    s = Session()
    s.fail("qbuild --tree out", UNDECLARED)
    s.fail("cd out && qbc all", UNDECLARED)
    s.fail("qbuild --tree out --jobs 4", UNDECLARED)
    match = fire(s)
    assert match is not None and "failed 3 times" in match.summary
    vague = Session()
    for command in ("qbuild --tree out", "cd out && qbc all", "qbuild --tree out --jobs 4"):
        vague.fail(command, "Exit code 1\nerror: the build failed")
    assert fire(vague) is None  # an error that names nothing ties nothing


# -- the seventh round (tuned on blind batch b1's tuning split), tools of no table ----------------------

LEDGER_FAILS = (
    "Exit code 1\n  FAIL  Specs\\Billing\\LedgerRoundingSpec\n  x it rounds each line before the total\n"
    "  Failed asserting that 11990 is identical to 12000.\n"
)


def test_two_programs_failing_alike_on_the_target_both_select_are_one_work() -> None:
    """The task runner's test command and the test tool under it, one selecting a spec by name and the
    other by its file, fail with one failure naming that spec: the same target, whichever program ran it."""
    s = Session()
    s.fail("php quarry spec --only=LedgerRoundingSpec", LEDGER_FAILS)
    s.fail("./vendor/bin/kestrel --only LedgerRoundingSpec", LEDGER_FAILS)
    s.fail("./vendor/bin/kestrel specs/Billing/LedgerRoundingSpec.php --no-colour", LEDGER_FAILS)
    match = fire(s)
    assert match is not None and "failed 3 times" in match.summary


def test_two_programs_selecting_one_target_stay_apart_when_the_failure_does_not_name_it() -> None:
    vague = "Exit code 1\nFatal: the runner could not boot the kernel\n"
    s = Session()
    s.fail("php quarry spec --only=LedgerRoundingSpec", vague)
    s.fail("./vendor/bin/kestrel --only LedgerRoundingSpec", vague)
    s.fail("./vendor/bin/kestrel specs/Billing/LedgerRoundingSpec.php --no-colour", vague)
    assert fire(s) is None  # one program twice: two failures, not yet a loop
    other = Session()  # two targets that fail alike: the failure names one of them only
    other.fail("php quarry spec --only=LedgerRoundingSpec", LEDGER_FAILS)
    other.fail("./vendor/bin/kestrel --only InvoiceExportSpec", LEDGER_FAILS)
    other.fail("./vendor/bin/kestrel specs/Billing/InvoiceExportSpec.php", LEDGER_FAILS)
    assert fire(other) is None


def test_the_line_saying_what_failed_is_quoted_over_a_banner_and_echoed_test_code() -> None:
    """A runner that echoes each test's code and prints a bare banner before its message: the message is
    the root error (seventh round, from b6's octave case; a runner of no table here)."""
    verbose = (
        "Exit code 1\n>>>>> specs/ledger.lx\n--- case\n  expect (balance (l), 0)\n--- case\n"
        "  expect (sum (l), 120, 1e-6)\nxxxxx case failed\nEXPECT errors for:  expect (sum (l), 120, 1e-6)\n"
    )
    assert error_line(verbose) == "EXPECT errors for:  expect (sum (l), 120, 1e-6)"
    counts = "Exit code 1\nxxxxx case failed\nRan: 4, Failures: 1\n"
    assert error_line(counts) == "xxxxx case failed"  # a count says nothing more than the banner


# -- the eighth round (tuned on blind batch b9's tuning split), tools of no table -----------------------

SPEC_FAILS = (
    "Exit code 1\n> Task :core:verifySpecs\nRoundingSpec > halfUp_roundsToEven FAILED\n"
    "    java.lang.AssertionError at RoundingSpec.kt:41\n3 specs completed, 1 failed\n"
)
SPEC_VERBOSE = "Exit code 1\njava.lang.AssertionError: expected:<12> but was:<13>\n"


def test_one_target_selected_by_its_dotted_name_a_pattern_or_a_method_is_one_work() -> None:
    """A spec class named in full, by a quoted pattern, and one method of it, with a verbose run between
    that printed the failure in other words: one target failing (eighth round)."""
    s = Session()
    s.fail("./brick :core:verifySpecs --only com.acme.ledger.RoundingSpec", SPEC_FAILS)
    s.fail("./brick :core:verifySpecs --only com.acme.ledger.RoundingSpec --info | tail -40", SPEC_VERBOSE)
    s.fail("./brick -p core verifySpecs --only '*RoundingSpec' --stacktrace", SPEC_FAILS)
    s.fail("./brick :core:verifySpecs --only com.acme.ledger.RoundingSpec.halfUp_roundsToEven", SPEC_FAILS)
    match = fire(s)
    assert match is not None and match.data["failures"] >= 3


def test_two_specs_of_one_task_stay_two_targets_though_the_failure_names_the_task() -> None:
    task_failed = "Exit code 1\nExecution failed for task ':core:verifySpecs'. There were failing specs.\n"
    s = Session()
    s.fail("./brick :core:verifySpecs --only com.acme.ledger.RoundingSpec", task_failed)
    s.fail("./brick :core:verifySpecs --only com.acme.ledger.TaxBandSpec", task_failed)
    s.fail("./brick -p core verifySpecs --only '*InvoiceSpec'", task_failed)
    assert fire(s) is None


def test_a_task_path_from_the_root_and_without_its_separator_is_one_task() -> None:
    missing = "Exit code 1\nerror: resource style/Theme.Field.Splash (aka com.acme.field:style) not found\n"
    s = Session()
    s.fail("./brick :app:packageDebug", missing)
    s.fail("rm -rf app/out && ./brick :app:packageDebug", missing)
    s.fail("./brick app:packageDebug --project-dir . -q", missing)
    assert fire(s) is not None


UNDEFINED = "Exit code 1\nlnk: error: out/ring.o: undefined symbol: ring_push_batch\nlnk: error: failed\n"


def test_a_linker_error_naming_the_missing_symbol_ties_two_ways_of_linking() -> None:
    """The same undefined symbol from the build tool and from the linker driver in the build folder is one
    fault, whatever ran the link (eighth round)."""
    s = Session()
    s.fail("mkbuild --dir out", UNDEFINED)
    s.fail("mkbuild --dir out --verbose 2>&1 | grep -B2 error; exit ${PIPESTATUS[0]}", UNDEFINED)
    s.fail("cd out && lnkdrv all", UNDEFINED)
    assert fire(s) is not None
    vague = Session()
    for command in ("mkbuild --dir out", "mkbuild --dir out --verbose", "cd out && lnkdrv all"):
        vague.fail(command, "Exit code 1\nlnk: error: link failed\n")
    assert fire(vague) is None  # a link error that names no symbol ties nothing


@pytest.mark.parametrize("wrapped", ["xvfb-run zorp check", "xvfb-run -a -s '-screen 0 640x480' zorp check"])
def test_a_virtual_display_leaves_the_work_as_it_is(wrapped: str) -> None:
    assert work_identity(wrapped).body == work_identity("zorp check").body


def test_the_shells_time_report_is_never_the_error_quoted() -> None:
    assert error_line("Exit code 2\n\nreal\t0m41.203s\nuser\t0m2.100s\nsys\t0m0.310s\n") == ""
    assert error_line("Exit code 2\nSpecs failed: 1 of 12\n\nreal\t0m41.203s\n") == "Specs failed: 1 of 12"


# -- the ninth round (tuned on blind batch b10's tuning split), tools of no table -----------------------

UNKNOWN_MACRO = "Exit code 1\n! Undefined control sequence.\nl.42 \\citep\n"


def test_two_programs_handed_one_file_and_failing_alike_are_one_work() -> None:
    """A document built by its build tool, by the compiler under it and by the project's task, failing on
    one specific error: whichever program read the file, the fault is in it (ninth round)."""
    s = Session()
    s.fail("quillmk -pdf main.qd", UNKNOWN_MACRO)
    s.fail("quillc -interaction=batch main.qd", UNKNOWN_MACRO)
    s.fail("quillc -halt-on-error main.qd", UNKNOWN_MACRO)
    assert fire(s) is not None
    apart = Session()  # two documents failing alike are two targets
    apart.fail("quillmk -pdf main.qd", UNKNOWN_MACRO)
    apart.fail("quillc -interaction=batch slides.qd", UNKNOWN_MACRO)
    apart.fail("quillmk -pdf notes.qd", UNKNOWN_MACRO)
    assert fire(apart) is None


BIB_CLASH = "Exit code 2\n! Package refs Error: bibliography not compatible with author-year citations.\n"


def test_a_projects_aggregate_task_and_its_member_failing_alike_are_one_work() -> None:
    s = Session()
    s.fail("just all", BIB_CLASH)
    s.fail("just paper", BIB_CLASH)
    s.fail("just -k all", BIB_CLASH)
    assert fire(s) is not None
    two = Session()  # two tasks of their own failing alike stay two works
    two.fail("just paper", BIB_CLASH)
    two.fail("just poster", BIB_CLASH)
    two.fail("just handout", BIB_CLASH)
    assert fire(two) is None


LEDGER_ROW = "Exit code 1\nFailure/Error: expect(entry.balance).to eq(100)\n  expected: 100\n       got: 90\n"


def test_a_path_given_from_where_the_shell_stayed_is_the_path_its_cd_named() -> None:
    """``cd engines/billing && zspec spec/ledger_spec.zr``, then ``zspec spec/ledger_spec.zr`` in the folder
    the shell kept: one file, so one work (ninth round)."""
    s = Session()
    s.run("ls", cwd="/w/harbor")
    s.fail("cd engines/billing && zspec spec/ledger_spec.zr", LEDGER_ROW, cwd="/w/harbor")
    s.fail("zspec spec/ledger_spec.zr --order defined", LEDGER_ROW, cwd="/w/harbor/engines/billing")
    s.fail("zspec spec/ledger_spec.zr", LEDGER_ROW, cwd="/w/harbor/engines/billing")
    assert fire(s) is not None


def test_a_file_option_pointing_into_a_folder_is_that_folder_for_one_program() -> None:
    built = "Exit code 1\nfailed to solve: failed to compute cache key: ref x7f2kq9zt4mw8rv1cn3b: not found\n"
    s = Session()
    s.fail("stackr -f deploy/stack.yml up --build", built)
    s.fail("cd deploy && stackr up --build", built.replace("x7f2kq9zt4mw8rv1cn3b", "p2m9c4x8v1qz7tk3wn5d"))
    s.fail("cd deploy && stackr up --build -d", built)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3  # a generated reference differs: one error


def test_another_seed_each_time_failing_differently_is_an_experiment_not_a_retry() -> None:
    s = Session()
    s.fail("zspec --seed 1234", "Exit code 1\nFailure/Error: expect(quote.total).to eq(12)\n")
    s.fail("zspec --seed 5678", "Exit code 1\nFailure/Error: expect(rate.cached).to eq(3)\n")
    s.fail("zspec --seed 9012", "Exit code 1\nFailure/Error: expect(invoice.tax).to eq(130)\n")
    assert fire(s) is None
    blind = Session()  # the same command run again and again, failing differently: still a blind retry
    for error in ("expect(quote.total).to eq(12)", "expect(rate.cached).to eq(3)", "expect(tax).to eq(1)"):
        blind.fail("zspec", f"Exit code 1\nFailure/Error: {error}\n")
    assert fire(blind) is not None


def test_runs_that_only_say_they_failed_are_alike_unless_something_was_edited_between() -> None:
    """The output went to a log read afterwards: each run says only its exit status or counts. With
    nothing edited between, nothing could have changed what failed (ninth round)."""
    s = Session()
    s.fail("zspec spec/checkout_spec.zr > tmp/run.log 2>&1; echo exit=$?", "Exit code 1\nexit=1\n")
    s.run("tail -n 25 tmp/run.log")
    s.fail("zspec spec/checkout_spec.zr --format json --out tmp/run.json", "Exit code 1\nexit=1\n")
    s.run("jq '.examples[0]' tmp/run.json")
    s.fail("zspec spec/checkout_spec.zr | tee tmp/run.log", "Exit code 1\n3 examples, 1 failure\n")
    assert fire(s) is not None
    fixing = Session()
    fixing.fail("zspec spec/checkout_spec.zr > tmp/run.log 2>&1; echo exit=$?", "Exit code 1\nexit=1\n")
    fixing.edit("/w/app/checkout.zr")
    fixing.fail("zspec spec/checkout_spec.zr > tmp/run.log 2>&1; echo exit=$?", "Exit code 1\nexit=1\n")
    fixing.edit("/w/app/cart.zr")
    fixing.fail("zspec spec/checkout_spec.zr | tee tmp/run.log", "Exit code 1\n3 examples, 1 failure\n")
    assert fire(fixing) is None


def test_one_diagnostic_with_and_without_its_severity_word_is_one_failure() -> None:
    """Two renderings of one diagnostic, with and without ``WARNING:``, around edits that did not take."""
    s = Session()
    s.fail("cd docs && make html", "Exit code 2\ndocs/usage.rst:12: WARNING: undefined label: 'extras'\n")
    s.edit("/w/docs/usage.rst")
    s.fail("cd docs && zphinx -W . out", "Exit code 2\ndocs/usage.rst:12:undefined label: 'extras'\n")
    s.edit("/w/docs/conf.zy")
    s.fail("cd docs && zphinx -W -j 4 . out", "Exit code 2\ndocs/usage.rst:12:undefined label: 'extras'\n")
    assert fire(s) is not None


def test_a_heading_with_a_comma_introduces_the_error_under_it() -> None:
    text = "Exit code 2\nreading sources... [ 44%] api/core\n\nWarning, treated as error:\n"
    text += "autodoc: failed to import 'core'\n"
    assert error_line(text) == "autodoc: failed to import 'core'"


def test_a_status_echoed_after_the_programs_name_and_a_framed_build_banner_are_failures() -> None:
    """Output sent to a log, then the status echoed with the program's name before it, or the log's tail
    read on failure with the build tool's framed banner: both runs failed (ninth round)."""
    echoed = read_outcome("zbuild exit=65\n", 'zbuild > out.log 2>&1; echo "zbuild exit=$?"', is_error=False)
    assert echoed is not None and echoed["failed"] and echoed["exit_code"] == 65
    passed = read_outcome("zbuild exit=0\n", 'zbuild > out.log 2>&1; echo "zbuild exit=$?"', is_error=False)
    assert passed is None or not passed["failed"]
    tail = "out/app.zproj: error: signing needs a team\n** BUILD FAILED **\n"
    framed = read_outcome(tail, "zbuild > out.log 2>&1 || tail -n 12 out.log", is_error=False)
    assert framed is not None and framed["failed"]


# -- the tenth round (tuned on blind batch b10's tuning split), tools of no table --------------------------


def test_an_echoed_command_whose_only_error_word_is_an_option_is_not_the_error() -> None:
    """make echoes each recipe line plainly; `--abort-on-timeout` names a behaviour, not a failure: the
    line that reports the failure is quoted (tenth round)."""
    text = "Exit code 2\nqarun suite --abort-on-timeout --fail-fast api\nqarun: 2 failed, 40 passed\n"
    text += "make: *** [Makefile:9: check] Error 1\n"
    assert error_line(text) == "qarun: 2 failed, 40 passed"
    assert error_line("Exit code 1\nERROR: --fail-fast needs a suite\n") == "ERROR: --fail-fast needs a suite"


def test_a_shell_echo_behind_a_logs_time_is_not_the_error() -> None:
    """A lane runner logs the command it runs behind a bracketed time (`[10:02:03]: $ set -o pipefail &&
    …`); the diagnostic further down is the error (tenth round), read without its time (fortieth)."""
    text = "Exit code 1\n[10:02:03]: $ set -o pipefail && zbuild test | tee out.log | zpretty\n"
    text += "[10:02:40]: ▸ ❌  /w/Tests/CartTests.zz:2:8: no such module 'Snapper'\n"
    assert error_line(text) == "▸ ❌  /w/Tests/CartTests.zz:2:8: no such module 'Snapper'"


def test_a_task_and_the_command_its_runner_echoed_failing_alike_are_one_work() -> None:
    """`make verify` printed the recipe line it ran, another task runner's task; the agent then runs that
    line by hand, and it fails the same way: one work, three failures. Two tasks of two runners are not
    otherwise tied (tenth round; the failing tool, `qarun`, is in no table)."""
    recipe = "just api-suite --fail-fast"
    failure = "qarun: FAIL ledger_test.qa: expected 3, got 4"
    s = Session()
    s.fail("make verify", f"Exit code 2\n{recipe}\n{failure}\nmake: *** [Makefile:7: verify] Error 1\n")
    s.run("cat reports/api.xml")
    s.fail("make verify", f"Exit code 2\n{recipe}\n{failure}\nmake: *** [Makefile:7: verify] Error 1\n")
    s.fail(recipe, f"Exit code 1\n{failure}\n")
    match = fire(s)
    assert match is not None and match.data["failures"] == 3
    moved = Session()  # the same echo, but the hand-run fails another way: the fixes moved it on
    moved.fail("make verify", f"Exit code 2\n{recipe}\n{failure}\nmake: *** [Makefile:7: verify] Error 1\n")
    moved.fail("make verify", f"Exit code 2\n{recipe}\n{failure}\nmake: *** [Makefile:7: verify] Error 1\n")
    moved.fail(recipe, "Exit code 1\nqarun: cart_test.qa: timeout after 30s\n")
    assert fire(moved) is None


# -- the tenth round, tuned on blind batch b12 (tuning split), tools of no table ---------------------------


def test_an_until_loop_cut_short_by_the_projection_is_still_polling() -> None:
    """A status poll wrapped in `timeout … sh -c 'until …'`: the projection cuts the long quoted script before
    its `sleep`; the loop still waits, and its timeouts are not failures of a work (tenth round)."""
    poll = "timeout 240 sh -c 'until zsign info 71c4e2 --profile ci | grep -q \"status: …[literal +27 chars]'"
    assert work_identity(poll).probe
    s = Session()
    for _ in range(3):
        s.fail(poll, "Exit code 124\n")
    assert fire(s) is None


def test_a_probe_run_inside_a_container_is_a_probe() -> None:
    """`lxc exec db -- pg_isready` asks whether the database is up, as the probe alone does (tenth round)."""
    assert work_identity("sleep 5; lxc exec db -- pg_isready -U app").probe
    assert not work_identity("lxc exec db -- zmigrate up").probe


def test_an_assignment_from_a_command_substitution_is_one_prefix() -> None:
    """`REV=$(zgit rev --short) zmake image` is `zmake image` with a setting (tenth round)."""
    assert work_identity("REV=$(zgit rev --short HEAD) zmake image").key == work_identity("zmake image").key


def test_generated_ids_of_ten_or_more_mixed_characters_are_not_the_failure() -> None:
    """A builder names the layer it failed on by a generated ref; the same missing file each time is one
    failure, whichever ref (tenth round)."""
    s = Session()
    for ref in ("m4k8w2p6z1", "r7t3c9y5h2", "x1d6e8q4n9"):
        s.edit("/w/.zimageignore")  # an edit between: only the same error makes it a fix that did not take
        s.fail("zimage build .", f'Exit code 1\nerror: checksum of ref cache::{ref}: "/dist": not found\n')
    assert fire(s) is not None


def test_a_scripts_option_with_its_value_after_an_equals_sign_is_the_same_command() -> None:
    """make echoes `npm run pack -- --target=linux`; the agent runs `npm run pack -- --target linux` by hand:
    one spelling of one option, as for any other program (tenth round)."""
    assert (
        work_identity("npm run pack -- --target=linux").key
        == work_identity("npm run pack -- --target linux").key
    )
    failure = "zforge: error: cannot pack for rpm: `rpmbuild` is not installed"
    s = Session()
    echo = f"Exit code 2\nnpm run pack -- --target=linux\n{failure}\nmake: *** [pack-linux] Error 1\n"
    s.fail("make pack-linux", echo)
    s.fail("npm run pack -- --target linux", f"Exit code 1\n{failure}\n")
    s.fail("npm run pack -- --target linux", f"Exit code 1\n{failure}\n")
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_a_wrapper_that_failed_to_build_and_an_info_line_are_not_the_root_error() -> None:
    """An app bundler's `failed to build app` wraps the build under it, and a line logged at an
    informational level is not an error even with an error word in it (tenth round)."""
    text = "Exit code 1\n    Info checking for mismatched versions...\n"
    text += "  The system library `zgtk-4.1` required by crate `zgtk-sys` was not found.\n"
    text += "failed to build app: failed to build app\n"
    assert error_line(text) == "The system library `zgtk-4.1` required by crate `zgtk-sys` was not found."


def test_work_in_a_folder_inside_the_others_meeting_one_named_fault_is_one_work() -> None:
    """`zql prepare crates` from the root and `cd crates/api && zql prepare` fail on one missing relation: the
    whole takes in the part. Two sibling folders stay two targets (tenth round)."""
    fault = 'Exit code 1\nerror: error returned from database: relation "subscriptions" does not exist\n'
    s = Session()
    s.fail("zql prepare crates", fault)
    s.fail("cd crates/api && zql prepare", fault)
    s.fail("cd crates/api && zql prepare", fault)
    assert fire(s) is not None
    siblings = Session()
    siblings.fail("cd crates/api && zql prepare", fault)
    siblings.fail("cd crates/jobs && zql prepare", fault)
    siblings.fail("cd crates/web && zql prepare", fault)
    assert fire(siblings) is None


def _projected(*calls: tuple[str, str, bool]) -> list[Observation]:
    """Projected observations of one Bash call and its result per ``(command, output, is_error)``."""
    return Projector().feed(bash_records(*calls))


CRASH_LOG = (
    "epoch 1/3\nTraceback (most recent call last):\nRuntimeError: shapes (32x512) and (256x24) differ\n"
)


def test_background_runs_that_crash_alike_in_their_logs_are_a_loop() -> None:
    """Each run goes to the background and succeeds at once; its crash shows only in the log read back after
    it, the same each time, while only the batch size and the seed change (tenth round)."""
    observations = _projected(
        ("nohup ztrain -c lstm.yaml > logs/a.log 2>&1 &", "[1] 101\n", False),
        ("sleep 60 && tail -n 20 logs/a.log", CRASH_LOG, False),
        ("nohup ztrain -c lstm.yaml --batch-size 32 > logs/a.log 2>&1 &", "[1] 102\n", False),
        ("sleep 60 && tail -n 20 logs/a.log", CRASH_LOG, False),
        ("nohup ztrain -c lstm.yaml --seed 0 > logs/a.log 2>&1 &", "[1] 103\n", False),
        ("sleep 45; tail logs/a.log", CRASH_LOG, False),
    )
    match = repeat_failure(observations, {}, {})
    assert match is not None and match.data["failures"] == 3
    fixed = _projected(  # the log shows the run got further each time: progress, not a loop
        ("nohup ztrain -c lstm.yaml > logs/a.log 2>&1 &", "[1] 101\n", False),
        ("sleep 60 && tail logs/a.log", CRASH_LOG, False),
        ("nohup ztrain -c lstm.yaml > logs/a.log 2>&1 &", "[1] 102\n", False),
        ("sleep 60 && tail logs/a.log", "RuntimeError: CUDA out of memory (tried 2 GiB)\n", False),
        ("nohup ztrain -c lstm.yaml > logs/a.log 2>&1 &", "[1] 103\n", False),
        ("sleep 60 && tail logs/a.log", "epoch 3/3 done, loss 0.12\n", False),
    )
    assert repeat_failure(fixed, {}, {}) is None


def test_a_run_that_sent_its_output_away_fails_as_the_runs_beside_it_that_say_why() -> None:
    """A run that wrote its report to a file says only `exit=1`; with nothing edited between, it is the
    same failure as the runs beside it that say what failed (tenth round). A check that says nothing
    because it is quiet by design (`grep -q`) is no such run."""
    failure = "Exit code 1\nzspec: Failure/Error: expected 3 got 4 (cart_spec.zs:14)\n"
    s = Session()
    s.fail("zspec spec/cart_spec.zs", failure)
    s.run("cat spec/cart_spec.zs")
    s.fail("zspec spec/cart_spec.zs --format json --out tmp/run.json", "Exit code 1\nexit=1\n")
    s.run("jq .examples tmp/run.json")
    s.fail("zspec spec/cart_spec.zs", failure)
    assert fire(s) is not None
    polling = Session()
    polling.fail("grep -q 'SUITE PASSED' logs/job-7.out", "Exit code 2\ngrep: logs/job-7.out: No such file\n")
    polling.run("zqueue show 7")
    polling.fail("grep -q 'SUITE PASSED' logs/job-7.out", "Exit code 1\n")
    polling.run("zqueue show 7")
    polling.fail("grep -q 'SUITE PASSED' logs/job-7.out", "Exit code 1\n")
    assert fire(polling) is None


def test_where_a_run_writes_its_log_or_report_is_not_what_it_runs() -> None:
    """`-logFile`, `-testResults`, `--report-path`: output files, in any tool's spelling (tenth round)."""
    one = work_identity("zengine -batchmode -runTests EditMode -logFile Logs/a.log -testResults out/a.xml")
    other = work_identity("zengine -batchmode -runTests EditMode -logFile - --report-path=out/b.xml")
    assert one.key == other.key
    assert (
        work_identity("zengine --report summary").key != work_identity("zengine").key
    )  # no file: an argument


def test_a_compilers_coded_error_in_a_result_marked_successful_is_a_failure() -> None:
    """`error QX1234:` from a compiler no table lists, piped through `tail` so the call succeeds (tenth
    round)."""
    outcome = read_outcome(
        "src/a.qx(4,2): error QX1234: name 'Stat' not found\n", "zqc build | tail", is_error=False
    )
    assert outcome is not None and outcome["failed"]
    passed = read_outcome("compiled 12 files, 0 errors\n", "zqc build | tail", is_error=False)
    assert passed is None or not passed["failed"]


def test_a_formatters_line_and_the_tools_line_cut_at_the_cap_are_one_failure() -> None:
    """A formatter prints `✗ testTotal, ZAssertEqual failed: ("21.0") is not equal to ("21.5")`; the tool
    under it prints the same assertion after a long path and test name, and the line is cut at the cap before
    its end. What stands between two short quoted values is the message, not a quotation (tenth round)."""
    short = '✗ testTotal, ZAssertEqual failed: ("Optional(21.0)") is not equal to ("Optional(21.5)")'
    long = (
        "/Users/dev/Projects/Weatherly/WeatherlyTests/Parsing/ForecastParserTests.zz:41: error: "
        "-[WeatherlyTests.ForecastParserTests testTotal] : ZAssertEqual failed: "
        '("Optional(21.0)") is not equal to ("Optional(21.5)") - the hourly temperatures are parsed'
    )
    s = Session()
    s.fail("make test", f"Exit code 2\n{short}\n")
    s.run("cat Tests/ForecastParserTests.zz")
    s.fail("zbuild test -scheme Weatherly", f"Exit code 65\n{long}\n")
    s.run("cat Sources/ForecastParser.zz")
    s.fail("make test", f"Exit code 2\n{short}\n")
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_what_stands_between_two_short_quoted_values_is_not_folded_as_a_quotation() -> None:
    from sbcore.detectors import signatures

    def fold(text: str) -> str:
        return signatures.QUOTED.sub(signatures.folded_quote, text)

    assert fold('failed: ("v(1)") is not equal to ("v(2)")') == 'failed: ("v(1)") is not equal to ("v(2)")'
    assert fold('run "pytest tests/test_cart.py -k total" failed') == 'run "…" failed'
