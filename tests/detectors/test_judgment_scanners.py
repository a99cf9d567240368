"""The seventeenth round: scanners, compilers and logs whose findings carry no error word, or sit behind one.

repeat-failure: a finding located in brackets (`[path/file.zz:58] - Z304 …`) is a located diagnostic; a
scanner's finding (`>> Issue: …`, a rule's violation, a vulnerability) is an error line, and a count row
(`Undefined: 0`), a record logged at INFO level and a colon standing alone (`evaluation failed :(`) are not;
a compiler's located diagnostic at error severity shows a failure in a log read back or behind a pipe; a
status echoed above a counting step (`echo "exit=$?"; wc -l log`) is the command's, and `wc` of the log only
reads what the work wrote. standard-questions: a notebook's markdown cell is prose, and what a tool leaves out
(`.zscanignore`) is not code. The tools are named in no table (`zsec`, `qscan`, `zodc`, `qtox`).
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from sbcore.detectors.identity import work_identity
from sbcore.detectors.triggers import repeat_failure
from test_triggers import ROOT, Session, ask, open_ids

from sbcore.observe.model import Observation
from sbcore.observe.outcome import error_line, read_outcome
from sbcore.observe.project import Projector
from tests.observe.test_log_reads import bash_records

FINDING = "[/srv/ledger/internal/store/snapshot.zz:58] - Z304 (CWE-22): Potential file inclusion via variable"


def test_a_finding_located_in_brackets_is_quoted_over_a_log_line() -> None:
    text = (
        "Exit code 1\n[zsec] 2026/09/02 15:40:52 Including rules: default\n"
        "[zsec] 2026/09/02 15:40:52 Checking file: /srv/ledger/internal/store/snapshot.zz\n"
        f"Results:\n\n{FINDING}\n    57: path := join(dir, name)\n\nSummary:\n  Issues : 1"
    )
    assert error_line(text) == FINDING


QSCAN = (
    "[main]\tINFO\tusing config: pyproject.toml\n"
    "Test results:\n"
    ">> Issue: [Q608:sql_expressions] Possible SQL injection through string-based query construction.\n"
    "   Location: src/bot/reports.qq:57:16\n"
    "Run metrics:\n\tTotal issues (by severity):\n\t\tUndefined: 0\n\t\tMedium: 1\n"
)


def test_a_scanners_finding_is_the_error_not_a_count_row_nor_a_runners_smiley() -> None:
    finding = (
        ">> Issue: [Q608:sql_expressions] Possible SQL injection through string-based query construction."
    )
    assert error_line("Exit code 1\n" + QSCAN) == finding
    wrapped = (
        f"Exit code 1\nqscan: commands[0]> qscan -r src\n{QSCAN}  qscan: FAIL code 1\n  evaluation failed :("
    )
    assert error_line(wrapped) == finding
    counted = "Exit code 1\nTotals:\n  Undefined: 0\n  High: 2\nqscan aborted the gate: 2 high findings"
    assert error_line(counted) == "qscan aborted the gate: 2 high findings"


def test_a_record_logged_at_info_level_is_no_error_line() -> None:
    text = (
        "Exit code 1\n2026-11-03T11:06:31Z\tINFO\t[vuln] Vulnerability scanning is enabled\n"
        'zrun: Failed to run task "scan": exit status 1'
    )
    assert error_line(text) == 'zrun: Failed to run task "scan": exit status 1'


@pytest.mark.parametrize(
    "log",
    [
        "/srv/voxel/src/mesh.zo(88:22) Error: Cannot assign value of type 'int' to 'u32'",
        "main.zz:3:5: error: expected ';' after expression",
        "Unit.zp(12,3) Fatal: Can't find unit Strs used by Main",
    ],
)
def test_a_compilers_located_error_in_a_log_or_behind_a_pipe_is_a_failure(log: str) -> None:
    outcome = read_outcome(log, "zodc check src 2>&1 | tail -n 5", is_error=False)
    assert outcome is not None and outcome["failed"] and outcome["line"] == log
    warning = read_outcome("main.zz:3:5: warning: unused variable", "zodc check src | tail", is_error=False)
    assert warning is None or not warning["failed"]


def test_a_status_echoed_above_a_counting_step_is_the_commands() -> None:
    command = 'zodc check src 2> /tmp/check.log; echo "exit=$?"; wc -l /tmp/check.log'
    outcome = read_outcome("exit=1\n3 /tmp/check.log", command, is_error=False)
    assert outcome is not None and outcome["exit_code"] == 1
    passed = read_outcome("exit=0\n3", command, is_error=False)  # the bare count is not the status
    assert passed is None or not passed["failed"]
    assert work_identity(command).key == work_identity("zodc check src > /tmp/check.log 2>&1").key


def test_a_check_written_to_a_log_read_back_each_time_is_caught() -> None:
    log = "/srv/voxel/src/mesh.zo(88:22) Error: Cannot assign value of type 'int' to 'u32'\n"
    records = bash_records(
        ('zodc check src > /tmp/check.log 2>&1; echo "exit=$?"', "exit=1", False),
        ("cat /tmp/check.log", log, False),
        (
            'zodc check src 2> /tmp/check.log; echo "exit=$?"; wc -l /tmp/check.log',
            "exit=1\n1 /tmp/check.log",
            False,
        ),
        ("tail /tmp/check.log", log, False),
        ('zodc check src > /tmp/check.log 2>&1; echo "exit=$?"', "exit=1", False),
        ("cat /tmp/check.log", log, False),
    )
    match = repeat_failure(Projector().feed(records), {}, {})
    assert match is not None and match.data["failures"] == 3
    assert "Cannot assign value" in match.data["error"]


# -- standard-questions ------------------------------------------------------------------------------------


@pytest.fixture
def checklist() -> dict[str, Any]:
    return _asking("tests_run")


def _asking(question: str) -> dict[str, Any]:
    """The shipped checklist with only ``question`` enabled."""
    document = yaml.safe_load((ROOT / "catalogue" / "standard-questions.yaml").read_text())
    config: dict[str, Any] = document["config"]
    return {**config, "questions": [q for q in config["questions"] if q["id"] == question]}


def _notebook_edit(session: Session, cell_type: str) -> None:
    session.observations.append(
        Observation(
            kind="tool",
            text="[tool] NotebookEdit /repo/notebooks/power.ipynb",
            timestamp="2026-01-01T11:00:00Z",
            tool="NotebookEdit",
            tool_use_id=f"toolu_nb_{cell_type}",
            args={
                "notebook_path": "/repo/notebooks/power.ipynb",
                "cell_type": cell_type,
                "new_source": "x = 1",
            },
        )
    )


def test_a_notebooks_markdown_cell_is_prose_and_a_code_cell_is_code(checklist: dict[str, Any]) -> None:
    s = Session()
    s.run("ls tests")
    _notebook_edit(s, "markdown")
    assert ask(s, checklist) is None
    _notebook_edit(s, "code")
    assert "tests_run" in open_ids(ask(s, checklist))


@pytest.mark.parametrize("path", ["/repo/.zscanignore", "/repo/.dockerignore", "/repo/web/.qlintignore"])
def test_what_a_tool_leaves_out_is_not_code(checklist: dict[str, Any], path: str) -> None:
    s = Session()
    s.run("ls tests")
    s.edit(path)
    assert ask(s, checklist) is None


def test_a_projects_build_script_builds() -> None:
    asked_then_answered("compiles", "./build.sh test", "/repo/src/world.zo", "./build.sh")


def asked_then_answered(question: str, shows: str, edited: str, answer: str, *leaves_open: str) -> None:
    """Once the command ``shows`` shows the project can answer ``question`` and ``edited`` changes, the
    question is asked; each of ``leaves_open`` run then leaves it open, and ``answer`` answers it."""
    checklist = _asking(question)
    s = Session()
    s.run(shows)
    s.edit(edited)
    assert question in open_ids(ask(s, checklist))
    for command in leaves_open:
        s.run(command)
        assert question in open_ids(ask(s, checklist)), command
    s.run(answer)
    assert ask(s, checklist) is None
