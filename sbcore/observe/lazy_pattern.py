"""A regular expression compiled the first time it is used.

Compiling is pure Python in CPython's ``re`` and costs far more than a search: a rule that only a rare
text reaches (a ``composer config`` secret, a Redis ``masterauth`` line) should not be paid for by every
process that imports its module. A hook redacts one prompt and a replay reads a few sessions; neither
compiles the rules its texts never reach.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator


class Lazy:
    """``re.compile(source, flags)``, done on first use; it searches as ``re.Pattern`` does."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = re.ASCII) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def _regex(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self._regex().finditer(text, pos, endpos)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._regex().search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._regex().match(text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._regex().fullmatch(text, pos, endpos)


def lazy(source: str, flags: int = 0) -> Lazy:
    """A :class:`Lazy` with ``re``'s own default flags, as ``re.compile(source)`` would compile it (Unicode
    classes; :class:`Lazy` itself defaults to ASCII, for the rules that scan an ASCII copy)."""
    return Lazy(source, flags)
