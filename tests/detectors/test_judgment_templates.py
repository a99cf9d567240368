"""The eighteenth round: templates, whole recipes, refused runs, and runs told apart by their folders.

standard-questions: a settings file holding template directives (`{{- if … }}`, `{% for … %}`) is code, a
CI system's `${{ … }}` is not; a query's path (`yq .spec.template`) names no test file; a tool's prefixed test
subcommand (`<tool> unittest`) runs tests; a recipe is read whole with the recipes it depends on, and each
step of a chain that names one runs it (`make -j8 && make unit`); one `make` told several targets runs each;
a loop's body runs; a C function added by an edit is new code; a run its command line refused answers
nothing. repeat-failure: one file named from two folders is one failure; the same folder swapped in each
path is a sweep; a `::` path names what failed; a run that says it aborted failed, and a status line, a
table's heading and a count line are summaries under which the root error is quoted. The tools are named in
no table (`kiln`, `zq`, `qmk`, `zforge`, `zdoc`, `zdeploy`).
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from sbcore.detectors.checklist import runs_any, runs_test_path
from sbcore.detectors.failures import same_failure
from sbcore.detectors.standard_questions import standard_questions
from test_judgment_scanners import _asking
from test_triggers import Session, ask, fire, open_ids

from sbcore.observe.edit_reading import defined_names
from sbcore.observe.model import Observation
from sbcore.observe.outcome import error_line, read_outcome
from sbcore.observe.project_facts import read_project
from tests.observe.test_log_reads import bash_records, projected_errors


def _edit(session: Session, path: str, new: str, old: str = "", tool: str = "Edit") -> None:
    args = {"file_path": path, "new_string": new, "old_string": old} if tool == "Edit" else {}
    if tool == "Write":
        args = {"file_path": path, "content": new}
    session.observations.append(
        Observation(
            kind="tool",
            text=f"[tool] {tool} {path}",
            timestamp=f"2026-01-01T11:{len(session.observations):02d}:00Z",
            tool=tool,
            tool_use_id=f"toolu_e{len(session.observations):03d}",
            args=args,
            uuid=str(uuid.uuid4()),
        )
    )


# -- standard-questions: templates ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "new",
    [
        "spec:\n  {{- if .Values.spread.enabled }}\n  spread: {{ .Values.spread.skew }}\n  {{- end }}",
        'storage: {{ .Values.size | default "50Gi" }}',
        "hosts:\n{% for host in groups.web %}\n  - {{ host }}\n{% endfor %}",
    ],
)
def test_a_settings_file_written_as_a_template_is_code(new: str) -> None:
    checklist = _asking("tests_run")
    s = Session()
    s.run("ls tests")
    _edit(s, "/repo/deploy/kiln/templates/worker.yaml", new)
    assert "tests_run" in open_ids(ask(s, checklist))


@pytest.mark.parametrize(
    "new",
    ["replicas: 3\nimage: web:1.4", "runs-on: ${{ matrix.os }}\nname: build ${{ matrix.target }}"],
)
def test_plain_settings_and_a_ci_expression_are_not_code(new: str) -> None:
    checklist = _asking("tests_run")
    s = Session()
    s.run("ls tests")
    _edit(s, "/repo/deploy/kiln/values.yaml", new)
    assert ask(s, checklist) is None


def test_a_new_template_asks_for_its_tests_though_settings_files_do_not() -> None:
    checklist = _asking("tests_added")
    s = Session()
    s.run("ls tests")
    _edit(
        s,
        "/repo/deploy/kiln/templates/budget.yaml",
        "{{- if .Values.budget.enabled }}\nkind: Budget\n",
        tool="Write",
    )
    assert "tests_added" in open_ids(ask(s, checklist))
    quiet = Session()
    quiet.run("ls tests")
    _edit(quiet, "/repo/deploy/kiln/budget.yaml", "kind: Budget\nminAvailable: 1\n", tool="Write")
    assert ask(quiet, checklist) is None


def test_a_querys_path_names_no_test_file() -> None:
    assert not runs_test_path("kiln render t . | zq '.spec.template.spec.containers'")
    assert not runs_test_path("zq .tests.total report.json")
    assert runs_test_path("zq run spec/queries_spec.zq")


@pytest.mark.parametrize("command", ["kiln unittest charts/web", "kiln e2e-test", "qmk integration_tests"])
def test_a_tools_prefixed_test_subcommand_runs_tests(command: str) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/app.zz")
    s.run(command)
    assert ask(s, _asking("tests_run")) is None


@pytest.mark.parametrize("command", ["git tag latest", "zdeploy attest image"])
def test_a_word_ending_in_test_is_no_test_subcommand(command: str) -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/src/app.zz")
    s.run(command)
    assert "tests_run" in open_ids(ask(s, _asking("tests_run")))


# -- standard-questions: recipes, chains, loops -----------------------------------------------------------


MAKEFILE = """\
HOSTCC := zcc

