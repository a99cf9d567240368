"""What a task touches and what its goal names, read from projected observations.

The cross-task index (:mod:`sbcore.state.taskindex`) and the ``cross_task_collision`` trigger both need the
same two readings, so they are made here once:

- :func:`edit_regions`: the file regions an Edit, MultiEdit, Write or NotebookEdit call changed, from its
  projected arguments: the line anchor projection resolved for an edit (``anchor: L40-L52``), the whole file
  for a Write (its lines ``1..content_lines``) or an edit that could not be placed;
- :func:`mentions`: the paths and code symbols a prompt names (``src/app.py``, ```parse_totals```,
  ``LedgerTotals``, ``reconcile()``), the handles by which another task's edit can be said to touch what
  this task is about.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

from sbcore.observe import locators
from sbcore.observe.model import Observation

EDIT_TOOLS: tuple[str, ...] = ("Edit", "MultiEdit", "Write", "NotebookEdit")
_PATH_KEYS = ("file_path", "notebook_path", "path")
_ANCHOR = re.compile(r"^L(\d+)(?:-L(\d+))?$")
_BACKTICKED = re.compile(r"`([A-Za-z_][\w.]*)(?:\(\))?`")
_CALLED = re.compile(r"\b([A-Za-z_]\w{2,})\(\)")
_COMPOUND = re.compile(
    r"\b(?:[a-z]+_[a-z0-9_]*[a-z0-9]|_[a-z][a-z0-9_]+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+)\b"
)
_LINE_SUFFIX = re.compile(r":\d+(?:[-:]\d+)?$")
SYMBOL_MIN = 4
"""Symbols shorter than this are too common to say a goal is about them."""


@dataclass(frozen=True)
class Touch:
    """One region an edit call changed: ``first``..``last`` of ``path`` (None: the whole file)."""

    path: str
    first: int | None
    last: int | None
    ref: str


def edit_regions(observation: Observation) -> list[Touch]:
    """The regions a projected edit call changed (empty for any other observation)."""
    if observation.kind != "tool" or observation.tool not in EDIT_TOOLS:
        return []
    args = observation.args
    path = next((args[key] for key in _PATH_KEYS if isinstance(args.get(key), str) and args[key]), None)
    if path is None:
        return []
    ref = observation.tool_use_id or observation.uuid or ""
    if observation.tool == "Write":
        lines = args.get("content_lines")
        if isinstance(lines, int) and lines > 0:
            return [Touch(path, 1, lines, ref)]
        return [Touch(path, None, None, ref)]
    if observation.tool == "MultiEdit":
        edits = args.get("edits")
        spans = (
            [_span(item.get("anchor")) for item in edits if isinstance(item, dict)]
            if isinstance(edits, list)
            else []
        )
        if spans and all(span is not None for span in spans):
            return [
                Touch(path, first, last, ref) for first, last in sorted({s for s in spans if s is not None})
            ]
        return [Touch(path, None, None, ref)]
    span = _span(args.get("anchor"))
    if span is None:
        return [Touch(path, None, None, ref)]
    return [Touch(path, span[0], span[1], ref)]


def _span(anchor: object) -> tuple[int, int] | None:
    found = _ANCHOR.match(anchor) if isinstance(anchor, str) else None
    if found is None:
        return None
    first = int(found.group(1))
    return first, int(found.group(2) or first)


def edit_texts(observation: Observation) -> str:
    """The projected new and old text of an edit call, where a symbol it changes can be looked for."""
    args = observation.args
    parts = [args.get(key) for key in ("new_string", "old_string", "content", "new_source")]
    for item in args.get("edits") or ():
        if isinstance(item, dict):
            parts += [item.get("new_string"), item.get("old_string")]
    return "\n".join(part for part in parts if isinstance(part, str))


def mentions(text: str) -> list[str]:
    """The paths and symbols ``text`` names, in order of first appearance, without repeats.

    Paths are the locators of :mod:`sbcore.observe.locators` with any ``:line`` dropped; symbols are
    identifiers in backticks, ``called()`` names, and snake_case or CamelCase words (at least
    :data:`SYMBOL_MIN` characters): spellings that name code rather than English words.
    """
    found: list[str] = []
    for token in locators.harvest(text):
        path = _LINE_SUFFIX.sub("", token).rstrip("/")
        if path and path not in found:
            found.append(path)
    symbols = [m.group(1) for m in _BACKTICKED.finditer(text)]
    symbols += [m.group(1) for m in _CALLED.finditer(text)]
    symbols += [m.group(0) for m in _COMPOUND.finditer(text)]
    for symbol in symbols:
        if len(symbol) >= SYMBOL_MIN and symbol not in found and not any(symbol in path for path in found):
            found.append(symbol)
    return found


def is_path(mention: str) -> bool:
    """Whether a mention is a path (it has a separator or a file extension) rather than a symbol."""
    return "/" in mention or bool(locators.harvest(mention))


def names_path(mention: str, path: str) -> bool:
    """Whether the path ``mention`` names ``path``: equal, or a whole-segment suffix of it.

    ``ledger.py`` and ``payments/ledger.py`` name ``src/payments/ledger.py``; ``dger.py`` does not.
    """
    wanted = [part for part in mention.replace("\\", "/").split("/") if part not in ("", ".")]
    have = [part for part in path.replace("\\", "/").split("/") if part]
    return bool(wanted) and len(wanted) <= len(have) and have[-len(wanted) :] == wanted


def names_symbol(symbol: str, texts: Iterable[str]) -> bool:
    """Whether ``symbol`` occurs as a whole word in any of ``texts``."""
    pattern = re.compile(rf"(?<![\w]){re.escape(symbol)}(?![\w])")
    return any(pattern.search(text) for text in texts)


def relative_to(path: str, root: str) -> str:
    """``path`` relative to ``root`` when it lies inside it (as the index stores it), else as given."""
    if not os.path.isabs(path) or not root:
        return os.path.normpath(path) if path else path
    normal, base = os.path.normpath(path), os.path.normpath(root)
    if normal == base or not normal.startswith(base.rstrip(os.sep) + os.sep):
        return normal
    return os.path.relpath(normal, base)
