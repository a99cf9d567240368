"""Layered configuration: defaults → global → workspace → local, each value traceable to its layer.

The schema (``sbcore/schemas/config.schema.json``) holds every knob with its
default, range and description; ``docs/configuration.md`` is generated from it
(``python -m sbcore.config.docgen``). Read the configuration with
``load_config(workspace)``; change it with ``set_value`` / ``reset_value`` (the
``second-brain config`` command).
"""

from __future__ import annotations

from sbcore.config.effective import INVARIANTS, EffectiveConfig, Fingerprint, load_config
from sbcore.config.layers import (
    LAYERS,
    WRITABLE,
    ConfigProblem,
    LayerName,
    find_workspace,
    global_path,
    local_path,
    workspace_detector_dir,
    workspace_path,
)
from sbcore.config.schema import UnknownKeyError, config_schema, defaults, knobs, resolve_key
from sbcore.config.write import ConfigRejected, Outcome, reset_value, set_value

__all__ = [
    "INVARIANTS",
    "LAYERS",
    "WRITABLE",
    "ConfigProblem",
    "ConfigRejected",
    "EffectiveConfig",
    "Fingerprint",
    "LayerName",
    "Outcome",
    "UnknownKeyError",
    "config_schema",
    "defaults",
    "find_workspace",
    "global_path",
    "knobs",
    "load_config",
    "local_path",
    "reset_value",
    "resolve_key",
    "set_value",
    "workspace_detector_dir",
    "workspace_path",
]
