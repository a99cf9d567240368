"""The thirtieth round, standard-questions: a run the agent names in its own words, a test run that builds
what it tests, a command run on another machine, a program named for baking.

A test run whose spelling no runner pattern knows (a monorepo tool's ``affected -t test``, a task runner
given several tasks) answers "were the tests run?" when the agent, after running it, names it in a code span
and says on that line how it came out; not a plan, not a word the command merely shares, not a run refused
at its command line. A test run after an edit of a language its tools build before they test answers "does
it build?"; after an edit of C, whose test runner may run the binaries built before, it does not. A command
handed to ``ssh`` runs there. The tools are named in no table (``zq``, ``zrepo``, ``ztask``, ``zbake``).
"""

from __future__ import annotations

import pytest
from sbcore.detectors.checklist import invocations
from test_judgment_scanners import _asking
from test_triggers import Session, ask, open_ids


def _edited_then(command: str, words: str, *, path: str = "/repo/libs/dates/src/format-eta.zz") -> list[str]:
    s = Session()
    s.run("ls libs/dates/tests")
    s.edit(path)
    s.run(command)
    s.say(words)
    return open_ids(ask(s, _asking("tests_run")))


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (
            "zrepo affected -t test --base=main",
            "`zrepo affected -t test` ran dates (19 specs) and driver — all passing.",
        ),
        ("ztask run build test --filter=web...", "`ztask run build test --filter=web...` passes: 11 tests."),
        (
            "zrepo run-many --projects=web -t build,test",
            "Ran `zrepo run-many --projects=web -t build,test`; 2 failed in `dates`.",
        ),
    ],
)
def test_a_test_run_the_agent_names_and_says_how_it_came_out_answers(command: str, words: str) -> None:
    assert "tests_run" not in _edited_then(command, words)
    assert "tests_run" in _edited_then(command, "Done; the change is in place.")  # named nowhere


@pytest.mark.parametrize(
    "words",
    [
        "`zrepo affected -t test` should pass once CI picks it up.",  # a plan
        "Run `zrepo affected -t test` yourself; it needs to pass before merging.",
        "The `affected` list of projects passes its fixtures through.",  # a shared word names no run
    ],
)
def test_a_plan_or_a_shared_word_is_no_report_of_the_run(words: str) -> None:
    assert "tests_run" in _edited_then("zrepo affected -t test --base=main", words)


def test_a_run_refused_at_its_command_line_is_none_however_it_is_named() -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/filter.zz")
    s.fail("zrepo test --tag filter", "Exit code 4\nzrepo: error: unrecognized arguments: --tag")
    s.say("`zrepo test --tag filter` failed: the plugin is missing.")
    assert "tests_run" in open_ids(ask(s, _asking("tests_run")))


def test_a_command_the_agent_ran_before_the_change_answers_nothing_after_it() -> None:
    s = Session()
    s.run("ls tests")
    s.run("zrepo affected -t test")
    s.edit("/repo/src/filter.zz")
    s.say("`zrepo affected -t test` passes.")
    assert "tests_run" in open_ids(ask(s, _asking("tests_run")))


def _compiles_after(path: str, command: str) -> list[str]:
    s = Session()
    s.edit(path)
    s.run(command)
    return open_ids(ask(s, _asking("compiles")))


def test_a_test_run_builds_a_language_its_tools_build_before_testing() -> None:
    assert "compiles" not in _compiles_after("/repo/programs/vault/src/math.rs", "zq test")
    assert "compiles" in _compiles_after("/repo/programs/vault/src/math.rs", "zq lint")
    # C's test runner may run what was built before the edit: the build is not shown
    assert "compiles" in _compiles_after("/repo/src/codec.c", "zq test")


def test_a_program_named_for_baking_builds() -> None:
    assert "compiles" not in _compiles_after("/repo/src/codec.c", "zbake core-image-minimal")


def test_a_command_handed_to_ssh_runs_on_the_other_machine() -> None:
    assert invocations("ssh root@192.168.7.2 zptest-runner app") == ["zptest-runner app"]
    assert invocations("ssh -p 2222 -i k.pem deploy@host 'cd /srv && ztask test'") == ["ztask test"]
    assert invocations("ssh deploy@host") == ["ssh deploy@host"]  # a login runs nothing named
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/deadband.c", tool="Write")
    s.run("ssh root@192.168.7.2 zptest-runner app")
    assert "tests_run" not in open_ids(ask(s, _asking("tests_run")))
