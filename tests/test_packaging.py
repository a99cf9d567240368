"""The distribution ships every package, under the sbcore namespace only."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _declared() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(data["tool"]["setuptools"]["packages"])


def _on_disk() -> set[str]:
    found = set()
    roots = {
        "sbcore": ROOT / "sbcore",
        "sbcore.detectors": ROOT / "detectors",
        "sbcore.catalogue": ROOT / "catalogue",
    }
    for prefix, base in roots.items():
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base)
            if any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
                continue
            found.add(".".join([prefix, *rel.parts]))
    return found


def test_every_package_directory_is_declared() -> None:
    assert _on_disk() - _declared() == set()


def test_every_declared_package_exists() -> None:
    assert _declared() - _on_disk() == set()


def test_no_top_level_detectors_or_catalogue_import_name() -> None:
    assert all(name == "sbcore" or name.startswith("sbcore.") for name in _declared())
