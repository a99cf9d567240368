"""repeat-failure reads what a failure says and how it was asked again (issue 22, twelfth round).

Tuned on b13 (java-maven-spring, serverless-cloud, js-monorepo-tooling, python-packaging-native), whose
misses and false alarms came from how a failure's message is printed and how a retry is asked for, not from
any one tool: a CLI that prints `Error:` on its own line and the message under it, a message rendered as a
JSON string, an installer's summary of a subprocess that failed over the root error inside it, one option's
value swept over packages, a retry asked after a pause, and a prompt asking for a number of runs. Every tool
here is named in no table of the built-in pack.
"""

from __future__ import annotations

from sbcore.detectors.identity import work_identity
from sbcore.detectors.retries_asked import asks_retries
from sbcore.detectors.triggers import error_headline, repeat_failure

from sbcore.observe.outcome import error_line, read_outcome
from sbcore.observe.project import Projector
from tests.detectors.test_repeat_failure_families import transcript
from tests.detectors.test_triggers import Session, fire


def test_an_error_heading_takes_the_message_under_it() -> None:
    """`Error:` alone on its line, then a different message each time: three different failures, not one."""
    assert error_line("Exit code 1\nDeploying\n\nError:\nThe SSO session has expired.\n") == (
        "Error: The SSO session has expired."
    )
    steps = [
        ("zless deploy --stage dev", f"Deploying zsvc\n✖ Stack failed\n\nError:\n{message}\n", 1)
        for message in ("Credentials not found", "The SSO session has expired", "Table already exists")
    ]
    assert repeat_failure(Projector().feed_lines(transcript(*steps)), {}, {}) is None
    same = [
        ("zless deploy --stage dev", "Deploying zsvc\n✖ Stack failed\n\nError:\nTable already exists\n", 1)
    ]
    assert repeat_failure(Projector().feed_lines(transcript(*same * 3)), {}, {}) is not None


def test_a_message_rendered_as_a_json_string_is_the_message() -> None:
    """A stack trace printed as JSON: its line is a quoted string, which is the message, not a quotation to
    fold away. The same module missing through a script, two spellings and an environment prefix is a loop."""

    def trace(module: str) -> str:
        head = '{\n    "errorType": "Error",\n    "stackTrace": [\n'
        return head + f"        \"Error: Cannot find module '{module}'\",\n"

    commands = (
        "zls invoke local -f createOrder -p events/create.json",
        "zls invoke local --function createOrder --path events/create.json --verbose",
        "ZLS_DEBUG=1 zls invoke local -f createOrder -p events/create.json",
    )
    match = repeat_failure(
        Projector().feed_lines(transcript(*[(c, trace("qsdk"), 1) for c in commands])), {}, {}
    )
    assert match is not None and "qsdk" in match.data["error"]
    # three different modules missing: folding the quotation away would have hidden the difference
    steps = [(commands[0], trace(module), 1) for module in ("qsdk", "qutil", "qlog")]
    assert repeat_failure(Projector().feed_lines(transcript(*steps)), {}, {}) is None


def test_an_installers_summary_of_a_failed_subprocess_yields_to_the_root_error() -> None:
    """`error: subprocess-exited-with-error` and `× … did not run successfully` only say a step failed."""
    text = (
        "Exit code 1\n  error: subprocess-exited-with-error\n  \n"
        "  × Getting requirements to build editable did not run successfully.\n  │ exit code: 1\n"
        "  ╰─> [4 lines of output]\n      ModuleNotFoundError: No module named 'qnum'\n"
        "      [end of output]\n"
        "error: subprocess-exited-with-error\n"
    )
    assert error_line(text) == "ModuleNotFoundError: No module named 'qnum'"


def test_one_options_value_swept_over_packages_is_not_a_loop() -> None:
    """The same command with one option's value changed, package after package, each failing on the config
    they share: a survey of the workspace, three targets."""
    missing = "Exit code 1\nError: Cannot find module '@acme/config/qtest'\n"
    s = Session()
    for package in ("api", "worker", "billing"):
        s.fail(f"qpm --filter=@acme/{package} test", missing)
    assert fire(s) is None


