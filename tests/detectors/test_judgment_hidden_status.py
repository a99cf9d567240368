"""The forty-second round: a run whose status its own command hid, the logs a run points to, one work's names.

repeat-failure, tuned on the older tuning batches' misses (V, LÖVE, SvelteKit, ctest, ESP-IDF, tcltest,
Ember, SqlPackage, Unity, the CDK, Neovim):

* a run whose last step filters its output (`… | head -20`, `… > run.log; grep Error run.log`) or excuses
  it (`|| true`) and that does not read as failed was not seen to pass: its streak goes on;
* a run that sends its output to a file and shows that file itself is read as that log;
* a failure points to its log in more ways: `Output from these tests are in: …/LastTest.log`, `the
  output of the command is in the /w/build/log/stderr_output_91342` (any name), a recipe line it echoed
  (`tclsh all.tcl -outfile build/test.log`), also when only its output says it failed;
* one work's names: an alias learnt from an alias is followed to its end; a Windows-style switch
  (`/Action:Publish`) names no absolute path; a value in another case (`PlayMode`, `playmode`) is the same
  target; a progress display's mode (`--progress events`) tunes the run;
* a failure the user reports as intermittent ("fails maybe 1 in 3 runs", "flaky") makes reruns that fail
  differently samples of it, as a request only to look does; runs the user asked several of ("rerun it 5
  times") are theirs though each one's result is looked at between them;
* a marker echoed only when the work passed (`./nightly.sh && echo OK || tail nightly.log`) and missing
  says the work failed; a program the project holds, run by its path (`./scripts/deploy.sh`), wraps a tool
  as a script runner's task does; inline code handed to one interpreter that calls one function by its long
  name (`fastconv_mex(…)`) is one work however its inputs differ.

The programs are named in no table (`zv`, `zlove`, `zpack`, ...).
"""

from __future__ import annotations

from sbcore.detectors.identity import work_identity
from sbcore.detectors.retries_asked import asks_only_looks, asks_repeats
from sbcore.detectors.same_work import ScriptAliases, _absolute, _swept
from sbcore.detectors.shell import status_hidden
from test_judgment_status_rows import loop_failures
from test_triggers import Session, fire

from sbcore.observe.fallbacks import marks_success
from sbcore.observe.log_reads import LogReads, views_own_output
from sbcore.observe.model import Observation
from sbcore.observe.outcome import read_outcome
from sbcore.packs.types import TriggerMatch

_PANIC = "zv panic: array.get: index out of range (i == 8, a.len == 8)"


def test_a_run_whose_status_its_filter_hid_was_not_seen_to_pass() -> None:
    assert status_hidden("zv run . access.log 2>&1 | head -20")
    assert status_hidden("zbuild > b.log 2>&1; grep -n Error b.log")
    assert status_hidden("zbuild || true")
    for seen in (
        "zv run . access.log",
        "set -o pipefail; zv run . | tail",
        "zbuild && zship",
        "zbuild; zship",
    ):
        assert not status_hidden(seen), seen
    quiet = ("zv run . access.log 2>&1 | head -20", "compiling...\nparsed 8 lines\n", False)
    failing = ("zv run . access.log", _PANIC)
    assert loop_failures(failing, quiet, failing, failing) == 3
    # a run whose status shows, passing, ends the streak
    assert loop_failures(failing, ("zv run . access.log", "parsed 8 lines\n", False), failing, failing) == 0


def test_a_run_that_shows_the_log_it_just_wrote_is_read_as_that_log() -> None:
    assert (
        views_own_output("timeout 8 zlove . &> /tmp/s.log; grep -n Error /tmp/s.log") is False
    )  # a wrapper first
    assert views_own_output("zlove . > /tmp/s.log 2>&1; grep -n Error /tmp/s.log")
    assert not views_own_output("zlove . > /tmp/s.log 2>&1; grep -n Error /tmp/other.log")
    assert not views_own_output("tail -n 20 /tmp/s.log")
    shown = "1:Error: Syntax error: src/states/menu.lua:88: '}' expected (to close '{' at line 80)\n"
    run = ("zlove . > /tmp/s.log 2>&1; grep -n Error /tmp/s.log", shown, False)
    assert loop_failures(run, run, run) == 3


def test_a_failure_points_to_its_log_in_more_ways() -> None:
    logs = LogReads()
    logs.named(
        "a", "Errors while running CTest\nOutput from these tests are in: /w/build/Testing/LastTest.log\n"
    )
    assert logs.read("b", "grep -A5 FAIL /w/build/Testing/LastTest.log") == "a"
    logs = LogReads()
    logs.named(
        "a", "zidf failed with exit code 2, the output of the command is in the /w/build/log/stderr_91342"
    )
    assert logs.read("b", "cat /w/build/log/stderr_91342 | grep error") == "a"
    logs = LogReads()
    logs.named("a", "zsh tests/all.zt -outfile build/test.log\nall.zt:\tTotal\t38\tPassed\t37\tFailed\t1\n")
    assert logs.read("b", "grep -B2 -A14 FAILED build/test.log") == "a"


