"""The release as a stranger gets it: one version everywhere, a wheel that carries everything, and a pack
author's first steps in a fresh environment with no checkout, installed offline from the wheelhouse
``.ci/run`` prepares (``.ci/dist`` and ``.ci/wheelhouse``; docs/release.md).

Without a wheelhouse (a developer's machine) the wheel tests are skipped, except under ``CI=true``, where
they fail: CI must exercise them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

import sbcore

ROOT = Path(__file__).resolve().parents[1]
DIST = Path(os.environ.get("SBCORE_DIST", ROOT / ".ci" / "dist"))
WHEELHOUSE = Path(os.environ.get("SBCORE_WHEELHOUSE", ROOT / ".ci" / "wheelhouse"))


def _wheel() -> Path:
    found = sorted(DIST.glob(f"sbcore-{sbcore.__version__}-*.whl"))
    if not found or not WHEELHOUSE.is_dir():
        message = f"no wheel in {DIST} or no wheelhouse at {WHEELHOUSE}: run the release steps of .ci/run"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found[-1]


def test_one_version_everywhere() -> None:
    """pyproject reads sbcore.__version__; the plugin, the marketplace and the changelog must agree."""
    plugin = json.loads((ROOT / "plugin" / ".claude-plugin" / "plugin.json").read_text())
    marketplace = json.loads((ROOT / ".claude-plugin" / "marketplace.json").read_text())
    assert plugin["version"] == sbcore.__version__
    assert [entry["version"] for entry in marketplace["plugins"]] == [sbcore.__version__]
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'version = { attr = "sbcore.__version__" }' in pyproject
    assert re.search(rf"^## {re.escape(sbcore.__version__)}\b", (ROOT / "CHANGELOG.md").read_text(), re.M)


def test_the_publishing_workflow_uses_trusted_publishing_and_checks_the_tag() -> None:
    workflow = (ROOT / ".github" / "workflows" / "release.yml").read_text()
    assert "id-token: write" in workflow  # PyPI trusted publishing: no token stored anywhere
    assert "pypa/gh-action-pypi-publish" in workflow
    assert "twine check --strict" in workflow
    assert "sbcore.__version__" in workflow  # the tag must name the version being built


def test_the_wheel_carries_everything_the_package_reads_at_run_time() -> None:
    names = set(zipfile.ZipFile(_wheel()).namelist())
    source = ROOT / "sbcore"
    wanted = {
        f"sbcore/{path.relative_to(source)}"
        for pattern in ("**/*.j2", "**/*.json", "**/*.yaml", "py.typed")
        for path in source.glob(pattern)
        if "__pycache__" not in path.parts
    }
    wanted |= {
        f"sbcore/catalogue/{path.relative_to(ROOT / 'catalogue')}"
        for path in ROOT.glob("catalogue/**/*.*")
        if "__pycache__" not in path.parts
    }
    wanted |= {f"sbcore/detectors/{path.name}" for path in (ROOT / "detectors").glob("*.py")}
    assert wanted - names == set()
    metadata = (
        zipfile.ZipFile(_wheel()).read(f"sbcore-{sbcore.__version__}.dist-info/entry_points.txt").decode()
    )
    assert "second-brain = sbcore.cli:main" in metadata and "builtin = sbcore.detectors" in metadata


@pytest.mark.slow
def test_a_pack_author_starts_from_the_wheel_with_no_checkout_and_no_index(tmp_path: Path) -> None:
    """`pip install sbcore` (from the wheelhouse), `second-brain pack new`, the install the scaffold's README
    documents, and `pytest`: all pass in a fresh venv, run outside any checkout, with every index off."""
    wheel = _wheel()
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True, symlinks=True)
    python = env_dir / "bin" / "python"
    home = tmp_path / "home"
    home.mkdir()
    environment = {
        "PATH": f"{env_dir / 'bin'}{os.pathsep}/usr/bin:/bin",
        "HOME": str(home),
        "PIP_NO_INDEX": "1",  # an index is never asked: no dependency confusion, no network
        "PIP_FIND_LINKS": str(WHEELHOUSE),
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "SBCORE_DATA_DIR": str(tmp_path / "data"),
        "SBCORE_CONFIG_DIR": str(tmp_path / "config"),
    }

    def run(*command: str, cwd: Path = tmp_path) -> str:
        done = subprocess.run(
            command, cwd=cwd, env=environment, capture_output=True, text=True, timeout=600, check=False
        )
        assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        return done.stdout

    run(str(python), "-m", "pip", "install", "-q", str(wheel))
    shown = run(str(python), "-c", "import sbcore, sys; print(sbcore.__file__)")
    assert str(env_dir) in shown and str(ROOT) not in shown, "the wheel, not the checkout"
    run(str(env_dir / "bin" / "second-brain"), "pack", "new", "acme-first")
    pack = tmp_path / "acme-first"
    readme = (pack / "README.md").read_text()
    documented = re.search(r"^\$ (pip install -e '\.\[test\]')$", readme, re.M)
    assert documented is not None, readme
    run(str(python), "-m", *documented.group(1).split()[:-1], ".[test]", cwd=pack)
    out = run(str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=pack)
    assert re.search(r"\b3 passed\b", out) and "2 snapshots passed" in out, out
    assert sys.executable not in out
