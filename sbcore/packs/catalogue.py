"""The effective catalogue: which detectors are in force, and where each field came from.

Layers, lowest first:

1. the catalogues the loaded packs registered (the built-in pack among them);
2. ``catalogue.file``, which replaces all of layer 1 wholesale when it loads
   cleanly, and otherwise is reported and ignored (a broken catalogue degrades
   to the shipped one, never to no observer);
3. detector files in ``<workspace>/.second-brain/detectors/`` (pack
   ``workspace``), added to whichever catalogue is in force;
4. per-field overrides ``detectors.<id>.<field>`` from the configuration
   layers (global, workspace, local), merged on top.

Until the user trusts the workspace (``second-brain trust``), the workspace
may not speak with the observer's voice: a workspace detector file carrying a
capability (a Run, MCP or pack tool grant) is ignored whole, the others run
log-only, and so does a detector whose prompt, finish-gate floor or ``mode: advise`` the
workspace layer overrides (:attr:`EffectiveDetector.log_only`); ``mode: soak`` applies from any layer.

Nothing here raises for a bad detector file or override: each problem becomes
an :class:`~sbcore.packs.errors.ErrorChain` in ``problems`` and the rest of the
catalogue still loads. An override that would make a detector invalid (for
example enabling one whose trigger no installed pack provides) is refused
as a whole; the detector keeps its definition from the layer below, and the
problem's hint lists every override dropped with it (layer, file:line) and
the ``config reset`` that removes the refused one.

Override merging: ``config`` merges into the detector's config key by key,
recursively; a list whose items are all mappings with an ``id`` merges item by
item (fields of an existing id merge into it, new ids are appended), so a team
can change or add one checklist question without restating the list. Any other
value replaces. ``trigger`` overrides only ``params`` (merged the same way).
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sbcore.config.trustclass import value_class
from sbcore.jail import Jail
from sbcore.packs.errors import CatalogueError, ErrorChain, duplicate_error
from sbcore.packs.loader import catalogue_files, load_detector_file, validate_detector_data
from sbcore.packs.model import DetectorDef, SourceRef

if TYPE_CHECKING:
    from jinja2.sandbox import SandboxedEnvironment

    from sbcore.packs.manager import PackManager

CATALOGUE_FILE_PACK = "catalogue.file"
WORKSPACE_PACK = "workspace"
DROPPED = "until this is fixed every override of this detector is dropped"
"""How the hint of a refused override starts listing what it takes down (see ``_dropped``)."""
USER_LAYERS = ("global config", "local config")
"""The configuration layers the user writes (not the repository): a ``tools`` override from one of them
may run commands that execute repository code (see ``sbcore.think.tools.repo_code``)."""
OVERRIDE_FIELDS: tuple[str, ...] = (
    "enabled",
    "mode",
    "prompt",
    "tools",
    "cadence",
    "deadline_s",
    "max_iterations",
    "confidence_floor",
    "finish_gate_floor",
    "config",
    "trigger",
)
# The fields ``detectors show`` lists, in file order.
SHOWN_FIELDS: tuple[str, ...] = (
    "description",
    "status",
    "enabled",
    "mode",
    "prompt",
    "tools",
    "schema",
    "cadence",
    "trigger",
    "deadline_s",
    "max_iterations",
    "confidence_floor",
    "finish_gate_floor",
    "config",
    "fallback",
)


class LayerView(Protocol):
    """One configuration layer file (``sbcore.config.layers.LayerFile``)."""

    @property
    def name(self) -> str: ...

    @property
    def path(self) -> Path | None: ...

    def line_of(self, path: tuple[str | int, ...]) -> int | None: ...


class ConfigView(Protocol):
    """What the assembler reads from the effective configuration (``sbcore.config.EffectiveConfig``)."""

    @property
    def layers(self) -> Sequence[LayerView]: ...

    def catalogue_file(self) -> Path | None: ...

    def workspace_detector_dir(self) -> Path | None: ...

    def detector_overrides(self, detector_id: str) -> Mapping[str, tuple[Any, str]]: ...

    def get(self, key: str, default: Any = ...) -> Any: ...

    def workspace_trusted(self) -> bool: ...

    def held_detector_files(self) -> frozenset[Path]: ...


@dataclass(frozen=True)
class EffectiveDetector:
    """A detector as it will run, and the layer each of its fields came from.

    ``origins`` maps every top-level field of the definition to a layer label
    such as ``pack builtin``, ``catalogue.file``, ``workspace detectors`` or
    ``local config``; a merged field reads ``pack builtin + workspace config``.
    """

    definition: DetectorDef
    origins: Mapping[str, str]
    available: bool = True
    unavailable_reason: str | None = None
    log_only: str | None = None
    """Why this detector's verdicts are logged but never delivered (an untrusted workspace shaped it)."""

    @property
    def id(self) -> str:
        return self.definition.id


