"""repeat-failure knows where each command ran (issue 22, sixth round).

The harness records the directory every command ran in (a transcript record's ``cwd``, which follows a
``cd`` the shell kept), and the projection keeps it beside the command. So one build spelt with the
project's absolute folder and with its relative one, or run after a ``cd`` that stuck, is one piece of
work, while one command run in two folders is two. A status passed on after the work (``; exit $?``)
is not work of its own. Each test uses a tool named in no table of the built-in pack (``vexa``).
"""

from __future__ import annotations

import json

from sbcore.detectors.identity import work_identity

from sbcore.observe.project import Projector
from tests.detectors.test_triggers import Session, fire

APP = "/home/dev/app"
UNRESOLVED = "Exit code 2\nvexa: fatal: unresolved symbol `frame_pool` in module render"


def test_the_projects_absolute_folder_and_its_relative_spelling_are_one_build() -> None:
    s = Session()
    s.fail("vexa build out", UNRESOLVED, cwd=APP)
    s.fail("vexa build out --jobs 8", UNRESOLVED, cwd=APP)
    s.fail(f"vexa build {APP}/out", UNRESOLVED, cwd=APP)
    match = fire(s)
    assert match is not None and "failed 3 times" in match.summary


def test_without_where_they_ran_the_two_spellings_stay_apart() -> None:
    s = Session()
    s.fail("vexa build out", UNRESOLVED)
    s.fail("vexa build out --jobs 8", UNRESOLVED)
    s.fail(f"vexa build {APP}/out", UNRESOLVED)
    assert fire(s) is None


def test_the_root_standing_alone_is_the_current_folder() -> None:
    s = Session()
    s.fail("vexa configure -S . -B out", UNRESOLVED, cwd=APP)
    s.fail("vexa configure -S . -B out", UNRESOLVED, cwd=APP)
    s.fail(f"vexa configure -S {APP} -B {APP}/out", UNRESOLVED, cwd=APP)
    assert fire(s) is not None


def test_a_cd_the_shell_kept_is_where_the_next_commands_run() -> None:
    s = Session()
    s.fail("cd out && vexa link", UNRESOLVED, cwd=APP)
    s.fail("vexa link", UNRESOLVED, cwd=f"{APP}/out")
    s.fail(f"vexa link -C {APP}/out", UNRESOLVED, cwd=f"{APP}/out")
    assert fire(s) is not None


def test_one_command_in_two_folders_is_two_targets() -> None:
    failed = "Exit code 1\nvexa: 2 checks failed"
    s = Session()
    for folder in ("engine", "editor", "engine", "editor"):
        s.fail("vexa check", failed, cwd=f"{APP}/{folder}")
    assert fire(s) is None
    unplaced = Session()
    for _ in range(4):
        unplaced.fail("vexa check", failed)
    assert fire(unplaced) is not None  # where they ran is what told the two apart


def test_a_status_passed_on_after_the_work_is_not_work_of_its_own() -> None:
    plain = work_identity("vexa check").key
    assert work_identity("vexa check; exit $?").key == plain
    assert work_identity("vexa check 2>&1 | tail -n 8; exit ${PIPESTATUS[0]}").key == plain


def test_the_projection_keeps_where_a_command_ran_beside_it() -> None:
    records = [
        {
            "type": "assistant",
            "uuid": "a1",
            "cwd": f"{APP}/out",
            "timestamp": "2026-01-01T10:00:00Z",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "vexa link"}}
                ],
            },
        }
    ]
    [call] = [o for o in Projector().feed(records) if o.kind == "tool"]
    assert call.args == {"command": "vexa link", "cwd": f"{APP}/out"}
    assert f"{APP}/out" not in call.text  # arguments only: the model's window is unchanged
    assert json.loads(json.dumps(call.args)) == call.args
