"""The twenty-fourth round: a bundler's place, a program's error tag over "<x> failed", testbenches.

repeat-failure: a bundler's diagnostic (`src/db.ts (3:9): "X" is not exported by …`) is located, so it is the
error under `x Build failed in 1.2s` and ties two spellings of one build; a program's error tag over an
operation failing and nothing more (`/usr/bin/zsim:error: assertion failed`, `Error: test suite failed`) is a
summary, so each run's own check is quoted and three different checks after three edits are progress; a
file whose name holds a digit is located once its digits are folded (`spec/vec#_spec.zz:#: …`).
standard-questions: a hardware design's testbenches (`tb/tb_uart.vhd`, `fifo_tb.sv`) show the project has
tests; a rockspec's `detailed` description is metadata. The tools are named in no table (`zvite`, `zsim`,
`zrocks`, `zspec`).
"""

from __future__ import annotations

from typing import Any

import pytest
from sbcore.detectors.checklist import invocations
from sbcore.detectors.failures import located
from sbcore.detectors.triggers import repeat_failure
from test_judgment_scanners import _asking
from test_judgment_status_rows import loop_failures
from test_triggers import Session, ask, open_ids

from sbcore.observe.manifest_reading import metadata_only
from sbcore.observe.outcome import error_line
from sbcore.observe.project import Projector


def _bundled(name: str) -> str:
    return (
        "zvite v5.4 building SSR bundle for production...\nx Build failed in 1.21s\nerror during build:\n"
        f'src/lib/server/db.ts (3:9): "{name}" is not exported by "virtual:env", imported by "src/db.ts".\n'
        "file: /w/src/lib/server/db.ts:3:9"
    )


def test_a_bundlers_diagnostic_is_the_error_under_its_summary() -> None:
    assert error_line(_bundled("DATABASE_URL")).startswith('src/lib/server/db.ts (3:9): "DATABASE_URL"')
    assert located('src/lib/server/db.ts (#:#): "database_url" is not exported by "…"')


def test_a_build_failing_on_one_missing_name_three_ways_is_a_loop_and_a_new_name_is_progress() -> None:
    same = _bundled("DATABASE_URL")
    assert (
        loop_failures(
            ("zpm run build", same), ("zvite build", same), ("cd /w && zvite build --logLevel info", same)
        )
        == 3
    )
    assert not loop_failures(
        ("zpm run build", same), ("zvite build", same), ("zpm run build", _bundled("PUBLIC_MAP_TOKEN"))
    )


@pytest.mark.parametrize(
    "tag", ["/usr/bin/zsim:error: assertion failed", "/usr/bin/zsim:error: simulation failed"]
)
def test_a_programs_error_tag_over_an_operation_failing_is_a_summary(tag: str) -> None:
    check = "5130000 fs - check - ERROR - almost_full not asserted at DEPTH-2 words"
    assert (
        error_line(f"Starting lib.tb_fifo.test_full\n{check}\n{tag}\nin process .tb_fifo(tb).main") == check
    )
    assert error_line("zrocks: running zspec\n3 successes / 1 failure\nError: test suite failed") != (
        "Error: test suite failed"
    )


def _call(number: int, name: str, args: dict[str, str], output: str, is_error: bool) -> list[dict[str, Any]]:
    """One tool call and its result, as Claude Code writes them."""
    use = {"type": "tool_use", "id": f"toolu_{number:02d}", "name": name, "input": args}
    result = {
        "type": "tool_result",
        "tool_use_id": f"toolu_{number:02d}",
        "content": output,
        "is_error": is_error,
    }
    stamp = f"2026-01-01T10:{number:02d}:00Z"
    return [
        {
            "type": "assistant",
            "uuid": f"a{number}",
            "timestamp": stamp,
            "cwd": "/w",
            "message": {"content": [use]},
        },
        {
            "type": "user",
            "uuid": f"u{number}",
            "timestamp": stamp,
            "cwd": "/w",
            "message": {"content": [result]},
        },
    ]


def test_three_checks_failing_after_three_edits_are_progress() -> None:
    records: list[dict[str, Any]] = []
    checks = ("wrap got 0 expected 16", "almost_full not asserted", "almost_full still high")
    for number, check in enumerate(checks):
        output = f"Exit code 1\n5130000 fs - check - ERROR - {check}\n/usr/bin/zsim:error: assertion failed"
        records += _call(2 * number, "Bash", {"command": "python run.py lib.tb_fifo.all"}, output, True)
        records += _call(2 * number + 1, "Edit", {"file_path": "/w/fifo.vhd"}, "updated", False)
    assert repeat_failure(Projector().feed(records), {}, {}) is None  # each run failed its own check


def test_a_file_whose_name_holds_a_digit_is_located_once_folded() -> None:
    assert located("spec/vec#_spec.lua:#: expected objects to be the same.")
    failing = "spec/vec2_spec.lua:14: Expected objects to be the same.\nPassed in:\n(number) 0.3"
    assert (
        loop_failures(
            ("zrocks test", f"zspec\n{failing}\nError: test suite failed"),
            ("zspec --lua=lua5.1 spec/", failing),
            ("env LUA_PATH='./?.lua;;' time zspec --lua=luajit spec/", failing),
        )
        == 3
    )


@pytest.mark.parametrize("shown", ["ls tb/", "cat tb/tb_uart_tx.vhd", "cat rtl/fifo_tb.sv"])
def test_a_designs_testbenches_show_the_project_has_tests(shown: str) -> None:
    s = Session()
    s.run(shown)
    s.edit("/repo/src/uart_tx.vhd")
    assert "tests_run" in open_ids(ask(s, _asking("tests_run")))


def test_a_rockspecs_detailed_description_is_metadata() -> None:
    new = '  summary = "A game",\n  detailed = [[\n    A small game about the sea.\n  ]],\n  license = "MIT",'
    assert metadata_only(new, '  summary = "A game",\n  license = "MIT",')


def test_luas_test_runner_run_bare_answers_tests_run() -> None:
    """A table's hint: the runner named for what it is, run with no folder (it finds `spec/` itself)."""
    s = Session()
    s.run("ls spec/")
    s.edit("/repo/src/tween.lua")
    s.run("busted")
    assert ask(s, _asking("tests_run")) is None


@pytest.mark.parametrize("probe", ["~/.zrocks/bin/zspec --version", "zspec -h", "zspec help"])
def test_a_runner_asked_what_it_is_runs_nothing(probe: str) -> None:
    assert invocations(f"zrocks install zspec && {probe}") == []
    assert invocations("zspec --version spec/") == ["zspec --version spec/"]
