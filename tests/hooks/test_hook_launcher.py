"""plugin/bin/sb-hook: the fast path starts no Python and reads no stdin; everything else fails open."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from hook_helpers import LAUNCHER, Env
from hypothesis import given
from hypothesis import strategies as st

from sbcore import paths
from sbcore.deliver.framing import frame_for_agent
from sbcore.deliver.mailbox import Mailbox

SHELLS = [shell for shell in ("dash", "bash", "busybox") if shutil.which(shell)]


@pytest.fixture
def flag_python(tmp_path: Path) -> tuple[Path, Path]:
    """An interpreter stand-in that leaves a flag file and then runs the real one."""
    flag = tmp_path / "python-started"
    script = tmp_path / "python-shim"
    script.write_text(f'#!/bin/sh\necho started >> "{flag}"\nexec "{sys.executable}" "$@"\n')
    script.chmod(0o755)
    return script, flag


@pytest.fixture
def poisoned_path(tmp_path: Path) -> tuple[str, Path]:
    """A PATH whose python and python3 only leave a flag: any Python the launcher finds on PATH shows."""
    shims = tmp_path / "shims"
    shims.mkdir()
    flag = tmp_path / "path-python-started"
    for name in ("python", "python3"):
        shim = shims / name
        shim.write_text(f'#!/bin/sh\necho "$0" >> "{flag}"\nexit 0\n')
        shim.chmod(0o755)
    return f"{shims}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}", flag


def _run(
    event: str,
    payload: bytes,
    environment: dict[str, str],
    *,
    launcher: Path = LAUNCHER,
    shell: str | None = None,
) -> subprocess.CompletedProcess[bytes]:
    command = [shell, str(launcher), event] if shell else [str(launcher), event]
    if shell == "busybox":
        command.insert(1, "sh")
    return subprocess.run(
        command, input=payload, capture_output=True, env=environment, timeout=60, check=False
    )


def _environment(env: Env, python: Path | str, path: str | None = None) -> dict[str, str]:
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("SBCORE_", "CLAUDE"))
    }
    environment.update(
        SBCORE_DATA_DIR=str(env.data),
        SBCORE_CONFIG_DIR=str(env.config),
        SBCORE_PYTHON=str(python),
        CLAUDE_CODE_SESSION_ID=env.session,
        CLAUDE_PROJECT_DIR=str(env.project),
        CLAUDE_CODE_SESSION_ATTENDED="1",
    )
    if path is not None:
        environment["PATH"] = path
    return environment


@pytest.mark.parametrize("event", ["PostToolUse", "PostToolUseFailure"])
@pytest.mark.parametrize("shell", [None, *SHELLS])
def test_fast_path_starts_no_python(
    wall_clock_env: Env,
    flag_python: tuple[Path, Path],
    poisoned_path: tuple[str, Path],
    event: str,
    shell: str | None,
) -> None:
    python, flag = flag_python
    path, path_flag = poisoned_path
    result = _run(event, b'{"session_id": "x"}', _environment(wall_clock_env, python, path), shell=shell)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    assert not flag.exists()
    assert not path_flag.exists()
    assert not wall_clock_env.data.exists()  # nothing written either


def test_fast_path_does_not_read_stdin(wall_clock_env: Env, flag_python: tuple[Path, Path]) -> None:
    python, flag = flag_python
    process = subprocess.Popen(
        [str(LAUNCHER), "PostToolUse"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=_environment(wall_clock_env, python),
    )
    try:
        status = process.wait(timeout=20)  # stdin stays open and empty: a reader would block forever
        assert process.stdout is not None
        assert (status, process.stdout.read()) == (0, b"")
    finally:
        process.kill()
        assert process.stdin is not None
        process.stdin.close()
        if process.stdout is not None:
            process.stdout.close()
        process.wait()
    assert not flag.exists()


def test_with_mail_prints_exactly_one_answer(wall_clock_env: Env, flag_python: tuple[Path, Path]) -> None:
    python, flag = flag_python
    advice = wall_clock_env.post()
    payload = json.dumps(wall_clock_env.payload("PostToolUse")).encode()
    result = _run("PostToolUse", payload, _environment(wall_clock_env, python))
    assert result.returncode == 0
    lines = result.stdout.decode().splitlines()
    assert len(lines) == 1
    answer = json.loads(lines[0])
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert answer["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    assert context == frame_for_agent(advice)
    assert answer["systemMessage"].startswith(context)
    assert flag.exists()
    assert not wall_clock_env.mailbox.path.exists()


def test_a_waiting_turn_end_report_takes_the_tool_hook_to_python_once(
    wall_clock_env: Env, flag_python: tuple[Path, Path]
) -> None:
    """No mail, but a turn-end report waits: the next tool call shows it to the user, and only it."""
    from sbcore.state import turns

    python, flag = flag_python
    verdicts = [{"detector": "default", "label": "silent", "headline": None}]
    report = {"session_id": wall_clock_env.session, "task_id": "t", "pass": 2, "at": 1.0}
    turns.write(wall_clock_env.data, {**report, "verdicts": verdicts, "line": "all silent"}, pending=True)
    payload = json.dumps(wall_clock_env.payload("PostToolUse")).encode()
    result = _run("PostToolUse", payload, _environment(wall_clock_env, python))
    assert result.returncode == 0 and flag.exists()
    answer = json.loads(result.stdout)
    assert list(answer) == ["systemMessage"], "for the user alone"
    assert re.match(
        r"Second Brain, on the turn that ended at \d\d:\d\d \(pass 2\): all silent\.", answer["systemMessage"]
    )
    assert "- default: silent" in answer["systemMessage"]
    flag.unlink()
    again = _run("PostToolUse", payload, _environment(wall_clock_env, python))
    assert (again.returncode, again.stdout) == (0, b"")
    assert not flag.exists(), "shown once: the fast path holds again"


def _plugin_copy(tmp_path: Path) -> Path:
    """``plugin/bin/sb-hook`` and the ``plugin/lib`` it reads, copied under ``tmp_path``; the bin folder."""
    bin_dir = tmp_path / "plugin" / "bin"
    bin_dir.mkdir(parents=True)
    shutil.copy2(LAUNCHER, bin_dir / "sb-hook")
    shutil.copytree(
        LAUNCHER.parent.parent / "lib",
        tmp_path / "plugin" / "lib",
        ignore=shutil.ignore_patterns("python-path"),
    )
    return bin_dir


def test_the_interpreter_binding_file_is_read(wall_clock_env: Env, tmp_path: Path) -> None:
    bin_dir = _plugin_copy(tmp_path)
    launcher = bin_dir / "sb-hook"
    (bin_dir.parent / "lib" / "python-path").write_text(sys.executable)  # no trailing newline: still read
    wall_clock_env.post()
    environment = _environment(wall_clock_env, "")
    del environment["SBCORE_PYTHON"]
    payload = json.dumps(wall_clock_env.payload("PostToolUse")).encode()
    result = _run("PostToolUse", payload, environment, launcher=launcher)
    assert json.loads(result.stdout)["systemMessage"]


def test_the_binding_is_found_when_run_by_a_bare_name(wall_clock_env: Env, tmp_path: Path) -> None:
    bin_dir = _plugin_copy(tmp_path)
    (bin_dir.parent / "lib" / "python-path").write_text(f"{sys.executable}\n")
    wall_clock_env.post()
    environment = _environment(wall_clock_env, "")
    del environment["SBCORE_PYTHON"]
    payload = json.dumps(wall_clock_env.payload("PostToolUse")).encode()
    result = subprocess.run(
        ["sh", "sb-hook", "PostToolUse"],
        input=payload,
        capture_output=True,
        env=environment,
        cwd=bin_dir,
        check=False,
    )
    assert json.loads(result.stdout)["systemMessage"]


def test_no_bound_interpreter_fails_open_and_logs(wall_clock_env: Env, tmp_path: Path) -> None:
    launcher = _plugin_copy(tmp_path) / "sb-hook"
    wall_clock_env.post()
    environment = _environment(wall_clock_env, "")
    del environment["SBCORE_PYTHON"]
    result = _run("PostToolUse", b"{}", environment, launcher=launcher)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    assert "no Python interpreter bound" in wall_clock_env.log()
    assert wall_clock_env.log_file.stat().st_mode & 0o777 == 0o600
    assert len(wall_clock_env.mailbox.pending()) == 1


def test_a_crashing_interpreter_fails_open(wall_clock_env: Env, tmp_path: Path) -> None:
    broken = tmp_path / "broken-python"
    broken.write_text("#!/bin/sh\necho 'Traceback: boom' >&2\nexit 1\n")
    broken.chmod(0o755)
    wall_clock_env.post()
    result = _run("Stop", b"{}", _environment(wall_clock_env, broken))
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    assert "Traceback: boom" in wall_clock_env.log()


def test_observer_processes_exit_before_anything(wall_clock_env: Env, flag_python: tuple[Path, Path]) -> None:
    python, flag = flag_python
    wall_clock_env.post()
    environment = _environment(wall_clock_env, python) | {"SBCORE_OBSERVER": "1"}
    for event in ("PostToolUse", "Stop", "SessionStart", "UserPromptSubmit", "SubagentStop"):
        result = _run(event, b"{}", environment)
        assert (result.returncode, result.stdout) == (0, b"")
    assert not flag.exists()
    assert len(wall_clock_env.mailbox.pending()) == 1


def test_subagent_call_with_mail_answers_nothing(wall_clock_env: Env, flag_python: tuple[Path, Path]) -> None:
    python, _ = flag_python
    wall_clock_env.post()
    payload = json.dumps(wall_clock_env.payload("PostToolUse", agent_id="a1", agent_type="Explore")).encode()
    result = _run("PostToolUse", payload, _environment(wall_clock_env, python))
    assert (result.returncode, result.stdout) == (0, b"")
    assert len(wall_clock_env.mailbox.pending()) == 1


def test_unenrolled_workspace_with_mail_answers_nothing(
    wall_clock_env: Env, flag_python: tuple[Path, Path]
) -> None:
    python, _ = flag_python
    wall_clock_env.post()
    wall_clock_env.hot({"enable": {"default": False}})
    payload = json.dumps(wall_clock_env.payload("PostToolUse")).encode()
    result = _run("PostToolUse", payload, _environment(wall_clock_env, python))
    assert (result.returncode, result.stdout) == (0, b"")
    assert len(wall_clock_env.mailbox.pending()) == 1


@pytest.mark.parametrize("content", [b"{", b'{"v": 1, "entries": [{"id": 3}]}', b"\x00\x01"])
def test_corrupt_mailbox_through_the_launcher(
    wall_clock_env: Env, flag_python: tuple[Path, Path], content: bytes
) -> None:
    python, _ = flag_python
    paths.write_private(wall_clock_env.mailbox.path, content)
    payload = json.dumps(wall_clock_env.payload("PostToolUse")).encode()
    result = _run("PostToolUse", payload, _environment(wall_clock_env, python))
    assert (result.returncode, result.stdout) == (0, b"")
    assert len(wall_clock_env.log().splitlines()) == 1


@pytest.mark.parametrize("event", ["PreToolUse", "SessionEnd", "", "Bogus"])
def test_events_this_plugin_does_not_handle(
    wall_clock_env: Env, flag_python: tuple[Path, Path], event: str
) -> None:
    python, flag = flag_python
    result = _run(event, b"{}", _environment(wall_clock_env, python))
    assert (result.returncode, result.stdout) == (0, b"")
    assert not flag.exists()


@pytest.mark.parametrize("session", ["../../etc/passwd", "a b", ".hidden", "x" * 201, "tab\there", "ünïcode"])
def test_a_session_id_the_shell_cannot_vouch_for_goes_to_python(
    wall_clock_env: Env, flag_python: tuple[Path, Path], session: str
) -> None:
    python, flag = flag_python
    environment = _environment(wall_clock_env, python) | {"CLAUDE_CODE_SESSION_ID": session}
    payload = json.dumps(wall_clock_env.payload("PostToolUse", session_id=session)).encode()
    result = _run("PostToolUse", payload, environment)
    assert (result.returncode, result.stdout) == (0, b"")
    assert flag.exists()


def test_mail_for_an_unusual_session_id_is_still_delivered(
    wall_clock_env: Env, flag_python: tuple[Path, Path]
) -> None:
    python, _ = flag_python
    wall_clock_env.session = "odd id/with slash"
    wall_clock_env.post()
    environment = _environment(wall_clock_env, python)
    payload = json.dumps(wall_clock_env.payload("PostToolUse")).encode()
    result = _run("PostToolUse", payload, environment)
    assert json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]


@given(st.uuids())
def test_a_session_uuid_is_its_own_safe_name(session: uuid.UUID) -> None:
    text = str(session)
    assert paths.safe_name(text) == text
    assert Mailbox(text, Path("/d")).path == Path(f"/d/mailbox/{text}.json")


def test_the_launcher_is_posix_sh() -> None:
    text = LAUNCHER.read_text()
    assert text.startswith("#!/bin/sh\n")
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert "set -u" in code and "set -e" not in code
    for shell in SHELLS:
        command = [shell, "sh", "-n", str(LAUNCHER)] if shell == "busybox" else [shell, "-n", str(LAUNCHER)]
        assert subprocess.run(command, check=False).returncode == 0
    for bashism in ("[[", "function ", "local ", "$(<", "<<<", "source ", "==", "${!", "pipefail"):
        assert bashism not in code, bashism


def test_an_unusable_log_directory_still_answers_and_prints_nothing_on_stderr(
    wall_clock_env: Env, flag_python: tuple[Path, Path]
) -> None:
    python, _ = flag_python
    wall_clock_env.post()
    (wall_clock_env.data / "logs").write_text("a file where the log directory should be")
    payload = json.dumps(wall_clock_env.payload("PostToolUse")).encode()
    result = _run("PostToolUse", payload, _environment(wall_clock_env, python))
    assert (result.returncode, result.stderr) == (0, b"")
    assert len(result.stdout.decode().splitlines()) == 1


def test_the_installed_data_dir_pointer_is_followed_without_python(
    wall_clock_env: Env, flag_python: tuple[Path, Path], tmp_path: Path
) -> None:
    python, flag = flag_python
    environment = _environment(wall_clock_env, python)
    del environment["SBCORE_DATA_DIR"]
    elsewhere = tmp_path / "plugin-data"
    (elsewhere / "mailbox").mkdir(parents=True)
    wall_clock_env.config.mkdir(parents=True, exist_ok=True)
    (wall_clock_env.config / paths.DATA_DIR_POINTER).write_text(f"{elsewhere}\n")
    result = _run("PostToolUse", b"{}", environment)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    assert not flag.exists()  # no mail in the pointed-to mailbox: the fast path held
    (elsewhere / "mailbox" / f"{wall_clock_env.session}.json").write_text("{}")
    _run("PostToolUse", b"{}", environment)
    assert flag.exists()  # mail there: Python was started


def test_without_its_lib_the_launcher_goes_to_python(wall_clock_env: Env, tmp_path: Path) -> None:
    """A plugin folder missing plugin/lib (a partial copy) loses the fast path, never a hook's answer."""
    launcher = tmp_path / "sb-hook"
    shutil.copy2(LAUNCHER, launcher)
    wall_clock_env.post()
    payload = json.dumps(wall_clock_env.payload("PostToolUse")).encode()
    result = _run("PostToolUse", payload, _environment(wall_clock_env, sys.executable), launcher=launcher)
    assert result.returncode == 0
    assert json.loads(result.stdout)["systemMessage"]


