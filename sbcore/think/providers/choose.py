"""Zero-config provider selection, and building the chosen provider.

With no configuration the environment decides: an Anthropic key selects
``anthropic``; else an OpenAI key or base URL selects ``openai``; else a
``claude`` CLI on PATH that reports itself logged in (``claude auth status``,
which never shows a token) selects ``claude-code``, so a subscription works
with no key; else the observer runs ``offline``. ``model.provider`` in the configuration overrides
the guess (and may name a provider a pack registered). The choice is always
announced in one line, saying why, so nobody has to wonder which model — if
any — is reading their session. Credentials are read from the environment only
when the provider is built, and travel inside a :class:`Secret`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from sbcore.think.providers import anthropic, claude_code, openai
from sbcore.think.providers.base import (
    KeyedEndpoint,
    Provider,
    ProviderConfigError,
    ProviderFactory,
    ProviderSettings,
    RetryPolicy,
    Secret,
)

if TYPE_CHECKING:
    from sbcore.packs.manager import PackManager

AUTO = "auto"

KEYED: tuple[KeyedEndpoint, ...] = (anthropic.ENDPOINT, openai.ENDPOINT)
"""The providers an environment variable selects, in the order ``auto`` tries them (each declares its
variables, default model and endpoint in its own module)."""
_BY_NAME = {endpoint.name: endpoint for endpoint in KEYED}
_KEYED_NAMES = " or ".join(endpoint.name for endpoint in KEYED)
_SELECTING_ENV = [var for endpoint in KEYED for var in endpoint.selecting_env]


def _default_base_url(provider: str) -> str | None:
    endpoint = _BY_NAME.get(provider)
    return endpoint.default_base_url if endpoint else None


@dataclass(frozen=True)
class Choice:
    """Which provider, which model, where, and why. Holds the name of the key variable, never the key."""

    provider: str
    model: str
    base_url: str | None
    api_key_env: str | None
    reason: str
    cache_ttl_s: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """The one line announcing the choice."""
        if self.provider == "offline":
            return (
                f"sbcore: model provider offline (no model): {self.reason}; triggered detectors use their "
                "fallback advisory, the others are skipped"
            )
        if self.provider == claude_code.NAME:
            return (
                f"sbcore: model provider {self.provider} ({self.model} through the claude CLI): {self.reason}"
            )
        where = self.address or "its default endpoint"
        return f"sbcore: model provider {self.provider} ({self.model} at {where}): {self.reason}"

    @property
    def address(self) -> str | None:
        """Where requests go: the base URL, or the provider's default one; None for a provider of no URL."""
        return self.base_url or _default_base_url(self.provider)

    def to_json(self) -> dict[str, Any]:
        """The choice for the status file and ``config show --json``: no key, only the variable's name."""
        return {
            "provider": self.provider,
            "model": self.model,
            "base_url": self.base_url,
            "api_key_env": self.api_key_env,
            "reason": self.reason,
        }


def _setting(config: Mapping[str, Any], key: str) -> Any:
    value = config.get(key)
    return None if value in (None, "") else value


