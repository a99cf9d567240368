"""The effective configuration: every layer merged, each value traceable to its layer.

Merging is deliberately simple. A mapping in a higher layer merges key by key
into the mapping below it; anything else (a number, a list, a string, or a
mapping the schema marks ``x-merge: replace``) replaces the lower value whole.
A knob you cannot trace is a knob you cannot trust, so every path remembers
the last layer that wrote it.
"""

from __future__ import annotations

import copy
import logging
import operator
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sbcore.config.layers import (
    LAYERS,
    ConfigProblem,
    LayerFile,
    LayerName,
    layer_path,
    read_layer,
    workspace_detector_dir,
)
from sbcore.config.schema import (
    Path_,
    Schema,
    child_schema,
    config_schema,
    defaults,
    groups,
    is_map,
    is_record,
    replaces_whole,
    resolve_key,
)
from sbcore.config.trust import WorkspaceTrust, assess, record_path, split

log = logging.getLogger("sbcore.config")

MISSING: Any = object()  # sentinel: no value at that path

# (path, mtime_ns, size, inode); None fields when the path does not exist.
Stamp = tuple[str, int | None, int | None, int | None]
Fingerprint = tuple[Stamp, ...]


@dataclass(frozen=True)
class Invariant:
    """A relation between two knobs that no single-key range can express."""

    low: str
    relation: str  # "<" or "<="
    high: str
    why: str

    def holds(self, low: Any, high: Any) -> bool:
        compare: Callable[[Any, Any], bool] = operator.lt if self.relation == "<" else operator.le
        return compare(low, high)


INVARIANTS: tuple[Invariant, ...] = (
    Invariant(
        "loop.min_interval_s",
        "<=",
        "loop.max_interval_s",
        "the clock ceiling cannot come before the clock floor",
    ),
    Invariant(
        "window.compaction_floor",
        "<",
        "window.compaction_threshold",
        "a compaction must leave the window below the level that triggers one, or it compacts on every pass",
    ),
    Invariant(
        "gate.human_floor",
        "<=",
        "gate.confidence_floor",
        "advice confident enough for the agent is always confident enough to show the user",
    ),
    Invariant(
        "gate.confidence_floor",
        "<=",
        "finish_gate.confidence_floor",
        "continuing a finished turn needs at least the confidence ordinary advice needs",
    ),
)


class Merged:
    """A merged document plus the layer that last wrote each path."""

    def __init__(self) -> None:
        self.data: dict[str, Any] = {}
        self.origin: dict[Path_, LayerName] = {}

    def apply(self, layer: LayerName, document: dict[str, Any]) -> None:
        self._apply(self.data, (), document, layer, config_schema())

    def _apply(
        self,
        target: dict[str, Any],
        path: Path_,
        document: dict[str, Any],
        layer: LayerName,
        schema: Schema | None,
    ) -> None:
        for key, value in document.items():
            here = (*path, key)
            sub = child_schema(schema, key)
            current = target.get(key)
            if isinstance(value, dict) and isinstance(current, dict) and not replaces_whole(sub):
                if value:
                    self.origin[here] = layer
                self._apply(current, here, value, layer, sub)
                continue
            for stale in [p for p in self.origin if p[: len(here)] == here]:
                del self.origin[stale]
            target[key] = copy.deepcopy(value)
            self._mark(here, value, layer)

    def _mark(self, path: Path_, value: Any, layer: LayerName) -> None:
        self.origin[path] = layer
        if isinstance(value, dict):
            for key, sub in value.items():
                self._mark((*path, key), sub, layer)


def merge(layers: Sequence[tuple[LayerName, dict[str, Any]]]) -> Merged:
    """Defaults, then each ``(layer, document)`` in order of precedence."""
    merged = Merged()
    merged.apply("default", defaults())
    for name, document in layers:
        merged.apply(name, document)
    return merged


def lookup(data: Any, path: Path_) -> Any:
    """The value at ``path``, or ``MISSING``."""
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return MISSING
        data = data[part]
    return data


def broken_invariants(merged: Merged) -> list[tuple[Invariant, Any, Any]]:
    """Each invariant the merged values break, with the two values."""
    broken = []
    for rule in INVARIANTS:
        low = lookup(merged.data, tuple(rule.low.split(".")))
        high = lookup(merged.data, tuple(rule.high.split(".")))
        if not rule.holds(low, high):
            broken.append((rule, low, high))
    return broken


def invariant_message(rule: Invariant, low: Any, high: Any, merged: Merged) -> str:
    """``loop.max_interval_s (60, local) must be at least loop.min_interval_s (120, default): why``."""
    low_origin = merged.origin.get(tuple(rule.low.split(".")), "default")
    high_origin = merged.origin.get(tuple(rule.high.split(".")), "default")
    relation = "below" if rule.relation == "<" else "at most"
    return (
        f"{rule.low} ({low}, from {low_origin}) must be {relation} {rule.high} ({high}, from {high_origin}): "
        f"{rule.why}"
    )


def _stamp(path: Path) -> Stamp:
    try:
        status = os.stat(path)
    except OSError:
        return (str(path), None, None, None)
    return (str(path), status.st_mtime_ns, status.st_size, status.st_ino)


