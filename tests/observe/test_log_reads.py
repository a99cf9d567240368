"""A run's log read back by a later call is the run's result: the failure it shows becomes an ``error`` of the
call that wrote the log (``sbcore.observe.log_reads``), in the projection and through the bytes' fast path."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sbcore.observe.log_reads import LogReads
from sbcore.observe.model import Observation
from sbcore.observe.project import Projector

CRASH = (
    'epoch 1/10\nTraceback (most recent call last):\n  File "ztrain.py", line 88, in step\n'
    "RuntimeError: mat1 and mat2 shapes cannot be multiplied (32x512 and 256x24)\n"
)


def bash_records(*calls: tuple[str, str, bool]) -> list[dict[str, Any]]:
    """One Bash call and its result per ``(command, output, is_error)``, as Claude Code writes them."""
    records: list[dict[str, Any]] = []
    for number, (command, output, is_error) in enumerate(calls, 1):
        use = {"type": "tool_use", "id": f"toolu_{number:02d}", "name": "Bash", "input": {"command": command}}
        result = {"type": "tool_result", "tool_use_id": f"toolu_{number:02d}", "content": output}
        result["is_error"] = is_error
        stamp = f"2026-01-01T10:{number:02d}:00Z"
        records.append(
            {"type": "assistant", "uuid": f"a{number}", "timestamp": stamp, "message": {"content": [use]}}
        )
        records.append(
            {"type": "user", "uuid": f"u{number}", "timestamp": stamp, "message": {"content": [result]}}
        )
    return records


def projected_errors(records: list[dict[str, Any]]) -> list[Observation]:
    """The ``error`` observations of ``records``, the same through the projection and its bytes' fast path."""
    lines = b"\n".join(json.dumps(record).encode() for record in records) + b"\n"
    fed = [obs for obs in Projector().feed(records) if obs.kind == "error"]
    fast = [obs for obs in Projector().feed_bytes(lines) if obs.kind == "error"]
    assert [(o.text, o.tool_use_id) for o in fed] == [(o.text, o.tool_use_id) for o in fast]
    return fed


def test_a_background_runs_crash_read_in_its_log_is_an_error_of_the_run() -> None:
    (error,) = projected_errors(
        bash_records(
            ("nohup ztrain --config c.yaml > logs/run.log 2>&1 &", "[1] 4242\n", False),
            ("sleep 60 && tail -n 20 logs/run.log", CRASH, False),
        )
    )
    assert error.tool_use_id == "toolu_01"  # the run's, not the viewer's
    assert error.text.startswith("[error] Bash (in its log, read back by a later call): RuntimeError: mat1")
    assert error.outcome is not None and error.outcome["failed"]


def test_a_log_read_by_another_spelling_of_its_path_counts() -> None:
    """The run's own result said only its status; the log, read from another folder, says what failed."""
    status, read_back = projected_errors(
        bash_records(
            ("zrun suite > /tmp/ci/out.log 2>&1; echo exit=$?", "exit=1\n", False),
            ("grep -A3 Error ci/out.log", CRASH, False),
        )
    )
    assert status.tool_use_id == read_back.tool_use_id == "toolu_01"
    assert status.outcome is not None and status.outcome.get("exit_code") == 1
    assert "in its log" in read_back.text and "RuntimeError" in read_back.text


def test_a_log_that_shows_no_failure_another_file_and_a_command_reading_its_own_log_add_nothing() -> None:
    """Nothing is read as a log of another call here: a log showing no failure, a file no command wrote, a
    command that reads the log it writes (its own result, read as ever) and a program that is no viewer."""
    errors = projected_errors(
        bash_records(
            ("zrun suite > out.log 2>&1", "", False),
            ("tail out.log", "42 passed in 3.1s\n", False),
            ("tail other.log", CRASH, False),
            ("zrun suite > out.log 2>&1 || tail out.log", CRASH, False),
            ("zlint out.log", CRASH, False),
        )
    )
    assert [error.tool_use_id for error in errors] == ["toolu_04", "toolu_05"]  # each its own result
    assert not any("in its log" in error.text for error in errors)