def choose(
    config: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    *,
    cli_status: Callable[[], claude_code.AuthStatus] | None = None,
) -> Choice:
    """Decide the provider from the ``model`` configuration group and the environment.

    :param config: the effective ``model`` group (``provider``, ``name``, ``base_url``,
        ``cache_ttl``, ``api_key_env``); missing keys mean "not configured".
    :param env: the environment to read (``os.environ`` by default).
    :param cli_status: how to ask whether the claude CLI is logged in (``claude auth status`` by default;
        a worker asks once and remembers, since the answer costs a process start).
    :raises ProviderConfigError: an explicit choice that cannot work, naming the key to fix.
    """
    config = config or {}
    env = os.environ if env is None else env
    provider = str(_setting(config, "provider") or AUTO)
    key_env = _setting(config, "api_key_env")
    name = _setting(config, "name")
    cache_ttl = _ttl_seconds(_setting(config, "cache_ttl"))

    if provider == AUTO:
        if key_env:
            raise ProviderConfigError(
                "model.api_key_env names the variable holding a key, but model.provider is 'auto': "
                f"set model.provider to {_KEYED_NAMES} as well"
            )
        selected = _from_environment(env)
        if selected is not None:
            provider, reason = selected
        elif _setting(config, "base_url"):
            raise ProviderConfigError(
                "model.base_url is set but model.provider is 'auto' and no key in the environment tells "
                f"which wire format it speaks: set model.provider to {_KEYED_NAMES}"
            )
        else:
            keyless = f"no {', '.join(_SELECTING_ENV[:-1])} or {_SELECTING_ENV[-1]} in the environment"
            status = cli_status() if cli_status is not None else claude_code.auth_status(env)
            if not status.logged_in:
                return Choice("offline", "", None, None, f"{keyless}, and {status.describe()}")
            provider, reason = claude_code.NAME, f"{keyless}; {status.describe()}"
    else:
        reason = f"model.provider is {provider}"
        if provider == "offline":
            return Choice("offline", "", None, None, reason)
    if provider == claude_code.NAME:
        model = str(name or env.get("SBCORE_MODEL") or claude_code.DEFAULT_MODEL)
        if not claude_code.MODEL_RE.match(model):
            raise ProviderConfigError(f"model.name {model!r} is not a model name the claude CLI accepts")
        options = dict(_setting(config, "claude_code") or {})
        return Choice(provider, model, None, None, reason, cache_ttl, options)

    endpoint = _BY_NAME.get(provider)
    if endpoint is None:  # a pack's provider: what the configuration says, nothing guessed
        base_url = _setting(config, "base_url")
        default_model = ""
    else:
        key_env = key_env or endpoint.key_env
        base_url = _setting(config, "base_url") or env.get(endpoint.base_url_env) or None
        needs_key = not (endpoint.keyless_with_base_url and base_url)
        if needs_key and not env.get(key_env):
            hint = (
                f" (or {endpoint.base_url_env} for a server that needs no key)"
                if endpoint.keyless_with_base_url
                else ""
            )
            raise ProviderConfigError(f"model.provider is {provider} but {key_env} is not set{hint}")
        default_model = endpoint.default_model
    model = str(name or env.get("SBCORE_MODEL") or default_model)
    if not model:
        raise ProviderConfigError(f"model.name must be set for provider {provider!r}")
    return Choice(provider, model, base_url, key_env, reason, cache_ttl)


def _from_environment(env: Mapping[str, str]) -> tuple[str, str] | None:
    """The first keyed provider a variable of the environment selects, and the reason to announce."""
    for endpoint in KEYED:
        found = [var for var in endpoint.selecting_env if env.get(var)]
        if found:
            return endpoint.name, f"{' and '.join(found)} {'is' if len(found) == 1 else 'are'} set"
    return None


_TTL_WORDS = {"5m": 300, "1h": 3600}


def _ttl_seconds(value: Any) -> int | None:
    """``model.cache_ttl`` ("5m" or "1h", as the config schema spells it; whole seconds also accepted)."""
    if value is None:
        return None
    if isinstance(value, str) and value in _TTL_WORDS:
        return _TTL_WORDS[value]
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    raise ProviderConfigError(f"model.cache_ttl must be 5m or 1h, not {value!r}")


def settings_for(choice: Choice, env: Mapping[str, str] | None = None, **overrides: Any) -> ProviderSettings:
    """Resolve a choice into factory settings, reading the key from the environment now."""
    env = os.environ if env is None else env
    key = env.get(choice.api_key_env, "") if choice.api_key_env else ""
    values: dict[str, Any] = {
        "provider": choice.provider,
        "model": choice.model,
        "base_url": choice.base_url,
        "api_key": Secret(key),
        "cache_ttl_s": choice.cache_ttl_s,
        "retry": RetryPolicy(),
        "options": dict(choice.options),
    }
    values.update(overrides)
    return ProviderSettings(**values)


def build(
    choice: Choice,
    factories: Mapping[str, ProviderFactory],
    env: Mapping[str, str] | None = None,
    **overrides: Any,
) -> Provider:
    """Build the chosen provider with the factory registered under its name."""
    factory = factories.get(choice.provider)
    if factory is None:
        known = ", ".join(sorted(factories)) or "none"
        raise ProviderConfigError(f"model.provider {choice.provider!r} is not registered (known: {known})")
    return factory(settings_for(choice, env, **overrides))


def registered_factories(manager: PackManager | None = None) -> dict[str, ProviderFactory]:
    """The provider factories of every loaded pack (the built-ins are a pack too)."""
    if manager is None:
        from sbcore.packs.manager import get_plugin_manager

        manager = get_plugin_manager()
    return {name: item.value for name, item in manager.registry.providers.items()}


def select_provider(
    config: Mapping[str, Any] | None = None,
    factories: Mapping[str, ProviderFactory] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    out: TextIO | None = None,
    **overrides: Any,
) -> Provider:
    """Choose, announce the choice on ``out`` (stderr by default), and build the provider.

    The announcement goes to stderr, not stdout: a worker's stdout is a
    monitor channel where every line costs the primary a model turn.
    ``factories`` defaults to what the installed packs registered.
    """
    choice = choose(config, env)
    print(choice.describe(), file=out if out is not None else sys.stderr, flush=True)
    return build(choice, registered_factories() if factories is None else factories, env, **overrides)
