"""Run: exact allowlisted commands, no shell, scrubbed environment, time box, capped output, own grant."""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
import time
from pathlib import Path

import pytest

from sbcore.think.tools.dispatch import Grant, Toolbox
from sbcore.think.tools.run import RunLimits, RunTool, run_command, scrubbed_env

PY = shlex.quote(sys.executable)


def py(code: str) -> str:
    """An exact command string running ``code`` with this interpreter."""
    return f"{PY} -c {shlex.quote(code)}"


def test_reports_exit_status_and_output(tmp_path: Path) -> None:
    result = asyncio.run(run_command(py("print('hello')"), cwd=tmp_path))
    assert not result.is_error
    assert result.text.splitlines()[1:] == ["exit status 0", "hello"]


def test_nonzero_exit_is_an_error_with_merged_output(tmp_path: Path) -> None:
    code = "import sys; print('out'); sys.stdout.flush(); print('err', file=sys.stderr); sys.exit(3)"
    result = asyncio.run(run_command(py(code), cwd=tmp_path))
    assert result.is_error and not result.refused
    assert "exit status 3" in result.text
    assert "out\nerr" in result.text


def test_no_shell_metacharacters_mean_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "created-by-shell"
    result = asyncio.run(run_command(f"echo hi ; touch {marker} | cat $HOME", cwd=tmp_path))
    assert f"hi ; touch {marker} | cat $HOME" in result.text
    assert not marker.exists()


def test_runs_in_the_workspace_root_with_stdin_closed(tmp_path: Path) -> None:
    result = asyncio.run(
        run_command(py("import os, sys; print(os.getcwd()); print(repr(sys.stdin.read()))"), cwd=tmp_path)
    )
    assert result.text.splitlines()[2:] == [str(tmp_path), "''"]


def test_environment_is_scrubbed_and_marked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCORE_TEST_SECRET", "s3cr3t")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-should-not-leak")
    code = "import os, json; print(json.dumps(sorted(os.environ)))"
    result = asyncio.run(run_command(py(code), cwd=tmp_path))
    names = set(json.loads(result.text.splitlines()[2]))  # our own JSON list of names
    assert "SBCORE_TEST_SECRET" not in names and "ANTHROPIC_API_KEY" not in names
    assert {"SBCORE_OBSERVER", "PATH", "GIT_TERMINAL_PROMPT", "GIT_OPTIONAL_LOCKS"} <= names
    assert scrubbed_env(source={"PATH": "/bin", "AWS_SECRET_ACCESS_KEY": "x"})["SBCORE_OBSERVER"] == "1"
    assert "AWS_SECRET_ACCESS_KEY" not in scrubbed_env(source={"PATH": "/bin", "AWS_SECRET_ACCESS_KEY": "x"})


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


@pytest.mark.timeout(60)
def test_time_box_kills_the_whole_process_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "grandchild.pid"
    code = (
        "import subprocess, sys, time; "
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
        f"open({str(pidfile)!r}, 'w').write(str(p.pid)); print('started', flush=True); time.sleep(60)"
    )
    started = time.monotonic()
    result = asyncio.run(
        run_command(py(code), cwd=tmp_path, limits=RunLimits(timeout_s=1.0, kill_grace_s=0.5))
    )
    assert time.monotonic() - started < 15
    assert result.is_error
    assert "timed out after 1 s and was stopped" in result.text
    assert "started" in result.text  # output gathered before the kill is kept
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(grandchild)


def test_output_is_capped_keeping_head_and_tail(tmp_path: Path) -> None:
    code = "print('HEAD'); print('x' * 200000); print('TAIL')"
    result = asyncio.run(run_command(py(code), cwd=tmp_path, limits=RunLimits(max_output_chars=1000)))
    assert "HEAD" in result.text and "TAIL" in result.text
    assert "bytes of output omitted" in result.text
    assert len(result.text) < 1300


def test_output_is_redacted(tmp_path: Path) -> None:
    key = "AKIA" + "ABCDEFGHIJKLMNOP"
    result = asyncio.run(run_command(py(f"print({key!r})"), cwd=tmp_path))
    assert key not in result.text and "[REDACTED:aws-access-key-id]" in result.text


@pytest.mark.parametrize(
    ("command", "fragment"),
    [
        ("definitely-not-a-command-sbcore", "command not found"),
        ("echo 'unterminated", "cannot parse command"),
        ("", "empty command"),
    ],
)
def test_commands_that_cannot_start(tmp_path: Path, command: str, fragment: str) -> None:
    result = asyncio.run(run_command(command, cwd=tmp_path))
    assert result.is_error and fragment in result.text


def test_wire_definition_offers_the_sorted_enum(tmp_path: Path) -> None:
    tool = RunTool(tmp_path, ("git status", "git log -n 5", "git status"))
    assert tool.commands == ("git log -n 5", "git status")
    assert tool.input_schema["properties"]["command"]["enum"] == ["git log -n 5", "git status"]
    assert tool.input_schema["additionalProperties"] is False


