"""The hooks are documented and tested by construction (the datasette pattern).

Every hookspec must appear in docs/hooks.md as a heading that is its exact
signature, must have a ``test_hook_<name>`` in test_hookspecs.py, and the
example under its heading must run as a pack.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from sbcore.packs import hookspecs
from sbcore.packs.manager import PackManager
from sbcore.think.providers.base import ProviderSettings

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "hooks.md"
HOOK_TESTS = Path(__file__).with_name("test_hookspecs.py")


def hook_names() -> list[str]:
    return sorted(
        name
        for name, value in vars(hookspecs).items()
        if inspect.isfunction(value) and hasattr(value, f"{hookspecs.PROJECT_NAME}_spec")
    )


def signature(name: str) -> str:
    parameters = inspect.signature(getattr(hookspecs, name)).parameters
    return f"{name}({', '.join(parameters)})"


def section(name: str) -> str:
    """The text under a hook's heading, up to the next heading of the same or a higher level."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(f"### {signature(name)}\n")
    following = re.search(r"^#{1,3} ", text[start + 4 :], re.MULTILINE)
    return text[start : start + 4 + following.start()] if following else text[start:]


def example(name: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", section(name), re.DOTALL)
    assert len(blocks) == 1, f"{name}: expected one python example, found {len(blocks)}"
    return str(blocks[0])


def test_there_are_six_hooks() -> None:
    assert hook_names() == [
        "prepare_jinja2_environment",
        "register_catalogues",
        "register_mcp_servers",
        "register_providers",
        "register_tools",
        "register_triggers",
    ]


@pytest.mark.parametrize("name", hook_names())
def test_hook_is_documented_by_its_exact_signature(name: str) -> None:
    assert f"\n### {signature(name)}\n" in DOCS.read_text(encoding="utf-8")


def test_every_documented_hook_exists() -> None:
    text = DOCS.read_text(encoding="utf-8")
    documented = re.findall(r"^### (\w+)\(", text, re.MULTILINE)
    assert sorted(documented) == hook_names()


@pytest.mark.parametrize("name", hook_names())
def test_hook_has_a_test(name: str) -> None:
    tree = ast.parse(HOOK_TESTS.read_text(encoding="utf-8"))
    tests = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert f"test_hook_{name}" in tests


@pytest.mark.parametrize("name", hook_names())
def test_hookspec_docstring_says_what_each_argument_and_the_return_mean(name: str) -> None:
    doc = inspect.getdoc(getattr(hookspecs, name)) or ""
    for parameter in inspect.signature(getattr(hookspecs, name)).parameters:
        assert f":param {parameter}:" in doc
    assert "return value is ignored" in doc.lower()
    assert ".. versionadded::" in doc


@pytest.fixture
def acme_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The ``acme_detectors`` package the register_catalogues example refers to."""
    package = tmp_path / "site" / "acme_detectors"
    (package / "detectors").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "detectors" / "acme-quiet.yaml").write_text(
        textwrap.dedent(
            """\
            schema_version: 1
            id: acme-quiet
            description: Example detector of the docs' example pack.
            prompt: "Stay quiet about {{ detector.id | basename }}."
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))
    return package


def load_example(name: str, manager: PackManager) -> None:
    module = ModuleType(f"hooks_doc_example_{name}")
    exec(compile(example(name), f"docs/hooks.md ({name})", "exec"), module.__dict__)
    sys.modules.pop(module.__name__, None)
    assert manager.add_pack(f"example-{name}", module), manager.broken


def test_every_example_runs_as_a_pack(acme_package: Path, tmp_path: Path) -> None:
    import asyncio

    from sbcore.observe.model import Observation
    from sbcore.packs.catalogue import assemble_catalogue
    from sbcore.packs.templates import render

    manager = PackManager()
    for name in hook_names():
        load_example(name, manager)
    registry = manager.registry

    catalogue = assemble_catalogue(manager, workspace=tmp_path)
    assert catalogue.errors == []
    [detector] = catalogue.detectors
    assert detector.definition.pack == "example-register_catalogues"
    environment = manager.template_environment()
    assert render(detector.definition.prompt, environment=environment, detector={"id": "a/b"}) == (
        "Stay quiet about b."
    )

    quiet = [Observation(kind="text", text="on it")] + [Observation(kind="tool", text="t", tool="Read")] * 20
    match = registry.triggers["tools_without_text"].invoke(quiet, {}, {})
    assert match is not None and match.data == {"tools": 20}
    assert registry.triggers["tools_without_text"].invoke(quiet[:5], {}, {}) is None

    result = asyncio.run(registry.tools["clock"].value.call({}))
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$", result.text)

    provider = registry.providers["local-vllm"].value(ProviderSettings(provider="local-vllm", model="m"))
    assert provider.base_url == "http://127.0.0.1:8000/v1"

    assert registry.mcp_servers["code-search"].value["command"] == "code-search-mcp"
