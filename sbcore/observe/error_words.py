"""The words a line that says something went wrong holds, and where they stand in a text.

The outcome reader (:mod:`.outcome`) judges a failed command's lines by whether they hold one of these words,
and walks a text from one line holding one to the next. ``ERROR_WORDS`` is the case-blind pattern; it is
answered instead by substring searches of the text's folded copy (:func:`~.verdicts.case_folded`), several
times faster than the pattern's scan, which tries each of its words at every position. Standard library only
(it runs in the projection).
"""

from __future__ import annotations

import re

from sbcore.observe.lazy_pattern import Lazy
from sbcore.observe.verdicts import case_folded

# An error word, or the words compilers put where no "error" stands (`-- TYPE MISMATCH -- src/Page.elm`,
# `function f/4 undefined`, `Unresolved reference`, `Variable not in scope`, `could not find module`).
ERROR_WORDS = Lazy(
    r"error|fail|exception|traceback|not found|no such|denied|cannot|can't|unable|invalid|refused|"
    r"timed? ?out|fatal|panic|abort|assert|mismatch|undefined|unresolved|not in scope|could not|couldn't"
    r"|not exist"  # `Variable does not exist: x`, `relation "users" does not exist`
    r"|\[emerg\]"  # a server refusing its configuration at its gravest severity (`nginx: [emerg] unknown …`)
    # a formatter's check finding files it would change (`The following files aren't formatted properly:`,
    # `would reformat src/a.py`, `Code style issues found`, `Diff in src/sort.lua:`)
    r"|not formatted|n't formatted|would reformat|needs? formatting|style issues|diff in "
    # a scanner's or a linter's finding (`>> Issue: [B608:…] Possible SQL injection`, a rule's violation)
    r"|issue:|violation|vulnerab"
    r"|✗|✘|✕|✖",  # the marks runners put before a failing test's name (elm-test, jest, mocha, tape)
    re.I,
)
# ``ERROR_WORDS`` spelt out ("timed? ?out" in its four spellings), the marks last.
ERROR_WORD_LIST = (
    *("error", "fail", "exception", "traceback", "not found", "no such", "denied", "cannot", "can't"),
    *("unable", "invalid", "refused", "timed out", "timedout", "time out", "timeout", "fatal", "panic"),
    *("abort", "assert", "mismatch", "undefined", "unresolved", "not in scope", "could not", "couldn't"),
    *("not exist", "[emerg]"),
    *("not formatted", "n't formatted", "would reformat", "need formatting", "needs formatting"),
    *("style issues", "diff in "),
    *("issue:", "violation", "vulnerab"),
    *("✗", "✘", "✕", "✖"),
)
# The words an ASCII text can hold (the marks are not ASCII).
_ASCII_WORDS = ERROR_WORD_LIST[:-4]


def has_error_word(text: str) -> bool:
    """Whether ``ERROR_WORDS`` matches in ``text``: whether its folded copy holds one of the words."""
    low = case_folded(text)
    if low is None:
        return ERROR_WORDS.search(text) is not None
    return any(word in low for word in (_ASCII_WORDS if low.isascii() else ERROR_WORD_LIST))


def error_pattern_at(text: str, low: str, start: int) -> int:
    """Where ``ERROR_WORDS`` next matches in ``text`` from ``start``, or -1 (a text with no folded copy)."""
    found = ERROR_WORDS.search(text, start)
    return -1 if found is None else found.start()


class NearestErrorWord:
    """Where ``ERROR_WORDS`` next matches in a text (``low``: its :func:`~.verdicts.case_folded` copy), or
    -1: the nearest of its words, found by substring searches.

    Asked again and again down one text, from later and later positions. Each word is searched for only up to
    the nearest occurrence of the words before it (the commonest first), since one further away cannot be the
    answer, and what each search found is kept: the word's next occurrence, or how far it is known absent.
    Searching every word to the text's end cost a scan of the whole text per word, though the answer was
    near. One per text."""

    def __init__(self) -> None:
        self._since = 0
        # per word: its next occurrence from ``_since`` if known (else -1), and the position before which
        # every occurrence from ``_since`` is known
        self._at = [-1] * len(ERROR_WORD_LIST)
        self._until = [0] * len(ERROR_WORD_LIST)

    def __call__(self, text: str, low: str, start: int) -> int:
        at, until = self._at, self._until
        if start < self._since:
            # asked from further back than before: what is kept may skip a match
            at[:], until[:] = [-1] * len(at), [0] * len(until)
        self._since = start
        size = nearest = len(low)
        words = _ASCII_WORDS if low.isascii() else ERROR_WORD_LIST
        for index in range(len(words)):
            found = at[index]
            if found >= start:
                if found < nearest:
                    nearest = found
                continue
            known = start if found >= 0 or until[index] < start else until[index]
            if known < nearest:
                # an occurrence starting before the nearest one may end past it
                found = low.find(words[index], known, nearest + _OVERHANGS[index])
                if found >= 0:
                    nearest = found
                    known = found + 1
                else:
                    known = nearest
            at[index], until[index] = found, known
        return nearest if nearest < size else -1


_OVERHANGS = tuple(len(word) - 1 for word in ERROR_WORD_LIST)
