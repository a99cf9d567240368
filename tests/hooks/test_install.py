"""``second-brain install`` / ``uninstall`` against a recording fake ``claude``, and (e2e) the real CLI."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hook_helpers import ROOT, real_claude

from sbcore.cli import main as cli


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of what install needs from the checkout, so the real plugin/bin stays untouched."""
    root = tmp_path / "checkout"
    shutil.copytree(ROOT / ".claude-plugin", root / ".claude-plugin")
    shutil.copytree(ROOT / "plugin", root / "plugin", ignore=shutil.ignore_patterns("python-path"))
    return root


def _fake_claude(tmp_path: Path, failing: dict[str, str] | None = None) -> tuple[Path, Path]:
    """A ``claude`` that appends its argv to a log and answers like the real one's ``--json`` mode.

    ``failing`` maps a subcommand (``install``, ``uninstall``, ``remove``...) to the
    failureCode it reports with exit status 1.
    """
    calls = tmp_path / "claude-calls.jsonl"
    program = tmp_path / "fake_claude.py"
    program.write_text(
        "import json, sys\n"
        f"open({str(calls)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n"
        f"failing = {failing or {}!r}\n"
        "step = sys.argv[3] if sys.argv[2] == 'marketplace' else sys.argv[2]\n"
        "if step in failing:\n"
        "    report = {'outcome': 'failed', 'message': 'it went wrong', 'failureCode': failing[step]}\n"
        "    print(json.dumps(report))\n"
        "    sys.exit(1)\n"
        "print('progress noise')\n"
        "print(json.dumps({'outcome': 'ok', 'message': 'Successfully did ' + step}))\n"
    )
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir()
    claude = bin_dir / "claude"
    claude.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{program}" "$@"\n')
    claude.chmod(0o755)
    return claude, calls


