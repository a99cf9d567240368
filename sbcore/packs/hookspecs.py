"""The sbcore plugin boundary: the hooks a detector pack may implement.

Every hook receives a ``register`` callback instead of returning values (the
simonw/llm shape). The host owns the callback, so it validates each
registration at the call, records which pack made it, and can grow keyword
arguments later without breaking packs written against an older version. Hooks
are called with keyword arguments; an implementation may accept fewer
arguments than its spec (pluggy's rule), which is how specs grow.

A pack declares an entry point in the ``sbcore`` group and marks its functions
with :data:`hookimpl`::

    [project.entry-points.sbcore]
    my-pack = "my_pack.plugin"

The types the hooks use (:class:`~sbcore.packs.types.TriggerMatch`, the
``Register*`` callbacks) live in :mod:`sbcore.packs.types`, which needs no
pluggy. Pack authors import markers and types together from :mod:`sbcore.api`
(or ``from sbcore import hookimpl``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pluggy import HookimplMarker, HookspecMarker

from sbcore.packs.types import (
    RegisterCatalogue,
    RegisterMcpServer,
    RegisterProvider,
    RegisterTool,
    RegisterTrigger,
)
from sbcore.packs.types import TriggerFunc as TriggerFunc  # still importable here, as before sbcore.api
from sbcore.packs.types import TriggerMatch as TriggerMatch

if TYPE_CHECKING:
    import jinja2

PROJECT_NAME = "sbcore"

hookspec = HookspecMarker(PROJECT_NAME)
hookimpl = HookimplMarker(PROJECT_NAME)


@hookspec
def register_catalogues(register: RegisterCatalogue) -> None:
    """Register detector catalogues shipped by this pack.

    :param register: call ``register(path)`` once per directory of detector
        YAML files (every ``*.yaml`` directly inside it) or per single detector
        file. Paths must exist; package data is best located with
        :func:`importlib.resources.files`.

    The return value is ignored. Detector ids must be unique across all packs:
    a second pack defining an id already taken is an error naming both packs.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_triggers(register: RegisterTrigger) -> None:
    """Register structural triggers that detector files can name in ``trigger.name``.

    :param register: call ``register(name, func, params_schema=None)``.
        ``name`` matches ``^[a-z][a-z0-9_]{1,62}$``; ``func`` follows
        :class:`TriggerFunc`; ``params_schema`` is an optional JSON Schema
        (draft 2020-12) the detector's ``trigger.params`` are validated against
        when the catalogue is loaded.

    The return value is ignored. A trigger name registered by two packs is an
    error naming both.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_tools(register: RegisterTool) -> None:
    """Register additional read-only tools a detector may be granted by id.

    :param register: call ``register(name, tool)``. ``name`` is the id a
        detector lists under ``tools`` (it may not shadow the built-in
        ``Read``, ``Grep``, ``Glob`` or ``Run``); ``tool`` implements the
        observer's tool protocol (``description``, ``input_schema`` and an
        async ``call(args)``).

    The return value is ignored. A tool id registered by two packs is an error
    naming both.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_providers(register: RegisterProvider) -> None:
    """Register model providers the observer can run detector forks on.

    :param register: call ``register(name, factory)``. ``name`` is what
        ``model.provider`` selects; ``factory(settings)`` receives the resolved
        :class:`sbcore.think.providers.base.ProviderSettings` and returns a
        provider.

    The return value is ignored. A provider name registered by two packs is an
    error naming both.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_mcp_servers(register: RegisterMcpServer) -> None:
    """Register MCP server definitions whose tools detectors can be granted.

    :param register: call ``register(name, params)``. ``params`` holds either
        ``command`` (plus optional ``args`` list and ``env`` mapping) for a
        stdio server, or ``url`` for an HTTP server. Detectors then grant
        ``mcp:<name>/<tool>`` or ``mcp:<name>/*``.

    The return value is ignored. A server name registered by two packs is an
    error naming both.

    .. versionadded:: 0.1.0
    """


@hookspec
def prepare_jinja2_environment(env: jinja2.Environment) -> None:
    """Customise the sandboxed Jinja environment detector templates render in.

    :param env: the :class:`jinja2.sandbox.SandboxedEnvironment` used both to
        check templates at load time and to render them; add ``filters``,
        ``tests`` or ``globals`` to it.

    The return value is ignored. The environment stays sandboxed with
    ``StrictUndefined``; packs add to it, they do not replace it.

    .. versionadded:: 0.1.0
    """