def test_a_retry_asked_after_a_pause_each_time_is_polling() -> None:
    """Each retry waits first (`sleep 20; …`): the agent is waiting for something outside to change (an upload
    to show on an index). One retry with a pause among immediate ones is still the loop."""
    missing = "Exit code 1\nERROR: No matching distribution found for qgeo==0.4.2\n"
    s = Session()
    s.fail("qip install qgeo==0.4.2", missing)
    s.fail("sleep 20; qip install qgeo==0.4.2", missing)
    s.fail("sleep 30; qip install qgeo==0.4.2", missing)
    assert fire(s) is None
    refused = "Exit code 1\n--- FAIL: TestWindow (0.00s)\n    store_test.go:40: dial tcp :6379: refused\n"
    loop = Session()
    loop.fail("qo test ./internal/store/...", refused)
    loop.fail("qo test -count=1 ./internal/store/...", refused)
    loop.fail("sleep 5 && qo test -count=1 ./internal/store/...", refused)
    loop.fail("qo test -count=1 ./internal/store/...", refused)
    assert fire(loop) is not None


def test_a_prompt_asking_for_a_number_of_runs_asks_for_retries() -> None:
    assert asks_retries("It has been flaky on CI. Please run it three times in a row and tell me.")
    assert asks_retries("Run the suite 5 times, don't change anything.")
    assert asks_retries("Try it twice more.")
    assert not asks_retries("The build broke after the rename; fix it.")


def test_an_assertion_in_nunits_spelling_shows_a_failure() -> None:
    """`Expected: 5  But was:  0` (a capital `But`) in a run piped away is a failing test, quoted over the
    runner's `Exiting with code 2`."""
    text = (
        "Running tests\nSpawnerTests.SpawnsWave: Expected: 5  But was:  0\n"
        "Test run completed. Exiting with code 2.\n"
    )
    outcome = read_outcome(text, "zunity -runTests | tail -20", is_error=False)
    assert outcome is not None and outcome["failed"]
    assert outcome["line"] == "SpawnerTests.SpawnsWave: Expected: 5  But was:  0"


def test_the_shells_time_report_is_no_error_line() -> None:
    """`time zrun …` prints `real 3m41s` after a failure that printed nothing else: not what failed."""

    assert (
        error_headline("Exit code 2\n\nreal\t3m41.220s\nuser\t2m58.104s\nsys\t0m21.877s\n") == "Exit code 2"
    )


def test_a_runner_saying_it_is_exiting_with_a_code_is_its_summary() -> None:
    text = "Exit code 2\nTest run completed. Exiting with code 2 (Failed).\nSpawnerTests failed: no wave\n"
    assert error_headline(text) == "SpawnerTests failed: no wave"


def test_a_package_managers_exec_in_a_workspace_scope_runs_the_program_after_it() -> None:
    """`pnpm --filter W exec <program> …` is that program's run in package W: the workspace's test task,
    then the runner on one file by `exec`, failing on one assertion, are one loop (twelfth round)."""
    scoped = work_identity("pnpm --filter @acme/api exec zcheck src")
    assert (scoped.runner, scoped.body) == ("zcheck", "zcheck f=@acme/api src")
    same = "Exit code 1\nAssertionError: expected false to be true // Object.is equality\n"
    s = Session()
    s.fail("pnpm --filter @acme/webhooks test", same)
    s.fail("pnpm --filter @acme/webhooks test", same)
    s.fail("pnpm --filter @acme/webhooks exec vitest run src/signature.test.ts", same)
    assert fire(s) is not None


