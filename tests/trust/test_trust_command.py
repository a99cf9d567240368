"""``second-brain trust`` is the user's act; what is held back is shown wherever the configuration is.

The terminal path runs the real command at a pseudo-terminal
(:mod:`sbcore.testing.terminal`); the refusals run it the way an agent's Bash
tool would (no TTY) or with the variables a Claude Code session gives its
children.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from trust_helpers import Repo, marker_server, touch_command

from sbcore.cli import main
from sbcore.config import global_path, load_config
from sbcore.config.trust import read_record, record_path
from sbcore.config.user_act import SESSION_MARKERS, refusal
from sbcore.testing.terminal import at_terminal

CLI = [sys.executable, "-c", "import sys; from sbcore.cli import main; sys.exit(main())"]


def _env(**extra: str) -> dict[str, str]:
    """The user's shell: their private dirs, no Claude Code session variables."""
    keep = (
        "PATH",
        "HOME",
        "LANG",
        "SBCORE_DATA_DIR",
        "SBCORE_CONFIG_DIR",
        "XDG_DATA_HOME",
        "XDG_CONFIG_HOME",
    )
    return {name: os.environ[name] for name in keep if name in os.environ} | extra


def _asking(repo: Repo) -> None:
    repo.config(
        "tools:\n  mcp_servers:\n    evil: " + json.dumps(marker_server(repo.marker("started"))) + "\n"
        "gate:\n  rate_per_hour: 2\n"
    )
    repo.detector(
        "runner",
        "schema_version: 1\nid: runner\ndescription: Runs.\nenabled: true\nprompt: Run.\n"
        f'tools:\n  - run: ["{touch_command(repo.marker("ran"))}"]\n',
    )


def test_trust_at_a_terminal_records_the_approval(repo: Repo) -> None:
    _asking(repo)
    done = at_terminal([*CLI, "trust", "-C", str(repo.root)], env=_env(), answer="y\n")
    assert done.returncode == 0, done.output
    assert "tools.mcp_servers" in done.output and "detector runner: tools: run: sh -c" in done.output
    assert "trusted: recorded in" in done.output
    from sbcore.hooks.hotconfig import load_hot_config
    from sbcore.paths import data_dir

    assert load_hot_config(data_dir(), str(repo.root)).get("gate.rate_per_hour") == 2, "the hooks' snapshot"
    record = read_record(repo.root)
    assert record is not None and record["digest"] == repo.state().digest
    assert repo.state().trusted
    assert not repo.marker("started").exists(), "trusting runs nothing"


def test_declining_at_the_terminal_changes_nothing(repo: Repo) -> None:
    _asking(repo)
    done = at_terminal([*CLI, "trust", "-C", str(repo.root)], env=_env(), answer="n\n")
    assert done.returncode == 1 and "not trusted; nothing changed" in done.output
    assert not record_path(repo.root).exists()


@pytest.mark.parametrize(
    "marker", ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_SESSION_ID", "SBCORE_OBSERVER"]
)
def test_trust_refuses_inside_a_claude_code_session_even_at_a_terminal(repo: Repo, marker: str) -> None:
    _asking(repo)
    done = at_terminal(
        [*CLI, "trust", "--yes", "-C", str(repo.root)], env=_env(**{marker: "1"}), answer="y\n"
    )
    assert done.returncode == 2, done.output
    assert "refused" in done.output and marker in done.output
    assert not record_path(repo.root).exists()


