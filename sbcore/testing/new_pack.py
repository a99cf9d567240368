"""``second-brain pack new``: scaffold a pack, then record the snapshots of its golden cases.

:func:`sbcore.packs.scaffold.scaffold_pack` writes the pack from its templates.
Its golden tests snapshot each decision with syrupy, so a fresh pack would
fail on missing snapshots. Here the new pack is loaded from its ``src/``
(beside the installed built-in packs), its golden cases are run and required
to pass, and the snapshots syrupy would have written are written. A scaffold
whose own cases fail is a bug in sbcore, and is reported as one.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from sbcore.packs.scaffold import TEST_FILE, TEST_FUNCTION, Names, Scaffolded, ScaffoldError, scaffold_pack


def new_pack(name: str, parent: Path) -> Scaffolded:
    """Scaffold the pack ``name`` into ``parent/name`` and record its goldens' snapshots."""
    result = scaffold_pack(name, parent)
    try:
        from syrupy.extensions.json import JSONSnapshotExtension
    except ImportError:
        result.note = "syrupy is not installed: run `pytest --snapshot-update` once to record the snapshots"
    else:
        result.snapshots = _record_snapshots(result.root, result.names, JSONSnapshotExtension())
    return result


def _record_snapshots(root: Path, names: Names, extension: Any) -> list[Path]:
    """Run the new pack's golden cases and write their syrupy snapshots; every case must pass."""
    from sbcore.packs.manager import get_plugin_manager
    from sbcore.testing.goldens import GoldenRunner, case_files, case_test_id, load_case

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
            target.write_text(extension.serialize(result.snapshot_value), encoding="utf-8")
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
