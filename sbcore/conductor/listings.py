"""The project as a session's own file listings showed it, for a replay that has no checkout to read.

Live, the observer reads the workspace the session runs in (:mod:`sbcore.observe.project_facts`), so it
knows a project's tests and build files whether or not the agent ever opens them. A replayed transcript
comes with no workspace unless its case names a checkout. What it does hold is the listings the agent asked
for: a Glob's result is the paths it matched. Those paths, relative to the session's folder, stand in for
the workspace's reading, the nearest a replay has to what the live observer would have read. Only the
names: nothing else of any tool's result is read, and a path outside the session's folder is left out.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from sbcore.observe.project_facts import UNKNOWN, ProjectFacts

# Tools whose whole result is a list of paths, one per line.
LISTING_TOOLS = frozenset({"Glob"})
_MAX_PATHS = 5000  # a reading's bound, as the live one has
_PARTIAL = "only what the session's own listings showed"


def listed_project(lines: Iterable[bytes | str], root: str) -> ProjectFacts:
    """The paths the session's listings named under ``root`` (the session's folder), with their folders;
    :data:`~sbcore.observe.project_facts.UNKNOWN` when they named none."""
    if not root.startswith("/"):
        return UNKNOWN
    base = root.rstrip("/") + "/"
    found: dict[str, None] = {}
    for path in _listed(lines):
        if not path.startswith(base):
            continue
        relative = posixpath.normpath(path[len(base) :])
        if relative.startswith(".."):
            continue
        parts = relative.split("/")
        for depth in range(1, len(parts) + 1):
            found.setdefault("/".join(parts[:depth]))
        if len(found) >= _MAX_PATHS:
            break
    if not found:
        return UNKNOWN
    return ProjectFacts(root=root, paths=tuple(found), truncated=_PARTIAL)


def _listed(lines: Iterable[bytes | str]) -> Iterator[str]:
    """Each path a listing tool's result gave, in the order the transcript holds them."""
    asked: set[str] = set()
    # What a line must hold to be parsed (a listing tool's name, or the id of a call to one), in both types:
    # most lines neither call a listing tool nor answer one, and a replay pays a search for them, no parse.
    needles: list[str] = [f'"{tool}"' for tool in LISTING_TOOLS]
    raw_needles: list[bytes] = [needle.encode() for needle in needles]
    for line in lines:
        held = needles if isinstance(line, str) else raw_needles
        if not any(needle in line for needle in held):  # type: ignore[operator]
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):  # a bad line, or one nested past the parser's depth
            continue
        for block in _blocks(record):
            if block.get("type") == "tool_use" and block.get("name") in LISTING_TOOLS:
                call_id = str(block.get("id"))
                asked.add(call_id)
                needles.append(f'"{call_id}"')
                raw_needles.append(f'"{call_id}"'.encode())
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in asked:
                if block.get("is_error"):
                    continue
                for text in _texts(block.get("content")):
                    yield from (entry.strip() for entry in text.splitlines() if entry.strip().startswith("/"))


def _blocks(record: Any) -> list[dict[str, Any]]:
    message = record.get("message") if isinstance(record, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    return [block for block in content if isinstance(block, dict)] if isinstance(content, list) else []


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [str(part.get("text", "")) for part in content if isinstance(part, dict)]
    return []


def listed_in_file(path: Path, root: str, last: int | None = None) -> ProjectFacts:
    """:func:`listed_project` over the first ``last`` lines of a transcript file (all, when None)."""
    with path.open("rb") as handle:
        lines = (line for number, line in enumerate(handle, 1) if last is None or number <= last)
        return listed_project(lines, root)