@dataclass
class EffectiveCatalogue:
    """The detectors in force (sorted by id), plus everything that went wrong building them."""

    detectors: list[EffectiveDetector] = field(default_factory=list)
    problems: list[ErrorChain] = field(default_factory=list)
    source: str = "packs"  # or "catalogue.file: <path>"

    def get(self, detector_id: str) -> EffectiveDetector | None:
        return next((d for d in self.detectors if d.id == detector_id), None)

    def enabled(self) -> list[DetectorDef]:
        """Definitions of the detectors that run."""
        return [d.definition for d in self.detectors if d.definition.enabled]

    @property
    def errors(self) -> list[ErrorChain]:
        return [chain for chain in self.problems if chain.severity == "error"]

    @property
    def warnings(self) -> list[ErrorChain]:
        return [chain for chain in self.problems if chain.severity == "warning"]


@dataclass
class _Inputs:
    """What every detector file is checked against: the loaded packs' registrations."""

    known_tools: frozenset[str]
    triggers: dict[str, dict[str, Any] | None]
    mcp_servers: frozenset[str] | None
    environment: SandboxedEnvironment


def assemble_catalogue(
    manager: PackManager | None = None,
    *,
    workspace: Path | None = None,
    config: ConfigView | None = None,
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
) -> EffectiveCatalogue:
    """Build the effective catalogue for ``workspace``.

    ``manager`` defaults to :func:`~sbcore.packs.manager.get_plugin_manager`;
    ``config`` to ``sbcore.config.load_config(workspace)``. ``overrides``
    (``{id: {field: value}}``, layer label ``override``) are applied after the
    configuration's own, for callers and tests that have no configuration file.
    """
    if manager is None:
        from sbcore.packs.manager import get_plugin_manager

        manager = get_plugin_manager()
    if config is None:
        from sbcore.config import load_config

        config = load_config(workspace)
    result = EffectiveCatalogue()
    registry = manager.registry
    configured_servers = config.get("tools.mcp_servers", {}) or {}
    inputs = _Inputs(
        known_tools=registry.known_tools(),
        triggers=registry.trigger_schemas(),
        mcp_servers=frozenset(registry.mcp_servers) | frozenset(configured_servers),
        environment=manager.template_environment(),
    )

    detectors: dict[str, DetectorDef] = {}
    bundle_problems: list[ErrorChain] = []
    for source in registry.catalogues:
        _load_into(detectors, [source.path], source.pack, inputs, bundle_problems)

    replacement = config.catalogue_file()
    if replacement is None or not _replace_with(detectors, replacement, inputs, result):
        result.problems[:0] = bundle_problems  # the bundle is in force: its problems are current

    trusted = config.workspace_trusted()
    detector_dir = config.workspace_detector_dir()
    if detector_dir is not None and detector_dir.is_dir():
        held = frozenset() if trusted else config.held_detector_files()
        files = [path for path in catalogue_files([detector_dir]) if path not in held]
        workspace = detector_dir.parent.parent
        _load_into(detectors, files, WORKSPACE_PACK, inputs, result.problems, inside=workspace)

    requested = _requested_overrides(config, overrides, detectors, result.problems)
    for detector_id in sorted(detectors):
        definition = detectors[detector_id]
        base = _base_label(definition)
        origins = {name: base for name in SHOWN_FIELDS}
        layered = requested.get(detector_id)
        if layered:
            definition, origins = _apply_overrides(definition, layered, origins, inputs, result.problems)
        available, reason = _availability(definition, inputs)
        silenced = None if trusted else _untrusted_voice(definition, layered or [])
        result.detectors.append(EffectiveDetector(definition, origins, available, reason, silenced))
    return result


