"""Run commands that execute repository code: the registry, the gate, and who may trust them."""

from __future__ import annotations

import asyncio
import shlex
import sys
from pathlib import Path

import pytest

from sbcore.config import load_config
from sbcore.config.trust import grant as trust_layer
from sbcore.packs.catalogue import assemble_catalogue
from sbcore.packs.manager import get_plugin_manager
from sbcore.think.tools.dispatch import Grant, Toolbox
from sbcore.think.tools.repo_code import TRUST_COMMAND, executes_repo_code, repo_code_refusal


@pytest.mark.parametrize(
    "command",
    [
        "mypy --cache-dir=/dev/null",
        "/usr/local/bin/mypy .",
        "npx --no-install tsc --noEmit",
        "pytest -q",
        "python3.12 -m pyflakes .",
        "make lint",
        "cargo clippy",
        "go test ./...",
        "./gradlew check",
        "scripts/lint.sh",
        "env FOO=1 ruff check",
        "npm run lint",
    ],
)
def test_commands_that_run_repository_code_are_recognised(command: str) -> None:
    assert executes_repo_code(command)
    refusal = repo_code_refusal(command)
    assert refusal is not None and TRUST_COMMAND in refusal and command in refusal
    assert repo_code_refusal(command, trusted=True) is None


@pytest.mark.parametrize(
    "command",
    [
        "git diff --check",
        "git status --short --branch",
        "ruff check --no-cache --output-format=concise .",
        "go vet ./...",
        "tsc --noEmit",
        "/usr/bin/ls -la",
    ],
)
def test_commands_that_only_read_the_repository_run_untrusted(command: str) -> None:
    assert executes_repo_code(command) is None
    assert repo_code_refusal(command) is None


def test_every_builtin_allowlisted_command_is_classified_as_documented(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    catalogue = assemble_catalogue(get_plugin_manager(autoload=False), workspace=root)
    executing = sorted(
        command
        for detector in catalogue.detectors
        for command in detector.definition.run_commands
        if executes_repo_code(command)
    )
    assert executing == ["mypy --cache-dir=/dev/null", "npx --no-install tsc --noEmit"]
    assert not any(detector.definition.run_trusted for detector in catalogue.detectors)


def test_dispatch_refuses_repository_code_unless_the_grant_or_workspace_is_trusted(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    code = "open(" + repr(str(marker)) + ", 'w')"
    command = f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"

    def call(box: Toolbox, grant: Grant) -> str:
        return asyncio.run(box.dispatch("static-analysis", grant, "Run", {"command": command})).text

    untrusted = Grant.parse([{"run": [command]}])
    assert "refused" in call(Toolbox(tmp_path), untrusted) and not marker.exists()
    assert "exit status 0" in call(Toolbox(tmp_path, trusted_workspace=True), untrusted) and marker.exists()
    marker.unlink()
    trusted = Grant.parse([{"run": [command]}], repo_code_trusted=True)
    assert "exit status 0" in call(Toolbox(tmp_path), trusted) and marker.exists()


@pytest.mark.usefixtures("as_the_user")
def test_a_tools_override_from_the_users_own_layer_is_trusted_and_the_workspaces_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config"
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(config))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / ".second-brain").mkdir()
    grant = "detectors:\n  static-analysis:\n    tools:\n      - run: [pytest -q]\n"
    (root / ".second-brain" / "config.yaml").write_text(grant)
    manager = get_plugin_manager(autoload=False)
    held = assemble_catalogue(manager, workspace=root).get("static-analysis")
    assert held is not None and "pytest -q" not in held.definition.run_commands, "a Run grant waits for trust"
    trust_layer(load_config(root).trust)  # trusted: the grant applies; its commands still need a trusted box
    from_workspace = assemble_catalogue(manager, workspace=root).get("static-analysis")
    assert from_workspace is not None and from_workspace.definition.run_commands == ("pytest -q",)
    assert not from_workspace.definition.run_trusted
    (root / ".second-brain" / "config.yaml").unlink()
    config.mkdir()
    (config / "config.yaml").write_text(grant)
    from_user = assemble_catalogue(manager, workspace=root).get("static-analysis")
    assert from_user is not None and from_user.definition.run_trusted


@pytest.mark.usefixtures("as_the_user")
def test_the_workers_toolbox_runs_repository_code_only_in_a_workspace_the_user_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sbcore.pace.clock import SystemClock
    from sbcore.worker.engine import ObserverFactory

    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    factory = ObserverFactory(session_id="s", cwd=root, clock=SystemClock())

    def box_trusts() -> bool:
        toolbox = factory.build(load_config(root)).engine.toolbox
        assert toolbox is not None
        return toolbox.trusted_workspace

    assert not box_trusts(), "a repository nobody trusted: its code is never run"
    trust_layer(load_config(root).trust)
    assert box_trusts()
    (root / ".second-brain").mkdir()
    (root / ".second-brain" / "config.yaml").write_text("gate:\n  cooldown_s: 60\n")
    assert not box_trusts(), "the layer changed since it was trusted"
