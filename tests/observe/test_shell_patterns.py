"""The shell-structure patterns, rewritten for speed, match exactly what their plain forms match.

``_HEREDOC`` opens with its literal ``<<`` (its look-behind moved after it) and ``_LITERAL`` reads a
double-quoted body a run at a time; both must find the same spans as the forms they replaced, or a
command would be elided differently.
"""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from sbcore.observe import elide

_PLAIN_HEREDOC = re.compile(
    r"(?<![<\w])<<(?P<dash>[-~]?)[ \t]*(?P<q>['\"]?)\\?(?P<tag>[A-Za-z_][\w.-]*)(?P=q)"
)
_PLAIN_LITERAL = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'", re.S)
_PIECES = [
    "<",
    "<<",
    "<<<",
    "-",
    "~",
    " ",
    "\t",
    "\n",
    "'",
    '"',
    "\\",
    '\\"',
    "a",
    "EOF",
    "_",
    "x.y",
    "=",
    "$",
]


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int, tuple[str | None, ...]]]:
    return [(m.start(), m.end(), m.groups()) for m in pattern.finditer(text)]


@example(["''", " ", '""'])
@example(["a", "<<", "EOF", "\n", "<<<", "'", "EOF", "'", "x<<", "EOF"])
@example(['"', "a", '\\"', "a", '"', "'", "\\", "'", '"', "\\", "\n", '"'])
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_the_fast_forms_match_what_the_plain_forms_match(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _spans(elide._HEREDOC, text) == _spans(_PLAIN_HEREDOC, text)
    assert _spans(elide._LITERAL, text) == _spans(_PLAIN_LITERAL, text)
