"""The nineteenth round: b20's read of the eighteenth (Lisp, Kubernetes operators, Zephyr, PostgreSQL
extensions), each rule with tools named in no table (`zcl`, `qwest`, `zpg`).

standard-questions: the user waiving "the whole test run" waives the tests; a Lisp form handed to an
interpreter that runs a system's tests (`(zasdf:test-system :app)`) runs them, one that compiles or loads
the whole system builds it; a tool's `build` subcommand given a test folder compiles the tests and runs none;
a task runner's test target may carry the kind of test (`make installcheck`, `make unit-test`).
repeat-failure: a line pointing at where the error is (`ERROR - see: out/handler.log`) is no error, so the
line above it is quoted; `.` after a `cd` is the folder the `cd` went to; `export PATH=…` says where programs
are, not what the work is.
"""

from __future__ import annotations

import pytest
from sbcore.detectors.identity import work_identity
from test_judgment_scanners import _asking, asked_then_answered
from test_triggers import Session, ask, fire, open_ids

from sbcore.observe.model import Observation
from sbcore.observe.outcome import error_line


def _prompt(session: Session, text: str) -> None:
    session.observations.append(Observation(kind="prompt", text=text, timestamp="2026-01-01T09:59:00Z"))


def test_waiving_the_whole_test_run_waives_the_tests() -> None:
    checklist = _asking("tests_run")
    for prompt, waived in [
        ("Tighten the reconcile loop; no need to go through the whole test run, CI has it.", True),
        ("Tighten the reconcile loop; the test run on CI is flaky, so check it locally.", False),
    ]:
        s = Session()
        _prompt(s, prompt)
        s.run("ls tests")
        s.edit("/repo/internal/controller/reconcile.zz")
        s.run("make fmt")
        assert (ask(s, checklist) is None) is waived, prompt


@pytest.mark.parametrize(
    "command",
    [
        "zcl --non-interactive --eval '(zasdf:test-system :slugify)'",
        "zcl --eval '(run-tests)' --quit",
        "zcl --eval '(parachute:test :slugify)'",
    ],
)
def test_a_lisp_form_running_the_tests_runs_them(command: str) -> None:
    asked_then_answered("tests_run", "ls t", "/repo/src/slugify.lisp", command)


def test_a_lisp_form_compiling_the_whole_system_builds_it() -> None:
    asked_then_answered(
        "compiles",
        "make build",  # shows the project builds
        "/repo/src/routes.lisp",
        "zcl --non-interactive --eval '(zql:quickload :shorty :silent t)'",
        "zcl --eval '(describe :shorty)'",  # code handed over, compiling nothing of the system
    )
    compile_system = "zcl --eval '(zasdf:compile-system :shorty :force t)'"
    asked_then_answered("compiles", "make build", "/repo/src/routes.lisp", compile_system)


def test_building_a_test_folder_runs_no_test() -> None:
    checklist = _asking("tests_run")
    s = Session()
    s.edit("/repo/src/encoder.c")
    s.run("qwest build -p -b native_sim tests/unit/encoder")
    assert "tests_run" in open_ids(ask(s, checklist))
    s.run("qwest run -b native_sim tests/unit/encoder")
    assert ask(s, checklist) is None


@pytest.mark.parametrize("target", ["installcheck", "unit-test", "smoke_test"])
def test_a_task_runners_test_target_may_name_its_kind(target: str) -> None:
    s = Session()
    s.run("ls sql expected tests")
    s.edit("/repo/src/textsim.c")
    s.run("make && make install")
    assert "tests_run" in open_ids(ask(s, _asking("tests_run")))
    s.run(f"make {target}")
    assert ask(s, _asking("tests_run")) is None


def test_a_line_pointing_at_the_log_is_no_error() -> None:
    text = (
        "Exit code 1\nINFO    - Adding tasks to the queue...\n"
        "ERROR   - qemu_x86    tests/drivers/sht4x/drivers.sht4x.basic    FAILED Failed (qemu 2.391s)\n"
        "ERROR   - see: /srv/envsense/out/qemu_x86/tests/drivers/sht4x/drivers.sht4x.basic/handler.log\n"
        "INFO    - Run completed"
    )
    assert "FAILED Failed (qemu" in error_line(text)
    refused = "Exit code 1\nthe upload of bundle.tar was refused by the mirror\nERROR: see the logs above"
    assert error_line(refused) == "the upload of bundle.tar was refused by the mirror"


def test_the_folder_given_as_dot_after_a_cd_is_that_folder() -> None:
    inside = work_identity("cd tests/drivers/sht4x && qwest twister -T . -p qemu_x86")
    assert inside.body == work_identity("qwest twister -T tests/drivers/sht4x -p qemu_x86").body
    s = Session()
    failing = "Exit code 1\nERROR   - qemu_x86   tests/drivers/sht4x/basic   FAILED Failed (qemu 2.4s)"
    s.fail("qwest twister -T tests/drivers/sht4x -p qemu_x86", failing)
    s.fail("qwest twister --testsuite-root tests/drivers/sht4x --platform qemu_x86 -v", failing)
    s.fail("cd tests/drivers/sht4x && qwest twister -T . -p qemu_x86 -j 1", failing)
    match = fire(s)
    assert match is not None and match.data["failures"] == 3


def test_where_programs_are_looked_up_is_not_the_work() -> None:
    plain = work_identity("/usr/lib/zpg/16/bin/zpg_ctl -D /tmp/pgtest -l /tmp/pgtest/logfile start")
    found = work_identity(
        "export PATH=/usr/lib/zpg/16/bin:$PATH; zpg_ctl -D /tmp/pgtest -l /tmp/pgtest/logfile start"
    )
    assert found.key == plain.key
    tuned = work_identity("export ZPG_PORT=5499; zpg_ctl -D /tmp/pgtest -l /tmp/pgtest/logfile start")
    assert tuned.key != plain.key
