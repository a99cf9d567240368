"""Zero-config provider selection, building through registered factories, and the built-in plugin."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

from sbcore.think.providers import (
    Choice,
    OfflineProvider,
    ProviderConfigError,
    ProviderFactory,
    ProviderSettings,
    build,
    choose,
    registered_factories,
    select_provider,
)
from sbcore.think.providers import plugin as builtin_plugin
from sbcore.think.providers.anthropic import DEFAULT_MODEL as ANTHROPIC_MODEL
from sbcore.think.providers.anthropic import AnthropicProvider
from sbcore.think.providers.choose import KEYED
from sbcore.think.providers.openai import DEFAULT_MODEL as OPENAI_MODEL
from sbcore.think.providers.openai import OpenAIProvider

ROOT = Path(__file__).resolve().parents[2]
ANTHROPIC_KEY = "sk-ant-" + "Zk3" * 10
OPENAI_KEY = "sk-oai-" + "Pq9" * 10


def registered() -> dict[str, ProviderFactory]:
    found: dict[str, ProviderFactory] = {}

    def register(name: str, factory: Callable[..., Any]) -> None:
        assert name not in found
        found[name] = factory

    builtin_plugin.register_providers(register=register)
    return found


@pytest.mark.parametrize(
    ("env", "provider", "model", "base_url", "reason"),
    [
        ({}, "offline", "", None, "no ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL"),
        ({"ANTHROPIC_API_KEY": ""}, "offline", "", None, "no ANTHROPIC_API_KEY"),
        ({"ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}, "offline", "", None, "no ANTHROPIC_API_KEY"),
        (
            {"ANTHROPIC_API_KEY": ANTHROPIC_KEY},
            "anthropic",
            ANTHROPIC_MODEL,
            None,
            "ANTHROPIC_API_KEY is set",
        ),
        (
            {"ANTHROPIC_API_KEY": ANTHROPIC_KEY, "OPENAI_API_KEY": OPENAI_KEY},
            "anthropic",
            ANTHROPIC_MODEL,
            None,
            "ANTHROPIC_API_KEY is set",
        ),
        (
            {"ANTHROPIC_API_KEY": ANTHROPIC_KEY, "ANTHROPIC_BASE_URL": "http://gw.local"},
            "anthropic",
            ANTHROPIC_MODEL,
            "http://gw.local",
            "ANTHROPIC_API_KEY is set",
        ),
        ({"OPENAI_API_KEY": OPENAI_KEY}, "openai", OPENAI_MODEL, None, "OPENAI_API_KEY is set"),
        (
            {"OPENAI_BASE_URL": "http://localhost:11434/v1", "SBCORE_MODEL": "llama3.1"},
            "openai",
            "llama3.1",
            "http://localhost:11434/v1",
            "OPENAI_BASE_URL is set",
        ),
        (
            {"OPENAI_API_KEY": OPENAI_KEY, "OPENAI_BASE_URL": "https://openrouter.ai/api/v1"},
            "openai",
            OPENAI_MODEL,
            "https://openrouter.ai/api/v1",
            "OPENAI_API_KEY and OPENAI_BASE_URL are set",
        ),
    ],
    ids=[
        "nothing",
        "empty-key",
        "anthropic-url-without-key",
        "anthropic",
        "anthropic-wins",
        "anthropic-gateway",
        "openai",
        "ollama",
        "openrouter",
    ],
)
def test_zero_config_choice_from_environment(
    env: dict[str, str], provider: str, model: str, base_url: str | None, reason: str
) -> None:
    choice = choose(None, env)
    assert (choice.provider, choice.model, choice.base_url) == (provider, model, base_url)
    assert reason in choice.reason


def test_configuration_overrides_the_environment() -> None:
    env = {"ANTHROPIC_API_KEY": ANTHROPIC_KEY, "MY_KEY": OPENAI_KEY}
    assert choose({"provider": "offline"}, env).provider == "offline"
    choice = choose(
        {
            "provider": "openai",
            "name": "qwen2.5-coder",
            "base_url": "http://vllm:8000/v1",
            "api_key_env": "MY_KEY",
        },
        env,
    )
    assert choice == Choice(
        "openai", "qwen2.5-coder", "http://vllm:8000/v1", "MY_KEY", "model.provider is openai", None
    )
    assert choose({"cache_ttl": "5m"}, env).cache_ttl_s == 300
    assert choose({"provider": "auto", "name": "claude-sonnet-4-5", "cache_ttl": "1h"}, env) == Choice(
        "anthropic", "claude-sonnet-4-5", None, "ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY is set", 3600
    )


@pytest.mark.parametrize(
    ("config", "env", "message"),
    [
        ({"provider": "anthropic"}, {"OPENAI_API_KEY": OPENAI_KEY}, "ANTHROPIC_API_KEY is not set"),
        ({"provider": "openai"}, {}, "OPENAI_API_KEY is not set"),
        ({"provider": "anthropic", "api_key_env": "TEAM_KEY"}, {}, "TEAM_KEY is not set"),
        ({"api_key_env": "TEAM_KEY"}, {"TEAM_KEY": "x"}, "model.provider is 'auto'"),
        ({"provider": "bedrock"}, {}, "model.name must be set"),
        ({"base_url": "http://localhost:11434/v1"}, {}, "set model.provider to anthropic or openai"),
        ({"cache_ttl": "2h"}, {}, r"model\.cache_ttl must be 5m or 1h, not '2h'"),
    ],
)
def test_impossible_explicit_choices_name_what_to_fix(
    config: dict[str, Any], env: dict[str, str], message: str
) -> None:
    with pytest.raises(ProviderConfigError, match=message):
        choose(config, env)


def test_built_providers_get_their_key_from_the_environment() -> None:
    factories = registered()
    env = {"ANTHROPIC_API_KEY": ANTHROPIC_KEY}
    provider = build(choose(None, env), factories, env)
    assert isinstance(provider, AnthropicProvider)
    assert provider.settings.api_key.reveal() == ANTHROPIC_KEY
    assert provider.headers()["x-api-key"] == ANTHROPIC_KEY
    assert ANTHROPIC_KEY not in repr(provider) + repr(provider.settings)

    env = {"OPENAI_BASE_URL": "http://localhost:8080/v1"}
    local = build(choose({"name": "local"}, env), factories, env)
    assert isinstance(local, OpenAIProvider)
    assert "authorization" not in local.headers()
    assert local.endpoint == "http://localhost:8080/v1/chat/completions"

    assert isinstance(build(choose(None, {}), factories, {}), OfflineProvider)


def test_a_pack_registered_provider_is_chosen_by_name() -> None:
    built: list[ProviderSettings] = []

    def bedrock(settings: ProviderSettings) -> OfflineProvider:
        built.append(settings)
        return OfflineProvider(settings)

    factories = {**registered(), "bedrock": bedrock}
    env = {"AWS_TOKEN": "t0k"}
    build(choose({"provider": "bedrock", "name": "haiku", "api_key_env": "AWS_TOKEN"}, env), factories, env)
    assert built[0].provider == "bedrock" and built[0].model == "haiku"
    assert built[0].api_key.reveal() == "t0k"
    with pytest.raises(
        ProviderConfigError,
        match=r"'vertex' is not registered \(known: anthropic, claude-code, offline, openai\)",
    ):
        build(choose({"provider": "vertex", "name": "x"}, {}), registered(), {})


def test_select_provider_always_announces_its_choice(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    provider = select_provider(None, registered(), env={"ANTHROPIC_API_KEY": ANTHROPIC_KEY}, out=out)
    assert provider.name == "anthropic"
    line = out.getvalue()
    assert line.count("\n") == 1
    assert "model provider anthropic (claude-haiku-4-5 at https://api.anthropic.com)" in line
    assert "ANTHROPIC_API_KEY is set" in line and ANTHROPIC_KEY not in line

    offline = select_provider(None, registered(), env={})
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "model provider offline (no model)" in captured.err
    assert not offline.has_model


def test_the_plugin_manager_supplies_builtin_and_pack_providers() -> None:
    from sbcore.packs.hookspecs import hookimpl
    from sbcore.packs.manager import get_plugin_manager

    class LocalPack:
        @hookimpl
        def register_providers(self, register: Callable[..., None]) -> None:
            register("echo-local", OfflineProvider.from_settings)

    manager = get_plugin_manager(autoload=False)
    assert manager.add_pack("local-pack", LocalPack())
    factories = registered_factories(manager)
    assert sorted(factories) == ["anthropic", "claude-code", "echo-local", "offline", "openai"]
    assert manager.registry.providers["anthropic"].pack == "builtin-providers"
    provider = select_provider({"provider": "echo-local", "name": "m"}, factories, env={}, out=io.StringIO())
    assert isinstance(provider, OfflineProvider) and provider.settings is not None
    assert provider.settings.provider == "echo-local"


def test_select_provider_defaults_to_the_installed_packs() -> None:
    provider = select_provider(None, env={"OPENAI_API_KEY": OPENAI_KEY}, out=io.StringIO())
    assert isinstance(provider, OpenAIProvider)


def test_builtin_plugin_registers_four_providers() -> None:
    factories = registered()
    assert sorted(factories) == ["anthropic", "claude-code", "offline", "openai"]
    assert factories["claude-code"](ProviderSettings("claude-code", "m")).name == "claude-code"
    assert factories["offline"](ProviderSettings("offline", "")).name == "offline"


def test_builtin_providers_entry_point_is_declared() -> None:
    points = {point.name: point.value for point in entry_points(group="sbcore")}
    assert points.get("builtin-providers") == "sbcore.think.providers.plugin"


def test_no_api_key_in_any_subprocess_output_of_a_real_choice(tmp_path: Any) -> None:
    """The announcement printed by a fresh interpreter carries the variable name, never its value."""
    script = (
        "from sbcore.think.providers import select_provider\n"
        "from sbcore.think.providers.plugin import register_providers\n"
        "found = {}\n"
        "register_providers(register=lambda name, factory: found.__setitem__(name, factory))\n"
        "print(repr(select_provider(None, found)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={"ANTHROPIC_API_KEY": ANTHROPIC_KEY, "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        check=True,
    )
    assert "model provider anthropic" in result.stderr
    assert "AnthropicProvider(model='claude-haiku-4-5'" in result.stdout
    assert ANTHROPIC_KEY not in result.stdout + result.stderr


def test_docs_schema_and_auto_choice_name_every_registered_provider() -> None:
    """The registry is the one list: every built-in provider it holds is in the docs' table and the
    schema's description of ``model.provider``, and every keyed one's variables are in the table that
    says what ``auto`` picks (which reads them from the same declarations)."""
    names = registered()
    docs = (ROOT / "docs" / "providers.md").read_text()
    schema = json.loads((ROOT / "sbcore" / "schemas" / "config.schema.json").read_text())
    described = schema["properties"]["model"]["properties"]["provider"]["description"]
    for name in names:
        assert f"`{name}`" in docs and name in described, name
    assert {endpoint.name for endpoint in KEYED} <= set(names)
    auto_table = docs.split("| otherwise a `claude` CLI")[0]
    for endpoint in KEYED:
        for var in (*endpoint.selecting_env, endpoint.default_model):
            assert f"`{var}`" in auto_table, var