def test_what_counts_as_a_log_and_a_reading_of_one() -> None:
    logs = LogReads()
    assert logs.read("t1", "zrun > /dev/null 2>&1; zrun 2>&1 | tee -a 'build.log'") is None
    assert logs.read("t2", "cat build.log") == "t1"
    assert logs.read("t3", "zrun 2>&1 >&2") is None  # a descriptor, not a file
    assert logs.read("t4", "head -5 /dev/null") is None
    assert logs.read("t5", "zrun > build.log") is None  # writes it anew...
    assert logs.read("t6", "tail build.log") == "t5"  # ...so the latest writer is the one read


def test_a_log_file_named_by_an_option_is_a_log() -> None:
    """A run told where to write its log (`-logFile`, `--log-file=`) or its report (`--junitxml`)."""
    logs = LogReads()
    assert (
        logs.read("t1", "zengine -batchmode -runTests -logFile Logs/run.log -testResults out/r.xml") is None
    )
    assert logs.read("t2", "tail -n 30 Logs/run.log") == "t1"
    assert logs.read("t3", "grep -A3 '<failure' out/r.xml") == "t1"
    assert logs.read("t4", "zrun --output json --log-file=/tmp/z/run.txt") is None  # `json`: a format
    assert logs.read("t5", "cat z/run.txt") == "t4"


def test_grep_of_a_log_is_read_through_its_line_numbers_and_its_quoted_pattern() -> None:
    """`grep -n -B2 'ERR!\\|Error' run.log` (twelfth round): the pattern's quoted `\\|` is no pipe, and each
    line the log holds is read without the number grep put before it (`61:`, `60-`); a workspace runner's
    `qerna ERR!` is a failure line as npm's is."""
    shown = (
        "57-@acme/core: created dist/index.mjs\n"
        '61:@acme/sdk: [!] QollupError: src/client.ts (4:7): "default" is not exported by "core/index.mjs"\n'
        "70:qerna ERR! qpm run build exited 1 in '@acme/sdk'\n"
    )
    status, read_back = projected_errors(
        bash_records(
            ('qerna run build --stream > /tmp/b.log 2>&1; echo "exit=$?"', "exit=1\n", False),
            ("grep -n -B2 -A10 'ERR!\\|Error' /tmp/b.log | head -40", shown, False),
        )
    )
    assert status.tool_use_id == read_back.tool_use_id == "toolu_01"
    assert read_back.outcome is not None and "QollupError" in read_back.outcome["line"]
    assert not read_back.outcome["line"].startswith("61:")


def test_work_then_a_look_at_its_log_in_one_command_is_that_commands_own_result() -> None:
    """`zmake build-device; tail build/x.log`: the log shown is the one this command's work just wrote, not
    the earlier run's that wrote the same file (twelfth round)."""
    signing = 'build/x.log: error: Signing for "Widget" requires a development team.\n** BUILD FAILED **\n'
    errors = projected_errors(
        bash_records(
            ("zcode build > build/x.log 2>&1; echo exit=$?", "exit=65\n", False),
            ("zmake build-device; tail -n 6 build/x.log", signing, False),
        )
    )
    assert [error.tool_use_id for error in errors] == ["toolu_01", "toolu_02"]
    assert "in its log" not in errors[1].text
    # a program whose name opens with a viewer's (`tailor`, `catkin`) is work, not a look
    named = projected_errors(
        bash_records(
            ("zcode build > build/x.log 2>&1; echo exit=$?", "exit=65\n", False),
            ("tailor build-device; tail -n 6 build/x.log", signing, False),
        )
    )
    assert [error.tool_use_id for error in named] == ["toolu_01", "toolu_02"]


