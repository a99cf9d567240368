"""A throwaway virtual environment that sees this environment's packages, for installing packs offline.

``python -m venv --system-site-packages`` would expose the base interpreter,
not the test environment, so the scratch venv gets a ``.pth`` file that adds
the test environment's site directories (``site.addsitedir`` also runs their
``.pth`` files, which is how sbcore's editable install resolves). A pack is
then installed with ``pip --no-index --no-build-isolation --no-deps``: no
network, and the build backend (setuptools) comes from the test environment.
Packs are copied first, because setuptools writes build/ and *.egg-info next
to the sources.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sysconfig
import venv
from pathlib import Path

import pytest

CLI = "import sys; from sbcore.cli import main; sys.exit(main())"


def require_offline_build_backend() -> None:
    """Skip unless setuptools can build a wheel here without fetching anything."""
    try:
        from setuptools.command import bdist_wheel  # noqa: F401  (setuptools >= 70.1 builds wheels itself)
    except ImportError:
        pytest.importorskip(
            "wheel.bdist_wheel", reason="no offline wheel builder: pip install 'setuptools>=77'"
        )


class ScratchVenv:
    def __init__(self, root: Path) -> None:
        require_offline_build_backend()
        self.root = root
        venv.create(root, with_pip=False, symlinks=os.name != "nt")
        self.python = root / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
        purelib = Path(sysconfig.get_path("purelib", vars={"base": str(root), "platbase": str(root)}))
        host_dirs = [*site.getsitepackages(), sysconfig.get_path("purelib")]
        lines = [f"import site; site.addsitedir({d!r})" for d in dict.fromkeys(host_dirs) if Path(d).is_dir()]
        (purelib / "_sbcore_test_host.pth").write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.env = {
            key: value for key, value in os.environ.items() if not key.startswith(("SBCORE_", "PYTEST_"))
        }
        self.env["SBCORE_CONFIG_DIR"] = str(root / "sbcore-config")  # no user configuration leaks in
        self.env["SBCORE_DATA_DIR"] = str(root / "sbcore-data")
        self.env["PIP_NO_INDEX"] = "1"
        self.env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"

    def install(self, source: Path, copy_to: Path) -> Path:
        """Copy ``source`` to ``copy_to`` and pip-install the copy (not editable); returns the copy."""
        if not copy_to.exists():
            shutil.copytree(
                source, copy_to, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
            )
        result = self.run(
            "-m",
            "pip",
            "install",
            "-q",
            "--no-index",
            "--no-build-isolation",
            "--no-deps",
            "--force-reinstall",
            str(copy_to),
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return copy_to

    def run(self, *args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
        """Run this venv's python with ``args`` (in ``cwd``, default the venv root), adding ``env``."""
        return subprocess.run(
            [str(self.python), *args],
            cwd=cwd or self.root,
            env={**self.env, **env},
            capture_output=True,
            text=True,
            timeout=240,
        )

    def cli(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        """``second-brain ARGS`` inside this venv."""
        return self.run("-c", CLI, *args, **env)