@pytest.mark.parametrize("linked", ["logs/hooks.log", "logs"])
def test_a_log_planted_as_a_link_is_never_written_through(
    wall_clock_env: Env, tmp_path: Path, linked: str
) -> None:
    """The shell's `>>` follows a link: a planted `hooks.log` (or `logs/`) link is left alone, the hook still
    answers, and the file it points at is neither created nor appended to."""
    crashing = tmp_path / "crashing-python"
    crashing.write_text("#!/bin/sh\necho 'Traceback: boom' >&2\nexit 1\n")
    crashing.chmod(0o755)
    target = tmp_path / "elsewhere"
    target.mkdir()
    victim = target / ("hooks.log" if linked == "logs" else "victim")
    link = wall_clock_env.data / linked
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.exists() or link.is_symlink():
        (shutil.rmtree if link.is_dir() and not link.is_symlink() else Path.unlink)(link)
    link.symlink_to(target if linked == "logs" else victim)
    result = _run("Stop", b"{}", _environment(wall_clock_env, crashing))
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    assert not victim.exists()
    environment = _environment(wall_clock_env, "")
    del environment["SBCORE_PYTHON"]
    result = _run("PostToolUse", b"{}", environment, launcher=_plugin_copy(tmp_path) / "sb-hook")
    assert (result.returncode, result.stderr) == (0, b"")
    assert not victim.exists()
