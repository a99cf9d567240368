"""The example third-party pack (docs/examples/acme-pack), installed for real into a scratch venv, offline.

End to end: discovery through the entry point, validation of its detector
files, its golden tests through the sbcore pytest plugin, ``pack test`` against
the installed wheel, a deliberately broken second pack (skipped with a
warning naming it, fatal in strict mode) and a build that forgot its package
data (caught by ``pack test``).
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from scratch_venv import ScratchVenv

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "acme-pack"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ScratchVenv, Path]]:
    base = tmp_path_factory.mktemp("example-pack")
    scratch = ScratchVenv(base / "venv")
    yield scratch, scratch.install(EXAMPLE, base / "acme-pack")


def write_broken_pack(parent: Path) -> Path:
    """A pack whose module cannot be imported, like a release that forgot to declare a dependency."""
    root = parent / "broken-pack"
    (root / "src" / "acme_broken").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        textwrap.dedent(
            """\
            [build-system]
            requires = ["setuptools>=68"]
            build-backend = "setuptools.build_meta"

            [project]
            name = "acme-broken-pack"
            version = "0.0.1"

            [project.entry-points.sbcore]
            acme-broken = "acme_broken"

            [tool.setuptools.packages.find]
            where = ["src"]
            """
        ),
        encoding="utf-8",
    )
    (root / "src" / "acme_broken" / "__init__.py").write_text(
        "import acme_dependency_that_is_not_installed  # noqa: F401\n", encoding="utf-8"
    )
    return root


def test_discovered_under_its_pack_name(env: tuple[ScratchVenv, Path]) -> None:
    scratch, _ = env
    result = scratch.cli("detectors", "list", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    ours = {row["id"]: row for row in report["detectors"] if row["pack"] == "acme"}
    assert set(ours) == {"acme-destructive-git", "acme-generated-edit"}
    assert "/site-packages/acme_pack/catalogue/" in ours["acme-generated-edit"]["source"]
    packs = {pack["name"]: pack for pack in report["packs"]}
    assert packs["acme"]["distribution"] == "acme-sbcore-pack"
    assert packs["acme"]["version"] == "1.2.0"
    assert packs["acme"]["builtin"] is False
    assert packs["acme"]["registered"]["triggers"] == 2
    assert "prepare_jinja2_environment" in packs["acme"]["hooks"]
    assert report["broken_packs"] == []


def test_detector_files_validate(env: tuple[ScratchVenv, Path]) -> None:
    scratch, copy = env
    result = scratch.cli("detectors", "validate", str(copy / "src" / "acme_pack" / "catalogue"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "2 detectors OK"


def test_golden_tests_pass_through_the_pytest_plugin(env: tuple[ScratchVenv, Path]) -> None:
    scratch, copy = env
    result = scratch.run("-m", "pytest", str(copy / "tests"), "-p", "no:cacheprovider", "-q")
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"\b6 passed\b", result.stdout), result.stdout
    assert "6 snapshots passed" in result.stdout


def test_pack_test_runs_goldens_against_the_installed_pack(env: tuple[ScratchVenv, Path]) -> None:
    scratch, copy = env
    result = scratch.cli("pack", "test", "acme", "--goldens", str(copy / "goldens"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"\b6 passed\b", result.stdout), result.stdout


def test_broken_pack_is_skipped_with_a_warning_naming_it_and_fatal_when_strict(
    env: tuple[ScratchVenv, Path], tmp_path: Path
) -> None:
    scratch, copy = env
    scratch.install(write_broken_pack(tmp_path), tmp_path / "broken-copy")

    listed = scratch.cli("detectors", "list", "--json")
    assert (
        "skipped pack 'acme-broken' (distribution acme-broken-pack 0.0.1): importing its entry point "
        "module acme_broken failed: ModuleNotFoundError" in listed.stderr
    )
    # A dependency the release forgot: install it and declare it, not a reinstall of the pack.
    assert (
        "fix: the pack imports acme_dependency_that_is_not_installed, which is not installed" in listed.stderr
    )
    assert "force-reinstall" not in listed.stderr
    assert re.search(r"at: \S+acme_broken/__init__\.py:1 in <module>", listed.stderr), listed.stderr
    assert "Traceback" not in listed.stderr and "warnings.warn" not in listed.stderr
    report = json.loads(listed.stdout)
    assert [b["name"] for b in report["broken_packs"]] == ["acme-broken"]
    assert {row["id"] for row in report["detectors"] if row["pack"] == "acme"} == {
        "acme-destructive-git",
        "acme-generated-edit",
    }

    tested = scratch.cli("pack", "test", "acme", "--goldens", str(copy / "goldens"))
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "skipped pack 'acme-broken'" in tested.stderr

    strict = scratch.cli("detectors", "list", "--json", SBCORE_STRICT_PACKS="1")
    assert strict.returncode != 0
    assert "acme-broken" in strict.stderr
    strict_test = scratch.cli("pack", "test", "--strict", "acme", "--goldens", str(copy / "goldens"))
    assert strict_test.returncode == 1
    assert "pack 'acme-broken' (distribution acme-broken-pack 0.0.1): importing" in strict_test.stderr

    removed = scratch.run("-m", "pip", "uninstall", "-q", "-y", "acme-broken-pack")
    assert removed.returncode == 0, removed.stderr


def test_pack_test_catches_detector_files_missing_from_package_data(
    env: tuple[ScratchVenv, Path], tmp_path: Path
) -> None:
    scratch, copy = env
    forgetful = tmp_path / "forgetful"
    shutil.copytree(EXAMPLE, forgetful, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    pyproject = forgetful / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8").replace('"catalogue/*.yaml", ', ""), encoding="utf-8"
    )
    try:
        scratch.install(forgetful, forgetful)
        result = scratch.cli("pack", "test", "acme", "--goldens", str(copy / "goldens"))
        assert result.returncode == 1
        assert "pack 'acme' as installed defines no detector 'acme-destructive-git'" in result.stdout
        assert "package data" in result.stdout
    finally:
        scratch.install(EXAMPLE, copy)  # the module's other tests expect the complete pack
