"""``second-brain doctor``: every check right on a healthy install and on each way an install breaks, and the
exit status says whether anything failed."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from sbcore.cli import doctor_checks
from sbcore.cli import main as cli
from sbcore.cli.doctor_checks import MINIMUM_CLI, TESTED_CLI, Check
from sbcore.testing.fake_provider import FakeProvider

ROOT = Path(__file__).resolve().parents[1]
TESTED = ".".join(map(str, TESTED_CLI))


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of the checkout's plugin, bound to this interpreter."""
    root = tmp_path / "checkout"
    shutil.copytree(ROOT / ".claude-plugin", root / ".claude-plugin")
    shutil.copytree(ROOT / "plugin", root / "plugin", ignore=shutil.ignore_patterns("python-path"))
    (root / "plugin" / "lib" / "python-path").write_text(f"{sys.executable}\n")
    return root


def _claude(tmp_path: Path, version: str) -> Path:
    """A ``claude`` that reports ``version`` and no login (so ``auto`` chooses offline)."""
    program = tmp_path / "bin" / "claude"
    program.parent.mkdir(exist_ok=True)
    program.write_text(
        "#!/bin/sh\n"
        f'[ "$1" = --version ] && {{ echo "{version} (Claude Code)"; exit 0; }}\n'
        'echo \'{"loggedIn": false, "authMethod": "none"}\'\n'
    )
    program.chmod(0o755)
    return program


@pytest.fixture
def healthy(checkout: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """A healthy install: plugin enabled, hooks bound, private data directory, offline, tested CLI."""
    for name in (
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_BASE_URL",
        "SBCORE_PYTHON",
    ):
        monkeypatch.delenv(name, raising=False)
    claude = _claude(tmp_path, TESTED)
    monkeypatch.setenv("PATH", f"{claude.parent}{os.pathsep}{os.environ['PATH']}")
    marketplace = json.loads((checkout / ".claude-plugin" / "marketplace.json").read_text())["name"]
    settings = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"enabledPlugins": {f"second-brain@{marketplace}": True}}))
    data = Path(os.environ["SBCORE_DATA_DIR"])
    data.mkdir(mode=0o700, parents=True, exist_ok=True)
    workspace = tmp_path / "project"
    workspace.mkdir()
    monkeypatch.chdir(workspace)
    return {"checkout": checkout, "claude": claude, "data": data, "workspace": workspace}


def _doctor(capsys: pytest.CaptureFixture[str], checkout: Path, *extra: str) -> tuple[int, dict[str, Check]]:
    code = cli(["doctor", "--repo", str(checkout), "--json", *extra])
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is (code == 0)
    return code, {item["name"]: Check(**item) for item in report["checks"]}


