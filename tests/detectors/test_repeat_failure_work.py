"""repeat-failure judges the work: one target across spellings, hidden failures, loops vs progress."""

from __future__ import annotations

import pytest
from sbcore.detectors.identity import work_identity
from sbcore.detectors.triggers import repeat_failure
from test_triggers import Session, fire

from sbcore.observe.model import Observation
from sbcore.observe.outcome import read_outcome

PYTEST_ERROR = (
    "Exit code 1\n=== test session starts ===\nE   KeyError: 'user_id'\n=== 1 failed, 3 passed in 0.2s ==="
)


@pytest.mark.parametrize(
    "spellings",
    [
        [
            "pytest tests/x.py -x",
            "pytest -x -v tests/x.py",
            "python -m pytest tests/x.py -x",
            "pytest tests/x.py -x -p no:cacheprovider",
            "python3 -m pytest ./tests/x.py",
            "uv run pytest tests/x.py",
            "poetry run pytest -q tests/x.py",
            "CI=1 FOO=bar pytest tests/x.py",
            "timeout 120 uv run python -m pytest tests/x.py --tb=short 2>&1 | tail -40",
        ],
        ["npm test", "npm run test", "npx jest", "yarn test", "pnpm test", "CI=true npm test -- --silent"],
        ["git push -u origin x", "git push origin x", "git push --set-upstream origin x"],
        ["python tools/r.py --m 2", "python3 tools/r.py --m 2", "python3.12 ./tools/r.py --m 2"],
        [
            "go test ./pkg/... -run TestA",
            "go test -run TestA ./pkg/...",
            "go test -count=1 -v -run TestA ./pkg/...",
        ],
        ["npm ci", "npm ci --no-audit", "npm ci --silent"],
        [
            "tsc -p tsconfig.build.json",
            "npx tsc --project tsconfig.build.json",
            "tsc -p ./tsconfig.build.json",
        ],
        # build tools: a project's launcher is its tool
        [
            "./gradlew :app:test --tests a.B",
            "gradle :app:test --tests a.B --info",
            "./gradlew :app:test --tests a.B -q",
        ],
        ["mvn -q test -Dtest=A", "./mvnw test -Dtest=A -e", "mvn -B test -Dtest=A"],
        # a runner in a project's bin directory, by path or through its interpreter; `--k=v` is `--k v`
        [
            "vendor/bin/phpunit --filter CartTest",
            "php vendor/bin/phpunit --filter=CartTest",
            "./vendor/bin/phpunit --filter CartTest --testdox",
        ],
        ["node node_modules/.bin/mocha test/a.js", "mocha test/a.js"],
        # a formatter's value says how the run reports, not what it runs
        [
            "bundle exec rspec spec/a_spec.rb",
            "bin/rspec spec/a_spec.rb --format documentation",
            "rspec -f d ./spec/a_spec.rb",
        ],
        # a directory with or without its trailing slash
        ["npx pyright src/", "pyright src", "uv run pyright ./src"],
        ["composer test", "composer run-script test", "composer run test"],
    ],
)
def test_runner_spellings_are_one_target(spellings: list[str]) -> None:
    assert len({work_identity(command).key for command in spellings}) == 1


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("cd a && npm test", "cd b && npm test"),
        ("pytest tests/x.py", "pytest tests/y.py"),
        ("pytest -k alpha", "pytest -k beta"),
        ("pnpm --filter api test", "pnpm --filter web test"),
        ("npm test", "npm run build"),
        ("cargo test", "cargo build"),
        ("go test -run TestA ./...", "go test -run TestB ./..."),
        ("make -C services/a", "make -C services/b"),
        ("mvn test -Dtest=A", "mvn test -Dtest=B"),
        ("./gradlew test --tests A", "./gradlew test --tests B"),
        ("phpunit --filter=A", "phpunit --filter=B"),
        ("make test", "make -f Makefile.ci test"),
        ("docker compose -f a.yml up -d", "docker compose -f b.yml up -d"),
        ("./deploy.sh", "./scripts/deploy.sh"),
        ("composer test", "composer lint"),
    ],
)
def test_different_targets_stay_apart(left: str, right: str) -> None:
    assert work_identity(left).key != work_identity(right).key


