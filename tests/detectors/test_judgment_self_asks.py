"""The fortieth round (b41), standard-questions: a runner asked what it is runs nothing; a task named for
running something builds it.

* `python -m zrun --version` (or `npx zrun --help`) says what the runner is and runs no test, however the
  runner is launched: "were the tests run?" stays open (the runner, `zrun`, is in no table);
* a build tool's task named for running something (`runClient`, `runGametest`, `runIde`) builds what it runs,
  so it answers "does it still build?" as `run` does (the build tool's pattern is the catalogue's hint).
"""

from __future__ import annotations

import pytest
from test_judgment_scanners import _asking
from test_triggers import Session, ask, open_ids


@pytest.mark.parametrize(
    "probe", ["python -m zrun tests/ --version", "npx zrun tests/ --help", "zrun tests -V"]
)
def test_a_runner_asked_what_it_is_runs_no_test(probe: str) -> None:
    s = Session()
    s.edit("/repo/src/cart.py")
    s.run("zrun tests/")  # the project's tests run before the change
    s.edit("/repo/src/cart.py")
    s.run(probe)
    assert "tests_run" in open_ids(ask(s, _asking("tests_run")))
    s.run("python -m zrun tests/")
    assert ask(s, _asking("tests_run")) is None


@pytest.mark.parametrize("task", ["runClient", "runGametest", "runIde --console=plain"])
def test_a_task_named_for_running_something_builds_it(task: str) -> None:
    s = Session()
    s.edit("/repo/src/main/java/com/acme/Mod.java")
    s.run("ls")
    assert "compiles" in open_ids(ask(s, _asking("compiles")))
    s.run(f"./gradlew {task}")
    assert ask(s, _asking("compiles")) is None


@pytest.mark.parametrize(
    "command",
    [
        "zfire emulators:exec --only db 'npm --prefix functions run build && npm --prefix functions test'",
        "zstack env:run staging -- zrun tests/",
    ],
)
def test_a_command_line_handed_to_a_scoped_exec_or_run_subcommand_runs(command: str) -> None:
    """The forty-first round (b42): a subcommand scoped like `emulators:exec` or `env:run` runs the command it
    is handed."""
    s = Session()
    s.edit("/repo/functions/src/index.ts")
    s.run("zrun tests/")
    s.edit("/repo/functions/src/index.ts")
    assert "tests_run" in open_ids(ask(s, _asking("tests_run")))
    s.run(command)
    assert ask(s, _asking("tests_run")) is None
