"""``second-brain pack new``: a new detector pack from Jinja templates, whose tests pass as generated.

The pack is a complete, installable project: pyproject with the ``sbcore``
entry point and the package data its catalogue needs, the pack module, one
structural trigger, one detector using it (with an offline fallback, so its
goldens run without a model), a ``must_fire`` and a ``must_stay_silent``
golden case, a pytest file using the sbcore plugin, and a pre-commit hook.

Its golden tests snapshot each decision with syrupy, so a fresh pack would
fail on missing snapshots: :mod:`sbcore.testing.new_pack` runs the new pack's
cases and writes them (``second-brain pack new`` does both).
"""

from __future__ import annotations

import importlib.util
import keyword
import re
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

PACK_NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
MAX_NAME = 40
RESERVED_NAMES = frozenset({"builtin", "builtin-providers", "workspace", "cli", "sbcore"})
TEST_FILE = "tests/test_goldens.py"
TEST_FUNCTION = "test_golden"

# template -> output path (formatted with the names of Names).
FILES: tuple[tuple[str, str], ...] = (
    ("pyproject.toml.j2", "pyproject.toml"),
    ("README.md.j2", "README.md"),
    ("gitignore.j2", ".gitignore"),
    ("pre-commit-config.yaml.j2", ".pre-commit-config.yaml"),
    ("plugin.py.j2", "src/{module}/__init__.py"),
    ("triggers.py.j2", "src/{module}/triggers.py"),
    ("detector.yaml.j2", "src/{module}/catalogue/{detector}.yaml"),
    ("golden_fire.yaml.j2", "goldens/{name}/{detector}/marker-left-behind.yaml"),
    ("golden_silent.yaml.j2", "goldens/{name}/{detector}/marker-removed-later.yaml"),
    ("test_goldens.py.j2", TEST_FILE),
)


class ScaffoldError(Exception):
    """The pack cannot be created (bad name, existing directory, or a scaffold that fails its own goldens)."""


@dataclass(frozen=True)
class Names:
    """Every name derived from the pack name, so templates and file paths agree."""

    name: str  # distribution, entry point and pack name: acme-checks
    module: str  # import package: acme_checks
    detector: str  # the example detector's id: acme-checks-markers-left
    trigger: str  # its structural trigger: acme_checks_markers_left

    @classmethod
    def of(cls, name: str) -> Names:
        problem = name_problem(name)
        if problem:
            raise ScaffoldError(problem)
        module = name.replace("-", "_")
        return cls(name, module, f"{name}-markers-left", f"{module}_markers_left")

    def as_dict(self) -> dict[str, str]:
        return {"name": self.name, "module": self.module, "detector": self.detector, "trigger": self.trigger}


def name_problem(name: str) -> str:
    """Why ``name`` cannot name a pack, or "" when it can."""
    if not PACK_NAME.match(name) or len(name) > MAX_NAME:
        return (
            f"{name!r} is not a usable pack name: lowercase letters and digits in words joined by single "
            f"'-', starting with a letter, at most {MAX_NAME} characters (e.g. acme-checks)"
        )
    if name in RESERVED_NAMES:
        return f"{name!r} is reserved by sbcore; choose another pack name"
    if keyword.iskeyword(name.replace("-", "_")):
        return f"{name!r} would make the Python package {name.replace('-', '_')!r}, a keyword"
    return ""


@dataclass
class Scaffolded:
    """What ``scaffold_pack`` wrote."""

    root: Path
    names: Names
    files: list[Path] = field(default_factory=list)
    snapshots: list[Path] = field(default_factory=list)
    note: str = ""


def scaffold_pack(name: str, parent: Path) -> Scaffolded:
    """Write the pack ``name`` into ``parent/name``; refuses a directory that exists and is not empty.

    The snapshots of its golden cases are recorded by
    :func:`sbcore.testing.new_pack.new_pack`, which runs them: the golden runner
    sits above this floor.
    """
    names = Names.of(name)
    if importlib.util.find_spec(names.module) is not None:
        raise ScaffoldError(
            f"a module named {names.module!r} is already importable here; a pack of that name would "
            "shadow it (or be shadowed by it): choose another pack name"
        )
    root = parent / name
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise ScaffoldError(f"{root} already exists and is not an empty directory; nothing was written")
    from sbcore import __version__

    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("sbcore.packs", "scaffold_templates"),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    context = {**names.as_dict(), "sbcore_version": __version__}
    result = Scaffolded(root, names)
    for template, target in FILES:
        path = root / target.format(**names.as_dict())
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(environment.get_template(template).render(context), encoding="utf-8")
        result.files.append(path)
    return result