def _stamps(root: Path) -> list[Stamp]:
    """A file's stamp, or a directory's and that of every file beneath it."""
    stamps = [_stamp(root)]
    if root.is_dir():
        for directory, subdirs, files in os.walk(root):
            subdirs.sort()
            stamps.extend(_stamp(Path(directory) / name) for name in sorted(files))
            stamps.extend(_stamp(Path(directory) / name) for name in subdirs)
    return stamps


class EffectiveConfig:
    """The configuration in force for one workspace (or for none: defaults and global only).

    Read-only: ``get`` and friends return copies. A long-lived worker keeps one
    and calls ``changed()`` at each pass boundary; that costs a few ``stat``
    calls, and only when it is true does the worker pay for ``load_config``.
    """

    def __init__(
        self,
        workspace: Path | None,
        layers: Sequence[LayerFile],
        merged: Merged,
        layer_stamps: Sequence[Stamp] | None = None,
        trust: WorkspaceTrust | None = None,
    ) -> None:
        self.workspace = workspace
        self.layers = tuple(layers)
        self._merged = merged
        self.trust = trust
        """The workspace layer's trust state (None without a workspace): what it asks, what is held back."""
        # Layer files are stamped by the caller *before* reading them, so an
        # edit racing the read shows up as a change rather than being missed.
        layer_part = tuple(layer_stamps) if layer_stamps is not None else self._layer_stamps()
        self._loaded = layer_part + self._content_stamps()

    # -- values ---------------------------------------------------------------------------------

    def get(self, key: str, default: Any = MISSING) -> Any:
        """The effective value of a dotted key. Unknown keys raise; unset map entries return ``default``."""
        value = lookup(self._merged.data, resolve_key(key).path)
        if value is MISSING:
            if default is MISSING:
                raise KeyError(f"{key} is not set in any layer")
            return default
        return copy.deepcopy(value)

    def layer_of(self, key: str) -> LayerName:
        """``default``, ``global``, ``workspace`` or ``local``: the highest layer that set (part of) it."""
        path = resolve_key(key).path
        origin = self._merged.origin.get(path)
        if origin is None:
            raise KeyError(f"{key} is not set in any layer")
        return origin

    def group(self, name: str) -> dict[str, Any]:
        """One group's effective values (``group("projection")``)."""
        value = self.get(name)
        if not isinstance(value, dict) or len(resolve_key(name).path) != 1:
            raise KeyError(f"{name} is not a group")
        return value

    def as_dict(self) -> dict[str, Any]:
        """The whole effective configuration, as plain JSON-ready data."""
        return copy.deepcopy(self._merged.data)

    def detector_overrides(self, detector_id: str) -> dict[str, tuple[Any, LayerName]]:
        """``{field: (value, layer)}`` for every field some layer overrides for this detector."""
        entry = self._merged.data["detectors"].get(detector_id, {})
        return {
            name: (copy.deepcopy(value), self._merged.origin[("detectors", detector_id, name)])
            for name, value in entry.items()
        }

    def rows(self) -> Iterator[tuple[str, Any, LayerName]]:
        """``(key, value, layer)`` for every knob and every user-keyed entry, in documentation order."""
        data, origin = self._merged.data, self._merged.origin
        for group in groups():
            if not is_record(group.schema):
                entries = data.get(group.name, {})
                if not entries:
                    yield group.name, {}, origin.get((group.name,), "default")
                for entry, fields in entries.items():
                    for name, value in fields.items():
                        path = (group.name, entry, name)
                        yield ".".join(path), copy.deepcopy(value), origin[path]
                continue
            for knob in group.knobs:
                value = data[group.name][knob.name]
                if is_map(knob.schema) and value:
                    for entry, sub in value.items():
                        path = (*knob.path, entry)
                        yield ".".join(path), copy.deepcopy(sub), origin[path]
                else:
                    yield knob.key, copy.deepcopy(value), origin[knob.path]

    # -- derived answers ------------------------------------------------------------------------

    def is_enabled(self) -> bool:
        """Whether this workspace is observed: its ``enable.workspaces`` entry, else ``enable.default``."""
        if self.workspace is not None:
            real = os.path.realpath(self.workspace)
            for entry, value in self._merged.data["enable"]["workspaces"].items():
                if os.path.realpath(os.path.expanduser(entry)) == real:
                    return bool(value)
        return bool(self._merged.data["enable"]["default"])

    def catalogue_file(self) -> Path | None:
        """``catalogue.file`` as an absolute path (workspace-layer paths are relative to the workspace)."""
        value = self._merged.data["catalogue"]["file"]
        if not value:
            return None
        path = Path(os.path.expanduser(value))
        if not path.is_absolute():
            origin = self._merged.origin.get(("catalogue", "file"))
            base = self.workspace if origin == "workspace" and self.workspace is not None else Path.cwd()
            path = base / path
        return path

    def workspace_trusted(self) -> bool:
        """Whether the workspace layer's capabilities and voice apply (true when there is no workspace)."""
        return self.trust is None or self.trust.trusted

    def held_detector_files(self) -> frozenset[Path]:
        """Workspace detector files ignored until the workspace is trusted (they carry a capability)."""
        return frozenset() if self.trust is None or self.trust.trusted else self.trust.held_detector_files

    def workspace_detector_dir(self) -> Path | None:
        """``<workspace>/.second-brain/detectors`` (whether or not it exists); None without a workspace."""
        return None if self.workspace is None else workspace_detector_dir(self.workspace)

    # -- trouble --------------------------------------------------------------------------------

    @property
    def problems(self) -> list[ConfigProblem]:
        """Every problem: broken layer files (which were skipped) and knobs that contradict each other."""
        return [problem for layer in self.layers for problem in layer.problems] + self.conflicts

    @property
    def conflicts(self) -> list[ConfigProblem]:
        """Knobs whose effective values contradict each other (reported, not corrected)."""
        found = []
        for rule, low, high in broken_invariants(self._merged):
            key = max((rule.low, rule.high), key=lambda k: LAYERS.index(self._origin_of(k)))
            layer = self._origin_of(key)
            file = next((f for f in self.layers if f.name == layer), None)
            found.append(
                ConfigProblem(
                    invariant_message(rule, low, high, self._merged),
                    file=file.path if file else None,
                    line=file.line_of(tuple(key.split("."))) if file else None,
                    key=key,
                )
            )
        return found

    def _origin_of(self, key: str) -> LayerName:
        return self._merged.origin.get(tuple(key.split(".")), "default")

    # -- change detection -----------------------------------------------------------------------

    def fingerprint(self) -> Fingerprint:
        """Stat stamps of everything this configuration was read from, taken now.

        The layer files, the workspace's detector directory (every file in it),
        ``catalogue.file`` (every file beneath it when it is a directory), the
        user's trust record for the workspace and every repository file the
        workspace's capabilities name (so trusting, or a changed MCP script,
        takes effect at the next pass boundary).
        The inode is included so an atomic replace of an equally sized file
        within one mtime tick still shows.
        """
        return self._layer_stamps() + self._content_stamps()

    def _layer_stamps(self) -> Fingerprint:
        return layer_stamps(self.layers)

    def _content_stamps(self) -> Fingerprint:
        stamps: list[Stamp] = []
        detector_dir = self.workspace_detector_dir()
        if detector_dir is not None:
            stamps.extend(_stamps(detector_dir))
        catalogue = self.catalogue_file()
        if catalogue is not None:
            stamps.extend(_stamps(catalogue))
        if self.workspace is not None:
            stamps.append(_stamp(record_path(self.workspace)))
        if self.trust is not None:
            stamps.extend(_stamp(path) for path in self.trust.files)
        return tuple(stamps)

    def changed(self) -> bool:
        """Whether anything behind this configuration changed since it was loaded."""
        return self.fingerprint() != self._loaded


