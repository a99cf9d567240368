"""Whole-text searches for a pattern that a line's start or a word of its own anchors, found from that anchor.

``re`` skips to a pattern's literal opening at the speed of a substring search, but a pattern opening with a
line's start (``^`` in multi-line mode), a ``\\b`` or a choice of words has no such opening: it is tried at
every position of the text, and the outcome reader (:mod:`.outcome`, :mod:`.verdicts`) searches results of
several thousand characters. A pattern opening a line is searched instead from the line breaks (a literal);
a pattern whose every match holds one of a few words, within one line, only in the lines holding one.
Standard library only (it runs in the projection).
"""

from __future__ import annotations

import re

from sbcore.observe.lazy_pattern import Lazy


class LineOpening:
    """A pattern that opens a line: ``re.compile("^(?:" + body + ")", re.M | flags)``, found by a match at
    the text's start and, past it, by a search from the line break before a line (both compiled the first
    time they are used)."""

    __slots__ = ("_after_break", "_at")

    def __init__(self, body: str, flags: int = 0) -> None:
        self._at = Lazy(body, re.M | flags)
        self._after_break = Lazy("\n(?:" + body + ")", re.M | flags)

    def find(self, text: str, start: int = 0) -> int:
        """Where the first line from ``start`` (a line's start) that the pattern opens begins, or -1."""
        if self._at.match(text, start) is not None:
            return start
        found = self._after_break.search(text, start)
        return -1 if found is None else found.start() + 1

    def search(self, text: str) -> bool:
        """Whether the pattern opens a line of ``text``."""
        return self._at.match(text) is not None or self._after_break.search(text) is not None


def lines_holding(text: str, words: tuple[str, ...]) -> list[tuple[int, int]]:
    """Where each line of ``text`` that holds one of ``words`` starts and ends (before its line break), in
    order: the only lines where a pattern whose every match holds one of them, within a line, can match.
    Searched with these bounds, such a pattern finds what it finds in the whole text, so long as it reads no
    line's end as the text's (no ``$`` without multi-line mode, no look ahead that a line break passes)."""
    starts: set[int] = set()
    for word in words:
        at = text.find(word)
        while at >= 0:
            starts.add(text.rfind("\n", 0, at) + 1)
            after = text.find("\n", at + len(word))
            at = -1 if after < 0 else text.find(word, after + 1)
    bounds = []
    for start in sorted(starts):
        end = text.find("\n", start)
        bounds.append((start, len(text) if end < 0 else end))
    return bounds