def test_two_project_tasks_stopping_on_one_fault_in_the_code_are_one_loop() -> None:
    """`zmake pipeline` (the aggregate) and `zmake transform` (its member) both stop on one raised exception,
    named by its qualified type: a fault in the code, whichever task reached it (thirteenth round). Two tasks
    stopping alike on what they share but is no fault in the code stay two (`just lint`, `just docs`:
    `test_two_named_scripts_stay_two_works_though_they_fail_alike`)."""
    raised = (
        'Exit code 2\nTraceback (most recent call last):\n  File "retail/transform.py", line 41, in run\n'
        "qandas.errors.MergeError: Merge keys are not unique in right dataset\n"
        "make: *** [transform] Error 1\n"
    )
    s = Session()
    s.fail("make pipeline DATE=2024-06-09", raised)
    s.fail("make transform DATE=2024-06-09", raised)
    s.fail("make transform DATE=2024-06-09", raised)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_a_status_line_and_a_bridges_wrapper_yield_to_the_error_under_them() -> None:
    """`zcheck......Failed` (a hook's status), `✖ zlint --max-warnings=0 [FAILED]` (a task list's), `error:
    test failed, to rerun pass …` (a runner's count), `↓ Skipped because of errors from tasks.` and
    `Z4JJavaError: An error occurred while calling o88.save.` (a bridge's) only say that something under them
    failed (thirteenth round)."""
    assert (
        error_line(
            "zcheck......................................Failed\n- hook id: zcheck\n"
            "deploy.sh:23:11: error: unquoted $opts splits [SC2086]\n"
        )
        == "deploy.sh:23:11: error: unquoted $opts splits [SC2086]"
    )
    assert (
        error_headline(
            "Exit code 1\n✖ zlint --max-warnings=0 [FAILED]\n23:10  error  'useMemo' is never used\n"
        )
        == "23:10  error  'useMemo' is never used"
    )
    assert (
        error_headline(
            "Exit code 101\nerror: test failed, to rerun pass `-p store --lib`\npanicked: no such table\n"
        )
        == "panicked: no such table"
    )
    skipped = "Exit code 1\n↓ Skipped because of errors from tasks.\nzlint: error: 'useMemo' is never used\n"
    assert error_headline(skipped) == "zlint: error: 'useMemo' is never used"
    assert error_line(
        "Traceback (most recent call last):\n"
        "z4j.protocol.Z4JJavaError: An error occurred while calling o88.save.\n"
        ": java.lang.ClassNotFoundException: org.postgresql.Driver\n"
    ).endswith("ClassNotFoundException: org.postgresql.Driver")


def test_a_workspace_runners_task_tag_and_its_summaries_give_way_to_the_error_they_pass_on() -> None:
    """A workspace runner tags each line it passes on (`web:codegen: `) and ends with its own summaries
    (`ERROR: command finished with error`, `Failed: web#codegen`, `run failed: command exited (1)`): the same
    error through the runner, the package's script and the tool in the package's folder is one loop; a quoted
    name is kept whole, so another fragment is another failure (fourteenth round)."""
    assert error_headline(
        "Exit code 1\nzweb:zbuild: ERROR: command finished with error: z (1)\nx: error\n"
    ) == ("x: error")
    for summary in ("Failed:    zweb#zbuild", " ERROR  run failed: command  exited (1)"):
        assert (
            error_headline(f"Exit code 1\n{summary}\nzweb: error: bad fragment\n")
            == "zweb: error: bad fragment"
        )

    def unknown(fragment: str, tagged: bool) -> str:
        line = f'Error 0: Unknown fragment "{fragment}".'
        return "Exit code 1\n" + (f"web:qgen:       {line}" if tagged else line) + "\n"

    s = Session()
    s.fail("zturbo run qgen --filter=web", unknown("ProductCardFields", tagged=True))
    s.fail("qpm --filter web qgen", unknown("ProductCardFields", tagged=False))
    s.fail("cd apps/web && qgen --config qgen.ts", unknown("ProductCardFields", tagged=False))
    assert fire(s) is not None
    schema = "[ERROR] [InvalidEntryError] blog → sale.md frontmatter does not match the collection schema."
    tagged = Session()
    tagged.fail("zturbo run zbuild --filter=mkt", f"Exit code 1\nmkt:zbuild: {schema}\n")
    tagged.fail("qpm run zbuild -w apps/mkt", f"Exit code 1\n{schema}\n")
    tagged.fail("zastro zbuild --root apps/mkt --verbose", f"Exit code 1\n{schema}\n")
    assert fire(tagged) is not None
    other = Session()  # the same spellings, another fragment each time: the work is moving
    other.fail("zturbo run qgen --filter=web", unknown("ProductCardFields", tagged=True))
    other.fail("zturbo run qgen --filter=web --force", unknown("ProductPriceFields", tagged=True))
    other.fail("cd apps/web && qgen --config qgen.ts", unknown("ProductStockFields", tagged=False))
    assert fire(other) is None


def test_one_script_run_over_the_workspaces_packages_is_a_survey() -> None:
    """`pnpm --filter storefront codegen`, then `--filter admin`, then `--filter pos`: one task's scopes swept
    over packages, failing alike on what they share (fourteenth round)."""
    shared = 'Exit code 1\nError 0: Cannot query field "legacyId" on type "Product".\n'
    s = Session()
    for package in ("storefront", "admin", "pos"):
        s.fail(f"pnpm --filter {package} qgen", shared)
    assert fire(s) is None
