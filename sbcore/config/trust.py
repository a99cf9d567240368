"""Workspace trust: the repository's layer asks, the user grants, for that exact content only.

A cloned repository's ``.second-brain/`` (``config.yaml`` and ``detectors/``)
is someone else's input. Its ``safe`` keys always apply; its ``capability``,
``consent`` and ``voice`` keys (see :mod:`sbcore.config.trustclass`) apply only once the
user ran ``second-brain trust`` in that workspace, which records a SHA-256 of
the layer's exact content in the user's own state
(``<data dir>/workspaces/<workspace>/trust.json``, 0600). The digest covers
the layer file, every file under ``.second-brain/detectors/`` and every file
of the repository a capability names (an MCP server's script, a Run target,
a prompt file, a catalogue), so changing any of them — by hand or by a
``git pull`` — makes the layer untrusted again until it is re-approved.
The global and local layers are the user's own and always trusted, and so
are packs installed with pip (code the user chose to install).
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import stat
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore.config import user_act
from sbcore.config.layers import LayerFile, local_dir, workspace_detector_dir, workspace_path
from sbcore.config.schema import child_schema, config_schema
from sbcore.config.trust_reach import inside, reach
from sbcore.config.trustclass import (
    TrustClass,
    capability_grants,
    detector_key_class,
    value_class,
)
from sbcore.paths import write_private
from sbcore.problems import SbcoreError
from sbcore.safefile import read_regular_text
from sbcore.safeyaml import MAX_YAML_CHARS
from sbcore.schemas import yamlpos

RECORD_NAME = "trust.json"
RECORD_VERSION = 1
DETECTOR_SUFFIXES = (".yaml", ".yml")


def trust_command(workspace: Path) -> str:
    """The command that trusts ``workspace``, to print beside anything it would enable."""
    return f"second-brain trust -C {shlex.quote(str(workspace))}"


@dataclass(frozen=True)
class Request:
    """One thing the workspace layer asks for that needs trust: a key, where it is written, its class."""

    key: str
    file: Path
    line: int | None
    klass: TrustClass
    effect: str  # "ignored" (held back) or "log-only" (runs, never delivers)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line is not None else str(self.file)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "file": str(self.file),
            "line": self.line,
            "class": self.klass,
            "effect": self.effect,
        }


@dataclass(frozen=True)
class WorkspaceTrust:
    """Whether one workspace's layer is trusted, and what it asks for.

    ``requests`` lists every capability and voice key of the layer (what
    ``trust`` would grant); ``trusted`` says whether the recorded digest
    matches the content now; ``recorded`` that some approval exists (for an
    older content when not trusted). ``held_detector_files`` are the
    workspace detector files that carry a capability, ignored whole while
    untrusted. ``files`` are the repository files the digest covers.
    """

    workspace: Path
    digest: str
    trusted: bool
    recorded: bool
    requests: tuple[Request, ...] = ()
    files: tuple[Path, ...] = ()
    held_detector_files: frozenset[Path] = field(default_factory=frozenset)
    refusals: tuple[str, ...] = ()
    """Why this content cannot be trusted as it is (:mod:`sbcore.config.trust_reach`): nothing is granted."""

    @property
    def needed(self) -> bool:
        """Whether the layer asks for anything that only trust grants."""
        return bool(self.requests)

    @property
    def ignored(self) -> list[Request]:
        """What is held back right now (nothing once trusted)."""
        return [] if self.trusted else [r for r in self.requests if r.effect == "ignored"]

    @property
    def log_only(self) -> list[Request]:
        """What runs but may not deliver right now (nothing once trusted)."""
        return [] if self.trusted else [r for r in self.requests if r.effect == "log-only"]

    @property
    def command(self) -> str:
        return trust_command(self.workspace)

    def summary(self) -> str | None:
        """One line for logs and the status file, or None when nothing is held back."""
        if self.trusted or not self.needed:
            return None
        keys = ", ".join(sorted({r.key for r in self.requests}))
        again = " (it changed since you trusted it)" if self.recorded else ""
        return (
            f"workspace {self.workspace} is not trusted{again}: ignored or log-only until you run "
            f"`{self.command}`: {keys}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "workspace": str(self.workspace),
            "trusted": self.trusted,
            "changed_since_trusted": self.recorded and not self.trusted,
            "command": self.command,
            "ignored": [r.to_json() for r in self.ignored],
            "log_only": [r.to_json() for r in self.log_only],
            "refusals": list(self.refusals),
        }


def record_path(workspace: Path) -> Path:
    """Where the user's approval of ``workspace`` is kept: beside its local layer, outside the repository."""
    return local_dir(workspace) / RECORD_NAME