def test_run_tool_refuses_commands_outside_its_enum(tmp_path: Path) -> None:
    result = asyncio.run(RunTool(tmp_path, ("echo ok",)).call({"command": "echo pwned"}))
    assert result.refused


# -- through dispatch: the calling detector's own allowlist is the boundary ---------------------------------


def test_dispatch_runs_only_the_callers_own_commands(tmp_path: Path) -> None:
    box = Toolbox(tmp_path)
    # Python is an interpreter, so running it needs a trusted grant (the user's own configuration).
    builder = Grant.parse([{"run": [py("print('built')")]}], repo_code_trusted=True)
    linter = Grant.parse([{"run": [py("print('linted')")]}], repo_code_trusted=True)
    wire = box.build_wire_tools([builder, linter])
    (run_def,) = wire
    assert run_def["input_schema"]["properties"]["command"]["enum"] == sorted([*builder.run, *linter.run])

    ok = asyncio.run(box.dispatch("static-analysis", builder, "Run", {"command": builder.run[0]}))
    assert not ok.is_error and "built" in ok.text
    # the linter's command is on the wire (the enum), but not in the builder's own allowlist
    refused = asyncio.run(box.dispatch("static-analysis", builder, "Run", {"command": linter.run[0]}))
    assert refused.refused
    assert "is not in detector 'static-analysis''s allowlist" in refused.text
    assert "exit status" not in refused.text  # it never ran


def test_dispatch_refuses_run_for_a_detector_without_commands(tmp_path: Path) -> None:
    box = Toolbox(tmp_path)
    sibling = Grant.parse([{"run": ["echo hi"]}])
    readonly = Grant.parse(["Read"])
    assert [tool["name"] for tool in box.build_wire_tools([sibling, readonly])] == ["Read", "Run"]
    result = asyncio.run(box.dispatch("standard-questions", readonly, "Run", {"command": "echo hi"}))
    assert result.refused
    assert "not granted 'Run'" in result.text


@pytest.mark.parametrize(
    "command",
    ["echo hi ", " echo hi", "echo  hi", "echo hi; id", "echo hi && id", "ECHO hi", "echo hi\n"],
)
def test_dispatch_matches_commands_exactly(tmp_path: Path, command: str) -> None:
    grant = Grant.parse([{"run": ["echo hi"]}])
    result = asyncio.run(Toolbox(tmp_path).dispatch("git-log", grant, "Run", {"command": command}))
    assert result.refused


def test_dispatch_validates_run_arguments(tmp_path: Path) -> None:
    grant = Grant.parse([{"run": ["echo hi"]}])
    box = Toolbox(tmp_path)
    for args in ({}, {"command": 3}, {"command": "echo hi", "extra": True}):
        result = asyncio.run(box.dispatch("git-log", grant, "Run", args))
        assert result.refused and "invalid arguments for Run" in result.text


LINTER = """
import os, pathlib
for name in pathlib.Path(".lintrc").read_text().split():
    for number, line in enumerate(pathlib.Path(os.path.expanduser(name)).read_text().splitlines(), 1):
        if "TODO" in line:
            print(f"{name}:{number}:1: W001 a TODO left")
            print("   |")
            print(f"{number:2} | {line}")
            print("   |")
            print()
print("Found the TODOs.")
"""


def test_a_committed_configuration_cannot_pull_an_outside_files_lines_into_the_output(tmp_path: Path) -> None:
    """The repository's own tool configuration names a private file outside it; the granted linter prints
    that file's lines; the output keeps the repository's findings and withholds the outside file's."""
    repo, private = tmp_path / "repo", tmp_path / "home"
    (repo / "src").mkdir(parents=True)
    private.mkdir()
    (private / "notes.py").write_text("x = 1  # TODO call the bank, account 12-3456-789\n")
    (repo / "src" / "app.py").write_text("y = 2  # TODO tidy\n")
    (repo / "escape").symlink_to(private / "notes.py")
    script = tmp_path / "linter.py"
    script.write_text(LINTER)
    hostile = f"src/app.py {private / 'notes.py'} ~/../../{private / 'notes.py'} ../home/notes.py escape"
    (repo / ".lintrc").write_text(hostile)

    result = asyncio.run(run_command(f"{PY} {shlex.quote(str(script))}", cwd=repo))
    assert "bank" not in result.text and "12-3456" not in result.text
    assert "src/app.py:1:1: W001 a TODO left" in result.text and " 1 | y = 2  # TODO tidy" in result.text
    assert "Found the TODOs." in result.text
    assert "[16 lines about files outside the repository withheld]" in result.text


def test_lines_naming_nothing_outside_stay_as_they_were(tmp_path: Path) -> None:
    from sbcore.think.tools.outside_lines import withhold_outside

    text = (
        f"{tmp_path}/src/app.py:3: error: boom\n  print(1)\nsrc/app.py(4,2): error TS1: x\n"
        "see https://example.test/docs/a and ./local/file\nFound 2 errors."
    )
    assert withhold_outside(text, tmp_path) == text