def _untrusted_voice(definition: DetectorDef, layered: list[_Override]) -> str | None:
    """Why an untrusted workspace's detector, or one whose voice it overrides, may only log."""
    if definition.pack == WORKSPACE_PACK:
        return "a detector of the untrusted workspace"
    voiced = [
        o.field
        for o in layered
        if o.layer == "workspace config"
        and value_class(("detectors", definition.id, o.field), o.value) == "voice"
    ]
    if voiced:
        return "the untrusted workspace overrides its " + ", ".join(voiced)
    return None


def _load_into(
    detectors: dict[str, DetectorDef],
    paths: Iterable[Path],
    pack: str,
    inputs: _Inputs,
    problems: list[ErrorChain],
    *,
    inside: Path | None = None,
) -> None:
    """Load each file on its own, so one broken file does not hide its siblings.

    With ``inside`` (the workspace, for its own detectors), a file that resolves outside that directory --
    a committed symbolic link, or a ``detectors`` directory that is one -- is refused, never read.
    """
    jail = Jail(inside) if inside is not None else None
    for path in catalogue_files(paths):
        if jail is not None and not jail.contains(path):
            problems.append(
                ErrorChain(
                    SourceRef(str(path)),
                    "this detector file leads outside the workspace (a symbolic link?); it is not read",
                    hint="keep the workspace's detectors as regular files under .second-brain/detectors/",
                )
            )
            continue
        try:
            definition = load_detector_file(
                path,
                pack=pack,
                known_tools=inputs.known_tools,
                triggers=inputs.triggers,
                mcp_servers=inputs.mcp_servers,
                environment=inputs.environment,
                on_warning=problems.append,
            )
        except CatalogueError as exc:
            problems.extend(exc.chains)
            continue
        if definition.id in detectors:
            problems.append(duplicate_error(definition.id, detectors[definition.id], definition))
            continue
        detectors[definition.id] = definition


def _replace_with(
    detectors: dict[str, DetectorDef], path: Path, inputs: _Inputs, result: EffectiveCatalogue
) -> bool:
    """Put ``path``'s detectors in place of ``detectors`` if it loads cleanly; whether it did."""
    replacement: dict[str, DetectorDef] = {}
    problems: list[ErrorChain] = []
    if not path.exists():
        problems.append(ErrorChain(SourceRef(str(path)), "catalogue.file does not exist"))
    else:
        _load_into(replacement, [path], CATALOGUE_FILE_PACK, inputs, problems)
        if not replacement and not problems:
            problems.append(ErrorChain(SourceRef(str(path)), "catalogue.file holds no detector files"))
    if any(chain.severity == "error" for chain in problems):
        result.problems.append(
            ErrorChain(
                SourceRef(str(path)),
                "catalogue.file is broken: falling back to the bundled catalogue",
                key="catalogue.file",
                hint="fix the problems below (`second-brain detectors validate PATH` lists them), "
                "or unset catalogue.file",
                severity="warning",
            )
        )
        result.problems.extend(chain.as_warning() for chain in problems)
        return False
    result.problems.extend(problems)
    detectors.clear()
    detectors.update(replacement)
    result.source = f"catalogue.file: {path}"
    return True


def _base_label(definition: DetectorDef) -> str:
    if definition.pack == CATALOGUE_FILE_PACK:
        return CATALOGUE_FILE_PACK
    if definition.pack == WORKSPACE_PACK:
        return "workspace detectors"
    return f"pack {definition.pack}"


@dataclass(frozen=True)
class _Override:
    """One requested ``detectors.<id>.<field>`` value, with its layer and where it was written."""

    field: str
    value: Any
    layer: str  # label: "global config", "workspace config", "local config" or "override"
    where: SourceRef


