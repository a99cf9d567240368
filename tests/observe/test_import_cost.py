"""The observe package is on the hook's hot path: importing it loads the standard library only."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import sbcore.observe

HEAVY = ("yaml", "jinja2", "jsonschema", "httpx", "mcp", "pluggy")
SUBMODULES = sorted(f"sbcore.observe.{info.name}" for info in pkgutil.iter_modules(sbcore.observe.__path__))
MODULES = ["sbcore.observe", *SUBMODULES]


@pytest.mark.parametrize("module", MODULES)
def test_import_loads_no_heavy_dependency(module: str) -> None:
    probe = (
        f"import sys, {module}\n"
        f"heavy = [m for m in sys.modules if m.split('.')[0] in {HEAVY!r}]\n"
        "print(','.join(sorted(heavy)))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_every_projection_module_is_checked() -> None:
    for name in ("project", "calls", "elide", "locators", "anchors", "digest", "measure"):
        assert f"sbcore.observe.{name}" in MODULES
