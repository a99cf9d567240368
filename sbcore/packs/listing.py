"""How the effective catalogue is shown to people: the ``detectors list`` table and ``detectors show``.

Kept apart from the CLI so every surface that lists detectors (the CLI, a
status report) renders the same rows; the CLI only parses arguments and prints.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import yaml

from sbcore.packs.catalogue import SHOWN_FIELDS, EffectiveCatalogue, EffectiveDetector
from sbcore.packs.errors import ErrorChain
from sbcore.packs.manager import PackManager

# A detector field left unset takes this configuration knob's value.
CONFIG_DEFAULTS: dict[str, str] = {
    "deadline_s": "loop.fork_deadline_s",
    "confidence_floor": "gate.confidence_floor",
    "finish_gate_floor": "finish_gate.confidence_floor",
}
NO_OVERRIDE_PREFIXES = ("pack ", "catalogue.file", "workspace detectors")


def detector_row(detector: EffectiveDetector) -> dict[str, Any]:
    """One ``detectors list`` row: id, pack, enabled (and who decided), status, availability, source."""
    definition = detector.definition
    return {
        "id": definition.id,
        "pack": definition.pack,
        "enabled": definition.enabled,
        "enabled_by": detector.origins.get("enabled"),
        "status": definition.status,
        "mode": definition.mode,
        "available": detector.available,
        "unavailable_reason": detector.unavailable_reason,
        "log_only": detector.log_only,
        "cadence": str(definition.cadence),
        "trigger": definition.trigger.name if definition.trigger else None,
        "tools": definition.grant_names,
        "source": str(definition.source),
        "description": definition.description,
    }


def catalogue_report(
    catalogue: EffectiveCatalogue, manager: PackManager, problems: Sequence[ErrorChain] | None = None
) -> dict[str, Any]:
    """Everything ``detectors list --json`` prints; ``problems`` defaults to the catalogue's own."""
    return {
        "catalogue": catalogue.source,
        "detectors": [detector_row(detector) for detector in catalogue.detectors],
        "packs": [
            {
                "name": info.name,
                "version": info.version,
                "distribution": info.distribution,
                "builtin": info.builtin,
                "hooks": list(info.hooks),
                "registered": info.registered,
            }
            for info in manager.list_packs()
        ],
        "broken_packs": [
            {
                "name": broken.name,
                "distribution": broken.distribution,
                "entry_point": broken.entry_point,
                "stage": broken.stage,
                "step": broken.step,
                "error": broken.error,
                "hint": broken.hint,
                "frame": broken.frame,
            }
            for broken in manager.broken
        ],
        "problems": [
            chain.to_problem().to_json()
            for chain in (shown_problems(catalogue) if problems is None else problems)
        ],
    }


def shown_problems(catalogue: EffectiveCatalogue) -> list[Any]:
    """Problems worth printing: everything but the load warning of a detector already marked unavailable.

    A disabled detector naming a trigger this installation lacks (a pack's
    detector whose trigger comes from a pack that is not installed) is not a
    problem until someone enables it; the listing shows it as unavailable
    instead of warning on every run.
    """
    unavailable = {d.id for d in catalogue.detectors if not d.available and not d.definition.enabled}
    return [
        chain
        for chain in catalogue.problems
        if not (chain.severity == "warning" and chain.detector in unavailable and chain.key == "trigger.name")
    ]


def render_table(rows: list[dict[str, Any]]) -> str:
    """The human table: ID, PACK, ENABLED, STATUS, SOURCE (overridden enablement says by which layer; a
    soaking detector's status says ``soak``: what it would say is logged, never delivered)."""
    header = ("ID", "PACK", "ENABLED", "STATUS", "SOURCE")
    lines = [header]
    for row in rows:
        enabled = "yes" if row["enabled"] else "no"
        by = row["enabled_by"] or ""
        if by and not by.startswith(NO_OVERRIDE_PREFIXES):
            enabled += f" ({by})"
        status = row["status"] if row["available"] else f"{row['status']}, unavailable"
        if row.get("mode") == "soak":
            status += ", soak"
        if row.get("log_only"):
            status += ", log-only"
        lines.append((row["id"], row["pack"], enabled, status, row["source"]))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header) - 1)]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line[:-1], widths, strict=True)) + "  " + line[-1]
        for line in lines
    )