def _requested_overrides(
    config: ConfigView,
    extra: Mapping[str, Mapping[str, Any]] | None,
    detectors: Mapping[str, DetectorDef],
    problems: list[ErrorChain],
) -> dict[str, list[_Override]]:
    """Per detector id, the configuration's overrides in field order, then ``extra``."""
    configured = config.get("detectors", {}) or {}
    requested: dict[str, list[_Override]] = {}
    for detector_id in configured:
        for name, (value, layer) in config.detector_overrides(detector_id).items():
            where = _where(config, layer, ("detectors", detector_id, name))
            requested.setdefault(detector_id, []).append(_Override(name, value, f"{layer} config", where))
    for detector_id, fields in (extra or {}).items():
        for name, value in fields.items():
            where = SourceRef("overrides passed by the caller")
            requested.setdefault(detector_id, []).append(_Override(name, value, "override", where))
    for detector_id in sorted(requested):
        if detector_id not in detectors:
            first = requested.pop(detector_id)[0]
            close = difflib.get_close_matches(detector_id, sorted(detectors), n=1)
            problems.append(
                ErrorChain(
                    first.where,
                    f"overrides name detector {detector_id!r}, which no catalogue in force defines",
                    key=f"detectors.{detector_id}",
                    hint=f"Typo? did you mean {close[0]!r}?"
                    if close
                    else "`second-brain detectors list` shows the ids",
                    severity="warning",
                )
            )
    return requested


def _where(config: ConfigView, layer: str, path: tuple[str, ...]) -> SourceRef:
    """The file (and line) of a layer that set ``path``, or the layer's name when it has no file."""
    for candidate in getattr(config, "layers", ()):
        if candidate.name == layer and candidate.path is not None:
            return SourceRef(str(candidate.path), candidate.line_of(path))
    return SourceRef(f"{layer} config")


def _apply_overrides(
    definition: DetectorDef,
    layered: list[_Override],
    origins: dict[str, str],
    inputs: _Inputs,
    problems: list[ErrorChain],
) -> tuple[DetectorDef, dict[str, str]]:
    document = copy.deepcopy(definition.raw)
    new_origins = dict(origins)
    for override in layered:
        problem = _apply_field(document, override.field, override.value)
        if problem is not None:
            key = f"detectors.{definition.id}.{override.field}"
            dropped = _dropped(definition.id, layered, override)
            problems.append(ErrorChain(override.where, problem, definition.id, key, dropped))
            return definition, origins
        # config and a registered trigger's params merge into what was there; a trigger.match replaces it
        merged = override.field == "config" or (
            override.field == "trigger" and isinstance(override.value, Mapping) and "params" in override.value
        )
        previous = new_origins[override.field]
        new_origins[override.field] = f"{previous} + {override.layer}" if merged else override.layer
    try:
        updated = validate_detector_data(
            document,
            source=definition.source,
            pack=definition.pack,
            known_tools=inputs.known_tools,
            triggers=inputs.triggers,
            mcp_servers=inputs.mcp_servers,
            environment=inputs.environment,
            on_warning=problems.append,
        )
    except CatalogueError as exc:
        available, reason = _availability(definition, inputs)
        for chain in exc.chains:
            culprit = _culprit(layered, chain.key)
            problem = chain.problem
            if chain.key == "trigger.name" and not available:
                problem = f"cannot run this detector: its {reason}"
            problems.append(
                ErrorChain(
                    source=culprit.where,
                    problem=f"{problem}; this detector's overrides are ignored",
                    detector=definition.id,
                    key=f"detectors.{definition.id}.{chain.key}" if chain.key else None,
                    hint=_dropped(definition.id, layered, culprit, chain.hint),
                )
            )
        return definition, origins
    if new_origins.get("tools") in USER_LAYERS:
        updated = dataclasses.replace(updated, run_trusted=True)
    return updated, new_origins


def _dropped(
    detector_id: str, layered: list[_Override], culprit: _Override, hint: str | None = None
) -> str | None:
    """``hint``, then every override that a refused one takes down with it (layer, file:line) and how to
    remove the refused one; just ``hint`` when no override comes from a configuration file (a caller's)."""
    if all(o.layer == "override" for o in layered):
        return hint
    listed = ", ".join(f"{o.field} ({o.layer}, {o.where})" for o in layered)
    text = f"{DROPPED}: {listed}"
    flag = culprit.layer.removesuffix(" config")
    if flag in ("global", "workspace", "local"):
        text += f"; to remove it: second-brain config reset detectors.{detector_id}.{culprit.field} --{flag}"
    return f"{hint}\n{text}" if hint else text


