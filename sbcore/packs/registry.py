"""What the installed packs registered, and which pack registered each thing.

The ``register`` callbacks handed to the hooks live here. They validate each
registration where it happens (a bad name or a missing path fails inside the
pack's own hook call, so the error is attributed to that pack) and collect a
pack's registrations in a :class:`Contributions` first; the manager merges
them into the :class:`Registry` only when the whole pack loaded cleanly, so a
pack that breaks halfway leaves nothing behind.
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from jsonschema import Draft202012Validator, SchemaError

from sbcore.observe.model import Observation
from sbcore.observe.project_facts import UNKNOWN, ProjectFacts
from sbcore.packs.declarative import DECLARATIVE_TRIGGER, match_trigger
from sbcore.packs.model import BUILTIN_TOOLS, RUN_TOOL
from sbcore.packs.types import TriggerMatch
from sbcore.problems import SbcoreError
from sbcore.state.taskindex import Peers
from sbcore.timebound import time_bound

TRIGGER_NAME = re.compile(r"^[a-z][a-z0-9_]{1,62}$")
TOOL_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")  # a wire name: it is sent to the provider as is
PROVIDER_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,62}$")
MCP_SERVER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")
RESERVED_TOOLS = frozenset({*BUILTIN_TOOLS, RUN_TOOL})
TRIGGER_BOUND_S = 2.0
"""Wall-time bound on one trigger call (see :mod:`sbcore.timebound`)."""
CORE_PACK = "sbcore"
"""The owner named for what sbcore itself provides to every catalogue (the declarative trigger)."""


class RegistrationError(SbcoreError, ValueError):
    """A pack called a ``register`` callback with something unusable."""


@dataclass(frozen=True)
class TriggerSpec:
    """A registered structural trigger."""

    name: str
    func: Callable[..., TriggerMatch | None]
    params_schema: dict[str, Any] | None
    pack: str
    wants_config: bool  # the function takes a ``config`` argument (the detector's effective config)
    wants_peers: bool = False  # the function takes a ``peers`` argument (the live cross-task index)
    wants_recall: bool = False  # the function takes a ``recall`` argument (the session's recall window)
    wants_project: bool = False  # the function takes a ``project`` argument (what the checkout shows)

    def defaults(self) -> dict[str, Any]:
        """Top-level ``default`` values of the params schema."""
        properties = (self.params_schema or {}).get("properties", {})
        return {
            name: prop["default"]
            for name, prop in properties.items()
            if isinstance(prop, dict) and "default" in prop
        }

    def invoke(
        self,
        observations: Sequence[Observation],
        params: Mapping[str, Any],
        state: dict[str, Any],
        config: Mapping[str, Any] | None = None,
        peers: Peers | None = None,
        recall: Any = None,
        project: ProjectFacts = UNKNOWN,
    ) -> TriggerMatch | None:
        """Call the trigger the way the host always does: schema defaults under the given params.

        ``params`` and ``config`` reach the function read-only; ``config`` only
        when the function declares a parameter of that name, and likewise ``peers`` (the other live
        tasks of the workspace; a driver with no index gives none, which reads as no other task) and
        ``recall`` (the session's :class:`~sbcore.state.recall.RecallWindow`, read-only, or None when
        recall is off), and ``project`` (:class:`~sbcore.observe.project_facts.ProjectFacts`, the read-only
        reading of the checkout; ``UNKNOWN`` when there is none to read). The call is time-bounded
        (:data:`TRIGGER_BOUND_S`): params may carry patterns a workspace wrote, and a
        runaway one raises :class:`~sbcore.timebound.PatternTimeout`.
        """
        merged = MappingProxyType({**self.defaults(), **params})
        extra: dict[str, Any] = {}
        if self.wants_config:
            extra["config"] = MappingProxyType(dict(config or {}))
        if self.wants_peers:
            extra["peers"] = peers if peers is not None else Peers("", 0.0)
        if self.wants_recall:
            extra["recall"] = recall
        if self.wants_project:
            extra["project"] = project
        with time_bound(TRIGGER_BOUND_S, f"trigger {self.name!r}"):
            return self.func(observations, merged, state, **extra)


@dataclass(frozen=True)
class Registered:
    """A tool, provider or MCP server definition, with the pack that registered it."""

    name: str
    value: Any
    pack: str


@dataclass(frozen=True)
class CatalogueSource:
    """A catalogue path (directory of detector files, or one file) and its pack."""

    path: Path
    pack: str


@dataclass
class Contributions:
    """Everything one pack registered; its methods are the ``register`` callbacks."""

    pack: str
    catalogues: list[Path] = field(default_factory=list)
    triggers: dict[str, TriggerSpec] = field(default_factory=dict)
    tools: dict[str, Registered] = field(default_factory=dict)
    providers: dict[str, Registered] = field(default_factory=dict)
    mcp_servers: dict[str, Registered] = field(default_factory=dict)

    def register_catalogue(self, path: os.PathLike[str] | str) -> None:
        resolved = Path(os.fspath(path))
        if not resolved.exists():
            raise RegistrationError(f"register_catalogues: {resolved} does not exist")
        if resolved not in self.catalogues:
            self.catalogues.append(resolved)

    def register_trigger(
        self,
        name: str,
        func: Callable[..., TriggerMatch | None],
        params_schema: dict[str, Any] | None = None,
    ) -> None:
        self._check_name("register_triggers", "trigger", name, TRIGGER_NAME, self.triggers)
        if not callable(func):
            raise RegistrationError(f"register_triggers: trigger {name!r} is not callable: {func!r}")
        if params_schema is not None:
            if not isinstance(params_schema, dict):
                raise RegistrationError(f"register_triggers: params_schema of {name!r} is not a mapping")
            try:
                Draft202012Validator.check_schema(params_schema)
            except SchemaError as exc:
                raise RegistrationError(
                    f"register_triggers: params_schema of {name!r} is not a valid JSON Schema: {exc.message}"
                ) from exc
        self.triggers[name] = TriggerSpec(
            name,
            func,
            params_schema,
            self.pack,
            _takes(func, "config"),
            _takes(func, "peers"),
            _takes(func, "recall"),
            _takes(func, "project"),
        )

    def register_tool(self, name: str, tool: Any) -> None:
        self._check_name("register_tools", "tool", name, TOOL_NAME, self.tools)
        if name in RESERVED_TOOLS or name.startswith("mcp__"):
            raise RegistrationError(
                f"register_tools: {name!r} is reserved (the built-in tools, and the mcp__ prefix MCP tools "
                "use on the wire)"
            )
        missing = [attr for attr in ("description", "input_schema", "call") if not hasattr(tool, attr)]
        if missing or not callable(getattr(tool, "call", None)):
            raise RegistrationError(
                f"register_tools: tool {name!r} lacks {', '.join(missing) or 'a callable call'} "
                "(a tool has description, input_schema and an async call(args))"
            )
        self.tools[name] = Registered(name, tool, self.pack)

    def register_provider(self, name: str, factory: Callable[..., Any]) -> None:
        self._check_name("register_providers", "provider", name, PROVIDER_NAME, self.providers)
        if not callable(factory):
            raise RegistrationError(f"register_providers: factory of {name!r} is not callable")
        self.providers[name] = Registered(name, factory, self.pack)

    def register_mcp_server(self, name: str, params: Mapping[str, Any]) -> None:
        self._check_name("register_mcp_servers", "MCP server", name, MCP_SERVER_NAME, self.mcp_servers)
        self.mcp_servers[name] = Registered(name, _mcp_params(name, params), self.pack)

    def _check_name(
        self, hook: str, what: str, name: Any, pattern: re.Pattern[str], taken: Mapping[str, Any]
    ) -> None:
        if not isinstance(name, str) or not pattern.match(name):
            raise RegistrationError(f"{hook}: {what} name {name!r} does not match {pattern.pattern}")
        if name in taken:
            raise RegistrationError(f"{hook}: {what} {name!r} registered twice by pack {self.pack!r}")


def _takes(func: Callable[..., Any], name: str) -> bool:
    try:
        parameters = inspect.signature(func).parameters
    except (TypeError, ValueError):  # some builtins have no signature
        return False
    return name in parameters


def _mcp_params(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    where = f"register_mcp_servers: server {name!r}"
    if not isinstance(params, Mapping):
        raise RegistrationError(f"{where}: params must be a mapping")
    if ("command" in params) == ("url" in params):
        raise RegistrationError(f"{where}: give exactly one of 'command' (stdio) and 'url' (HTTP)")
    unknown = set(params) - {"command", "args", "env", "url"}
    if unknown:
        raise RegistrationError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    if "command" in params and not (isinstance(params["command"], str) and params["command"]):
        raise RegistrationError(f"{where}: 'command' must be a non-empty string")
    if "url" in params and not (isinstance(params["url"], str) and params["url"]):
        raise RegistrationError(f"{where}: 'url' must be a non-empty string")
    args = params.get("args", [])
    if not (isinstance(args, list) and all(isinstance(arg, str) for arg in args)):
        raise RegistrationError(f"{where}: 'args' must be a list of strings")
    env = params.get("env", {})
    if not isinstance(env, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in env.items()
    ):
        raise RegistrationError(f"{where}: 'env' must map strings to strings")
    cleaned = dict(params)
    if "args" in cleaned:
        cleaned["args"] = list(args)
    if "env" in cleaned:
        cleaned["env"] = dict(env)
    return cleaned


def core_triggers() -> dict[str, TriggerSpec]:
    """The triggers every registry starts with: the one behind ``trigger: {match: ...}``.

    Its name has a dot, which :data:`TRIGGER_NAME` refuses, so no pack can register or shadow it; its
    params (the ``match`` block) are checked by the detector schema and the loader, not a params schema.
    """
    return {DECLARATIVE_TRIGGER: TriggerSpec(DECLARATIVE_TRIGGER, match_trigger, None, CORE_PACK, False)}


@dataclass
class Registry:
    """The merged registrations of every pack that loaded, each with its provenance.

    ``triggers`` starts with :func:`core_triggers`, so declarative triggers run wherever the registry's
    triggers do (the worker, replay, the golden runner).
    """

    catalogues: list[CatalogueSource] = field(default_factory=list)
    triggers: dict[str, TriggerSpec] = field(default_factory=core_triggers)
    tools: dict[str, Registered] = field(default_factory=dict)
    providers: dict[str, Registered] = field(default_factory=dict)
    mcp_servers: dict[str, Registered] = field(default_factory=dict)

    def conflicts(self, new: Contributions) -> list[str]:
        """Names ``new`` would take from a pack already merged, each naming both packs."""
        found = []
        for what, mine, theirs in (
            ("trigger", self.triggers, new.triggers),
            ("tool", self.tools, new.tools),
            ("provider", self.providers, new.providers),
            ("MCP server", self.mcp_servers, new.mcp_servers),
        ):
            for name in sorted(theirs.keys() & mine.keys()):
                found.append(
                    f"{what} {name!r} is registered by both pack {mine[name].pack!r} and pack {new.pack!r}"
                )
        return found

    def merge(self, new: Contributions) -> None:
        """Add a pack's registrations; call :meth:`conflicts` first."""
        self.catalogues.extend(CatalogueSource(path, new.pack) for path in new.catalogues)
        self.triggers.update(new.triggers)
        self.tools.update(new.tools)
        self.providers.update(new.providers)
        self.mcp_servers.update(new.mcp_servers)

    def trigger_schemas(self) -> dict[str, dict[str, Any] | None]:
        """Trigger name → params schema: what the detector loader checks ``trigger`` against."""
        return {name: spec.params_schema for name, spec in self.triggers.items()}

    def known_tools(self) -> frozenset[str]:
        """Ids of pack-registered tools a detector may be granted."""
        return frozenset(self.tools)

    def counts(self, pack: str) -> dict[str, int]:
        """How many things of each kind ``pack`` registered (for listings)."""
        return {
            "catalogues": sum(1 for source in self.catalogues if source.pack == pack),
            "triggers": sum(1 for spec in self.triggers.values() if spec.pack == pack),
            "tools": sum(1 for item in self.tools.values() if item.pack == pack),
            "providers": sum(1 for item in self.providers.values() if item.pack == pack),
            "mcp_servers": sum(1 for item in self.mcp_servers.values() if item.pack == pack),
        }
