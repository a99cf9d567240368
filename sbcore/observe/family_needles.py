"""Whether a text can hold what a family of redaction rules matches, asked before the family is compiled.

:mod:`sbcore.observe.redact` compiles each family of rules (those sharing an anchor character) the first time
its anchor occurs in a text. The ``:`` and ``=`` families hold every spelling of every secret key and take
tens of milliseconds to compile; a hook recording one prompt or one closing message paid that for any colon.
Yet each rule can match only where a short string occurs: the anchor followed by the rule's literal (``_`` and
``live_`` for ``sk_live_``), or preceded by one of the keys it is reached through (the last characters of
``password``, ``"api_key"``); and a rule may name words it cannot match without (a key's last word, whatever
its spelling; the ``@`` of a URL's credentials). A text holding none of what each rule needs cannot be
matched by the family, so it is passed over without compiling it: the same spans, found for less.

The test is exact, never a guess: a rule with neither a literal nor keys (tried at every occurrence of its
anchor) makes its family always wanted. A process that keeps meeting an anchor (the worker, a replay)
compiles the family after a few texts anyway, so it stops paying for the substring searches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

TRIES = 8
"""Texts an uncompiled family is tested against before it is compiled regardless."""


class Rule(Protocol):
    """What this module reads of a rule (``redact._Alt``)."""

    @property
    def literal(self) -> str: ...

    @property
    def dispatch(self) -> tuple[str, ...]: ...

    @property
    def needs(self) -> tuple[str, ...]: ...


Needles = tuple[tuple[tuple[str, ...], frozenset[str]], ...]
"""Per group of rules needing the same words (lower-cased; none: no word), the strings one of which a text
must hold for a rule of the group to match."""


def needles(anchor: str, rules: Sequence[Rule]) -> Needles | None:
    """What a text must hold for a rule of ``anchor``'s family to match (:data:`Needles`); ``None`` when a
    rule may match at any occurrence of the anchor, whatever else the text holds.

    A rule with a literal is reached through the anchor then the literal; one with keys, through a key
    then the anchor (both as the family's pattern spells them, case included)."""
    found: dict[tuple[str, ...], set[str]] = {}
    for rule in rules:
        if rule.literal:
            found.setdefault(rule.needs, set()).add(anchor + rule.literal)
        elif rule.dispatch:
            found.setdefault(rule.needs, set()).update(key + anchor for key in rule.dispatch)
        elif not rule.needs:
            return None
        else:
            found.setdefault(rule.needs, set()).add(anchor)
    return tuple((needs, frozenset(strings)) for needs, strings in found.items())


class Prefilter:
    """Which families are worth compiling for a text, by :func:`needles` (built once per anchor)."""

    def __init__(self, rules: Callable[[str], Sequence[Rule]]) -> None:
        self._rules = rules
        self._needles: dict[str, Needles | None] = {}
        self._tries: dict[str, int] = {}

    def wanted(self, anchor: str, scan: str) -> bool:
        """Whether ``scan`` (which holds ``anchor``) needs the family compiled: it holds one of its needles,
        or the family has been asked about :data:`TRIES` times already."""
        tries = self._tries[anchor] = self._tries.get(anchor, 0) + 1
        if tries > TRIES:
            return True
        if anchor not in self._needles:
            self._needles[anchor] = needles(anchor, self._rules(anchor))
        return holds(self._needles[anchor], scan)


def holds(found: Needles | None, scan: str) -> bool:
    """Whether ``scan`` holds what one of the groups ``found`` needs (``None``: needs nothing)."""
    if found is None:
        return True
    low = scan.lower()
    return any(
        (not needs or any(word in low for word in needs)) and any(needle in scan for needle in strings)
        for needs, strings in found
    )