def layer_stamps(layers: Sequence[LayerFile]) -> Fingerprint:
    """Stamps of the layer files (present or not)."""
    return tuple(_stamp(layer.path) for layer in layers if layer.path is not None)


def read_layers(workspace: Path | None) -> list[LayerFile]:
    """The three file layers for ``workspace``, read and validated (missing ones are empty)."""
    return [read_layer(name, layer_path(name, workspace)) for name in LAYERS[1:]]


def load_config(workspace: Path | None = None, *, as_untrusted: bool = False) -> EffectiveConfig:
    """Merge defaults, global, workspace and local layers into the configuration in force.

    With ``workspace=None`` only the defaults and the global layer apply. The
    workspace layer's capability and voice keys apply only when the user
    trusted its exact content (:mod:`sbcore.config.trust`); otherwise they are
    held back and listed in ``config.trust``; ``as_untrusted`` reads it so even when
    it is trusted (what applies once the approval lapses). Never
    raises for bad configuration: each key the schema rejects is held back alone (a
    layer that is not a mapping at all is skipped), and the problems are logged
    (``sbcore.config``) and listed in ``EffectiveConfig.problems``.
    """
    root = Path(os.path.realpath(workspace)) if workspace is not None else None
    before = tuple(_stamp(path) for name in LAYERS[1:] if (path := layer_path(name, root)) is not None)
    layers = read_layers(root)
    trust = None
    documents = [(layer.name, layer.data) for layer in layers if layer.used]
    if root is not None:
        team = next(layer for layer in layers if layer.name == "workspace")
        trust = assess(root, team)
        if not trust.trusted or as_untrusted:
            documents = [(name, split(team) if name == "workspace" else data) for name, data in documents]
    merged = merge(documents)
    config = EffectiveConfig(root, layers, merged, before, trust)
    for layer in layers:
        if layer.status == "skipped":
            details = "\n".join(str(problem) for problem in layer.problems)
            log.warning("configuration layer %s is skipped:\n%s", layer.name, details)
        elif layer.held:
            details = "\n".join(str(problem) for problem in layer.problems)
            held = "\n".join(layer.held_lines())
            log.warning(
                "configuration layer %s: keys held back, the rest applies:\n%s\n%s", layer.name, held, details
            )
    for problem in config.conflicts:
        log.warning("configuration conflict: %s", problem)
    return config
