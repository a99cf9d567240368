"""When two advisories make the same point: token Jaccard over headline and body.

Both are case-folded and split into letter/digit runs; one-character tokens and common English function
words are dropped; two advisories are the same point when ``|A ∩ B| / |A ∪ B|`` reaches
``gate.dedup_threshold``. It ignores word order and is cheap enough to run against every remembered
advisory on every answer.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W_]+")
# Common English function words: shared by any two sentences, so they say nothing about sameness.
_FUNCTION_WORD_TEXT = (
    "a an and are as at be been but by can do does for from has have if in into is it its may "
    "no not of on or so than that the then there these this those to was were which will with you your"
)
_FUNCTION_WORDS = frozenset(_FUNCTION_WORD_TEXT.split())


def tokens(text: str) -> frozenset[str]:
    """The content words of ``text`` (what similarity compares)."""
    return frozenset(
        word for word in _WORD.findall(text.casefold()) if len(word) > 1 and word not in _FUNCTION_WORDS
    )


def similarity(left: frozenset[str], right: frozenset[str]) -> float:
    """Jaccard similarity of two token sets; 0 when either is empty (nothing to compare)."""
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)