def test_one_works_names() -> None:
    aliases = ScriptAliases()
    aliases.shown("zember test", "js-script test:zember", {})
    aliases.shown("js-script test:zember", "js-test", {})
    assert aliases.resolve("zember test") == "js-test"  # followed link by link
    assert not _absolute(work_identity("zpackage /Action:Publish /SourceFile:bin/Db.dacpac /p:Drop=true"))
    assert _absolute(work_identity("zpackage /opt/db/Db.dacpac"))
    assert not _swept(
        work_identity("zunity -testPlatform PlayMode"), work_identity("zunity -testPlatform playmode")
    )
    assert _swept(
        work_identity("zunity -testPlatform PlayMode"), work_identity("zunity -testPlatform EditMode")
    )
    assert (
        work_identity("zcdk deploy Stack --progress events").body == work_identity("zcdk deploy Stack").body
    )


def test_a_failure_the_user_calls_intermittent_makes_reruns_samples() -> None:
    for prompt in (
        "These specs fail on CI maybe 1 in 3 runs. Can you figure out why?",
        "The suite is flaky on my machine, look into it",
        "it sometimes fails with a timeout, no idea why",
        "intermittently the worker test hangs",
    ):
        assert asks_only_looks(prompt), prompt
    for prompt in ("Run the tests and fix what fails", "make it pass 3 times in a row"):
        assert not asks_only_looks(prompt), prompt


def test_a_marker_echoed_only_on_success_and_missing_says_the_work_failed() -> None:
    command = "DATA=./data ./jcl/NIGHTLY.sh && echo OK || tail -n 1 logs/nightly.log"
    failed = read_outcome(
        "zcob: error: file does not exist (status = 35) for file CUSTMAST", command, is_error=False
    )
    assert failed is not None and failed["failed"]
    passed = read_outcome("STEP010 ENDED RC=0000\nOK", command, is_error=False)
    assert passed is None or not passed["failed"]
    assert marks_success('zbuild && echo "build ok" || echo broke') == "build ok"
    assert marks_success("zbuild && echo $STATUS || true") == ""  # what the shell expands is no marker


def test_a_program_the_project_holds_is_a_wrapper_and_inline_code_calling_one_function_is_one_work() -> None:
    fk = 'Error SQL72014: .Net SqlClient: The ALTER TABLE conflicted with FOREIGN KEY "FK_Line_Product".'
    assert (
        loop_failures(
            ("./scripts/deploy.sh TestDb", fk),
            ("./scripts/deploy.sh TestDb", fk),
            ("zpackage /Action:Publish /SourceFile:bin/Db.dacpac /TargetDatabaseName:TestDb", fk),
        )
        == 3
    )
    crash = "panic: Segmentation fault -- stopping myself..."
    assert (
        loop_failures(
            ("zoct --eval 'x = rand(1,50); k = rand(1,80); y = fastconv_mex(x, k);'", crash),
            ("zoct --eval 'y = fastconv_mex(ones(1,50), ones(1,80))'", crash),
            ("zoct --eval 'fastconv_mex(zeros(1,4), ones(1,3))'", crash),
        )
        == 3
    )
    # inline code calling nothing in common stays apart: two probes failing alike
    assert loop_failures(("zoct --eval 'a = 1/0'", crash), ("zoct --eval 'b = zeros(2)(3)'", crash)) == 0


_HANDSHAKE = "Exit code 1\nzfleet.tests: AssertionError: 2 != 3 : expected 3 robots registered, got 2"


def _reruns(prompt: str) -> TriggerMatch | None:
    """Three runs of one test, its result looked at after each, under the turn's ``prompt``."""
    s = Session()
    s.observations.append(
        Observation(kind="prompt", text=f"[prompt] {prompt}", timestamp="2026-01-01T09:59:00Z")
    )
    for _ in range(3):
        s.fail("zcolcon test --packages-select fleet", _HANDSHAKE)
        s.run("zcolcon test-result --verbose")
    return fire(s)


def test_runs_the_user_asked_several_of_are_theirs_with_each_result_looked_at() -> None:
    assert (
        _reruns("It fails since the switch. Rerun that test separately 5 times, one after another.") is None
    )
    match = _reruns("It has been failing since the switch. Rerun the test and fix it.")
    assert match is not None and match.data["failures"] == 3
    assert asks_repeats(
        "Please rerun that test separately 5 times, one after another, and count the failures"
    )
    assert asks_repeats("keep trying until it passes")
    assert not asks_repeats("Please rerun the pipeline so metrics.json is up to date")
    assert not asks_repeats("normalize got rewritten to avoid the sqrt call twice. run the tests and fix it")