def _calls(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_install_binds_this_python_and_installs_with_claude(
    checkout: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    claude, calls = _fake_claude(tmp_path)
    monkeypatch.setenv("PATH", f"{claude.parent}{os.pathsep}{os.environ['PATH']}")
    assert cli(["install", "--repo", str(checkout)]) == 0
    assert _calls(calls) == [
        ["plugin", "marketplace", "add", str(checkout), "--scope", "user", "--json"],
        ["plugin", "install", "second-brain@sbcore", "--scope", "user", "--json"],
    ]
    assert (checkout / "plugin" / "lib" / "python-path").read_text() == f"{sys.executable}\n"
    out = capsys.readouterr().out
    assert "Successfully did install" in out and "progress noise" not in out
    assert (
        "its commands there: /second-brain:config, /second-brain:doctor, /second-brain:forget, "
        "/second-brain:run, /second-brain:stats, /second-brain:why" in out
    )


def test_the_bound_checkout_delivers_through_its_launcher(checkout: Path, tmp_path: Path) -> None:
    assert cli(["install", "--repo", str(checkout), "--bind-only"]) == 0
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("SBCORE_", "CLAUDE"))
    }
    environment["SBCORE_DATA_DIR"] = str(tmp_path / "data")
    result = subprocess.run(
        [str(checkout / "plugin" / "bin" / "second-brain"), "--version"],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0 and result.stdout.startswith("sbcore ")


def test_scope_and_explicit_claude(checkout: Path, tmp_path: Path) -> None:
    claude, calls = _fake_claude(tmp_path)
    assert cli(["install", "--repo", str(checkout), "--scope", "project", "--claude", str(claude)]) == 0
    assert [call[-3:] for call in _calls(calls)] == [["--scope", "project", "--json"]] * 2


def test_launchers_get_their_execute_bits_back(checkout: Path) -> None:
    launcher = checkout / "plugin" / "bin" / "sb-hook"
    launcher.chmod(0o644)
    assert cli(["install", "--repo", str(checkout), "--bind-only"]) == 0
    assert os.access(launcher, os.X_OK)


def test_without_claude_install_says_what_to_do(
    checkout: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert cli(["install", "--repo", str(checkout)]) == 1
    err = capsys.readouterr().err
    assert "cannot find `claude` on PATH" in err and "--bind-only" in err
    assert (checkout / "plugin" / "lib" / "python-path").exists()  # the binding is done first


def test_a_failing_claude_step_is_an_error(
    checkout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claude, _ = _fake_claude(tmp_path, failing={"install": "not_found"})
    assert cli(["install", "--repo", str(checkout), "--claude", str(claude)]) == 1
    assert (
        "`claude plugin install second-brain@sbcore --scope user` failed: it went wrong"
        in capsys.readouterr().err
    )


def test_an_interpreter_without_sbcore_is_refused(
    checkout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = tmp_path / "bare-python"
    bare.write_text(f'#!/bin/sh\nexec "{sys.executable}" -I -S "$@"\n')
    bare.chmod(0o755)
    assert cli(["install", "--repo", str(checkout), "--python", str(bare), "--bind-only"]) == 1
    assert "cannot import sbcore" in capsys.readouterr().err
    assert not (checkout / "plugin" / "lib" / "python-path").exists()


def test_a_missing_interpreter_is_refused(checkout: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["install", "--repo", str(checkout), "--python", "/nonexistent/python", "--bind-only"]) == 1
    assert "is not an executable file" in capsys.readouterr().err


def test_not_a_checkout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["install", "--repo", str(tmp_path), "--bind-only"]) == 1
    assert "is not an sbcore checkout" in capsys.readouterr().err


def test_uninstall_reverses_both_and_keeps_data(checkout: Path, tmp_path: Path) -> None:
    claude, calls = _fake_claude(tmp_path)
    assert cli(["install", "--repo", str(checkout), "--claude", str(claude)]) == 0
    assert cli(["uninstall", "--repo", str(checkout), "--claude", str(claude)]) == 0
    assert _calls(calls)[2:] == [
        ["plugin", "uninstall", "second-brain@sbcore", "--scope", "user", "--keep-data", "--json"],
        ["plugin", "marketplace", "remove", "sbcore", "--scope", "user", "--json"],
    ]
    assert not (checkout / "plugin" / "lib" / "python-path").exists()


def test_uninstall_purge_lets_claude_delete_the_data(checkout: Path, tmp_path: Path) -> None:
    claude, calls = _fake_claude(tmp_path)
    assert cli(["uninstall", "--repo", str(checkout), "--claude", str(claude), "--purge"]) == 0
    assert "--keep-data" not in _calls(calls)[0]


def test_uninstall_of_something_already_gone_is_fine(
    checkout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claude, _ = _fake_claude(tmp_path, failing={"uninstall": "not_installed", "remove": "not_configured"})
    assert cli(["uninstall", "--repo", str(checkout), "--claude", str(claude)]) == 0
    assert capsys.readouterr().out.count("nothing to do") == 2


# -- the real CLI ---------------------------------------------------------------------------------


REAL_CLAUDE = real_claude()
needs_claude = pytest.mark.skipif(REAL_CLAUDE is None, reason="no Claude Code CLI (set SBCORE_CLAUDE_BIN)")


def _isolated(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("SBCORE_", "CLAUDE"))
    }
    environment.update(HOME=str(home), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1")
    return environment


@pytest.mark.e2e
@needs_claude
def test_real_cli_validates_the_plugin_and_the_marketplace(tmp_path: Path) -> None:
    assert REAL_CLAUDE is not None
    for target in (ROOT / "plugin", ROOT):
        result = subprocess.run(
            [REAL_CLAUDE, "plugin", "validate", "--json", str(target)],
            env=_isolated(tmp_path),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        report = json.loads(result.stdout)
        assert report["success"] is True
        assert report["manifest"]["errors"] == []
        assert report["manifest"]["warnings"] == []
        if target.name == "plugin":
            # What `claude plugin validate` warned about: no icon, no declared hosts, a bin entry
            # (the interpreter binding) that is no program.
            assert report["directory"]["findings"] == [], report["directory"]
            assert {item["host"] for item in report["hosts"]["named"]} == {
                "api.anthropic.com",
                "api.openai.com",
            }
            assert report["provides"]["bin"] == ["sb-hook", "sb-statusline", "sb-worker", "second-brain"]


@pytest.mark.e2e
@needs_claude
def test_real_cli_install_and_uninstall(checkout: Path, tmp_path: Path) -> None:
    assert REAL_CLAUDE is not None
    environment = _isolated(tmp_path) | {"PATH": os.environ["PATH"]}
    run = [sys.executable, "-c", "import sys; from sbcore.cli import main; sys.exit(main())"]
    install = subprocess.run(
        [*run, "install", "--repo", str(checkout), "--claude", REAL_CLAUDE],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    settings = json.loads((tmp_path / "home" / ".claude" / "settings.json").read_text())
    assert settings["enabledPlugins"] == {"second-brain@sbcore": True}
    assert settings["extraKnownMarketplaces"]["sbcore"]["source"] == {
        "source": "directory",
        "path": str(checkout),
    }
    listed = subprocess.run(
        [REAL_CLAUDE, "plugin", "list"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "second-brain@sbcore" in listed.stdout and str(checkout / "plugin") in listed.stdout
    uninstall = subprocess.run(
        [*run, "uninstall", "--repo", str(checkout), "--claude", REAL_CLAUDE],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert uninstall.returncode == 0, uninstall.stdout + uninstall.stderr
    settings = json.loads((tmp_path / "home" / ".claude" / "settings.json").read_text())
    assert settings["enabledPlugins"] == {} and settings["extraKnownMarketplaces"] == {}
    assert not (checkout / "plugin" / "lib" / "python-path").exists()


def test_install_points_terminal_commands_at_the_plugin_data_dir(
    checkout: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sbcore import paths

    claude, _ = _fake_claude(tmp_path)
    monkeypatch.setenv("PATH", f"{claude.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-home"))
    monkeypatch.delenv("SBCORE_DATA_DIR")
    assert cli(["install", "--repo", str(checkout)]) == 0
    expected = tmp_path / "claude-home" / "plugins" / "data" / "second-brain-sbcore"
    assert paths.data_dir() == expected
    assert (paths.config_dir() / paths.DATA_DIR_POINTER).stat().st_mode & 0o777 == 0o600
    assert cli(["uninstall", "--repo", str(checkout)]) == 0
    assert paths.data_dir() != expected


@pytest.mark.usefixtures("as_the_user")
def test_an_install_over_an_older_data_directory_keeps_trust_layers_labels_and_the_database(
    checkout: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before install, terminal commands keep state under $XDG_DATA_HOME/sbcore; install points them (and
    the hooks) at the plugin's data directory. What the user made in the old one must come along."""
    from sbcore import paths
    from sbcore.config import load_config, set_value
    from sbcore.config.trust import grant
    from sbcore.state import db

    monkeypatch.delenv("SBCORE_DATA_DIR")
    old = paths.data_dir()
    workspace = tmp_path / "repo"
    (workspace / ".git").mkdir(parents=True)
    (workspace / ".second-brain").mkdir()
    (workspace / ".second-brain" / "config.yaml").write_text("model:\n  provider: anthropic\n")
    grant(load_config(workspace).trust)  # type: ignore[arg-type]
    set_value("gate.cooldown_s", "45", workspace=workspace)
    labels = old / "labels" / f"{paths.workspace_key(workspace)}.yaml"
    labels.parent.mkdir(parents=True)
    labels.write_text("cases: []\n")
    with contextlib.closing(db.connect(db.db_path(old))) as connection:
        connection.execute("CREATE TABLE IF NOT EXISTS carried (x)")
        connection.execute("INSERT INTO carried VALUES (42)")
        connection.commit()
    assert load_config(workspace).trust.trusted  # type: ignore[union-attr]

    claude, _ = _fake_claude(tmp_path)
    monkeypatch.setenv("PATH", f"{claude.parent}{os.pathsep}{os.environ['PATH']}")
    assert cli(["install", "--repo", str(checkout)]) == 0
    new = paths.data_dir()
    assert new != old and new.name == "second-brain-sbcore"
    out = capsys.readouterr().out
    assert f"copied your state from {old} (left there as it was): " in out
    assert "workspaces/: 2 files, labels/: 1 file, sbcore.db" in out

    config = load_config(workspace)
    assert config.trust is not None and config.trust.trusted, "still trusted after the move"
    assert (config.get("gate.cooldown_s"), config.layer_of("gate.cooldown_s")) == (45, "local")
    assert (new / "labels" / labels.name).read_text() == "cases: []\n"
    with contextlib.closing(db.connect(db.db_path(new))) as connection:
        assert [tuple(row) for row in connection.execute("SELECT x FROM carried")] == [(42,)]
    for path in (new / "labels" / labels.name, new / "sbcore.db"):
        assert path.stat().st_mode & 0o777 == 0o600
    assert labels.exists(), "the old directory is left as it was"

    assert cli(["install", "--repo", str(checkout)]) == 0  # installing again copies nothing over
    assert "copied your state" not in capsys.readouterr().out
