"""Path globs: the one translation of a glob into a regular expression, for every place paths are named.

A detector's declarative trigger (``path``), a checklist's globs (``non_code``, ``applies_when.paths``) and
a workspace's recall sources all name paths the same way, as ``.gitignore`` does: ``*``, ``?`` and
``[abc]`` (``[!abc]`` for none of them) stay inside one path segment, and ``**`` as a whole segment
crosses any number of them. ``**`` inside a segment (``src**``) is refused rather than guessed at.

Two anchorings: by default a glob without a leading ``/`` may match from any directory boundary (the
agent's paths are usually absolute, ``/home/me/repo/src/a.py``), one with a leading ``/`` must match the
whole path; ``root=True`` matches a path relative to a root, from its start. Either way the match runs to
the end of the path. Standard library only: the floor every package may stand on.
"""

from __future__ import annotations

import re
from functools import lru_cache

from sbcore.problems import SbcoreError


class GlobError(SbcoreError, ValueError):
    """A glob that cannot be translated; the message names the glob and what is wrong with it."""


@lru_cache(maxsize=1024)
def compile_glob(pattern: str, *, root: bool = False) -> re.Pattern[str]:
    """``pattern`` as a compiled regex (see the module docstring); :class:`GlobError` when it is malformed."""
    return re.compile(glob_source(pattern, root=root))


@lru_cache(maxsize=1024)
def glob_source(pattern: str, *, root: bool = False) -> str:
    """The regular expression :func:`compile_glob` compiles, as text: a caller joining many globs into one
    pattern compiles that one alone (compiling each costs as much again, and a checklist names hundreds)."""
    anchored = root or pattern.startswith("/")
    segments = (pattern if root else pattern.lstrip("/")).split("/")
    parts: list[str] = []
    for position, segment in enumerate(segments):
        last = position == len(segments) - 1
        if segment == "**":
            parts.append(".*" if last else "(?:[^/]*/)*")
            continue
        if "**" in segment:
            raise GlobError(
                f"invalid glob {pattern!r}: '**' must be a whole path segment (src/**/*.py), "
                f"not part of {segment!r}"
            )
        parts.append(_segment(pattern, segment) + ("" if last else "/"))
    prefix = ("^" if root else "^/") if anchored else "(?:^|/)"
    return prefix + "".join(parts) + r"\Z"


def _segment(pattern: str, segment: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(segment):
        char = segment[index]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = segment.find("]", index + 2)
            if end < 0:
                raise GlobError(f"invalid glob {pattern!r}: '[' at {segment!r} is never closed")
            body = segment[index + 1 : end]
            negate = body.startswith("!")
            body = body[1:] if negate else body
            out.append("[" + ("^" if negate else "") + body.replace("\\", "\\\\") + "]")
            index = end
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)
