"""The configuration layers: where each lives, and reading one without ever trusting it.

Precedence, lowest first: the schema's defaults, the user's global file, the
workspace file committed in the repository (shared by the team), and the local
file for this user in this workspace (kept in the data directory, never in the
repository). A key the schema rejects is reported with file, line and key and
held back alone (:mod:`sbcore.config.holdback`); a file that cannot be read as a
mapping at all is skipped as a whole. The file itself is left exactly as it was.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sbcore.config.holdback import Held, hold_back
from sbcore.config.schema import schema_issues
from sbcore.jail import Jail, JailError, NotFound
from sbcore.paths import config_dir, data_dir, workspace_key
from sbcore.problems import Problem
from sbcore.safefile import read_regular_text
from sbcore.safeyaml import MAX_YAML_CHARS
from sbcore.schemas import yamlpos

LayerName = Literal["default", "global", "workspace", "local"]
LAYERS: tuple[LayerName, ...] = ("default", "global", "workspace", "local")
WRITABLE: tuple[LayerName, ...] = ("global", "workspace", "local")

FILE_NAME = "config.yaml"
WORKSPACE_DIR = ".second-brain"


def find_workspace(start: Path) -> Path:
    """The workspace ``start`` belongs to: the nearest directory holding ``.second-brain/`` or ``.git``.

    Falls back to ``start`` itself, so a directory outside any repository is
    still a workspace of its own. Symlinks are resolved: the local layer is
    keyed by the real path.
    """
    here = Path(os.path.realpath(start))
    for candidate in (here, *here.parents):
        if (candidate / WORKSPACE_DIR).is_dir() or (candidate / ".git").exists():
            return candidate
    return here


def global_path() -> Path:
    """The user's global layer: ``<config dir>/config.yaml``."""
    return config_dir() / FILE_NAME


def workspace_path(workspace: Path) -> Path:
    """The team's layer, committed in the repository: ``<workspace>/.second-brain/config.yaml``."""
    return workspace / WORKSPACE_DIR / FILE_NAME


def local_dir(workspace: Path) -> Path:
    """This user's private state for one workspace, outside the repository."""
    return data_dir() / "workspaces" / workspace_key(workspace)


def local_path(workspace: Path) -> Path:
    """This user's layer for one workspace: ``<data dir>/workspaces/<workspace>/config.yaml``."""
    return local_dir(workspace) / FILE_NAME


def workspace_detector_dir(workspace: Path) -> Path:
    """Where a workspace keeps detectors of its own (pack name ``workspace``), no package needed."""
    return workspace / WORKSPACE_DIR / "detectors"


def layer_path(layer: LayerName, workspace: Path | None) -> Path | None:
    """The file behind a writable layer; None for defaults, or without a workspace for the repo layers."""
    if layer == "global":
        return global_path()
    if workspace is None or layer == "default":
        return None
    return workspace_path(workspace) if layer == "workspace" else local_path(workspace)


@dataclass(frozen=True)
class ConfigProblem:
    """Something wrong in the configuration, located as precisely as it can be."""

    message: str
    file: Path | None = None
    line: int | None = None
    key: str | None = None
    hint: str | None = None

    def to_problem(self) -> Problem:
        file = None if self.file is None else str(self.file)
        return Problem(self.message, file=file, line=self.line, key=self.key, fix=self.hint)

    def __str__(self) -> str:
        return self.to_problem().render()


Status = Literal["missing", "ok", "skipped"]


@dataclass
class LayerFile:
    """One layer as read from disk: its data when usable, its problems when not."""

    name: LayerName
    path: Path | None
    status: Status = "missing"
    data: dict[str, Any] = field(default_factory=dict)
    problems: list[ConfigProblem] = field(default_factory=list)
    lines: Mapping[tuple[str | int, ...], int] = field(default_factory=dict)
    held: list[Held] = field(default_factory=list)
    """Keys the schema rejected, taken out alone (the rest of the layer applies; see holdback)."""

    @property
    def used(self) -> bool:
        return self.status == "ok"

    def held_lines(self) -> list[str]:
        """One line a held-back key: ``gate.floor`` (the value below applies), or what it narrowed to."""
        lines = []
        for item in self.held:
            if item.narrowed:
                taken = ", ".join(f"{key} = {json.dumps(value)}" for key, value in item.narrowed.items())
                lines.append(f"{item.key}: held back, read at its narrowest ({taken})")
            else:
                lines.append(f"{item.key}: held back (the value below this layer applies)")
        return lines

    def line_of(self, path: tuple[str | int, ...]) -> int | None:
        """Line of the deepest part of ``path`` present in the file."""
        for end in range(len(path), 0, -1):
            found = self.lines.get(tuple(path[:end]))
            if found is not None:
                return found
        return None


