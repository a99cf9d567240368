"""The few configuration values a hook needs, read without YAML or JSON Schema.

Hooks cannot afford :func:`sbcore.config.load_config` (YAML parsing, schema
validation, layer merging), so whoever changes the configuration — the
``second-brain config`` command, the worker when it notices a change — also
writes a snapshot of the hot keys to ``<data>/hot.json`` (0600), with
:func:`sbcore.config.hot.write_hot_snapshot`. This module is the reader; the
file's names and version live in :mod:`sbcore.state.hot`, below both. Its shape:

.. code-block:: json

    {"v": 1,
     "scopes": {
       "*":              {"written_at": 1700000000.0, "enable": {...}, "mute": {...}, ...},
       "/real/path/repo": {...}
     }}

Each scope holds the *effective* values of the groups in :data:`GROUPS` for
one workspace (keyed by its resolved path), or, under ``"*"``, for a directory
no snapshot names (defaults plus the global layer only). ``detectors`` holds,
per detector id, only ``enabled``, ``confidence_floor`` and
``finish_gate_floor``: the catalogue's values with the configuration's
overrides on top.

A missing snapshot means the schema's defaults (read from the JSON Schema
file with the standard library); a snapshot that exists but cannot be used is
an error, and the hook fails open.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore.problems import SbcoreError
from sbcore.state import document
from sbcore.state.hot import ANY_WORKSPACE, DETECTOR_KEYS, GROUPS, VERSION, file_stamp, snapshot_path

WORKSPACE_MARKER = ".second-brain"
"""A directory holding this (or ``.git``) is a workspace root, as in :mod:`sbcore.config.layers`."""

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "schemas" / "config.schema.json"

_MISSING = object()


class HotConfigError(SbcoreError):
    """The snapshot exists but cannot be used."""


def find_workspace(start: str | os.PathLike[str]) -> str:
    """The workspace ``start`` belongs to: the nearest directory holding ``.second-brain/`` or ``.git``.

    The same rule as :func:`sbcore.config.layers.find_workspace` (a test keeps
    them in step), with the standard library only: symlinks resolved, and
    ``start`` itself when no ancestor qualifies.
    """
    here = os.path.realpath(start)
    probe = here
    while True:
        if os.path.isdir(os.path.join(probe, WORKSPACE_MARKER)) or os.path.exists(
            os.path.join(probe, ".git")
        ):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            return here
        probe = parent


def schema_defaults() -> dict[str, dict[str, Any]]:
    """The defaults of the groups in :data:`GROUPS`, straight from the configuration's JSON Schema."""
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    groups = schema["properties"]
    return {
        name: {
            knob: spec["default"] for knob, spec in groups[name]["properties"].items() if "default" in spec
        }
        for name in GROUPS
    }


@dataclass(frozen=True)
class HotConfig:
    """The hot values in force for one workspace.

    ``get`` speaks the dotted-key language of :class:`sbcore.config.EffectiveConfig`
    for the groups it holds, so :meth:`sbcore.gate.settings.GateSettings.from_config`
    accepts it as it is.
    """

    groups: Mapping[str, Mapping[str, Any]]
    detectors: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    workspace: str | None = None
    source: str = "defaults"
    """``defaults`` (no snapshot), or ``snapshot:<scope>`` naming the scope used."""

    def get(self, key: str, default: Any = _MISSING) -> Any:
        """The value at a dotted key (``gate``, ``finish_gate.enabled``, ``detectors``)."""
        parts = key.split(".")
        node: Any = {**self.groups, "detectors": self.detectors}
        for part in parts:
            if not isinstance(node, Mapping) or part not in node:
                if default is _MISSING:
                    raise KeyError(f"{key} is not in the hot configuration")
                return default
            node = node[part]
        return json.loads(json.dumps(node)) if isinstance(node, Mapping | list) else node

    @property
    def enabled(self) -> bool:
        """Whether the workspace is observed: its ``enable.workspaces`` entry, else ``enable.default``."""
        enable = self.groups["enable"]
        if self.workspace is not None:
            for entry, value in enable["workspaces"].items():
                if os.path.realpath(os.path.expanduser(entry)) == self.workspace:
                    return bool(value)
        return bool(enable["default"])

    @property
    def muted(self) -> bool:
        """``mute.all``: no delivery of any kind."""
        return bool(self.groups["mute"]["all"])

    @property
    def headless_observe(self) -> bool:
        """``headless.observe``: record and observe sessions run without the interactive UI."""
        return bool(self.groups["headless"]["observe"])

    def detector_enabled(self, detector: str) -> bool:
        """False only when the detector is switched off (``detectors.<id>.enabled false``)."""
        return self.detectors.get(detector, {}).get("enabled", True) is not False


