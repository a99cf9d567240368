"""Same work, different spelling: reporting flags with a value, a script and its interpreter, a script
alias and the tool it runs, the project's absolute paths — and the different work that stays apart."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sbcore.detectors.identity import work_identity
from sbcore.detectors.reporting import without_shown
from sbcore.detectors.same_work import RootEvidence, edited_path, path_words, relative_to
from test_triggers import Session, fire

ESLINT = (
    "Exit code 1\n/repo/src/cart.ts\n"
    "  12:7  error  'discount' is assigned a value but never used  no-unused-vars"
)
NPM_LINT = "Exit code 1\n> shop@1.0.0 lint\n> eslint src/\n" + ESLINT.split("\n", 1)[1]


@pytest.mark.parametrize(
    "spellings",
    [
        # a reporting flag's value, as the next word or after `=`, per runner
        [
            "dotnet test --filter InvoiceTests",
            "dotnet test --filter InvoiceTests -v q",
            "dotnet test --verbosity=normal --filter=InvoiceTests",
            "dotnet test --filter InvoiceTests --logger trx -l console",
        ],
        [
            "bazel test //svc:tax_test",
            "bazel test //svc:tax_test --test_output=errors",
            "bazel test --test_output all --color=yes //svc:tax_test",
            "bazelisk test //svc:tax_test --curses=no --test_summary=terse",
        ],
        [
            "npx vitest run src/a.test.ts",
            "npx vitest run src/a.test.ts --reporter=dot",
            "npx vitest run --reporter verbose src/a.test.ts",
        ],
        [
            "npx jest src/a.test.ts",
            "npx jest --reporters=default src/a.test.ts",
            "npx jest src/a.test.ts --maxWorkers 2",
        ],
        ["npm test", "npm test -- --reporter dot", "npx mocha -R spec", "npx mocha --reporter min"],
        [
            "pytest tests/x.py",
            "pytest tests/x.py -r fE --tb short",
            "pytest -r a --capture no tests/x.py",
            "pytest tests/x.py --junitxml report.xml --cov-report term-missing --log-level debug",
            "pytest -o console_output_style=classic --color=yes --no-header tests/x.py",
        ],
        [
            "go test -run TestA ./pkg",
            "go test -count 1 -run TestA ./pkg",
            "go test -timeout 30s ./pkg -run TestA",
        ],
        ["cargo test", "cargo test --message-format short --color never", "cargo test -- --test-threads 1"],
        ["./gradlew test --tests A", "./gradlew test --tests A --console plain --warning-mode all"],
        ["npx eslint src", "npx eslint -f stylish src", "eslint --format compact src/"],
        ["ruff check src", "ruff check --output-format concise src"],
        # a script handed to its interpreter is the script run; Django's own `-v` takes a value
        [
            "python manage.py test shop",
            "./manage.py test shop -v 2",
            "python3 manage.py test --verbosity 3 shop",
        ],
        ["bash scripts/ci.sh", "./scripts/ci.sh", "sh ./scripts/ci.sh"],
        ["python tools/r.py --m 2", "./tools/r.py --m 2"],
    ],
)
def test_spellings_of_one_run_are_one_target(spellings: list[str]) -> None:
    assert len({work_identity(command).key for command in spellings}) == 1


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("dotnet test --filter A -v q", "dotnet test --filter B -v q"),
        ("bazel test //a:t --test_output=errors", "bazel test //b:t --test_output=errors"),
        ("bazel test //a:t --test_filter=X", "bazel test //a:t --test_filter=Y"),
        ("npx jest -t rounds --reporters=default", "npx jest -t negative --reporters=default"),
        ("npx mocha -t 2000 test/a.js", "npx mocha test/a.js"),  # -t is jest's test name: never dropped
        ("python manage.py migrate", "python manage.py migrate shop"),
        ("python manage.py test shop -v 2", "python manage.py test billing -v 2"),
        ("python tools/a.py", "python tools/b.py"),
        ("python /srv/a/x.py", "python /srv/b/x.py"),
        ("go test -count 1 ./a", "go test -count 1 ./b"),
        ("cargo test -p core", "cargo test -p web"),
    ],
)
def test_what_selects_work_stays(left: str, right: str) -> None:
    assert work_identity(left).key != work_identity(right).key


def test_a_reporting_flag_takes_its_value_with_it_and_no_more() -> None:
    assert without_shown("dotnet", ["test", "-v", "q", "--filter", "A"]) == ["test", "--filter", "A"]
    assert without_shown("dotnet", ["test", "--filter", "A", "-v"]) == ["test", "--filter", "A"]
    assert without_shown("pytest", ["-v", "tests"]) == ["-v", "tests"]  # pytest's -v is bare: kept for later
    assert without_shown("bazel", ["test", "--test_output=errors", "//a"]) == ["test", "//a"]


# -- a project script and the tool it runs ---------------------------------------------------------------


def test_a_script_and_its_tool_failing_alike_with_no_edit_between_are_one_loop() -> None:
    s = Session()
    s.fail("npm run lint", NPM_LINT)
    s.fail("npx eslint src/", ESLINT)
    s.edit("/repo/src/cart.ts")
    s.fail("npm run lint", NPM_LINT)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3 and match.data["variants"] == 2
    assert "'discount' is assigned a value but never used" in match.data["error"]


def test_the_tie_holds_for_the_rest_of_the_session_and_a_success_of_either_ends_the_streak() -> None:
    s = Session()
    s.fail(
        "make typecheck", "Exit code 2\nsrc/a.py:41: error: Incompatible return value type  [return-value]"
    )
    s.fail("mypy src/", "Exit code 1\nsrc/a.py:41: error: Incompatible return value type  [return-value]")
    s.run("mypy src/")  # passes
    s.say("fixed")
    s.fail(
        "make typecheck", "Exit code 2\nsrc/a.py:41: error: Incompatible return value type  [return-value]"
    )
    assert fire(s) is None


def test_a_tool_tied_late_brings_its_earlier_failures_in_order() -> None:
    s = Session()
    s.fail("npx eslint src/", ESLINT)
    s.edit("/repo/src/cart.ts")
    s.fail("npm run lint", NPM_LINT)  # tied through the edit, which left the error as it was: two failures
    assert fire(s) is None
    s.fail("npx eslint src/", ESLINT)  # the third
    match = fire(s)
    assert match is not None and match.data["failures"] == 3 and match.data["edits_between"] == 1
    stamps = [attempt["timestamp"] for attempt in match.data["attempts"]]
    assert stamps == sorted(stamps)


def test_an_edit_that_left_the_error_as_it_was_does_not_untie_a_script_and_its_tool() -> None:
    """The same specific line from the script and the tool after an edit between them: the edit changed
    nothing the two spellings differ in, so they are one piece of work failing three times."""
    s = Session()
    s.fail("npm run lint", ESLINT)
    s.edit("/repo/src/cart.ts")
    s.fail("npx eslint src/", ESLINT)
    s.edit("/repo/src/cart.ts")
    s.fail("npx eslint src/", ESLINT)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3 and match.data["edits_between"] == 2


@pytest.mark.parametrize(
    ("first", "second", "error_two"),
    [
        ("npm run lint", "npx eslint src/", ESLINT.replace("discount", "total")),  # another error
        ("pytest tests/a.py", "pytest tests/b.py", ESLINT),  # two tools: no script to tie
        ("npm run lint", "npm run typecheck", ESLINT),  # two scripts
    ],
)
def test_nothing_ties_without_the_evidence(first: str, second: str, error_two: str) -> None:
    s = Session()
    s.fail(first, ESLINT)
    s.fail(second, error_two)
    s.fail(second, error_two)
    assert fire(s) is None


def test_a_short_error_line_ties_nothing() -> None:
    s = Session()
    s.fail("make build", "Exit code 2\nKilled")
    s.fail("cc main.c", "Exit code 2\nKilled")
    s.fail("make build", "Exit code 2\nKilled")
    assert fire(s) is None


# -- the project's absolute paths --------------------------------------------------------------------------


def project_root(commands: list[str], edited: tuple[str, ...] = ()) -> str:
    """The root the commands' paths and the edited files show."""
    evidence = RootEvidence()
    for command in commands:
        evidence.add(*path_words(command))
    for path in edited:
        evidence.add(edited_path(path), ())
    return evidence.root()


