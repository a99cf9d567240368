"""A layer with a bad key keeps its other keys: the bad one is held back alone, or read at its narrowest.

A team's workspace file with one typo (a quoted number, a misspelt key) used to be skipped whole, so every
override in it stopped applying at once. Now each key the schema rejects is taken out of the layer on its
own and the value below it (a lower layer's, or the default) applies in its place — except where falling
back could leave a wider setting than the layer meant. A broken key that narrows what the observer does
(``mute.all``, ``enable.default``, ``model.provider``, ``detectors.<id>.mode``, ``detectors.<id>.enabled``
and every other key with one value that is always safe to take) applies that narrowest value instead:
a layer that tried to mute and misspelt ``true`` is muted, not loud. A group or a detector entry broken
as a whole narrows every such key under it.

The narrowest readings come from the schema: a key with exactly one ``x-trust-safe-values`` entry (the
value that needs no trust because it only narrows), and a detector's ``enabled`` (false).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sbcore.config.schema import SchemaIssue, config_schema, schema_issues

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Held:
    """One key taken out of a layer: which, why, and the narrowest value put in its place (if any)."""

    key: str
    issue: SchemaIssue
    narrowed: dict[str, Any]


def hold_back(data: dict[str, Any], issues: list[SchemaIssue]) -> tuple[dict[str, Any], list[Held]] | None:
    """``data`` without the keys ``issues`` name, with the narrowest readings put in; None when what is
    left still breaks the schema (or an issue is about the whole document), so the layer is skipped."""
    kept = copy.deepcopy(data)
    held: list[Held] = []
    schema = config_schema()
    for issue in issues:
        path = _key_path(issue.path)
        if not path:
            return None
        original = _pop(kept, path)
        narrowed = dict(_narrowest(schema, path, original))
        narrowed_keys = {".".join(map(str, where)): value for where, value in narrowed.items()}
        held.append(Held(".".join(map(str, path)), issue, narrowed_keys))
    if schema_issues(kept):
        return None
    for item in held:
        for key, value in list(item.narrowed.items()):
            trial = copy.deepcopy(kept)
            _put(trial, tuple(key.split(".")), value)
            if schema_issues(trial):  # under a key that is itself wrong (a malformed detector id)
                del item.narrowed[key]
            else:
                kept = trial
    return kept, held


def _key_path(path: Path) -> Path:
    """The path cut after its last mapping key: an item of a list is held back with its list."""
    cut = list(path)
    while cut and not isinstance(cut[-1], str):
        cut.pop()
    return tuple(cut)


def _pop(data: dict[str, Any], path: Path) -> Any:
    """Remove ``path`` from ``data`` (and mappings it leaves empty); what was there, or None."""
    parents: list[dict[str, Any]] = [data]
    node: Any = data
    for part in path[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict):
            return None
        parents.append(node)
    found = parents[-1].pop(str(path[-1]), None)
    for depth in range(len(path) - 1, 0, -1):
        if parents[depth]:
            break
        parents[depth - 1].pop(str(path[depth - 1]), None)
    return found


def _put(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    node = data
    for part in path[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    node[path[-1]] = value


def _narrowest(schema: Mapping[str, Any], path: Path, original: Any) -> Iterator[tuple[Path, Any]]:
    """Each narrowable key at or under ``path``, with its narrowest value; ``original`` (what the layer
    wrote there) names the detectors a detectors-wide entry covered."""
    node = _schema_at(schema, path)
    if node is not None:
        yield from _narrowable(node, path, original)


def _schema_at(schema: Mapping[str, Any], path: Path) -> Mapping[str, Any] | None:
    node: Any = schema
    for part in path:
        properties = node.get("properties", {}) if isinstance(node, Mapping) else {}
        if part in properties:
            node = properties[part]
        elif isinstance(node, Mapping) and isinstance(node.get("additionalProperties"), Mapping):
            node = node["additionalProperties"]
        else:
            return None
    return node if isinstance(node, Mapping) else None


def _narrowable(node: Mapping[str, Any], path: Path, original: Any) -> Iterator[tuple[Path, Any]]:
    safe = node.get("x-trust-safe-values")
    kind = node.get("type")
    if isinstance(safe, list) and len(safe) == 1 and (kind in ("boolean", "string") or "enum" in node):
        yield path, safe[0]
        return
    if len(path) == 3 and path[0] == "detectors" and path[2] == "enabled":
        yield path, False
        return
    for name, child in node.get("properties", {}).items():
        below = original.get(name) if isinstance(original, Mapping) else None
        yield from _narrowable(child, (*path, name), below)
    extra = node.get("additionalProperties")
    if isinstance(extra, Mapping) and isinstance(original, Mapping):
        for name, below in original.items():
            if isinstance(name, str) and name not in node.get("properties", {}):
                yield from _narrowable(extra, (*path, name), below)