def load_hot_config(data: Path, cwd: str | None) -> HotConfig:
    """The hot configuration for the workspace containing ``cwd`` (None: no workspace).

    Raises :class:`HotConfigError` when the snapshot exists but is not a
    version-:data:`VERSION` snapshot with well-typed values.
    """
    workspace = find_workspace(cwd) if cwd else None
    defaults = schema_defaults()
    path = snapshot_path(data)
    try:
        snapshot = document.read(path, version=VERSION)
    except document.DocumentError as error:
        raise HotConfigError(f"{error}: not a version-{VERSION} hot configuration snapshot") from error
    if snapshot is None:
        return HotConfig(defaults, {}, workspace, "defaults")
    scopes = snapshot.get("scopes")
    if not isinstance(scopes, dict):
        raise HotConfigError(f"{path}: 'scopes' is not an object")
    scope = workspace if workspace is not None and workspace in scopes else ANY_WORKSPACE
    entry = scopes.get(scope)
    if entry is None:
        return HotConfig(defaults, {}, workspace, "defaults")
    if not isinstance(entry, dict):
        raise HotConfigError(f"{path}: scope {scope!r} is not an object")
    withdrawn = entry.get("withdrawn")
    if isinstance(withdrawn, dict) and _lapsed(withdrawn.get("stamps")):
        entry, scope = withdrawn, f"{scope} (approval lapsed)"
    groups = {name: {**defaults[name], **_group(path, scope, entry, name)} for name in GROUPS}
    _check(path, scope, groups)
    return HotConfig(groups, _detectors(path, scope, entry), workspace, f"snapshot:{scope}")


def _lapsed(stamps: Any) -> bool:
    """Whether a file the workspace's approval hangs on changed since the snapshot was written (a pull
    that changed the trusted layer, a revoked approval): then the values as if untrusted apply."""
    if not isinstance(stamps, dict):
        return True
    return any(file_stamp(Path(name)) != recorded for name, recorded in stamps.items())


def _group(path: Path, scope: str, entry: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = entry.get(name, {})
    if not isinstance(value, dict):
        raise HotConfigError(f"{path}: scope {scope!r}: {name!r} is not an object")
    return value


def _check(path: Path, scope: str, groups: Mapping[str, Mapping[str, Any]]) -> None:
    """Refuse values of the wrong type: a hook acting on a mistyped switch would act wrongly, not fail."""
    where = f"{path}: scope {scope!r}"
    for key in ("enable.default", "mute.all", "headless.observe", "finish_gate.enabled"):
        group, knob = key.split(".")
        if not isinstance(groups[group].get(knob), bool):
            raise HotConfigError(f"{where}: {key} is not true or false")
    workspaces = groups["enable"].get("workspaces")
    if not isinstance(workspaces, dict) or not all(isinstance(value, bool) for value in workspaces.values()):
        raise HotConfigError(f"{where}: enable.workspaces is not a map of paths to true or false")
    for group in ("gate", "finish_gate"):
        for knob, value in groups[group].items():
            if knob != "enabled" and (isinstance(value, bool) or not isinstance(value, int | float)):
                raise HotConfigError(f"{where}: {group}.{knob} is not a number")


def _detectors(path: Path, scope: str, entry: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    value = entry.get("detectors", {})
    if not isinstance(value, dict):
        raise HotConfigError(f"{path}: scope {scope!r}: 'detectors' is not an object")
    detectors: dict[str, dict[str, Any]] = {}
    for name, fields in value.items():
        if not isinstance(fields, dict):
            raise HotConfigError(f"{path}: scope {scope!r}: detectors.{name} is not an object")
        kept = {key: fields[key] for key in DETECTOR_KEYS if fields.get(key) is not None}
        if "enabled" in kept and not isinstance(kept["enabled"], bool):
            raise HotConfigError(f"{path}: scope {scope!r}: detectors.{name}.enabled is not true or false")
        for key in ("confidence_floor", "finish_gate_floor"):
            if key in kept and (isinstance(kept[key], bool) or not isinstance(kept[key], int | float)):
                raise HotConfigError(f"{path}: scope {scope!r}: detectors.{name}.{key} is not a number")
        detectors[name] = kept
    return detectors