# -- what the layer asks for ---------------------------------------------------------------------


def _held(path: tuple[str, ...], value: Any) -> TrustClass | None:
    """The class that holds ``value`` at ``path`` back in an untrusted layer; None when it applies there."""
    klass = value_class(path, value)
    if klass in ("capability", "consent"):
        return klass
    if klass == "voice" and path[0] != "detectors":
        return klass
    return None


def _declares(path: tuple[str, ...]) -> bool:
    schema: Any = config_schema()
    for part in path:
        schema = child_schema(schema, part)
        if schema is None:
            return True
    return "x-trust" in schema


def _walk(data: Mapping[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every path down to the level where the schema declares a class (knob, detector field)."""
    for key, value in data.items():
        here = (*path, str(key))
        if isinstance(value, Mapping) and not _declares(here):
            yield from _walk(value, here)
        else:
            yield here, value


def config_requests(layer: LayerFile) -> list[Request]:
    """The capability and voice keys of a workspace layer file (its data before any split)."""
    if layer.path is None:
        return []
    found = []
    for path, value in _walk(layer.data):
        held = _held(path, value)
        if held is not None:
            found.append(Request(".".join(path), layer.path, layer.line_of(path), held, "ignored"))
        elif value_class(path, value) == "voice":
            found.append(Request(".".join(path), layer.path, layer.line_of(path), "voice", "log-only"))
    return found


def split(layer: LayerFile) -> dict[str, Any]:
    """The layer's data without what an untrusted layer may not set (capabilities, top-level voice)."""

    def prune(node: Mapping[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
        kept: dict[str, Any] = {}
        for key, value in node.items():
            here = (*path, str(key))
            if isinstance(value, Mapping) and not _declares(here):
                inner = prune(value, here)
                if inner or not value:
                    kept[key] = inner
            elif _held(here, value) is None:
                kept[key] = value
        return kept

    return prune(layer.data, ())


@dataclass(frozen=True)
class _DetectorFile:
    path: Path
    data: Mapping[str, Any]
    lines: Mapping[tuple[str | int, ...], int]


def _detector_files(workspace: Path) -> list[_DetectorFile]:
    directory = workspace_detector_dir(workspace)
    try:
        names = sorted(p for p in directory.iterdir() if p.suffix in DETECTOR_SUFFIXES)
    except OSError:
        return []
    found = []
    for path in names:
        try:
            if not path.is_file():
                continue
            # read as the layers are: a regular file only, up to the YAML size limit
            located = yamlpos.load(read_regular_text(path, max_bytes=MAX_YAML_CHARS))
        except (OSError, UnicodeDecodeError, yamlpos.YamlSyntaxError):
            continue  # the catalogue reports it; a file that does not load grants nothing
        data = located.data if isinstance(located.data, Mapping) else {}
        lines = {key: position.line for key, position in located.positions.items()}
        found.append(_DetectorFile(path, data, lines))
    return found


def _reads_outside(workspace: Path, item: _DetectorFile) -> list[str]:
    """A ``prompt_file`` that leads out of the repository (by ``..`` or a symlink) reads outside it."""
    name = item.data.get("prompt_file")
    if not isinstance(name, str):
        return []
    target = item.path.parent / os.path.expanduser(name)
    if inside(target, workspace) is not None:
        return []
    return [f"prompt_file: {name} (outside the repository)"]


def detector_requests(workspace: Path, files: list[_DetectorFile]) -> tuple[list[Request], frozenset[Path]]:
    """What each workspace detector file asks for; the files held back whole (they carry a capability)."""
    found: list[Request] = []
    held: set[Path] = set()
    for item in files:
        ident = str(item.data.get("id") or item.path.stem)
        grants = capability_grants(item.data.get("tools"))
        outside = _reads_outside(workspace, item)
        for what in outside:
            found.append(
                Request(
                    f"detector {ident}: {what}",
                    item.path,
                    item.lines.get(("prompt_file",)),
                    "capability",
                    "ignored",
                )
            )
        others = [
            key
            for key in item.data
            if key != "tools" and isinstance(key, str) and detector_key_class(key) == "capability"
        ]
        if grants or others or outside:
            held.add(item.path)
            for grant in grants:
                line = item.lines.get(("tools",))
                found.append(
                    Request(f"detector {ident}: tools: {grant}", item.path, line, "capability", "ignored")
                )
            for key in others:
                found.append(
                    Request(
                        f"detector {ident}: {key}", item.path, item.lines.get((key,)), "capability", "ignored"
                    )
                )
            continue
        line = item.lines.get(("id",))
        found.append(Request(f"detector {ident}", item.path, line, "voice", "log-only"))
    return found, frozenset(held)


# -- the digest and the record ---------------------------------------------------------------------


MAX_LAYER_FILES = 1024
"""The most files ``.second-brain/detectors/`` may hold for an approval to cover them (a detector's YAML, its
prompts): the walk stops past it, so a folder of a hundred thousand files cannot slow every command."""
MAX_HASHED_BYTES = 64 * 1024 * 1024
"""The most bytes an approval reads to cover its files, all together: past it the rest is not read and the
approval is refused, so a huge file (or a sparse one) committed beside the detectors cannot stall every
command that loads the configuration."""


@dataclass
class _Budget:
    """What hashing may still read; ``over``: a file it could not read whole."""

    left: int = MAX_HASHED_BYTES
    over: list[str] = field(default_factory=list)


def _feed(digest: Any, workspace: Path, path: Path, budget: _Budget) -> None:
    """Hash one file with its path relative to the workspace.

    A symlink counts by its target's name and, when that target is a regular
    file inside the workspace, by its content too (so editing the target
    withdraws the approval). Anything that is not a regular file (a FIFO, a
    device) counts by its kind alone and is never opened, so hashing cannot
    block or read outside the repository. A file past what is left of the
    ``budget`` counts by its size alone and is named in ``budget.over``.
    """
    digest.update(b"\0path\0" + os.fsencode(os.path.relpath(path, workspace)))
    try:
        status = os.lstat(path)
        if stat.S_ISLNK(status.st_mode):
            digest.update(b"\0link\0" + os.fsencode(os.readlink(path)))
            target = inside(path, workspace)
            if target is None or not target.is_file():
                return
            path = target
        elif not stat.S_ISREG(status.st_mode):
            digest.update(b"\0kind\0" + str(stat.S_IFMT(status.st_mode)).encode())
            return
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
        with open(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # swapped for something else meanwhile
                digest.update(b"\0kind\0changed")
                return
            size = os.fstat(descriptor).st_size
            if size > budget.left:
                digest.update(b"\0toolarge\0" + str(size).encode())
                budget.over.append(os.path.relpath(path, workspace))
                return
            budget.left -= size
            for chunk in iter(lambda: handle.read(1 << 16), b""):
                digest.update(chunk)
    except OSError as error:
        digest.update(b"\0unreadable\0" + str(error.errno).encode())


def _layer_files(workspace: Path) -> tuple[list[Path], bool]:
    """The layer file and what ``.second-brain/detectors/`` holds; whether that held more than
    :data:`MAX_LAYER_FILES` (the walk stops there)."""
    files = [workspace_path(workspace)]
    directory = workspace_detector_dir(workspace)
    for root, subdirs, names in os.walk(directory):
        subdirs.sort()
        files.extend(Path(root) / name for name in sorted(names))
        if len(files) > MAX_LAYER_FILES + 1:
            return files[: MAX_LAYER_FILES + 1], True
    return files, False


def content_digest(workspace: Path, named: list[Path]) -> tuple[str, list[str]]:
    """SHA-256 over the layer file, everything under ``.second-brain/detectors/`` and the named files, and
    what keeps that from being covered: too many files, or more bytes than an approval reads."""
    digest = hashlib.sha256(b"sbcore-workspace-trust-v1")
    layer_files, too_many = _layer_files(workspace)
    budget = _Budget()
    for path in [*layer_files, *named]:
        _feed(digest, workspace, path, budget)
    refusals = []
    if too_many:
        refusals.append(
            f"{workspace_detector_dir(workspace)} holds more than {MAX_LAYER_FILES} files, more than an "
            "approval covers: keep only the detectors and their prompts there"
        )
    if budget.over:
        refusals.append(
            f"the files an approval covers hold more than {MAX_HASHED_BYTES // (1024 * 1024)} MiB, past "
            f"which they are not read: {', '.join(budget.over[:3])}{' …' if len(budget.over) > 3 else ''}"
        )
    return digest.hexdigest(), refusals


def read_record(workspace: Path) -> dict[str, Any] | None:
    """The user's recorded approval of ``workspace``, or None."""
    try:
        document = json.loads(record_path(workspace).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("v") != RECORD_VERSION:
        return None
    return document


def assess(workspace: Path, layer: LayerFile) -> WorkspaceTrust:
    """The trust state of ``workspace``'s layer as it is on disk now (``layer``: its file, already read)."""
    detectors = _detector_files(workspace)
    requests = config_requests(layer) if layer.used else []
    found, held = detector_requests(workspace, detectors)
    requests += found
    reached = reach(
        workspace, layer.data if layer.used else {}, [(item.path, item.data) for item in detectors]
    )
    files = sorted(reached.files)
    digest, uncovered = content_digest(workspace, files)
    refusals = (*reached.refusals, *uncovered)
    record = read_record(workspace)
    recorded = record is not None
    trusted = record is not None and record.get("digest") == digest and not refusals
    return WorkspaceTrust(workspace, digest, trusted, recorded, tuple(requests), tuple(files), held, refusals)


class TrustRefused(SbcoreError, PermissionError):
    """Trust was asked for by something that cannot stand for the user (see :mod:`sbcore.config.user_act`)."""


def grant(state: WorkspaceTrust) -> Path:
    """Record the user's approval of exactly the content ``state`` was assessed from.

    Only the user grants: the same check ``second-brain trust`` makes runs here, so a process an agent
    started cannot reach the approval by importing this module instead of running the command."""
    why = user_act.refusal()
    if why is not None:
        raise TrustRefused(f"second-brain trust: refused: {why}")
    if state.refusals:
        raise TrustRefused("second-brain trust: refused: " + "; ".join(state.refusals))
    path = record_path(state.workspace)
    document = {
        "v": RECORD_VERSION,
        "workspace": str(state.workspace),
        "digest": state.digest,
        "granted_at": time.time(),
        "granted": [r.to_json() for r in state.requests],
        "files": [str(p) for p in state.files],
    }
    write_private(path, json.dumps(document, indent=1, sort_keys=True).encode() + b"\n")
    return path


def revoke(workspace: Path) -> bool:
    """Forget the approval of ``workspace``; whether there was one."""
    try:
        record_path(workspace).unlink()
    except FileNotFoundError:
        return False
    return True
