"""Which files recall may read: ``recall.sources`` inside the workspace, ``recall.extra_sources`` outside it.

A repository is untrusted input, and ``recall.sources`` can come from its own ``.second-brain/config.yaml``,
so every workspace glob resolves inside the workspace or not at all:

1. the glob itself may not be absolute, start with ``~`` or contain a ``..`` component (the schema refuses
   these too, with the file, line and key; this is the same rule again at the point of use);
2. the walk starts at the glob's literal directory, reached through :class:`~sbcore.jail.Jail` (a directory
   that is a link leading outside is refused), and never descends a symbolic link (``os.walk`` without
   ``followlinks``), so ``**`` cannot wander through a link to the home directory;
3. every file that matches is resolved by the jail (a link whose target is outside is skipped) and read
   through it (a regular file only, opened without following links, under the size cap).

``recall.extra_sources`` are absolute globs the user chose (``x-trust: capability``: from a repository's own
layer they apply only once the user trusted that content); they are read as regular files only.

The walk is bounded (:data:`MAX_VISITED` entries, ``recall.max_files`` files), and skips version-control and
dependency directories, so a glob naming a whole tree cannot make a refresh unbounded.
"""

from __future__ import annotations

import glob
import itertools
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from sbcore.jail import Jail, JailError
from sbcore.pathglob import GlobError, compile_glob
from sbcore.safefile import read_regular_bytes

MAX_VISITED = 50_000
"""Most directory entries one refresh looks at across all globs."""
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox"})
DECISION_PARTS = frozenset({"adr", "adrs", "decisions", "decision"})
GUIDANCE_FILES = frozenset({"claude.md", "agents.md"})
ROOT_REGION = "(root)"
"""The region of a note at the top of the workspace (a note's region is its directory)."""
_GLOB_CHARS = re.compile(r"[*?[]")


@dataclass(frozen=True)
class NoteFile:
    """One file to index: ``source`` is its key in the index, ``label`` what its handles show."""

    source: str
    label: str
    region: str
    kind: str
    """``decision`` (an ADR, a decision record, CLAUDE.md/AGENTS.md) or ``note``."""
    outside: bool = False
    """An ``extra_sources`` file: read by its absolute path, not through the workspace jail."""


@dataclass
class Listing:
    """The files the globs name now, and what was refused or cut on the way (for the worker log)."""

    files: list[NoteFile] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def refusal(pattern: str) -> str | None:
    """Why a workspace glob is refused, or None: it must stay inside the workspace by its spelling."""
    if not pattern or "\x00" in pattern:
        return "an empty glob, or one holding a NUL byte"
    if pattern.startswith(("/", "~", "\\")) or os.path.isabs(pattern):
        return "absolute paths and ~ are refused: recall.sources are relative to the workspace root"
    if ".." in PurePosixPath(pattern).parts:
        return "'..' is refused: recall.sources stay inside the workspace"
    try:
        compile_glob(pattern.strip("/"), root=True)
    except GlobError as exc:
        return str(exc)
    return None


def workspace_notes(jail: Jail, patterns: list[str], *, max_files: int) -> Listing:
    """The files inside ``jail`` that ``patterns`` name, at most ``max_files`` of them, sorted."""
    listing = Listing()
    found: dict[str, NoteFile] = {}
    budget = [MAX_VISITED]
    for pattern in patterns:
        why = refusal(pattern)
        if why is not None:
            listing.problems.append(f"recall.sources: {pattern!r} refused: {why}")
            continue
        for rel in _matches(jail, pattern.strip("/"), budget):
            if len(found) >= max_files:
                listing.problems.append(f"recall.max_files: stopped at {max_files} files")
                listing.files = sorted(found.values(), key=lambda f: f.source)
                return listing
            try:
                resolved = jail.resolve(rel)
            except JailError:
                continue  # a link leading outside the workspace: never read, never named
            found.setdefault(resolved.rel, _note(resolved.rel, resolved.rel))
        if budget[0] <= 0:
            listing.problems.append(f"recall.sources: stopped after {MAX_VISITED} directory entries")
            break
    listing.files = sorted(found.values(), key=lambda f: f.source)
    return listing


def extra_notes(patterns: list[str], *, max_files: int) -> Listing:
    """The files the user's absolute ``extra_sources`` globs name (regular files only), sorted."""
    listing = Listing()
    found: dict[str, NoteFile] = {}
    for pattern in patterns:
        expanded = os.path.expanduser(pattern)
        if not os.path.isabs(expanded):
            listing.problems.append(f"recall.extra_sources: {pattern!r} is not an absolute path")
            continue
        for path in sorted(itertools.islice(glob.iglob(expanded, recursive=True), MAX_VISITED)):
            if len(found) >= max_files:
                listing.problems.append(f"recall.max_files: stopped at {max_files} files")
                break
            try:
                if not stat.S_ISREG(os.stat(path).st_mode):
                    continue
            except OSError:
                continue
            label = _home_relative(path)
            found.setdefault(path, _note(path, label, outside=True))
    listing.files = sorted(found.values(), key=lambda f: f.source)
    return listing


def read_note(jail: Jail, note: NoteFile, *, max_bytes: int) -> tuple[os.stat_result, bytes]:
    """The file's status and bytes: a workspace note through the jail, an extra one as a regular file."""
    if note.outside:
        data = read_regular_bytes(note.source, max_bytes=max_bytes)
        return os.stat(note.source), data
    _, st = jail.stat(note.source)
    _, data = jail.read_file(note.source, max_bytes=max_bytes)
    return st, data


def stat_note(jail: Jail, note: NoteFile) -> os.stat_result:
    """The file's status without reading it (what the incremental check compares first)."""
    if note.outside:
        return os.stat(note.source)
    return jail.stat(note.source)[1]


def _note(source: str, label: str, *, outside: bool = False) -> NoteFile:
    path = PurePosixPath(label)
    parent = str(path.parent) if str(path.parent) != "." else ROOT_REGION
    lowered = {part.lower() for part in path.parts[:-1]}
    decision = bool(lowered & DECISION_PARTS) or path.name.lower() in GUIDANCE_FILES
    return NoteFile(source, label, parent, "decision" if decision else "note", outside)


def _home_relative(path: str) -> str:
    home = os.path.expanduser("~")
    if home not in ("", "/") and path.startswith(home.rstrip("/") + "/"):
        return "~/" + path[len(home.rstrip("/")) + 1 :]
    return path


def _matches(jail: Jail, pattern: str, budget: list[int]) -> list[str]:
    """Workspace-relative paths matching ``pattern``, walking from its literal directory without links."""
    parts = pattern.split("/")
    literal = []
    for part in parts:
        if _GLOB_CHARS.search(part):
            break
        literal.append(part)
    if len(literal) == len(parts):  # no wildcard: one file, if it is there
        try:
            jail.stat(pattern)
        except JailError:  # absent (NotFound), or refused: either way not a note to list
            return []
        return [pattern]
    start = "/".join(literal) or "."
    try:
        top = jail.directory(start)
    except JailError:
        return []
    compiled = compile_glob(pattern, root=True)
    found: list[str] = []
    for directory, dirs, files in os.walk(top.real, followlinks=False):
        budget[0] -= len(dirs) + len(files)
        if budget[0] <= 0:
            break
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        rel_dir = jail.relative(directory)
        for name in sorted(files):
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            if compiled.match(rel):
                found.append(rel)
    return found