@pytest.mark.parametrize(
    "command",
    ["sleep 5 && curl -s localhost:8000/health", "curl -sf http://localhost:3000", "gh run view 123"],
)
def test_polling_is_a_probe(command: str) -> None:
    assert work_identity(command).probe


def test_four_spellings_with_the_same_error_fire_and_quote_the_error() -> None:
    s = Session()
    for command in (
        "pytest tests/x.py -x",
        "pytest -x -v tests/x.py",
        "python -m pytest tests/x.py -x",
        "pytest tests/x.py -x -p no:cacheprovider",
    ):
        s.fail(command, PYTEST_ERROR)
    match = fire(s)
    assert match is not None and match.data["failures"] == 4 and match.data["variants"] == 4
    assert match.data["error"] == "E   KeyError: 'user_id'" and "KeyError: 'user_id'" in match.summary


def hidden(command: str, output: str, tool_use_id: str) -> Observation:
    """What the projector makes of a result marked successful that shows a failure."""
    outcome = read_outcome(output, command, is_error=False)
    assert outcome is not None and outcome["failed"]
    text = f"[error] Bash (result marked successful): {outcome.get('line', '')}"
    return Observation(kind="error", text=text, tool="Bash", tool_use_id=tool_use_id, outcome=outcome)


@pytest.mark.parametrize(
    ("command", "output", "exit_code"),
    [
        (
            "pytest tests 2>&1 | tail -5",
            "FAILED tests/a.py::t - AssertionError\n=== 1 failed in 0.1s ===",
            None,
        ),
        ("make build; echo $?", "cc -c a.c\na.c:3: error: expected ';'\n2", 2),
        ('npm test; echo "exit: $?"', "Error: expected 1 to be 2\nexit: 1", 1),
    ],
)
def test_a_failure_hidden_from_is_error_is_read_from_the_outcome(
    command: str, output: str, exit_code: int
) -> None:
    outcome = read_outcome(output, command, is_error=False)
    assert outcome is not None and outcome["failed"] and outcome.get("exit_code") == exit_code
    s = Session()
    for _ in range(3):
        s.observations.append(hidden(command, output, s.run(command)))
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("pytest | tail -3", "=== 12 passed in 0.3s ==="),
        ("make; echo $?", "done\n0"),
        ("grep -rn FAILED logs/", "logs/a.txt:3: FAILED tests/x.py"),
        ("echo 1", "1"),  # a bare number is a status only when the command echoes $?
    ],
)
def test_successes_and_quotes_are_not_failures(command: str, output: str) -> None:
    outcome = read_outcome(output, command, is_error=False)
    assert outcome is None or not outcome["failed"]


def test_a_changing_error_after_edits_is_progress() -> None:
    s = Session()
    for error in ("E   KeyError: 'a'", "E   TypeError: bad operand", "E   AssertionError: 3 != 4"):
        s.fail("pytest tests", "Exit code 1\n" + error)
        s.edit("/repo/app.py")
    assert fire(s) is None


def test_the_same_error_after_edits_is_a_loop_and_fewer_failures_is_progress() -> None:
    s = Session()
    for line in range(40, 43):  # the error moves down the file, otherwise the same
        s.fail("npx tsc --noEmit", f"Exit code 2\nsrc/a.ts({line},7): error TS2345: Argument of type 'x'")
        s.edit("/repo/src/a.ts")
    assert fire(s) is not None
    s = Session()
    for failed in (5, 3, 1):
        s.fail("pytest", f"Exit code 1\nE   KeyError: 'k'\n=== {failed} failed, 9 passed ===")
        s.edit("/repo/app.py")
    # the read outcome is what the projector attaches; without it the text is all there is
    assert fire(s) is not None
    s = Session()
    for failed in (5, 3, 1):
        tool_use_id = s.run("pytest")
        s.observations.append(
            Observation(
                kind="error",
                text="Exit code 1\nE   KeyError: 'k'",
                tool="Bash",
                tool_use_id=tool_use_id,
                outcome={"failed": True, "counts": {"failed": failed}, "line": "E   KeyError: 'k'"},
            )
        )
        s.edit("/repo/app.py")
    assert fire(s) is None