def _read_records(
    records: list[dict[str, Any]], path: str, shown: str, cwd: str = "/home/dev/app"
) -> list[dict[str, Any]]:
    """``records``, every record run in ``cwd``, then a Read of ``path`` showing ``shown`` as Claude Code
    shows a file: each line behind its padded number and a tab."""
    number = len(records) // 2 + 1
    use = {"type": "tool_use", "id": f"toolu_{number:02d}", "name": "Read", "input": {"file_path": path}}
    numbered = "\n".join(f"{index:>6}\t{line}" for index, line in enumerate(shown.splitlines(), 1))
    result = {"type": "tool_result", "tool_use_id": f"toolu_{number:02d}", "content": numbered}
    stamp = f"2026-01-01T10:{number:02d}:00Z"
    records = [
        *records,
        {"type": "assistant", "uuid": f"a{number}", "timestamp": stamp, "message": {"content": [use]}},
        {"type": "user", "uuid": f"u{number}", "timestamp": stamp, "message": {"content": [result]}},
    ]
    return [{**record, "cwd": cwd} for record in records]


def test_a_log_shown_by_the_read_tool_is_read_as_the_writers_result() -> None:
    """Claude Code's own Read is the viewer an agent reaches for most: a log a command wrote, read whole with
    it, is that command's result, read without the line numbers Read puts before each line."""
    status, read_back = projected_errors(
        _read_records(
            bash_records(('qerna bundle > /tmp/qb.log 2>&1; echo "exit=$?"', "exit=1\n", False)),
            "/tmp/qb.log",
            "qerna 2.1 bundling\n  ✖\n  cannot resolve 'theme/dark.css'\n"
            " ELIFECYCLE  Command failed with exit code 1.",
        )
    )
    assert status.tool_use_id == read_back.tool_use_id == "toolu_01"
    assert (
        read_back.text
        == "[error] Bash (in its log, read back by a later call): cannot resolve 'theme/dark.css'"
    )


def test_a_read_names_the_log_from_where_the_session_runs_and_another_file_is_not_it() -> None:
    written = bash_records(("qerna bundle > logs/qb.log 2>&1; echo exit=$?", "exit=1\n", False))
    failure = "cannot resolve 'theme/dark.css'\nbundle failed with exit code 2"
    errors = projected_errors(_read_records(written, "/home/dev/app/logs/qb.log", failure))
    assert [error.tool_use_id for error in errors] == ["toolu_01", "toolu_01"]
    read_back = projected_errors(_read_records(written, "/home/dev/app/notes.log", failure))
    assert [error.tool_use_id for error in read_back] == ["toolu_01"]


CRASHED = (
    "Traceback (most recent call last):\n"
    '  File "/srv/reports/run.py", line 40, in <module>\n'
    "zkernel.DeadKernelError: Kernel died while running cell 7\n"
)


@pytest.mark.parametrize(
    "failure",
    [
        "Exit code 1\n[zrun] month=2024-10\n[zrun] zbook failed for 2024-10 (see logs/zbook-2024-10.log)",
        "Exit code 1\nzpm ERR! A complete log of this run can be found in: logs/zbook-2024-10.log",
    ],
)
def test_a_log_a_failure_names_is_read_back_as_that_runs_result(failure: str) -> None:
    errors = projected_errors(
        bash_records(
            ("./scripts/zrun.sh 2024-10", failure, True),
            ("tail -n 12 logs/zbook-2024-10.log", CRASHED, False),
        )
    )
    assert [error.tool_use_id for error in errors] == ["toolu_01", "toolu_01"]
    assert "DeadKernelError: Kernel died" in errors[1].text


def test_a_log_a_success_mentions_is_not_the_runs() -> None:
    errors = projected_errors(
        bash_records(
            ("./scripts/zrun.sh 2024-10", "[zrun] done (see logs/zbook-2024-10.log)", False),
            ("tail -n 12 logs/zbook-2024-10.log", CRASHED, False),
        )
    )
    assert errors == []
