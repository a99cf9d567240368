"""The twenty-ninth round: a test folder given as an option's value.

standard-questions: a program told its test folder by an option (`-gdir=res://test`, `--tests=spec/unit`)
runs the tests, a project's resource scheme (`res://`) naming a path from the project's root; a web address
names no folder, nor does a report or a fixture the option names. The tools are named in no table (`zengine`,
`zrun`).
"""

from __future__ import annotations

import pytest
from sbcore.detectors.checklist import runs_test_path
from test_judgment_scanners import _asking
from test_triggers import Session, ask, open_ids


@pytest.mark.parametrize(
    "command",
    [
        "zengine --headless -s addons/zut/zut_cmdln.gd -gdir=res://test -ginclude_subdirs -gexit",
        "zrun --tests=spec/unit",
    ],
)
def test_a_test_folder_given_as_an_options_value_runs_the_tests(command: str) -> None:
    assert runs_test_path(command)
    s = Session()
    s.run("ls test")
    s.edit("/repo/scripts/player.zz")
    s.run(command)
    assert "tests_run" not in open_ids(ask(s, _asking("tests_run")))


@pytest.mark.parametrize(
    "command",
    [
        "zrun --url=https://ci.example/test/run",
        "zrun --out=tests/report.xml",
        "zrun --config=test/fixtures/a.yml",
    ],
)
def test_an_address_a_report_or_a_fixture_is_no_test_folder(command: str) -> None:
    assert not runs_test_path(command)
