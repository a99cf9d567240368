"""What a key of the workspace layer can do, read from the schemas' ``x-trust`` annotations.

A repository is untrusted input, so its committed layer (``.second-brain/``)
is split by what each key can do. The classification lives in one place, the
schemas: every configuration knob and every detector-file key carries
``x-trust``, and a test fails when one does not, so a new knob has to declare
itself. The three classes:

- ``safe``: switches, floors, rates, caps, checklist items. Applies always.
- ``voice``: makes the observer deliver (a prompt, a fallback text, a finish-
  gate setting). From an untrusted workspace a top-level knob is ignored, and a
  detector it shapes runs log-only: its verdicts are logged, never delivered.
- ``consent``: whether the session is observed at all (``enable.*``,
  ``mute.all``). The user's to decide: from an untrusted workspace only a
  value that narrows applies (opting out, muting), so a repository cannot
  opt itself into observation the user switched off.
- ``capability``: runs a process, opens a connection, chooses where data goes
  or which secret is sent (``model.*``, ``tools.mcp_servers``, tool grants,
  ``catalogue.file``, ``headless.*``, ``debug.*``). Ignored until the user
  trusts that exact content with ``second-brain trust``; setting one in the
  user's own layers, where it applies at once, is the user's act too
  (:mod:`sbcore.config.user_act`).

``x-trust-safe-values`` lists the values of a ``consent`` or ``capability``
knob that only switch something off, and so are safe.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any, Literal

from sbcore.config.schema import Schema, child_schema, config_schema
from sbcore.schemas import load_schema

TrustClass = Literal["safe", "voice", "consent", "capability"]
CLASSES: tuple[TrustClass, ...] = ("safe", "voice", "consent", "capability")
ANNOTATION = "x-trust"


def _declared(schema: Schema | None) -> TrustClass | None:
    if schema is None:
        return None
    value = schema.get(ANNOTATION)
    return value if value in CLASSES else None


def config_class(path: tuple[str, ...]) -> TrustClass:
    """The class of a configuration path: the nearest ``x-trust`` on the way down, else ``safe``.

    ``("model", "base_url")`` is ``capability``; ``("detectors", "x", "tools")``
    is ``capability``; a whole group such as ``("model",)`` is the strictest
    class of any of its knobs, so moving a group never launders a knob.
    """
    schema: Schema | None = config_schema()
    found: TrustClass | None = None
    for part in path:
        schema = child_schema(schema, part)
        found = _declared(schema) or found
        if schema is None:
            break
    if found is not None:
        return found
    return _strictest(schema) if schema is not None else "safe"


def value_class(path: tuple[str, ...], value: Any) -> TrustClass:
    """The class of ``value`` at ``path``: switching a capability off, or granting only safe tools, is safe.

    A schema node with ``x-trust-safe-grants`` (a detector's ``tools``) is a
    capability only when the value grants something outside that list; one
    with ``x-trust-safe-values`` (``model.provider: offline``,
    ``headless.observe: false``, ``mute.all: true``) is safe for exactly those
    values (for a map, when every entry is one of them).
    """
    schema: Schema | None = config_schema()
    parent: Schema | None = None
    for part in path:
        parent, schema = schema, child_schema(schema, part)
    if schema is not None and "x-trust-safe-grants" in schema and not capability_grants(value):
        return "safe"
    safe_values = schema.get("x-trust-safe-values") if schema is not None else None
    if safe_values is None and parent is not None and "x-trust-safe-values" in parent:
        safe_values = parent["x-trust-safe-values"]  # one entry of such a map (enable.workspaces.<path>)
    if safe_values is not None:
        # A map (enable.workspaces) is safe when every entry is one of the safe values.
        values = list(value.values()) if isinstance(value, Mapping) else [value]
        if all(any(v == safe and type(v) is type(safe) for safe in safe_values) for v in values):
            return "safe"
    return config_class(path)


def _strictest(schema: Schema) -> TrustClass:
    rank = {name: index for index, name in enumerate(CLASSES)}
    best: TrustClass = "safe"
    for sub in _children(schema):
        here = _declared(sub) or _strictest(sub)
        if rank[here] > rank[best]:
            best = here
    return best


def _children(schema: Schema) -> Iterator[Schema]:
    for sub in schema.get("properties", {}).values():
        if isinstance(sub, Mapping):
            yield sub
    extra = schema.get("additionalProperties")
    if isinstance(extra, Mapping):
        yield extra


@cache
def _detector_schema() -> dict[str, Any]:
    return load_schema("detector")


def detector_key_class(key: str) -> TrustClass:
    """The class of a top-level key of a detector file (``tools`` is ``capability``)."""
    sub = _detector_schema()["properties"].get(key)
    return _declared(sub) or "safe"


def safe_grants() -> frozenset[str]:
    """Tool grants that stay inside the repository (``x-trust-safe-grants`` on the detector's ``tools``)."""
    names = _detector_schema()["properties"]["tools"].get("x-trust-safe-grants", [])
    return frozenset(str(name) for name in names)


def capability_grants(tools: Any) -> list[str]:
    """The grants in a raw ``tools`` list that need trust: Run allowlists, MCP and pack tools."""
    if not isinstance(tools, list):
        return [] if tools is None else [str(tools)]
    safe = safe_grants()
    found: list[str] = []
    for item in tools:
        if isinstance(item, str) and item in safe:
            continue
        if isinstance(item, Mapping) and isinstance(item.get("run"), list):
            found.extend(f"run: {command}" for command in item["run"])
            continue
        found.append(str(item))
    return found


def unclassified() -> list[str]:
    """Schema properties that declare no ``x-trust``: each knob, detector override field and detector key."""
    missing = []
    for group, schema in config_schema()["properties"].items():
        for name, sub in schema.get("properties", {}).items():
            if _declared(sub) is None:
                missing.append(f"config: {group}.{name}")
        entry = schema.get("additionalProperties")
        if isinstance(entry, Mapping):
            for name, sub in entry.get("properties", {}).items():
                if _declared(sub) is None:
                    missing.append(f"config: {group}.<id>.{name}")
    for name, sub in _detector_schema()["properties"].items():
        if _declared(sub) is None:
            missing.append(f"detector: {name}")
    return missing
