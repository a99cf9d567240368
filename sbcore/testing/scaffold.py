"""``second-brain pack new``: a new detector pack from Jinja templates, whose tests pass as generated.

The pack is a complete, installable project: pyproject with the ``sbcore``
entry point and the package data its catalogue needs, the pack module, one
structural trigger, one detector using it (with an offline fallback, so its
goldens run without a model), a ``must_fire`` and a ``must_stay_silent``
golden case, a pytest file using the sbcore plugin, and a pre-commit hook.

Its golden tests snapshot each decision with syrupy, so a fresh pack would
fail on missing snapshots. The scaffold therefore loads the pack it just
wrote (from its ``src/``, beside the installed built-in packs), runs its golden
cases, requires them to pass, and writes the snapshots syrupy would have
written. A scaffold whose own cases fail is a bug here, and is reported as one.
"""

from __future__ import annotations

import importlib.util
import json
import keyword
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import jinja2

from sbcore.problems import SbcoreError

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


class ScaffoldError(SbcoreError):
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


def scaffold_pack(name: str, parent: Path, *, record_snapshots: bool = True) -> Scaffolded:
    """Write the pack ``name`` into ``parent/name``; refuses a directory that exists and is not empty."""
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
    if record_snapshots:
        result.snapshots = _record_snapshots(root, names, _serializer())
    return result


def _serializer() -> Callable[[Any], str]:
    """syrupy's JSON serializer when syrupy is installed; else the same text, written the same way.

    A pack is scaffolded before its test dependencies are installed (``pip install sbcore`` brings no
    syrupy), and its first ``pytest`` must find the snapshots. A snapshot value is plain JSON data, for
    which syrupy's JSON extension writes exactly ``json.dumps(…, indent=2, ensure_ascii=False)`` with
    every mapping's keys sorted, and a newline; the scaffold test installs syrupy afterwards and runs
    the pack's tests against what was written here, so a change in syrupy's format fails there."""
    try:
        from syrupy.extensions.json import JSONSnapshotExtension
    except ImportError:
        return lambda value: json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    extension = JSONSnapshotExtension()
    return lambda value: str(extension.serialize(value))


def _record_snapshots(root: Path, names: Names, serialize: Callable[[Any], str]) -> list[Path]:
    """Run the new pack's golden cases and write their syrupy snapshots; every case must pass."""
    from sbcore.packs.manager import get_plugin_manager
    from sbcore.testing.golden_cases import case_files, case_test_id, load_case
    from sbcore.testing.goldens import GoldenRunner

    with _imported(root / "src" / names.module, names.module) as module:
        manager = get_plugin_manager(strict=False, autoload=False, only=())
        if not manager.add_pack(names.name, module):
            raise ScaffoldError(f"the new pack does not load: {'; '.join(map(str, manager.broken))}")
        runner = GoldenRunner(manager)
        directory = root / Path(TEST_FILE).parent / "__snapshots__" / Path(TEST_FILE).stem
        written = []
        for path in case_files(root / "goldens", [names.name]):
            result = runner.run(load_case(path))
            if result.outcome != "passed" or result.snapshot_value is None:
                raise ScaffoldError(f"the scaffold's own golden case does not pass:\n{result.report()}")
            directory.mkdir(parents=True, exist_ok=True)
            target = directory / f"{TEST_FUNCTION}[{case_test_id(path)}].json"
            target.write_text(serialize(result.snapshot_value), encoding="utf-8")
            written.append(target)
    return written


@contextmanager
def _imported(package_dir: Path, module_name: str) -> Iterator[ModuleType]:
    """Import the package at ``package_dir`` as ``module_name``, then forget it again.

    Whatever the process had under that name (an installed copy, say) is put
    back afterwards, so the scaffold leaves no trace in ``sys.modules``.
    """
    spec = importlib.util.spec_from_file_location(
        module_name, package_dir / "__init__.py", submodule_search_locations=[str(package_dir)]
    )
    if spec is None or spec.loader is None:
        raise ScaffoldError(f"cannot import the new pack from {package_dir}")
    saved = {
        key: mod
        for key, mod in sys.modules.items()
        if key == module_name or key.startswith(module_name + ".")
    }
    for key in saved:
        del sys.modules[key]
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        for key in [k for k in sys.modules if k == module_name or k.startswith(module_name + ".")]:
            del sys.modules[key]
        sys.modules.update(saved)
