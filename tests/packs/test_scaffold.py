"""`second-brain pack new`: names, no overwriting, and a new pack whose tests pass unmodified."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from scratch_venv import ScratchVenv

from sbcore.cli import main
from sbcore.testing.scaffold import FILES, Names, ScaffoldError, scaffold_pack


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("Acme", "not a usable pack name"),
        ("acme_checks", "not a usable pack name"),
        ("acme--checks", "not a usable pack name"),
        ("-acme", "not a usable pack name"),
        ("a" * 41, "at most 40 characters"),
        ("builtin", "reserved by sbcore"),
        ("class", "a keyword"),
        ("yaml", "a module named 'yaml' is already importable here"),
    ],
)
def test_unusable_names_are_refused(name: str, problem: str, tmp_path: Path) -> None:
    with pytest.raises(ScaffoldError, match=problem):
        scaffold_pack(name, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_names_derive_from_the_pack_name() -> None:
    names = Names.of("acme-checks")
    assert names.as_dict() == {
        "name": "acme-checks",
        "module": "acme_checks",
        "detector": "acme-checks-markers-left",
        "trigger": "acme_checks_markers_left",
    }


def test_refuses_a_non_empty_directory_and_writes_nothing(tmp_path: Path) -> None:
    existing = tmp_path / "acme-checks"
    existing.mkdir()
    (existing / "notes.txt").write_text("mine\n")
    with pytest.raises(ScaffoldError, match="already exists and is not an empty directory"):
        scaffold_pack("acme-checks", tmp_path)
    assert [p.name for p in existing.iterdir()] == ["notes.txt"]


def test_writes_every_template_and_the_snapshots_of_its_goldens(tmp_path: Path) -> None:
    result = scaffold_pack("acme-checks", tmp_path)
    root = tmp_path / "acme-checks"
    written = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    expected_files = sorted(target.format(**result.names.as_dict()) for _, target in FILES)
    snapshots = sorted(str(p.relative_to(root)) for p in result.snapshots)
    assert written == sorted(expected_files + snapshots)
    assert [Path(s).name for s in snapshots] == [
        "test_golden[acme-checks.acme-checks-markers-left.marker-left-behind].json",
        "test_golden[acme-checks.acme-checks-markers-left.marker-removed-later].json",
    ]
    fired = json.loads((root / snapshots[0]).read_text())
    assert (fired["label"], fired["fired"], fired["decided_by"]) == ("must_fire", True, "fallback")
    silent = json.loads((root / snapshots[1]).read_text())
    assert (silent["label"], silent["fired"], silent["decided_by"]) == ("must_stay_silent", False, "trigger")
    assert "acme_checks" not in sys.modules  # the scaffold imported the new pack only for the snapshots


def test_generated_python_is_lint_clean(tmp_path: Path) -> None:
    scaffold_pack("acme-checks", tmp_path, record_snapshots=False)
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--line-length", "110", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_generated_detector_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scaffold_pack("acme-checks", tmp_path, record_snapshots=False)
    catalogue = tmp_path / "acme-checks" / "src" / "acme_checks" / "catalogue"
    # Its trigger is the pack's own, unknown until the pack is installed: the only complaint allowed.
    assert main(["detectors", "validate", str(catalogue)]) == 1
    out = capsys.readouterr().out
    assert re.findall(r"=====> (.*)", out) == [
        "trigger 'acme_checks_markers_left' is not available: no installed pack registers it"
    ], out


def test_cli_pack_new(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pack", "new", "acme-checks", "--directory", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"Created pack 'acme-checks' in {tmp_path / 'acme-checks'} (12 files):" in out
    assert "second-brain pack test acme-checks" in out
    assert main(["pack", "new", "acme-checks", "--directory", str(tmp_path)]) == 1
    assert "already exists" in capsys.readouterr().err


@pytest.mark.slow
def test_scaffolded_pack_installs_and_its_tests_pass_unmodified(tmp_path: Path) -> None:
    scratch = ScratchVenv(tmp_path / "venv")
    made = scratch.cli("pack", "new", "acme-checks", "--directory", str(tmp_path / "src"))
    assert made.returncode == 0, made.stdout + made.stderr
    copy = scratch.install(tmp_path / "src" / "acme-checks", tmp_path / "installed-from")

    tests = scratch.run("-m", "pytest", str(copy / "tests"), "-p", "no:cacheprovider", "-q")
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert re.search(r"\b3 passed\b", tests.stdout), tests.stdout
    assert "2 snapshots passed" in tests.stdout

    listed = json.loads(scratch.cli("detectors", "list", "--json").stdout)
    assert {"id": "acme-checks-markers-left", "pack": "acme-checks"}.items() <= next(
        row for row in listed["detectors"] if row["id"] == "acme-checks-markers-left"
    ).items()

    goldens = scratch.cli("pack", "test", "acme-checks", "--goldens", str(copy / "goldens"))
    assert goldens.returncode == 0, goldens.stdout + goldens.stderr
    assert re.search(r"\b2 passed\b", goldens.stdout), goldens.stdout


# -- pre-commit ---------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def test_pre_commit_hooks_validate_detector_files_and_nothing_else(
    capsys: pytest.CaptureFixture[str],
) -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [hook["id"] for hook in hooks] == [
        "sbcore-validate-detectors",
        "sbcore-validate-detectors-system",
        "sbcore-validate-workspace",
        "sbcore-workspace-goldens",
    ]
    assert [hook["language"] for hook in hooks] == ["python", "system", "system", "system"]
    hooks = hooks[:2]  # the per-file ones; the workspace mode is run below from a clone
    for hook in hooks:
        assert {"id", "name", "entry", "language", "files"} <= set(hook)
        assert hook["entry"] == "second-brain detectors validate"
        assert hook["require_serial"] is True  # duplicate ids are only found within one invocation
        files = re.compile(hook["files"])
        for path in (
            "catalogue/repeat-failure.yaml",
            "src/acme_pack/catalogue/acme-generated-edit.yaml",
            "docs/examples/acme-pack/src/acme_pack/catalogue/acme-destructive-git.yaml",
            ".second-brain/detectors/team-check.yml",
        ):
            assert files.search(path), (hook["id"], path)
        for path in (
            "goldens/builtin/repeat-failure/three-identical-failures.yaml",
            "catalogue/prompts/default.j2",
            "detectors/triggers.py",
            "src/acme_pack/catalogue/prompts/notes.yaml",
            ".pre-commit-config.yaml",
        ):
            assert not files.search(path), (hook["id"], path)

    # What pre-commit runs: the entry plus the matching file names.
    entry = hooks[0]["entry"].split()
    assert entry[0] == "second-brain"
    staged = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "catalogue").glob("*.yaml"))
    assert all(re.search(hooks[0]["files"], path) for path in staged)
    assert main([*entry[1:], *(str(ROOT / path) for path in staged)]) == 0
    assert capsys.readouterr().out.strip().endswith(f"{len(staged)} detectors OK")


def test_the_scaffold_hook_runs_the_same_check(tmp_path: Path) -> None:
    scaffold_pack("acme-checks", tmp_path, record_snapshots=False)
    config = yaml.safe_load(
        (tmp_path / "acme-checks" / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    )
    (hook,) = config["repos"][0]["hooks"]
    shared = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))[1]
    assert (hook["id"], hook["entry"], hook["language"]) == (
        "sbcore-validate-detectors",
        shared["entry"],
        shared["language"],
    )
    assert re.search(hook["files"], "src/acme_checks/catalogue/acme-checks-markers-left.yaml")
    assert not re.search(
        hook["files"], "goldens/acme-checks/acme-checks-markers-left/marker-left-behind.yaml"
    )


def test_the_workspace_hooks_run_from_a_local_clone_of_this_repository(tmp_path: Path) -> None:
    """`pre-commit try-repo` clones the hook repository (this checkout) and runs the workspace mode on a
    team's repository: the documented example passes; a broken detector and a failing golden fail."""
    workspace = tmp_path / "team-repo"
    shutil.copytree(ROOT / "docs" / "examples" / "declarative", workspace)
    environment = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=workspace, env=environment, check=True, capture_output=True)

    def hook(name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), name, "--all-files"],
            cwd=workspace,
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    git("init", "-q")
    git("add", "-A")
    for name in ("sbcore-validate-workspace", "sbcore-workspace-goldens"):
        done = hook(name)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Passed" in done.stdout

    detector = workspace / ".second-brain" / "detectors" / "untested-python-edits.yaml"
    lines = detector.read_text().splitlines(keepends=True)
    detector.write_text("".join(line for line in lines if not line.lstrip().startswith("absent:")))
    git("add", "-A")
    goldens = hook("sbcore-workspace-goldens")
    assert goldens.returncode == 1 and "expected silence, but the detector advised" in goldens.stdout

    (workspace / ".second-brain" / "config.yaml").write_text("gate:\n  rate_per_hour: lots\n")
    git("add", "-A")
    validate = hook("sbcore-validate-workspace")
    assert validate.returncode == 1 and "gate.rate_per_hour" in validate.stdout
