"""Each hook of the plugin boundary, exercised through a pack the way a third party would write it.

tests/packs/test_meta.py requires a ``test_hook_<name>`` here for every hookspec.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import jinja2
import pytest

from sbcore.api import TriggerMatch, hookimpl
from sbcore.observe.model import Observation
from sbcore.packs.catalogue import assemble_catalogue
from sbcore.packs.declarative import DECLARATIVE_TRIGGER
from sbcore.packs.manager import PackManager, PackWarning
from sbcore.packs.model import SourceRef
from sbcore.packs.templates import render


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))


def pack(name: str, **hooks: Callable[..., Any]) -> ModuleType:
    """A pack module whose hook implementations are the given functions."""
    module = ModuleType(name)
    for hook_name, func in hooks.items():
        setattr(module, hook_name, hookimpl(func))
    return module


def manager_with(*packs: tuple[str, ModuleType]) -> PackManager:
    manager = PackManager()
    for name, module in packs:
        manager.add_pack(name, module)
    return manager


def detector_file(directory: Path, detector_id: str, body: str = "") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{detector_id}.yaml"
    path.write_text(
        textwrap.dedent(
            f"""\
            schema_version: 1
            id: {detector_id}
            description: A detector for testing the plugin boundary.
            prompt: "Look at {{{{ detector.id }}}}."
            """
        )
        + textwrap.dedent(body)
    )
    return path


# -- register_catalogues --------------------------------------------------------------------------


def test_hook_register_catalogues(tmp_path: Path) -> None:
    directory = tmp_path / "catalogue"
    detector_file(directory, "pack-detector")
    single = detector_file(tmp_path / "single", "single-file")

    def register_catalogues(register: Callable[[Path], None]) -> None:
        register(directory)
        register(str(single))  # a plain string path is accepted too

    manager = manager_with(("acme", pack("acme_pack", register_catalogues=register_catalogues)))
    assert [(source.path, source.pack) for source in manager.registry.catalogues] == [
        (directory, "acme"),
        (single, "acme"),
    ]
    catalogue = assemble_catalogue(manager, workspace=tmp_path)
    assert catalogue.errors == []
    loaded = {d.id: d.definition.pack for d in catalogue.detectors}
    assert loaded == {"pack-detector": "acme", "single-file": "acme"}
    assert catalogue.get("pack-detector") is not None
    assert catalogue.get("pack-detector").origins["prompt"] == "pack acme"  # type: ignore[union-attr]


def test_register_catalogues_rejects_a_missing_path(tmp_path: Path) -> None:
    def register_catalogues(register: Callable[[Path], None]) -> None:
        register(tmp_path / "nowhere")

    with pytest.warns(
        PackWarning,
        match=r"pack 'ghost': calling its hook register_catalogues failed.*nowhere does not exist",
    ):
        manager = manager_with(("ghost", pack("ghost_pack", register_catalogues=register_catalogues)))
    assert manager.registry.catalogues == []
    assert [b.name for b in manager.broken] == ["ghost"]


# -- register_triggers ----------------------------------------------------------------------------

EVERY_NTH_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"min_prompts": {"type": "integer", "minimum": 1, "default": 2}},
}


def prompt_count(
    observations: Sequence[Observation], params: Mapping[str, Any], state: dict[str, Any]
) -> TriggerMatch | None:
    prompts = [obs for obs in observations if obs.kind == "prompt"]
    if len(prompts) < params["min_prompts"]:
        return None
    return TriggerMatch(
        key=f"prompts:{len(prompts)}", summary=f"{len(prompts)} prompts", data={"n": len(prompts)}
    )


def test_hook_register_triggers(tmp_path: Path) -> None:
    seen_config: list[Mapping[str, Any]] = []

    def with_config(
        observations: Sequence[Observation],
        params: Mapping[str, Any],
        state: dict[str, Any],
        config: Mapping[str, Any],
    ) -> TriggerMatch | None:
        seen_config.append(config)
        return None

    def register_triggers(register: Callable[..., None]) -> None:
        register("prompt_count", prompt_count, EVERY_NTH_SCHEMA)
        register("with_config", with_config)

    directory = tmp_path / "catalogue"
    detector_file(
        directory,
        "prompted",
        """\
        enabled: true
        cadence: on_trigger
        trigger: {name: prompt_count, params: {min_prompts: 3}}
        config: {tone: terse}
        """,
    )
    detector_file(directory, "bad-params", "trigger: {name: prompt_count, params: {min_prompts: 0}}\n")

    manager = manager_with(
        (
            "counting",
            pack(
                "counting_pack",
                register_triggers=register_triggers,
                register_catalogues=lambda register: register(directory),
            ),
        )
    )
    spec = manager.registry.triggers["prompt_count"]
    assert (spec.pack, spec.wants_config) == ("counting", False)
    assert manager.registry.triggers["with_config"].wants_config is True
    assert manager.registry.trigger_schemas() == {
        DECLARATIVE_TRIGGER: None,  # every registry holds the declarative trigger
        "prompt_count": EVERY_NTH_SCHEMA,
        "with_config": None,
    }

    catalogue = assemble_catalogue(manager, workspace=tmp_path)
    assert [d.id for d in catalogue.detectors] == ["prompted"]
    [problem] = catalogue.errors
    assert problem.detector == "bad-params" and problem.key == "trigger.params.min_prompts"

    prompts = [Observation(kind="prompt", text=f"p{i}") for i in range(3)]
    definition = catalogue.detectors[0].definition
    assert definition.trigger is not None
    match = spec.invoke(prompts, definition.trigger.params, {})
    assert match is not None and match.data == {"n": 3}
    assert spec.invoke(prompts[:2], {}, {}) is not None  # the schema default (2) fills in
    manager.registry.triggers["with_config"].invoke(prompts, {}, {}, config={"tone": "terse"})
    assert dict(seen_config[0]) == {"tone": "terse"}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("Bad-Name", prompt_count), "trigger name 'Bad-Name' does not match"),
        (("fine_name", "not callable"), "is not callable"),
        (("fine_name", prompt_count, {"type": "no-such-type"}), "is not a valid JSON Schema"),
    ],
)
def test_register_triggers_validates_each_registration(arguments: tuple[Any, ...], message: str) -> None:
    with pytest.warns(PackWarning, match=message):
        manager = manager_with(
            ("sloppy", pack("sloppy_pack", register_triggers=lambda register: register(*arguments)))
        )
    assert list(manager.registry.triggers) == [DECLARATIVE_TRIGGER]  # nothing of the broken pack


# -- register_tools ---------------------------------------------------------------------------------


class Upper:
    """A pack tool: upper-cases its input."""

    name = "upper"
    description = "Upper-case a string."
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
    }

    async def call(self, args: dict[str, Any]) -> str:
        return str(args["text"]).upper()


def test_hook_register_tools(tmp_path: Path) -> None:
    tool = Upper()
    directory = tmp_path / "catalogue"
    detector_file(directory, "shouter", "tools: [Read, upper]\n")
    manager = manager_with(
        (
            "tooling",
            pack(
                "tooling_pack",
                register_tools=lambda register: register("upper", tool),
                register_catalogues=lambda register: register(directory),
            ),
        )
    )
    assert manager.registry.tools["upper"].value is tool
    assert manager.registry.tools["upper"].pack == "tooling"
    assert manager.registry.known_tools() == {"upper"}
    catalogue = assemble_catalogue(manager, workspace=tmp_path)
    assert catalogue.errors == []
    assert catalogue.detectors[0].definition.grant_names == ["Read", "upper"]


@pytest.mark.parametrize(
    ("name", "tool", "message"),
    [
        ("Read", Upper(), "'Read' is reserved"),
        ("mcp__srv__x", Upper(), "is reserved"),
        ("has space", Upper(), "does not match"),
        ("incomplete", object(), "lacks description, input_schema, call"),
    ],
)
def test_register_tools_validates_each_registration(name: str, tool: object, message: str) -> None:
    with pytest.warns(PackWarning, match=message):
        manager = manager_with(
            ("tools", pack("tools_pack", register_tools=lambda register: register(name, tool)))
        )
    assert manager.registry.tools == {}


# -- register_providers -----------------------------------------------------------------------------


def test_hook_register_providers() -> None:
    def factory(**settings: Any) -> str:
        return f"provider with {sorted(settings)}"

    manager = manager_with(
        ("models", pack("models_pack", register_providers=lambda register: register("echo", factory)))
    )
    registered = manager.registry.providers["echo"]
    assert (registered.value, registered.pack) == (factory, "models")
    assert registered.value(model="m") == "provider with ['model']"
    [info] = manager.list_packs()
    assert info.hooks == ("register_providers",)
    assert info.registered["providers"] == 1

    with pytest.warns(PackWarning, match="factory of 'broken' is not callable"):
        manager_with(
            (
                "bad-models",
                pack("bad_models_pack", register_providers=lambda register: register("broken", 42)),
            )
        )


# -- register_mcp_servers ---------------------------------------------------------------------------


def test_hook_register_mcp_servers(tmp_path: Path) -> None:
    def register_mcp_servers(register: Callable[[str, Mapping[str, Any]], None]) -> None:
        register("search", {"command": "search-server", "args": ["--stdio"], "env": {"INDEX": "/srv/index"}})
        register("docs", {"url": "http://127.0.0.1:9999/mcp"})

    directory = tmp_path / "catalogue"
    detector_file(directory, "searcher", 'tools: ["mcp:search/query", "mcp:docs/*"]\n')
    detector_file(directory, "lost", 'tools: ["mcp:nowhere/query"]\n')
    manager = manager_with(
        (
            "servers",
            pack(
                "servers_pack",
                register_mcp_servers=register_mcp_servers,
                register_catalogues=lambda register: register(directory),
            ),
        )
    )
    assert manager.registry.mcp_servers["search"].value == {
        "command": "search-server",
        "args": ["--stdio"],
        "env": {"INDEX": "/srv/index"},
    }
    assert manager.registry.mcp_servers["docs"].pack == "servers"
    catalogue = assemble_catalogue(manager, workspace=tmp_path)
    assert [d.id for d in catalogue.detectors] == ["searcher"]
    [problem] = catalogue.errors
    assert problem.detector == "lost" and "no MCP server named 'nowhere'" in problem.problem


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({}, "exactly one of 'command'"),
        ({"command": "a", "url": "http://x"}, "exactly one of 'command'"),
        ({"command": ""}, "non-empty string"),
        ({"command": "a", "args": "--flag"}, "'args' must be a list of strings"),
        ({"command": "a", "env": {"N": 1}}, "'env' must map strings to strings"),
        ({"url": "http://x", "headers": {}}, "unknown keys headers"),
    ],
)
def test_register_mcp_servers_validates_params(params: dict[str, Any], message: str) -> None:
    with pytest.warns(PackWarning, match=message):
        manager_with(("srv", pack("srv_pack", register_mcp_servers=lambda register: register("s", params))))


# -- prepare_jinja2_environment ---------------------------------------------------------------------


def test_hook_prepare_jinja2_environment(tmp_path: Path) -> None:
    def prepare_jinja2_environment(env: jinja2.Environment) -> None:
        env.filters["shout"] = lambda text: f"{text}!".upper()

    directory = tmp_path / "catalogue"
    detector_file(directory, "loud", "x-note: uses a pack filter\n")
    (directory / "loud.yaml").write_text(
        (directory / "loud.yaml")
        .read_text()
        .replace("Look at {{ detector.id }}.", "{{ detector.id | shout }}")
    )
    manager = manager_with(
        (
            "filters",
            pack(
                "filters_pack",
                prepare_jinja2_environment=prepare_jinja2_environment,
                register_catalogues=lambda register: register(directory),
            ),
        )
    )
    catalogue = assemble_catalogue(manager, workspace=tmp_path)
    assert catalogue.errors == []
    environment = manager.template_environment()
    definition = catalogue.detectors[0].definition
    assert render(definition.prompt, environment=environment, detector={"id": "loud"}) == "LOUD!"

    # Without the pack the same template is refused: the filter does not exist.
    bare = manager_with(
        (
            "catalogue-only",
            pack("catalogue_only_pack", register_catalogues=lambda register: register(directory)),
        )
    )
    [problem] = assemble_catalogue(bare, workspace=tmp_path).errors
    assert "no filter named 'shout'" in problem.problem
    assert problem.source == SourceRef(str(directory / "loud.yaml"), 4)


def test_a_failing_environment_hook_breaks_only_its_pack() -> None:
    def prepare_jinja2_environment(env: jinja2.Environment) -> None:
        raise RuntimeError("cannot add filters today")

    with pytest.warns(
        PackWarning,
        match=r"'moody': calling its hook prepare_jinja2_environment failed.*cannot add filters today",
    ):
        manager = manager_with(
            ("moody", pack("moody_pack", prepare_jinja2_environment=prepare_jinja2_environment)),
            ("calm", pack("calm_pack", register_providers=lambda register: register("calm", dict))),
        )
    assert [info.name for info in manager.list_packs()] == ["calm"]
    manager.template_environment()  # the broken pack is no longer called
