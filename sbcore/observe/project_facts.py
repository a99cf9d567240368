"""What the project itself shows: its files' names and the scripts its manifests define, read as text.

The structural triggers otherwise know a project only from what the session happened to show: a checklist
that asks "were the tests run?" only where a test file was seen never asks in a project whose test folder
the agent never listed, and ``npm run check`` cannot be tied to the command it runs. This reader answers
those questions from the checkout itself, within bounds that a hostile repository cannot stretch:

- **Read-only, nothing run.** Directory entries are listed and a few manifest files read as text (JSON with
  the standard library's reader, TOML with ``tomllib``, Makefiles and justfiles line by line). Nothing is
  executed, expanded by a shell, imported or fetched; a script's body is kept as the words it says.
- **Jailed.** Links are never followed (a linked file or folder is neither listed into nor read), only
  regular files are read (no FIFO, device or socket), and nothing outside the root is touched.
- **Bounded.** At most :data:`MAX_ENTRIES` entries, :data:`MAX_DEPTH` folders deep, manifests of at most
  :data:`MAX_FILE_BYTES` each and :data:`MAX_TOTAL_BYTES` in all, and :data:`MAX_SECONDS` of wall time; past a
  bound the reading stops and says so (``truncated``), keeping what it found.
- **Cached.** One reading per root, read again only when the root or a manifest it read has changed
  (their modification times), so a pass pays a few ``stat`` calls.

Facts never reach a model's window as such; a trigger that quotes one (a path, a script) passes it through
the redactor like any evidence. The hooks never import this module.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sbcore.safefile import read_regular_text

MAX_ENTRIES = 4000
MAX_DEPTH = 4
MAX_FILE_BYTES = 256 * 1024
MAX_TOTAL_BYTES = 1024 * 1024
MAX_SECONDS = 1.0
MAX_SCRIPTS = 200

# Folders that hold what others wrote or what a build made: listing them says nothing about the project.
SKIPPED = frozenset(
    {".git", ".hg", ".svn", "node_modules", "vendor", "target", "dist", "build", "_build", ".venv", "venv"}
    | {
        "__pycache__",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".gradle",
        ".dart_tool",
        "deps",
        "zig-out",
    }
    | {".stack-work", "dist-newstyle", "_opam", ".build", "Pods", ".next", ".cache", "coverage"}
)
# Manifests whose scripts or tasks the reader parses, by how.
_JSON_SCRIPTS = {
    "package.json": "scripts",
    "composer.json": "scripts",
    "deno.json": "tasks",
    "deno.jsonc": "tasks",
}
_TOML_SCRIPTS = {
    "pyproject.toml": (("tool", "poe", "tasks"), ("tool", "pdm", "scripts"), ("tool", "taskipy", "tasks"))
}
_MAKEFILES = frozenset({"Makefile", "makefile", "GNUmakefile"})
_JUSTFILES = frozenset({"justfile", "Justfile", ".justfile"})
_MAKE_TARGET = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_./-]*)\s*:(?!=)")
_JUST_RECIPE = re.compile(r"^@?([A-Za-z0-9_][A-Za-z0-9_-]*)(?:\s+[^:=]*)?:(?!=)")


@dataclass(frozen=True, eq=False)  # one reading is one object: compared and hashed by identity
class ProjectFacts:
    """A bounded reading of a checkout: the relative paths of what it holds, and its scripts.

    ``paths`` are folders and files, relative to ``root`` with ``/`` separators, in the order read
    (breadth first); ``scripts`` maps a script or task name to the command line it runs (the first line of a
    Makefile or justfile recipe), by the manifest's own name for it (``npm run lint`` → ``lint``).
    """

    root: str
    paths: tuple[str, ...] = ()
    scripts: Mapping[str, str] = field(default_factory=dict)
    truncated: str = ""
    """Which bound stopped the reading, if one did (its findings are then partial)."""

    def script(self, name: str) -> str | None:
        return self.scripts.get(name)


UNKNOWN = ProjectFacts(root="")
"""No checkout to read (a replay without one): the triggers go by what the session shows."""


class _Budget:
    def __init__(self) -> None:
        self.started = time.monotonic()
        self.bytes = 0
        self.stopped = ""

    def over(self, entries: int) -> bool:
        if self.stopped:
            return True
        if entries >= MAX_ENTRIES:
            self.stopped = f"more than {MAX_ENTRIES} entries"
        elif time.monotonic() - self.started > MAX_SECONDS:
            self.stopped = f"more than {MAX_SECONDS:g} s"
        return bool(self.stopped)


def read_project(root: Path) -> ProjectFacts:
    """Read ``root`` within the bounds (see the module docstring); never raises for what the tree holds."""
    try:
        top = os.lstat(root)
    except OSError:
        return ProjectFacts(root=str(root), truncated="the root cannot be read")
    if not stat.S_ISDIR(top.st_mode):
        return ProjectFacts(root=str(root), truncated="the root is not a folder")
    budget = _Budget()
    paths: list[str] = []
    manifests: list[tuple[str, Path]] = []
    queue: list[tuple[Path, str, int]] = [(root, "", 0)]
    while queue and not budget.over(len(paths)):
        folder, prefix, depth = queue.pop(0)
        for entry in _entries(folder):
            if budget.over(len(paths)):
                break
            relative = f"{prefix}{entry.name}"
            try:
                if entry.is_symlink():
                    continue  # a link may lead anywhere: never followed, never read
                is_dir = entry.is_dir(follow_symlinks=False)
                is_file = entry.is_file(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if entry.name in SKIPPED:
                    continue
                paths.append(relative)
                if depth + 1 < MAX_DEPTH:
                    queue.append((Path(entry.path), relative + "/", depth + 1))
            elif is_file:
                paths.append(relative)
                if _is_manifest(entry.name) and depth <= 1:
                    manifests.append((entry.name, Path(entry.path)))
    scripts: dict[str, str] = {}
    for name, path in manifests:
        for script, command in _scripts(name, path, budget):
            if len(scripts) >= MAX_SCRIPTS:
                break
            scripts.setdefault(script, command)
    return ProjectFacts(str(root), tuple(paths), scripts, budget.stopped)


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as found:
            return sorted(found, key=lambda entry: entry.name)[:MAX_ENTRIES]
    except OSError:
        return []


def _is_manifest(name: str) -> bool:
    return name in _JSON_SCRIPTS or name in _TOML_SCRIPTS or name in _MAKEFILES or name in _JUSTFILES


def _text(path: Path, budget: _Budget) -> str | None:
    if budget.bytes >= MAX_TOTAL_BYTES:
        budget.stopped = budget.stopped or f"more than {MAX_TOTAL_BYTES} bytes of manifests"
        return None
    try:
        text = read_regular_text(path, max_bytes=MAX_FILE_BYTES)
    except (OSError, UnicodeDecodeError):
        return None  # not a regular file, too large, unreadable: nothing learnt from it
    budget.bytes += len(text)
    return text


def _scripts(name: str, path: Path, budget: _Budget) -> Iterator[tuple[str, str]]:
    text = _text(path, budget)
    if text is None:
        return
    if name in _JSON_SCRIPTS:
        yield from _json_scripts(text, _JSON_SCRIPTS[name])
    elif name in _TOML_SCRIPTS:
        yield from _toml_scripts(text, _TOML_SCRIPTS[name])
    elif name in _MAKEFILES:
        yield from _recipes(text, _MAKE_TARGET, tab_only=True)
    else:
        yield from _recipes(text, _JUST_RECIPE, tab_only=False)


def _json_scripts(text: str, key: str) -> Iterator[tuple[str, str]]:
    with contextlib.suppress(ValueError, RecursionError):
        document = json.loads(_without_comments(text))
        table = document.get(key) if isinstance(document, dict) else None
        if isinstance(table, dict):
            for script, command in table.items():
                if isinstance(command, list):  # composer: a list of commands
                    command = " && ".join(str(part) for part in command if isinstance(part, str))
                if isinstance(script, str) and isinstance(command, str) and command.strip():
                    yield script, command.strip()


def _without_comments(text: str) -> str:
    """A ``.jsonc`` body without its whole-line ``//`` comments (enough for deno.jsonc)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def _toml_scripts(text: str, tables: tuple[tuple[str, ...], ...]) -> Iterator[tuple[str, str]]:
    try:
        document = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return
    for keys in tables:
        table: object = document
        for key in keys:
            table = table.get(key) if isinstance(table, dict) else None
        if not isinstance(table, dict):
            continue
        for script, command in table.items():
            if isinstance(command, dict):
                command = command.get("cmd") or command.get("shell")
            if isinstance(command, str) and command.strip():
                yield script, command.strip()


