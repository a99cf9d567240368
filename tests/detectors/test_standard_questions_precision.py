"""standard-questions is precision-first: it asks only what the session shows can be answered."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import yaml
from sbcore.detectors.checklist import comment_only, invocations
from test_triggers import ROOT, Session, ask, open_ids

from sbcore.observe.model import Observation


@pytest.fixture
def checklist() -> dict[str, Any]:
    document = yaml.safe_load((ROOT / "catalogue" / "standard-questions.yaml").read_text())
    config: dict[str, Any] = document["config"]
    return config


def edit(s: Session, path: str, new: str, old: str) -> None:
    s.observations.append(
        Observation(
            kind="tool",
            text=f"[tool] Edit {path}",
            tool="Edit",
            tool_use_id=f"toolu_e{len(s.observations)}",
            args={"file_path": path, "new_string": new, "old_string": old},
            uuid=str(uuid.uuid4()),  # as a record's: the memo of what an observation shows keys on it
        )
    )


def test_a_project_with_no_tests_or_build_is_asked_nothing(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls src")
    s.edit("/repo/src/app.py")
    assert ask(s, checklist) is None


@pytest.mark.parametrize(
    "evidence",
    [
        "ls tests",
        "cat tests/test_app.py",
        "python manage.py test",
        "mix test",
        "pnpm --filter api test",
        "swift test",
        "go test ./...",
        "cargo test",
        "python tests.py",
        "ls Tests/AppTests",
    ],
)
def test_evidence_of_tests_makes_tests_run_apply(checklist: dict[str, Any], evidence: str) -> None:
    s = Session()
    s.run(evidence)
    s.edit("/repo/src/app.py")
    assert "tests_run" in open_ids(ask(s, checklist))


def test_inline_rust_tests_are_evidence(checklist: dict[str, Any]) -> None:
    s = Session()
    edit(s, "/repo/src/lib.rs", "#[cfg(test)]\nmod tests {", "")
    s.edit("/repo/src/lib.rs")
    assert "tests_run" in open_ids(ask(s, checklist))


@pytest.mark.parametrize(
    "runner",
    [
        "python manage.py test",
        "mix test",
        "pnpm --filter api test",
        "swift test",
        "CI=1 uv run pytest -q",
        "python tests.py",
        "cd app && ./run-tests.sh",
    ],
)
def test_runners_answer(checklist: dict[str, Any], runner: str) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/app.py")
    s.run(runner)
    assert "tests_run" not in open_ids(ask(s, checklist))


@pytest.mark.parametrize(
    "not_a_run",
    [
        "pip install pytest-asyncio",
        'git commit -m "fix: run pytest in CI"',
        "echo pytest",
        "uv add --dev pytest",
        "npm install jest",
    ],
)
def test_only_invocations_answer(checklist: dict[str, Any], not_a_run: str) -> None:
    assert not any(step.startswith(("pytest", "jest")) for step in invocations(not_a_run))
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/app.py")
    s.run(not_a_run)
    assert "tests_run" in open_ids(ask(s, checklist))


def test_a_subagents_reported_test_run_answers(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/app.py")
    s.observations.append(
        Observation(
            kind="report", text="[report] Task: Ran the test suite: 42 passed, 0 failed.", tool="Task"
        )
    )
    assert "tests_run" not in open_ids(ask(s, checklist))


def delegate(s: Session, prompt: str, tool: str = "Task") -> None:
    """A subagent launched with ``prompt`` (in the background: its outcome never reaches a report)."""
    s.observations.append(
        Observation(
            kind="tool",
            text=f"[tool] {tool} devrun — Run tests run_in_background\n{prompt}",
            tool=tool,
            tool_use_id=f"toolu_d{len(s.observations)}",
            args={"subagent_type": "devrun", "prompt": prompt, "run_in_background": True},
        )
    )


@pytest.mark.parametrize(
    "prompt",
    [
        "Run the following command and report ALL results:\n\n`uv run pytest tests/unit/test_app.py -q`",
        "Run the tests:\n```bash\ncd /repo\nuv run pytest tests/unit -x\n```\nReport failures verbatim.",
        "Please run\n$ npm test -- --watch=false\nand tell me what fails.",
    ],
)
def test_a_run_delegated_to_a_subagent_answers(checklist: dict[str, Any], prompt: str) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/app.py")
    delegate(s, prompt, tool="Agent" if "npm" in prompt else "Task")
    assert "tests_run" not in open_ids(ask(s, checklist))


@pytest.mark.parametrize(
    "prompt",
    [
        "Run the tests and report the results.",  # prose names no command: nothing says what ran
        "Check that `pip install pytest` worked, then summarise the diff.",  # an install is not a run
        "Review `src/app.py` for bugs; do not change anything.",
    ],
)
def test_a_delegation_that_spells_out_no_run_does_not_answer(checklist: dict[str, Any], prompt: str) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/app.py")
    delegate(s, prompt)
    assert "tests_run" in open_ids(ask(s, checklist))


def test_a_delegated_run_before_the_latest_edit_does_not_answer(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/app.py")
    delegate(s, "Run `pytest -q` and report.")
    s.edit("/repo/src/app.py")
    assert "tests_run" in open_ids(ask(s, checklist))


def test_delegation_tools_are_configurable(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/app.py")
    delegate(s, "Run `pytest -q` and report.")
    assert "tests_run" in open_ids(ask(s, {**checklist, "delegate_tools": []}))


@pytest.mark.parametrize("path", ["/repo/.github/workflows/ci.yml", "/repo/README.md", "/repo/notes.txt"])
def test_non_code_edits_raise_no_code_question(checklist: dict[str, Any], path: str) -> None:
    s = Session()
    s.run("ls tests Makefile")
    s.edit(path)
    assert ask(s, checklist) is None


def test_comment_and_docstring_only_edits_raise_no_code_question(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls tests Makefile")
    edit(s, "/repo/src/app.py", "# Retry twice: the API drops the first call.", "# Retry once.")
    edit(
        s,
        "/repo/src/app.py",
        '    """Parse the header.\n\n    Returns None on junk.\n    """',
        '    """Parse."""',
    )
    assert all(comment_only(obs) for obs in s.observations if obs.tool == "Edit")
    assert ask(s, checklist) is None
    edit(s, "/repo/src/app.py", "retries = 2  # twice", "retries = 1")
    assert not comment_only(s.observations[-1])
    assert "tests_run" in open_ids(ask(s, checklist))


@pytest.mark.parametrize(
    "prompt",
    ["Fix the typo, don't run the tests.", "No need to run tests for this", "skip tests, just commit"],
)
def test_the_user_saying_not_to_run_tests_makes_it_moot(checklist: dict[str, Any], prompt: str) -> None:
    s = Session()
    s.observations.append(Observation(kind="prompt", text=f"[prompt] {prompt}"))
    s.run("ls tests")
    s.edit("/repo/src/app.py")
    assert "tests_run" not in open_ids(ask(s, checklist))


def test_tests_added_is_asked_for_new_code_only(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("pytest")
    s.edit("/repo/src/app.py")
    s.run("pytest")
    assert ask(s, checklist) is None  # a change to existing code, tested
    s.edit("/repo/src/new_module.py", tool="Write")
    s.run("pytest")
    assert open_ids(ask(s, checklist)) == ["tests_added"]


def test_compiles_needs_a_build(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/app.py")
    assert "compiles" not in open_ids(ask(s, checklist))
    s = Session()
    s.run("cat tsconfig.json")
    s.edit("/repo/src/app.ts")
    assert open_ids(ask(s, checklist)) == ["compiles"]
