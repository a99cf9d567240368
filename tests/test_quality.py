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
