"""The context rules' prefilter for short strings only skips strings no rule could find a secret in.

``_may_hold`` lets a short string skip every context rule at once; each of its tests must be implied by
the gate of a rule, so with the prefilter or without it the same spans are found.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sbcore.observe import secret_contexts
from sbcore.observe.redact import judged_span, kind_of_key

_PIECES = [
    " ",
    "\n",
    "=",
    ":",
    "|",
    "'",
    '"',
    "-",
    " -p",
    " -P",
    " -l",
    " -a",
    " -A",
    " -S",
    " -w",
    " -N",
    " -k",
    "mysql",
    "redis-cli",
    "sudo",
    "zip",
    "login",
    "ldapsearch",
    "ssh-keygen",
    "echo",
    "<<<",
    "pass:",
    "password",
    "token",
    "secret",
    "key",
    "api_key",
    "authorization",
    "Bearer",
    "Q~",
    "SK",
    "dapi",
    "oy2",
    "pat",
    "x9Qw7Lm2Zr5Tk8Vb",
    "3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e",
    "hunter2",
    "a",
]


def _spans(text: str) -> list[secret_contexts.Span]:
    spans: list[secret_contexts.Span] = []
    secret_contexts.context_spans(text, text, judged_span, kind_of_key, spans)
    return sorted(spans)


@example(["mysql", " -p", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["client: abc7Q~", "x9Qw7Lm2Zr5Tk8Vb", "x9Qw7Lm2Zr5Tk8Vb"])
@example(["ls", " -l", "a", " ", "password", "=", "hunter2"])
@example(["redis-cli", " -a", " ", "x9Qw7Lm2Zr5Tk8Vb"])
@given(st.lists(st.sampled_from(_PIECES), max_size=12))
def test_the_prefilter_skips_only_strings_without_a_context_secret(pieces: list[str]) -> None:
    text = "".join(pieces)
    filtered = _spans(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(secret_contexts, "_may_hold", lambda low, scan, words: True)
        assert _spans(text) == filtered


_FORMAT_PIECES = ["dapi", "SK", "oy2", "pat", "0123456789abcdef", "0123456789abcdef0123456789abcdef", "q"]
_FORMAT_PIECES += ["ABCDEFGHIJKLMN", ".", "-12", " ", "\\n", "/", "x"]


_HEX32 = "0123456789abcdef0123456789abcdef"


@example(
    [
        "dapi",
        _HEX32,
        " ",
        "pat",
        "ABCDEFGHIJKLMN",
        ".",
        _HEX32,
        _HEX32,
        " ",
        "SK",
        _HEX32,
        "\\n",
        "dapi",
        _HEX32,
    ]
)
@given(st.lists(st.sampled_from(_FORMAT_PIECES), max_size=16))
def test_a_bare_format_is_found_at_every_occurrence_of_its_prefix(pieces: list[str]) -> None:
    """``finditer`` stands for a match tried at each occurrence: no match holds another's start."""
    text = "".join(pieces)
    for prefix, _, _, pattern in secret_contexts._BARE_FORMATS:
        at_each = []
        found = text.find(prefix)
        while found != -1:
            if match := pattern.match(text, found):
                at_each.append(match.span())
            found = text.find(prefix, found + 1)
        assert [match.span() for match in pattern.finditer(text)] == at_each


@example(["password", " ", "password", " ", "hunter2"])
@given(st.lists(st.sampled_from(_PIECES), max_size=12))
def test_a_spaced_rule_is_tried_at_every_occurrence_of_its_stem(pieces: list[str]) -> None:
    """A spaced rule's look-ahead form finds, at each stem, what the plain pattern matched there."""
    low = "".join(pieces).lower()
    for stem, pattern in secret_contexts._SPACED:
        source = pattern._source
        assert source.startswith(stem + "(?=") and source.endswith(")")
        plain = re.compile(stem + source[len(stem) + 3 : -1], re.ASCII)
        expected = []
        found = low.find(stem)
        while found != -1:
            if match := plain.match(low, found):
                expected.append((match.start(), match.span("e"), match.span("v"), match.group("xml", "pair")))
            found = low.find(stem, found + 1)
        got = [
            (match.start(), match.span("e"), match.span("v"), match.group("xml", "pair"))
            for match in pattern.finditer(low)
        ]
        assert got == expected


def test_the_secret_words_a_text_holds_are_each_subset_of_them() -> None:
    """``words_in`` looks its answer up among prebuilt sets: every subset of the words maps to itself."""
    from itertools import combinations

    from sbcore.observe.secret_contexts import WORDS, words_in

    for size in range(len(WORDS) + 1):
        for chosen in combinations(WORDS, size):
            text = " ".join(f"my_{word}_here" for word in chosen) or "nothing at all"
            assert words_in(text.lower()) == frozenset(chosen), chosen