def test_a_healthy_install_passes_every_check(
    healthy: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, checks = _doctor(capsys, healthy["checkout"])
    assert code == 0, checks
    assert list(checks) == [
        "python",
        "sbcore",
        "claude",
        "plugin",
        "hooks",
        "data directory",
        "configuration",
        "provider",
        "workspace trust",
        "worker",
    ]
    assert {check.status for check in checks.values()} == {"ok"}, checks
    assert (
        f"Claude Code {TESTED}" in checks["claude"].detail and "the tested version" in checks["claude"].detail
    )
    assert checks["provider"].detail.startswith("offline")
    assert sys.executable in checks["hooks"].detail


def test_the_text_report_gives_each_failure_its_fix(
    healthy: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(["doctor", "--repo", str(healthy["checkout"]), "--claude", "/nonexistent/claude"]) == 1
    out = capsys.readouterr().out
    assert re.search(r"^FAIL  claude: no `claude` on PATH\n      fix: install Claude Code", out, re.M)
    assert re.search(r"^ok    hooks: bound to ", out, re.M)
    assert out.rstrip().endswith("1 failed, 0 to look at, 9 fine")


def test_no_cli(healthy: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, checks = _doctor(capsys, healthy["checkout"], "--claude", "/nonexistent/claude")
    assert (code, checks["claude"].status) == (1, "fail")


def test_a_cli_below_the_minimum_fails_and_a_newer_one_is_untested(
    healthy: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = ".".join(map(str, (*MINIMUM_CLI[:2], MINIMUM_CLI[2] - 1)))
    _claude(tmp_path, older)
    code, checks = _doctor(capsys, healthy["checkout"])
    assert (code, checks["claude"].status) == (1, "fail")
    assert f"older than the minimum supported {'.'.join(map(str, MINIMUM_CLI))}" in checks["claude"].detail
    assert "claude update" in checks["claude"].fix

    _claude(tmp_path, f"{TESTED_CLI[0]}.{TESTED_CLI[1] + 1}.0")
    code, checks = _doctor(capsys, healthy["checkout"])
    assert (code, checks["claude"].status) == (0, "warn")
    assert "untested" in checks["claude"].detail


def test_unbound_hooks(healthy: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    (healthy["checkout"] / "plugin" / "lib" / "python-path").unlink()
    code, checks = _doctor(capsys, healthy["checkout"])
    assert (code, checks["hooks"].status) == (1, "fail")
    assert "no interpreter bound" in checks["hooks"].detail
    assert checks["hooks"].fix == "run `second-brain install`"


def test_hooks_bound_to_an_interpreter_without_sbcore(
    healthy: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = tmp_path / "bare-python"
    bare.write_text("#!/bin/sh\necho \"ModuleNotFoundError: No module named 'sbcore'\" >&2\nexit 1\n")
    bare.chmod(0o755)
    (healthy["checkout"] / "plugin" / "lib" / "python-path").write_text(f"{bare}\n")
    code, checks = _doctor(capsys, healthy["checkout"])
    assert (code, checks["hooks"].status) == (1, "fail")
    assert "No module named 'sbcore'" in checks["hooks"].detail


def test_a_plugin_not_enabled_or_of_another_version(
    healthy: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "settings.json"
    settings.write_text("{}")
    code, checks = _doctor(capsys, healthy["checkout"])
    assert (code, checks["plugin"].status) == (1, "fail")
    assert "not enabled" in checks["plugin"].detail

    manifest = healthy["checkout"] / "plugin" / ".claude-plugin" / "plugin.json"
    document = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**document, "version": "0.0.9"}))
    code, checks = _doctor(capsys, healthy["checkout"])
    assert "plugin 0.0.9" in checks["plugin"].detail and "is older than the sbcore" in checks["plugin"].detail


def test_a_data_directory_open_to_others_is_a_warning(
    healthy: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Claude Code makes the plugin's data folder 0755 before any worker tightens it."""
    healthy["data"].chmod(0o755)
    code, checks = _doctor(capsys, healthy["checkout"])
    assert (code, checks["data directory"].status) == (0, "warn")
    assert "mode 755" in checks["data directory"].detail
    assert checks["data directory"].fix == f"`chmod 700 {healthy['data']}`"


@pytest.mark.parametrize(
    "breakage", ["a file", "a link to a file", "another owner's", "missing its parent's access"]
)
def test_a_data_directory_that_cannot_serve(
    breakage: str,
    healthy: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = healthy["data"]
    if breakage == "a file":
        data.rmdir()
        data.write_text("not a folder")
    elif breakage == "a link to a file":
        data.rmdir()
        (tmp_path / "elsewhere").write_text("not a folder")
        data.symlink_to(tmp_path / "elsewhere")
    elif breakage == "another owner's":
        if os.getuid() != 0:
            pytest.skip("only root can give a folder away")
        os.chown(data, 4242, 4242)
    else:
        monkeypatch.setenv("SBCORE_DATA_DIR", str(data / "plain-file" / "data"))
        (data / "plain-file").write_text("a file where a folder should be")
    code, checks = _doctor(capsys, healthy["checkout"])
    assert (code, checks["data directory"].status) == (1, "fail"), checks["data directory"]
    assert checks["data directory"].fix


def test_a_provider_that_answers_and_one_that_does_not(
    healthy: dict[str, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeProvider() as fake:
        for name, value in fake.env("anthropic").items():
            monkeypatch.setenv(name, value)
        code, checks = _doctor(capsys, healthy["checkout"])
        assert (code, checks["provider"].status) == (0, "ok"), checks["provider"]
        assert f"at {fake.base_url} answers" in checks["provider"].detail
        address = fake.base_url
    monkeypatch.setenv("ANTHROPIC_BASE_URL", address)  # nothing listens there now
    code, checks = _doctor(capsys, healthy["checkout"])
    assert (code, checks["provider"].status) == (1, "fail")
    assert "does not answer" in checks["provider"].detail
    assert "model.provider offline" in checks["provider"].fix


def test_a_workspace_waiting_for_trust_is_a_warning(
    healthy: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    layer = healthy["workspace"] / ".second-brain" / "config.yaml"
    layer.parent.mkdir()
    layer.write_text("model:\n  provider: anthropic\n")
    code, checks = _doctor(capsys, healthy["checkout"])
    assert (code, checks["workspace trust"].status) == (0, "warn")
    assert (
        "not trusted" in checks["workspace trust"].detail
        and "model.provider" in checks["workspace trust"].detail
    )
    assert "second-brain trust" in checks["workspace trust"].fix


def test_the_last_worker_error_is_named(healthy: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    logs = healthy["data"] / "logs"
    logs.mkdir(mode=0o700)
    (logs / "worker-a.log").write_text(
        "2026-12-05 10:00:00 41 INFO sbcore.worker: pass 1 (turn_end): 3 silent\n"
        "2026-12-05 10:00:09 41 ERROR sbcore.worker: provider anthropic: RateLimited: 429\n"
        "2026-12-05 10:00:10 41 INFO sbcore.worker: pass 2 (turn_end): 3 silent\n"
    )
    code, checks = _doctor(capsys, healthy["checkout"])
    assert (code, checks["worker"].status) == (0, "warn")
    assert "RateLimited: 429" in checks["worker"].detail


def test_a_check_that_breaks_is_a_failure_not_a_crash(
    healthy: dict[str, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(scene: Any) -> Check:
        raise RuntimeError("boom")

    monkeypatch.setattr(doctor_checks, "CHECKS", (doctor_checks.python, broken))
    code, checks = _doctor(capsys, healthy["checkout"])
    assert code == 1
    assert checks["broken"] == Check("broken", "fail", "the check itself failed: RuntimeError: boom")


def test_the_tested_cli_is_the_one_ci_installs() -> None:
    pinned = re.search(r"@anthropic-ai/claude-code@(\d+\.\d+\.\d+)", (ROOT / ".ci" / "run").read_text())
    assert pinned is not None
    assert pinned.group(1) == TESTED


def test_a_data_directory_kept_elsewhere_through_a_link_is_fine(
    healthy: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = healthy["data"]
    data.rmdir()
    (tmp_path / "big-disk").mkdir(mode=0o700)
    data.symlink_to(tmp_path / "big-disk")
    code, checks = _doctor(capsys, healthy["checkout"])
    assert (code, checks["data directory"].status) == (0, "ok")
    assert f"(a link to {tmp_path / 'big-disk'})" in checks["data directory"].detail