def test_trust_refuses_without_a_terminal(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    """As the agent's Bash tool would run it: stdin and stdout are pipes."""
    _asking(repo)
    assert main(["trust", "--yes", "-C", str(repo.root)]) == 2
    assert "needs an interactive terminal" in capsys.readouterr().err
    assert not record_path(repo.root).exists()


def test_the_refusal_reads_the_session_variables_the_cli_sets() -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    assert refusal(Tty(), Tty(), {}) is None  # type: ignore[arg-type]
    for marker in SESSION_MARKERS:
        assert refusal(Tty(), Tty(), {marker: "1"}) is not None  # type: ignore[arg-type]
    assert refusal(Tty(), Tty(), {"CLAUDE_CODE_USE_BEDROCK": "1"}) is None, "a user's own setting"  # type: ignore[arg-type]


def test_show_and_revoke_need_no_terminal(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    _asking(repo)
    assert main(["trust", "--show", "-C", str(repo.root)]) == 0
    out = capsys.readouterr().out
    assert "not trusted" in out and "tools.mcp_servers  [capability; ignored until trusted]" in out
    assert "gate.rate_per_hour" not in out, "a safe knob is not asked for"
    assert not record_path(repo.root).exists()
    repo.trust()
    assert main(["trust", "--revoke", "-C", str(repo.root)]) == 0
    assert not record_path(repo.root).exists()
    assert main(["trust", "--revoke", "-C", str(repo.root)]) == 1


def test_setting_a_capability_in_a_layer_that_applies_at_once_is_the_users_act(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Global and local apply at once, so they need a terminal; the workspace layer waits for trust anyway."""
    url = "http://127.0.0.1:9/v1"
    assert main(["config", "set", "--global", "model.base_url", url, "-C", str(repo.root)]) == 2
    assert "is a capability" in capsys.readouterr().err
    assert not global_path().exists() or "base_url" not in global_path().read_text()
    assert (
        main(["config", "set", "--local", "tools.mcp_servers.x", '{"command": "x"}', "-C", str(repo.root)])
        == 2
    )
    assert main(["config", "set", "--local", "gate.rate_per_hour", "2", "-C", str(repo.root)]) == 0, "safe"
    offline = ["config", "set", "--global", "model.provider", "offline", "-C", str(repo.root)]
    assert main(offline) == 0, "switching the model off narrows: no terminal needed"
    capsys.readouterr()
    assert main(["config", "set", "--workspace", "model.base_url", url, "-C", str(repo.root)]) == 0
    said = capsys.readouterr()
    assert "applies only once this workspace is trusted" in said.out
    assert "overrides the workspace layer" not in said.err, "no misleading 'another layer wins'"
    assert load_config(repo.root).get("model.base_url") is None, "written, and ignored until trusted"
    done = at_terminal(
        [*CLI, "config", "set", "--global", "model.base_url", url, "-C", str(repo.root)], env=_env()
    )
    assert done.returncode == 0, done.output
    assert load_config(None).get("model.base_url") == url


def test_config_show_names_each_ignored_key_its_file_and_the_command(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    _asking(repo)
    main(["config", "show", "-C", str(repo.root)])
    out = capsys.readouterr().out
    assert f"review and grant with `second-brain trust -C {repo.root}`" in out
    assert f"ignored   tools.mcp_servers  [capability]  {repo.layer}:2" in out
    assert "ignored   detector runner: tools: run: sh -c" in out
    main(["config", "show", "model", "-C", str(repo.root)])
    assert "workspace not trusted" not in capsys.readouterr().out, "nothing of the model group is held back"
    main(["config", "show", "--json", "-C", str(repo.root)])
    report = json.loads(capsys.readouterr().out)
    assert report["trust"]["trusted"] is False
    assert {item["key"] for item in report["trust"]["ignored"]} >= {"tools.mcp_servers"}


def test_detectors_list_and_show_name_what_is_held_back(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    _asking(repo)
    repo.detector(
        "voice", "schema_version: 1\nid: voice\ndescription: Talks.\nenabled: true\nprompt: Talk.\n"
    )
    main(["detectors", "list", "--workspace", str(repo.root)])
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("voice "))
    assert "log-only" in row
    assert "ignored   detector runner: tools: run: sh -c" in out
    assert "tools.mcp_servers" not in out, "detectors list shows what concerns detectors"
    main(["detectors", "show", "voice", "--workspace", str(repo.root)])
    out = capsys.readouterr().out
    assert "# log-only until the workspace is trusted" in out
    assert "log-only  detector voice  [voice]" in out


def test_the_status_file_carries_the_trust_state(repo: Repo, tmp_path: Path) -> None:
    from sbcore.paths import data_dir
    from sbcore.worker.lifecycle import Channel, Lifeline, ParentWatch
    from sbcore.worker.session import Session, SessionSpec
    from sbcore.worker.status import StatusFile, read_status

    _asking(repo)
    session = "7a1e0c55-0000-4000-8000-0000000000aa"
    channel = Channel(stdout=False)
    status = StatusFile(data_dir(), session, host="test")
    spec = SessionSpec(session_id=session, data=data_dir(), cwd=repo.root, host="test")
    runner = Session(spec, Lifeline(ParentWatch(os.getpid()), channel), channel, status)
    import asyncio

    asyncio.run(runner.run_now("probe"))
    found = read_status(data_dir(), session) or {}
    assert found["trust"]["trusted"] is False
    assert found["trust"]["command"] == f"second-brain trust -C {repo.root}"
    assert {item["key"] for item in found["trust"]["ignored"]} >= {"tools.mcp_servers"}


def _from_a_claude_process(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` the way an agent would to fake the user: from a process named ``claude`` (as the
    CLI's is), in a cleaned environment (``env -i``), at a pseudo-terminal it allocated itself."""
    agent = tmp_path / "bin" / "claude"
    agent.parent.mkdir(exist_ok=True)
    script = tmp_path / "fake_the_user.py"
    script.write_text(code)
    # a shell script keeps its own process (named after the file) as the parent of what it runs
    agent.write_text(f'#!/bin/sh\n"{sys.executable}" "{script}"\necho "exit $?"\n')
    agent.chmod(0o755)
    return subprocess.run([str(agent)], env=_env(), capture_output=True, text=True, timeout=120, check=False)


def test_a_cleaned_environment_at_a_pty_under_claude_cannot_grant_trust(repo: Repo, tmp_path: Path) -> None:
    _asking(repo)
    code = f"""
import os, sys
from sbcore.testing.terminal import at_terminal
done = at_terminal(
    [{sys.executable!r}, "-c", "import sys; from sbcore.cli import main; sys.exit(main())",
     "trust", "--yes", "-C", {str(repo.root)!r}],
    env={{name: os.environ[name] for name in ("PATH", "HOME", "SBCORE_DATA_DIR", "SBCORE_CONFIG_DIR")}},
)
print(done.output)
sys.exit(done.returncode)
"""
    done = _from_a_claude_process(tmp_path, code)
    assert "exit 2" in done.stdout, done.stdout + done.stderr
    assert "refused: it was started from within a Claude Code CLI (pid" in done.stdout
    assert not record_path(repo.root).exists()


def test_calling_the_library_from_under_claude_cannot_grant_trust(repo: Repo, tmp_path: Path) -> None:
    """The check lives in grant() itself: importing the module is no way around the command."""
    _asking(repo)
    code = f"""
import os, pty, sys
leader, follower = pty.openpty()
pid = os.fork()
if pid == 0:
    os.setsid()
    for fd in (0, 1, 2):
        os.dup2(follower, fd)
    from sbcore.config import load_config
    from sbcore.config.trust import TrustRefused, grant
    try:
        grant(load_config({str(repo.root)!r}).trust)
    except TrustRefused as error:
        open({str(tmp_path / "said")!r}, "w").write(str(error))
        os._exit(3)
    os._exit(0)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""
    done = _from_a_claude_process(tmp_path, code)
    assert "exit 3" in done.stdout, done.stdout + done.stderr
    assert "started from within a Claude Code CLI" in (tmp_path / "said").read_text()
    assert not record_path(repo.root).exists()


def test_a_users_own_terminal_has_no_such_ancestor() -> None:
    from sbcore.config.user_act import session_ancestor

    assert session_ancestor(os.getpid()) is None  # pytest, run by a person or CI, not by Claude Code


def test_a_cleaned_environment_at_a_pty_under_claude_cannot_widen_a_setting(tmp_path: Path) -> None:
    """The widening twins meet the same check: unmuting the global layer from a faked terminal is refused."""
    global_file = global_path()
    global_file.parent.mkdir(parents=True, exist_ok=True)
    global_file.write_text("mute:\n  all: true\n")
    code = f"""
import os, sys
from sbcore.testing.terminal import at_terminal
done = at_terminal(
    [{sys.executable!r}, "-c", "import sys; from sbcore.cli import main; sys.exit(main())",
     "config", "set", "mute.all", "false", "--global"],
    env={{name: os.environ[name] for name in ("PATH", "HOME", "SBCORE_DATA_DIR", "SBCORE_CONFIG_DIR")}},
)
print(done.output)
sys.exit(done.returncode)
"""
    done = _from_a_claude_process(tmp_path, code)
    assert "exit 2" in done.stdout, done.stdout + done.stderr
    assert "started from within a Claude Code CLI" in done.stdout
    assert global_file.read_text() == "mute:\n  all: true\n"
