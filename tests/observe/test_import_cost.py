"""What the hook's hot path imports loads the standard library only: ``sbcore`` itself, the files
processes share, and the observe package (its import cost is part of every tool call's latency).

The one exception is the projector and what is built on it: it parses with ``orjson``, and the hooks
never import it (the import-linter's hook-path contract forbids ``orjson`` there)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from types import ModuleType

import pytest

import sbcore
import sbcore.observe
import sbcore.state

HEAVY = ("yaml", "jinja2", "jsonschema", "httpx", "mcp", "pluggy", "orjson")
PARSING = frozenset(f"sbcore.observe.{name}" for name in ("jsonline", "project", "digest", "measure"))
"""The projector and the modules built on it: they may load ``orjson``, and nothing else heavy."""


def _submodules(package: ModuleType) -> list[str]:
    return sorted(f"{package.__name__}.{info.name}" for info in pkgutil.iter_modules(package.__path__))


MODULES = [
    "sbcore",
    "sbcore.state",
    *_submodules(sbcore.state),
    "sbcore.observe",
    *_submodules(sbcore.observe),
]


def _loaded_after_import(module: str) -> tuple[list[str], list[str]]:
    """(heavy packages, sbcore modules) in ``sys.modules`` after a fresh interpreter imports ``module``."""
    probe = (
        f"import sys, {module}\n"
        f"heavy = [m for m in sys.modules if m.split('.')[0] in {HEAVY!r}]\n"
        "ours = [m for m in sys.modules if m.split('.')[0] == 'sbcore']\n"
        "print(','.join(sorted(heavy)))\n"
        "print(','.join(sorted(ours)))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    heavy, ours = result.stdout.splitlines()
    return heavy.split(",") if heavy else [], ours.split(",")


@pytest.mark.parametrize("module", MODULES)
def test_import_loads_no_heavy_dependency(module: str) -> None:
    heavy, _ = _loaded_after_import(module)
    assert [name for name in heavy if not (module in PARSING and name.split(".")[0] == "orjson")] == []


def test_importing_sbcore_loads_only_itself() -> None:
    """The public names (``from sbcore import hookimpl``) are reached lazily, not at ``import sbcore``."""
    _, ours = _loaded_after_import("sbcore")
    assert ours == ["sbcore"]


def test_every_projection_module_is_checked() -> None:
    for name in ("project", "calls", "elide", "locators", "anchors", "digest", "measure"):
        assert f"sbcore.observe.{name}" in MODULES
    assert "sbcore.state.hot" in MODULES


def test_sbcore_answers_for_the_public_face() -> None:
    import sbcore.api

    assert sbcore.__all__ == ["__version__", *sbcore.api.__all__]
    from sbcore import TriggerMatch, hookimpl

    assert hookimpl is sbcore.api.hookimpl
    assert TriggerMatch is sbcore.api.TriggerMatch
    with pytest.raises(AttributeError, match="no attribute 'hookimpls'"):
        sbcore.hookimpls  # noqa: B018  (the attribute access is the test)


def test_probing_sbcore_for_a_dunder_loads_nothing() -> None:
    """Tools probe modules (``__wrapped__``, ``__test__``); answering must not import the public face."""
    probe = (
        "import sys, sbcore\n"
        "assert not hasattr(sbcore, '__wrapped__') and not hasattr(sbcore, '__test__')\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('sbcore', 'pluggy'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["sbcore"]
