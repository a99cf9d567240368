"""ruff (lint, format), mypy and lint-imports stay clean: run as tests, so CI runs them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


@pytest.mark.parametrize(
    "args",
    [
        ("ruff", "check", "."),
        ("ruff", "format", "--check", "."),
        ("mypy",),
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_tool_is_clean(args: tuple[str, ...]) -> None:
    result = _run(*args)
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_contracts_hold() -> None:
    """``lint-imports``: the floors of docs/architecture.md, per the contracts in pyproject.toml."""
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout, result.stdout


def test_no_two_test_modules_share_a_basename() -> None:
    """The tests are collected in pytest's default import mode without ``__init__.py`` files: a module is
    imported by its basename, so two ``test_x.py`` in different folders fail collection of the whole run."""
    seen: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if "checkouts" in path.relative_to(ROOT).parts:
            continue  # a blind case's project as the session found it: data, never collected (norecursedirs)
        if path.name.startswith("test_") or path.name.endswith("_helpers.py"):
            seen.setdefault(path.name, []).append(str(path.relative_to(ROOT)))
    shared = {name: where for name, where in seen.items() if len(where) > 1}
    assert shared == {}, f"test modules sharing a basename (rename one): {shared}"