.PHONY: all unit check ci lint

all:
\tzcc -o build/kernel kernel/*.zz

# host-side unit tests
unit:
\t@mkdir -p build/unit
\t$(HOSTCC) -Iinclude tests/unit/main.zz kernel/heap.zz \\
\t    -o build/unit/run
\t./build/unit/run

check: all unit

lint:
\tzlint kernel
"""


def test_a_recipe_is_read_whole_with_the_recipes_it_depends_on(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text(MAKEFILE)
    scripts = read_project(tmp_path).scripts
    assert scripts["unit"] == (
        "mkdir -p build/unit && zcc -Iinclude tests/unit/main.zz kernel/heap.zz -o build/unit/run"
        " && ./build/unit/run"
    )
    assert scripts["check"] == "make all && make unit"
    assert scripts["lint"] == "zlint kernel"


@pytest.mark.parametrize("command", ["make -j8 && make unit", "make check", "make lint unit"])
def test_a_chain_step_a_target_or_a_recipe_it_depends_on_runs_the_tests(tmp_path: Path, command: str) -> None:
    (tmp_path / "Makefile").write_text(MAKEFILE)
    (tmp_path / "tests" / "unit").mkdir(parents=True)
    project = read_project(tmp_path)
    checklist = _asking("tests_run")
    s = Session()
    s.edit("/repo/kernel/heap.zz")
    s.run("make lint")
    assert "tests_run" in open_ids(standard_questions(s.observations, {}, {}, checklist, project=project))
    s.run(command)
    assert standard_questions(s.observations, {}, {}, checklist, project=project) is None


def test_one_make_told_several_targets_runs_each() -> None:
    assert runs_any("make lint test", (re.compile(r"^make\s+test\b"),))
    assert runs_any("make -C docs -j 4 html doctest V=1", (re.compile(r"^make .*doctest\b"),))
    assert runs_any(
        "make -C test all", (re.compile(r"^make -C test all$"),)
    )  # a folder named test: no target


def test_a_loops_body_runs() -> None:
    s = Session()
    s.run("ls tests")
    s.edit("/repo/packages/core/src/pool.zz")
    s.run("for p in core oracle; do zforge move test --path packages/$p || exit 1; done")
    assert ask(s, _asking("tests_run")) is None


def test_a_c_function_added_by_an_edit_is_new_code() -> None:
    new = (
        "void *kmalloc_aligned(size_t size, size_t align) {\n    return carve(size, align);\n}\n"
        "static unsigned long long hash_key(const char *s)\n{\n"
    )
    assert defined_names(new) == {"kmalloc_aligned", "hash_key"}
    assert defined_names("int main(void);\nelse if (x) {\nint x = carve(a)") == set()
    checklist = _asking("tests_added")
    s = Session()
    s.run("ls tests")
    _edit(s, "/repo/kernel/heap.c", new, old="void *kmalloc(size_t size);")
    assert "tests_added" in open_ids(ask(s, checklist))


def test_a_run_its_command_line_refused_answers_nothing() -> None:
    checklist = _asking("tests_run")
    refusals = [
        "Exit code 4\nERROR: usage: zforge [options]\nzforge: error: unrecognized arguments: --tag",
        "Exit code 127\nbash: zforge: command not found",
        "Exit code 2\nerror: unknown option '--kind'",
    ]
    for refusal in refusals:
        s = Session()
        s.run("ls tests")
        s.edit("/repo/src/app.zz")
        s.fail("zforge test --tag filter", refusal)
        assert "tests_run" in open_ids(ask(s, checklist)), refusal
    ran = Session()
    ran.run("ls tests")
    ran.edit("/repo/src/app.zz")
    ran.fail("zforge test --tag filter", "Exit code 1\nFAILED tests/test_app.zz::test_total")
    assert ask(ran, checklist) is None
    quoted = Session()  # a test failing on such a message ran
    quoted.run("ls tests")
    quoted.edit("/repo/src/app.zz")
    quoted.fail(
        "zforge test",
        "Exit code 1\n== 3 collected ==\ntests/test_cli.zz::test_flags FAILED\n\n__ test_flags __\n"
        "    assert run(['--kind']).err == ''\nE   AssertionError: 'error: unknown option --kind' != ''",
    )
    assert ask(quoted, checklist) is None


# -- repeat-failure ---------------------------------------------------------------------------------------


def test_one_file_named_from_two_folders_is_one_failure() -> None:
    deep = "fail  deployment resources\tcharts/payments/tests/deployment_test.yaml"
    near = "fail  deployment resources\ttests/deployment_test.yaml"
    assert same_failure(deep, near) and same_failure(near, deep)
    assert not same_failure("fail  deployment resources\ttests/service_test.yaml", deep)


def test_a_test_run_from_its_folder_and_from_the_root_is_one_loop() -> None:
    s = Session()
    failing = (
        "Exit code 1\n FAIL  deployment resources\t{}tests/deployment_test.yaml\n\t- memory 256Mi != 512Mi"
    )
    s.fail("kiln unittest charts/payments", failing.format("charts/payments/"))
    s.fail("cd charts/payments && kiln unittest --color .", failing.format(""))
    s.fail("kiln unittest . 2>&1 | tail -25", failing.format(""), cwd="/repo/charts/payments")
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_the_same_folder_swapped_in_each_path_is_a_sweep() -> None:
    s = Session()
    warning = (
        "Exit code 1\nWARNING: static path entry '_static' does not exist\nbuild finished with problems."
    )
    for package in ("core", "cli", "server"):
        s.fail(f"zdoc -W -b html packages/{package}/docs packages/{package}/docs/_build/html", warning)
    assert fire(s) is None
    again = Session()
    for _ in range(3):
        again.fail("zdoc -W -b html packages/core/docs packages/core/docs/_build/html", warning)
    assert fire(again) is not None


def test_two_programs_failing_on_one_test_named_by_its_module_path_are_one_loop() -> None:
    failure = (
        "Exit code 1\n[FAIL] vault_tests::test_vault::test_withdraw_partial\n"
        "Failures:\n    vault_tests::test_vault::test_withdraw_partial"
    )
    s = Session()
    s.fail("qmk test", failure)
    s.fail("zforge test", failure)
    s.fail("ZFORGE_BACKTRACE=1 zforge test", failure)
    s.fail("qmk run test", failure)
    match = fire(s)
    assert match is not None and match.data["failures"] >= 3


def test_a_run_that_says_it_aborted_failed_behind_a_pipe() -> None:
    output = (
        "WARNING -  Doc file 'guides/exports.md' links '../reference/cli.md', which is not found.\n"
        "INFO    -  Documentation built in 1.52 seconds\n\nAborted with 1 warnings in strict mode!"
    )
    outcome = read_outcome(output, "zdoc build -s -v 2>&1 | tail -6", is_error=False)
    assert outcome is not None and outcome["failed"]
    assert "reference/cli.md" in outcome["line"]
    records = bash_records(("zdoc build -s -v 2>&1 | tail -6", output, False))
    (error,) = projected_errors(records)
    assert "reference/cli.md" in error.text


@pytest.mark.parametrize(
    ("text", "root"),
    [
        (
            "Exit code 1\nDeploy ID: 0Af8b0\nStatus: Failed | ████ | 7/7 Components (Errors:1)\n\n"
            "Component Failures [1]\n Type      Name      Problem                              Line:Column\n"
            " ZClass    Billing   Variable does not exist: Discount_Pct      42:31",
            "ZClass    Billing   Variable does not exist: Discount_Pct      42:31",
        ),
        (
            "Exit code 4\nTESTSUITE:\n     PASS:   1. Zero amount is rejected\n"
            "**** FAIL:   4. Repeated claim id is rejected with V003\n    EXPECTED <V003>, WAS <    >\n\n"
            "  4 TEST CASES WERE EXECUTED\n  3 PASSED\n  1 FAILED\n",
            "**** FAIL:   4. Repeated claim id is rejected with V003",
        ),
    ],
)
def test_a_status_line_a_tables_heading_and_a_count_are_summaries_over_the_root_error(
    text: str, root: str
) -> None:
    assert error_line(text) == root


def test_the_count_lines_stay_failures_on_their_own() -> None:
    assert error_line("Exit code 1\n  2 tests failing") == "2 tests failing"
