"""The twenty-first round: b22's read of the twentieth (Puppet and Chef, Haxe, Tcl and Expect, Ionic), each
rule with tools named in no table (`zhx`, `qnpm`).

standard-questions: a script told by `run` is the project's script whatever its name (`npm run ci` runs the
`ci` script, where `npm ci` installs); a file named for the tests (`test.hxml`, `test-hl.hxml`) handed to a
program runs them. repeat-failure: an exit status with its program's name before it (`vitest exit: 1`) says
no more than a bare one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sbcore.detectors.checklist import runs_test_path
from sbcore.detectors.identity import work_identity
from sbcore.detectors.progress import _UNINFORMATIVE
from sbcore.detectors.standard_questions import standard_questions
from test_judgment_scanners import _asking, asked_then_answered
from test_triggers import Session, open_ids

from sbcore.observe.project_facts import read_project


def test_a_script_told_by_run_is_the_projects_whatever_its_name(tmp_path: Path) -> None:
    assert work_identity("npm run ci").runner == "js-script"
    assert work_identity("npm ci").runner == "npm"  # the package manager's own install
    scripts = {"scripts": {"test:ci": "qnpm-test --watch=false", "ci": "npm run lint && npm run test:ci"}}
    (tmp_path / "package.json").write_text(json.dumps(scripts))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "cart.spec.ts").write_text("")
    project = read_project(tmp_path)
    checklist = _asking("tests_run")
    s = Session()
    s.edit("/repo/src/cart.service.ts")
    assert "tests_run" in open_ids(standard_questions(s.observations, {}, {}, checklist, project=project))
    s.run("npm run ci")
    assert standard_questions(s.observations, {}, {}, checklist, project=project) is None


@pytest.mark.parametrize(
    "command", ["zhx test.hxml", "zhx test-hl.hxml && zhl bin/test.zl", "zhx tests.hxml"]
)
def test_a_file_named_for_the_tests_handed_to_a_program_runs_them(command: str) -> None:
    assert runs_test_path(command)
    asked_then_answered("tests_run", "ls test", "/repo/src/schema/Validator.hx", command)


def test_a_file_only_containing_test_in_its_name_runs_nothing() -> None:
    assert not runs_test_path("zhx latest.hxml")
    assert not runs_test_path("zhx contest.hxml")


@pytest.mark.parametrize("signature", ["vitest exit: #", "rc=#", "make exit: #", "status: #"])
def test_an_exit_status_with_its_programs_name_says_no_more(signature: str) -> None:
    assert _UNINFORMATIVE.match(signature)
    assert not _UNINFORMATIVE.match("vitest exited because tab# threw: #")