def test_the_root_is_shown_by_a_path_named_both_ways() -> None:
    commands = ["uv run pytest tests/test_links.py -v", "uv run pytest /home/dev/site/tests/test_links.py -v"]
    assert project_root(commands) == "/home/dev/site"
    assert (
        project_root(["pytest /home/dev/site/tests/test_links.py"], ("/home/dev/site/tests/test_links.py",))
        == ""
    )
    assert project_root(["pytest tests/x.py"], ("/home/dev/site/tests/x.py",)) == "/home/dev/site"
    assert project_root(["cat a/b", "cat /etc/passwd"]) == ""
    assert relative_to("pytest /home/dev/site/tests/x.py", "/home/dev/site") == "pytest tests/x.py"
    assert path_words("curl https://x.io/a/b; ls $HOME/a/b") == ((), ())


def test_paths_that_leave_take_their_root_with_them() -> None:
    evidence = RootEvidence()
    evidence.add(*path_words("pytest tests/x.py"))
    evidence.add(*path_words("pytest /home/dev/site/tests/x.py"))
    assert evidence.root() == "/home/dev/site"
    evidence.add(*path_words("pytest /home/dev/site/tests/x.py"))  # named twice: one leaving keeps it
    evidence.remove(*path_words("pytest /home/dev/site/tests/x.py"))
    assert evidence.root() == "/home/dev/site"
    evidence.remove(*path_words("pytest /home/dev/site/tests/x.py"))
    assert evidence.root() == ""


def test_a_test_file_run_by_relative_and_absolute_path_is_one_target() -> None:
    error = "Exit code 1\nE       AssertionError: assert '/blog/2024/post' == '/blog/post'"
    s = Session()
    s.fail("uv run pytest tests/test_links.py -v", error)
    s.edit("/home/dev/site/src/links.py")
    s.fail("uv run pytest /home/dev/site/tests/test_links.py -v", error)
    s.edit("/home/dev/site/src/links.py")
    s.fail("uv run pytest /home/dev/site/tests/test_links.py", error)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_a_directory_named_by_cd_is_not_relativised() -> None:
    error = "Exit code 1\nE       AssertionError: assert 1 == 2 in the totals"
    s = Session()
    s.fail("pytest tests/x.py", error)
    s.fail("cd /tmp/other && pytest /home/dev/site/tests/x.py", error)
    s.fail("pytest /home/dev/site/tests/x.py", error)
    assert fire(s) is None  # the second ran elsewhere: two attempts of each target, no loop of three


@given(st.lists(st.text(max_size=60), max_size=5), st.text(alphabet="/abc.", max_size=20))
def test_reading_paths_never_raises_and_a_root_is_a_shown_directory(commands: list[str], root: str) -> None:
    found = project_root(commands)
    assert found == "" or found.startswith("/")
    for command in commands:
        assert isinstance(relative_to(command, root), str) and isinstance(work_identity(command).key, str)