def test_a_retry_the_user_asked_for_is_not_a_loop() -> None:
    s = Session()
    s.fail("docker compose up -d")
    s.observations.append(Observation(kind="prompt", text="[prompt] I freed the port, try again"))
    s.fail("docker compose up -d")
    s.observations.append(Observation(kind="prompt", text="[prompt] run it again please"))
    s.fail("docker compose up -d")
    assert fire(s) is None


def test_polling_a_booting_server_is_not_a_loop() -> None:
    s = Session()
    for _ in range(5):
        s.fail("sleep 2 && curl -sf localhost:8000/health", "Exit code 7\ncurl: (7) Failed to connect")
    assert fire(s) is None


def test_two_directories_are_two_targets() -> None:
    s = Session()
    s.fail("cd a && npm test")
    s.fail("cd b && npm test")
    s.fail("cd a && npm test")
    assert fire(s) is None
    s.fail("npm test")  # no directory named: the latest target (a) again
    s.fail("cd a && npm test")
    assert fire(s) is not None


def test_subagent_calls_count() -> None:
    s = Session()
    for _ in range(3):
        tool_use_id = s.run("pytest tests/unit")
        s.observations[-1] = Observation(
            **{**s.observations[-1].to_json(), "text": "[sub] [tool] Bash pytest"}
        )  # type: ignore[arg-type]
        s.observations.append(
            Observation(
                kind="error",
                text="[sub] [error] Bash: E   KeyError: 'x'",
                tool="Bash",
                tool_use_id=tool_use_id,
            )
        )
    assert fire(s) is not None


def test_a_loop_is_caught_after_unrelated_failures() -> None:
    state: dict[str, object] = {}
    s = Session()
    for command in ("ls missing", "cat nope", "git push", "npm run lint", "curl x"):
        s.fail(command)
        s.say("hm")
        assert fire(s, state) is None
    for _ in range(3):
        s.fail("pytest tests/api", PYTEST_ERROR)
    assert fire(s, state) is not None


def test_the_trigger_needs_no_outcome_for_plain_errors() -> None:
    s = Session()
    for _ in range(3):
        s.fail("cargo build", "Exit code 101\nerror[E0308]: mismatched types")
    match = repeat_failure(s.observations, {}, {})
    assert match is not None and match.data["error"] == "error[E0308]: mismatched types"


def test_a_runner_summary_of_errors_is_a_failure_but_a_log_level_beside_a_timestamp_is_not() -> None:
    from sbcore.observe.outcome import read_outcome

    collected = "ERROR tests/test_app.py\n!!!! Interrupted: 1 error during collection !!!!\n"
    collected += "==== 1 error in 0.19s ===="
    found = read_outcome(collected, "pytest tests/test_app.py -x 2>&1 | tail -5", is_error=False)
    assert found is not None and found["failed"] is True
    assert read_outcome("Found 3 errors in 2 files (checked 9 source files)", "mypy .", is_error=False) == {
        "failed": True,
        "counts": {"errors": 3},
        "line": "Found 3 errors in 2 files (checked 9 source files)",
    }
    log = "svc 2026/01/16 10:01:08 ERROR: 1 messages dropped: shutdown timeout\n0.01s user 0.868 total"
    quiet = read_outcome(log, "go build ./cmd/x && ./x help", is_error=False)
    assert quiet is None or quiet["failed"] is False


def test_the_quoted_line_is_the_failing_tests_assertion_from_pytests_short_summary() -> None:
    from sbcore.observe.outcome import error_line

    tail = (
        "tests/test_app.py:5: AssertionError\n=== short test summary info ===\n"
        "FAILED tests/test_app.py::test_add - assert 1 == 3\n=== 1 failed in 0.10s ==="
    )
    assert error_line(tail) == "FAILED tests/test_app.py::test_add - assert 1 == 3"
