"""Regular-expression building blocks of the redactor's anchored families: look-behinds, prefix tries of
literals, and the dispatch of rules by the key that ends just before their anchor.

Kept apart from :mod:`.redact`, which compiles the tables with them: each is a pure function from strings
to pattern source, and none knows a rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence


def lookbehind(lead: str, guard: str = "") -> str:
    """Assert that ``lead`` (a fixed-width regex) ends here and is not preceded by ``guard``."""
    return f"(?<={guard}{lead})"


def trie(items: Sequence[tuple[str, str]]) -> str:
    """An alternation of ``literal + continuation`` items, factored into a prefix trie.

    Branches that open with a literal let the matcher reject them on one comparison. Longer literals
    come before shorter ones through the same node; otherwise the items keep their order, so the
    first matching rule still wins.
    """
    children: dict[str, list[tuple[str, str]]] = {}
    ends: list[str] = []
    for literal, continuation in items:
        if literal:
            children.setdefault(literal[0], []).append((literal[1:], continuation))
        else:
            ends.append(continuation)
    branches = [re.escape(char) + trie(sub) for char, sub in children.items()] + ends
    return branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"


def dispatch(anchor: str, keys: set[str], rules: list[tuple[tuple[str, ...], str]], prefix: str) -> str:
    """The rules reached through the keys ending just before the anchor, each behind the key it needs.

    Where every rule has one key, the key found before the anchor leads to its own rules alone: one key
    can end there, and a rule of another key fails on its own look-behind. Trying every rule of the
    group at each occurrence cost ten times more on an identifier such as ``widget_list``. The trie of
    keys marks the key it matched with an empty group, and one conditional per key picks its rules (the
    marks close before a rule's value, so a match's last group is still its rule's). A rule with many
    keys (an assignment's key names) stays behind one trie of them all, written once.
    """
    if any(len(dispatch) > 1 for dispatch, _ in rules):
        gate = lookbehind(trie([(key, "") for key in sorted(keys)]) + re.escape(anchor))
        return f"{gate}(?:{'|'.join(pattern for _, pattern in rules)})"
    by_key: dict[str, list[str]] = {}
    for (key,), pattern in rules:
        by_key.setdefault(key, []).append(pattern)
    marks = {key: f"(?P<{prefix}{index}>)" for index, key in enumerate(by_key)}
    gate = lookbehind(trie([(key, marks[key]) for key in sorted(by_key)]) + re.escape(anchor))
    choice = "(?!)"
    for index, patterns in reversed(list(enumerate(by_key.values()))):
        choice = f"(?({prefix}{index})(?:{'|'.join(patterns)})|{choice})"
    return gate + choice