def read_text(path: Path) -> str | None:
    """A layer file's text, or None when it does not exist.

    A FIFO or a device is refused (``NotRegularFile``, an ``OSError``) rather than opened, and so is a
    file over the YAML size limit: neither can hang or exhaust ``config show`` or the worker."""
    try:
        return read_regular_text(path, max_bytes=MAX_YAML_CHARS)
    except FileNotFoundError:
        return None


def read_workspace_text(path: Path) -> str | None:
    """The workspace layer's text, read through the workspace's jail, or None when it does not exist.

    The file is the repository's, so it is read only where it resolves inside the repository: a layer
    committed as a link out of it (or in a ``.second-brain/`` that is one) is refused. The approval hashes
    what is inside the repository; content behind a link out could change without withdrawing it, and
    the link could pull in any file the user can read."""
    root = path.parent.parent
    try:
        return Jail(root).read_file(os.path.relpath(path, root), max_bytes=MAX_YAML_CHARS)[1].decode("utf-8")
    except NotFound:
        return None
    except ValueError as exc:  # a root the jail will not stand on (the filesystem's own root)
        raise JailError(str(exc)) from None


def read_layer(name: LayerName, path: Path | None) -> LayerFile:
    """Read and validate one layer file. Never raises for bad content: problems skip the layer."""
    layer = LayerFile(name, path)
    if path is None:
        return layer
    try:
        text = read_workspace_text(path) if name == "workspace" else read_text(path)
    except JailError as exc:
        root = os.path.realpath(path.parent.parent)
        out = os.path.commonpath([root, os.path.realpath(path)]) != root  # a link leading out
        hint = "commit the layer as a file in the repository, not a link leading out of it" if out else None
        return _skip(layer, [ConfigProblem(f"cannot read the file: {exc}", file=path, hint=hint)])
    except (OSError, UnicodeDecodeError) as exc:
        return _skip(layer, [ConfigProblem(f"cannot read the file: {exc}", file=path)])
    if text is None:
        return layer
    return parse_layer(layer, text)


def parse_layer(layer: LayerFile, text: str) -> LayerFile:
    """Fill ``layer`` from ``text``: its data, key lines, and any problems (which mark it skipped)."""
    path = layer.path
    try:
        located = yamlpos.load(text)
    except yamlpos.YamlSyntaxError as exc:
        problem = ConfigProblem(f"not valid YAML: {exc.message}", file=path, line=exc.line)
        return _skip(layer, [problem])
    layer.lines = {key: position.line for key, position in located.positions.items()}
    if located.problems:
        problems = [
            ConfigProblem(
                p.message,
                file=path,
                line=p.line,
                key=".".join(map(str, p.path)) or None,
                hint=p.hint,
            )
            for p in located.problems
        ]
        return _skip(layer, problems)
    data = located.data
    if data is None:
        layer.status = "ok"
        return layer
    if not isinstance(data, dict):
        problem = ConfigProblem(
            "expected a mapping of groups (projection:, gate:, ...) at the top of the file",
            file=path,
            line=located.start_line,
        )
        return _skip(layer, [problem])
    issues = schema_issues(data)
    if issues:
        problems = [
            ConfigProblem(
                issue.message,
                file=path,
                line=layer.line_of(issue.path) or located.start_line,
                key=issue.key or None,
                hint=issue.hint,
            )
            for issue in issues
        ]
        kept = hold_back(data, issues)
        if kept is None:
            return _skip(layer, problems)
        data, layer.held = kept
        layer.problems = problems
    layer.data = data
    layer.status = "ok"
    return layer


def _skip(layer: LayerFile, problems: list[ConfigProblem]) -> LayerFile:
    layer.status = "skipped"
    layer.data = {}
    layer.problems = problems
    return layer