def _culprit(layered: list[_Override], key: str | None) -> _Override:
    """The override a validation error is about: the one writing the failing key, else the last one.

    Enabling a detector surfaces problems in other keys (its trigger, say), so
    when no override wrote the key, ``enabled`` is the likeliest cause.
    """
    head = (key or "").split(".")[0].split("[")[0]
    for override in reversed(layered):
        if override.field == head or (head == "prompt_file" and override.field == "prompt"):
            return override
    enabling = [override for override in layered if override.field == "enabled"]
    return (enabling or layered)[-1]


def _apply_field(document: dict[str, Any], name: str, value: Any) -> str | None:
    """Write one override into the raw document; returns a problem instead when it cannot."""
    if name not in OVERRIDE_FIELDS:
        close = difflib.get_close_matches(name, OVERRIDE_FIELDS, n=1)
        suffix = f" (did you mean {close[0]!r}?)" if close else ""
        return f"{name!r} cannot be overridden{suffix}; overridable: {', '.join(OVERRIDE_FIELDS)}"
    if name == "prompt":
        document.pop("prompt_file", None)
        document["prompt"] = value
    elif name == "config":
        if not isinstance(value, Mapping):
            return "config overrides must be a mapping"
        document["config"] = merge_config(document.get("config", {}), value)
    elif name == "trigger":
        return _apply_trigger(document, value)
    else:
        document[name] = copy.deepcopy(value)
    return None


def _apply_trigger(document: dict[str, Any], value: Any) -> str | None:
    """A registered trigger's ``params`` merge key by key; a declarative ``match`` is replaced whole.

    A check is one piece (its selectors, absence and scope read together), so a layer restates it rather than
    patching one regex of it; it is then validated and compiled like the detector file's own.
    """
    trigger = document.get("trigger")
    if not isinstance(trigger, dict):
        return "this detector has no trigger to override"
    declarative = "match" in trigger
    if not isinstance(value, Mapping) or len(value) != 1 or set(value) - {"params", "match"}:
        return "override trigger.match (a declarative trigger) or trigger.params (a registered one)"
    if "match" in value:
        if not declarative:
            name = trigger.get("name")
            return f"this detector's trigger is {name!r}, not declarative: override trigger.params"
        trigger["match"] = copy.deepcopy(value["match"])
        return None
    if declarative:
        return "this detector's trigger is declarative: override trigger.match (the whole check)"
    trigger["params"] = merge_config(trigger.get("params", {}), value.get("params") or {})
    return None


def merge_config(base: Mapping[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    """``update`` merged into ``base`` (see the module docstring); neither argument is modified."""
    merged = copy.deepcopy(dict(base))
    for key, value in update.items():
        current = merged.get(key)
        if isinstance(current, Mapping) and isinstance(value, Mapping):
            merged[key] = merge_config(current, value)
        elif isinstance(current, list) and _id_list(current) and _id_list(value):
            merged[key] = _merge_by_id(current, value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def _id_list(value: Any) -> bool:
    return (
        isinstance(value, list) and bool(value) and all(isinstance(i, Mapping) and "id" in i for i in value)
    )


def _merge_by_id(base: list[Mapping[str, Any]], update: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    merged = [copy.deepcopy(dict(item)) for item in base]
    index = {item["id"]: position for position, item in enumerate(merged)}
    for item in update:
        if item["id"] in index:
            position = index[item["id"]]
            merged[position] = merge_config(merged[position], item)
        else:
            index[item["id"]] = len(merged)
            merged.append(copy.deepcopy(dict(item)))
    return merged


def _availability(definition: DetectorDef, inputs: _Inputs) -> tuple[bool, str | None]:
    """Whether the detector could run in this installation (a disabled one may name a missing trigger)."""
    trigger = definition.trigger
    if trigger is not None and trigger.name not in inputs.triggers:
        return (
            False,
            f"trigger {trigger.name!r} is not available in this version: no installed pack registers it",
        )
    return True, None
