"""Resolve an Edit's line anchor (``@L88-L94``) from the file on disk.

Edit arguments carry no line numbers, but the file is right there: finding the edited
text in it tells the observer where the change landed, for free. The anchor is never a
guess. Only a unique match counts; anything else (file missing, unreadable, too large,
text absent or present several times) yields no anchor at all.

The transcript is read after the tool ran, so the file normally already holds the new
text: ``new_string`` is searched first, ``old_string`` only when the new text is not in
the file at all (the edit failed, or was projected before it landed).
"""

from __future__ import annotations

import os
import stat
from collections import OrderedDict

# Files larger than this are not read for an anchor (an anchor is a convenience).
MAX_ANCHOR_FILE_BYTES = 8 * 1024 * 1024
_CACHE_FILES = 4


class AnchorResolver:
    """Finds line anchors; remembers the last few files read (keyed by mtime and size)."""

    def __init__(self) -> None:
        self._cache: OrderedDict[str, tuple[tuple[int, int], str]] = OrderedDict()

    def resolve(self, file_path: str, cwd: str | None, new: str, old: str) -> tuple[int, int] | None:
        """``(first_line, last_line)`` of the edited text, 1-based, or ``None``."""
        text = self._read(file_path, cwd)
        if text is None:
            return None
        for needle in (new, old):
            if not needle:
                continue
            first = text.find(needle)
            if first < 0:
                continue  # absent: try the next candidate
            if text.find(needle, first + 1) >= 0:
                return None  # ambiguous: never guess
            start = text.count("\n", 0, first) + 1
            span = needle[:-1] if needle.endswith("\n") else needle
            return start, start + span.count("\n")
        return None

    def _read(self, file_path: str, cwd: str | None) -> str | None:
        path = file_path if os.path.isabs(file_path) or not cwd else os.path.join(cwd, file_path)
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            return None
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ANCHOR_FILE_BYTES:
            return None
        key = (info.st_mtime_ns, info.st_size)
        cached = self._cache.get(path)
        if cached is not None and cached[0] == key:
            self._cache.move_to_end(path)
            return cached[1]
        try:
            with open(path, encoding="utf-8", errors="replace", newline="") as handle:
                text = handle.read()
        except OSError:
            return None
        self._cache[path] = (key, text)
        while len(self._cache) > _CACHE_FILES:
            self._cache.popitem(last=False)
        return text


def format_anchor(lines: tuple[int, int] | None) -> str:
    """``@L88-L94`` (or ``@L88`` for one line); empty when there is no anchor."""
    if lines is None:
        return ""
    first, last = lines
    return f"@L{first}" if first == last else f"@L{first}-L{last}"