def render_packs(manager: PackManager) -> str:
    """The loaded packs (NAME, VERSION, ORIGIN, HOOKS) and, after them, the skipped ones."""
    lines = [("NAME", "VERSION", "ORIGIN", "HOOKS")]
    for info in manager.list_packs():
        origin = "built-in" if info.builtin else (info.distribution or "added in process")
        hooks = ", ".join(info.hooks) or "-"
        lines.append((info.name, info.version or "-", origin, hooks))
    for broken in manager.broken:
        lines.append((broken.name, "-", "skipped", f"{broken.stage}: {broken.error.splitlines()[0]}"))
    widths = [max(len(line[i]) for line in lines) for i in range(3)]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line[:3], widths, strict=True)) + "  " + line[3]
        for line in lines
    )


def field_values(detector: EffectiveDetector, default_of: Callable[[str], Any]) -> dict[str, dict[str, Any]]:
    """``{field: {"value": ..., "layer": ...}}`` of the effective definition, in file order.

    Values are as written in the effective document (``tools`` as grants,
    ``cadence`` as ``{every_nth: N}``), except ``prompt``, which is the
    template text even when the file names a ``prompt_file``. A field the
    definition leaves unset shows the configuration knob it falls back to.
    """
    definition = detector.definition
    raw = definition.raw
    fields: dict[str, dict[str, Any]] = {}
    for name in SHOWN_FIELDS:
        layer = detector.origins.get(name, f"pack {definition.pack}")
        if name == "prompt":
            value: Any = definition.prompt
            if "prompt_file" in raw and "prompt" not in raw:
                layer = f"{layer} ({raw['prompt_file']})"
        elif name in raw:
            value = raw[name]
        elif name in CONFIG_DEFAULTS:
            knob = CONFIG_DEFAULTS[name]
            value = default_of(knob)
            layer = f"configuration ({knob})"
        elif name == "max_iterations":
            value = definition.max_iterations
        elif name in ("status", "enabled", "mode", "description"):
            value = getattr(definition, name)
        else:
            continue
        fields[name] = {"value": value, "layer": layer}
    return fields


def render_definition(detector: EffectiveDetector, fields: Mapping[str, Mapping[str, Any]]) -> str:
    """The effective definition as YAML, each field annotated with the layer it came from."""
    definition = detector.definition
    lines = [f"# {definition.id}: pack {definition.pack}, defined at {definition.source}"]
    if not detector.available:
        lines.append(f"# unavailable: {detector.unavailable_reason}")
    if detector.log_only:
        lines.append(f"# log-only until the workspace is trusted ({detector.log_only}): never delivered")
    blocks = [_yaml_block(name, entry["value"], entry["layer"]) for name, entry in fields.items()]
    return "\n".join(lines + blocks)


def _yaml_block(name: str, value: Any, layer: str) -> str:
    if isinstance(value, str) and "\n" in value:
        body = "\n".join(f"  {line}" if line else "" for line in value.rstrip("\n").split("\n"))
        return f"{name}: |  # {layer}\n{body}"
    dumped = yaml.safe_dump({name: value}, sort_keys=False, allow_unicode=True, width=100).rstrip("\n")
    first, _, rest = dumped.partition("\n")
    return f"{first}  # {layer}" + (f"\n{rest}" if rest else "")


def definition_json(detector: EffectiveDetector, fields: Mapping[str, Mapping[str, Any]]) -> str:
    """``detectors show --json``."""
    definition = detector.definition
    return json.dumps(
        {
            "id": definition.id,
            "pack": definition.pack,
            "source": str(definition.source),
            "available": detector.available,
            "unavailable_reason": detector.unavailable_reason,
            "log_only": detector.log_only,
            "fields": fields,
        },
        indent=2,
        ensure_ascii=False,
    )