def _recipes(text: str, header: re.Pattern[str], *, tab_only: bool) -> Iterator[tuple[str, str]]:
    """Make targets and just recipes with the first line of their recipe (``@`` and ``-`` prefixes off)."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        found = header.match(line)
        if found is None or found.group(1).startswith("."):
            continue
        body = lines[index + 1] if index + 1 < len(lines) else ""
        indented = body.startswith("\t") if tab_only else body[:1] in ("\t", " ")
        command = body.strip().lstrip("@-").strip()
        if indented and command and not command.startswith("#"):
            yield found.group(1), command


class ProjectReader:
    """Readings of checkouts, kept per root and read again when what they read has changed (the root's and
    its manifests' modification times) or, for what changes deeper down, after ``max_age_s``."""

    def __init__(self, max_age_s: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._kept: dict[str, tuple[tuple[float, ...], float, ProjectFacts]] = {}
        self._max_age_s = max_age_s
        self._clock = clock

    def facts(self, root: Path | None) -> ProjectFacts:
        if root is None:
            return UNKNOWN
        key, now = str(root), self._clock()
        kept = self._kept.get(key)
        if kept is not None and now - kept[1] < self._max_age_s and kept[0] == self._stamp(root, kept[2]):
            return kept[2]
        facts = read_project(root)
        self._kept[key] = (self._stamp(root, facts), now, facts)
        return facts

    @staticmethod
    def _stamp(root: Path, facts: ProjectFacts) -> tuple[float, ...]:
        """The modification times that tell a reading is stale: the root's and its manifests'."""
        watched = [root, *(root / path for path in facts.paths if _is_manifest(path.rsplit("/", 1)[-1]))]
        stamps = []
        for path in watched:
            try:
                stamps.append(os.lstat(path).st_mtime)
            except OSError:
                stamps.append(-1.0)
        return tuple(stamps)
