"""The published JSON Schemas (draft 2020-12), shipped as package data.

They are read through importlib.resources so the installed wheel, not the
checkout, is what gets validated against; ``schema_path`` exists for editors
(the yaml-language-server modeline needs a file it can open).

:mod:`sbcore.schemas.yamlpos` reads the YAML files validated against them
(configuration, detectors, golden cases) keeping each key's line, so an error
names file, line and key. Both sit on the ground floor: ``config`` and
``packs`` use them and neither imports the other for it.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

_SUFFIX = ".schema.json"


def available_schemas() -> list[str]:
    """Names of the shipped schemas (``detector``, ``feedback_v1``, ...), sorted."""
    return sorted(
        entry.name[: -len(_SUFFIX)]
        for entry in resources.files(__name__).iterdir()
        if entry.name.endswith(_SUFFIX)
    )


@cache
def _parsed(name: str) -> dict[str, Any]:
    resource = resources.files(__name__).joinpath(name + _SUFFIX)
    if not resource.is_file():
        raise KeyError(f"no schema named {name!r}; available: {', '.join(available_schemas())}")
    data: dict[str, Any] = json.loads(resource.read_text(encoding="utf-8"))
    return data


def load_schema(name: str) -> dict[str, Any]:
    """The schema ``<name>.schema.json`` as a fresh dict (callers may mutate their copy)."""
    return copy.deepcopy(_parsed(name))


def json_type(value: Any) -> str:
    """The JSON Schema type name of a parsed value, for messages such as ``expected string, got integer``.

    ``bool`` is checked before ``int`` (it is a subclass); a value JSON cannot hold
    (a YAML date, a tuple) is named by its Python type rather than passed off as an object.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def schema_path(name: str) -> Path:
    """Filesystem path of a shipped schema, for editor modelines and ``detectors schema --path``."""
    _parsed(name)  # raises KeyError for unknown names
    return Path(str(resources.files(__name__).joinpath(name + _SUFFIX)))
