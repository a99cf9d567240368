"""Locator harvesting, compact grouping and its expansion."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sbcore.observe import locators
from sbcore.observe.locators import compact, expand, harvest, is_kept


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see src/app.py:12, then", ["src/app.py:12"]),
        ("/usr/bin/env python3", ["/usr/bin/env"]),
        ("./run.sh and ../up/x and ~/.config/tool", ["./run.sh", "../up/x", "~/.config/tool"]),
        ("edit README.md and setup.py.", ["README.md", "setup.py"]),
        ("services/foo/deploy (a dir)", ["services/foo/deploy"]),
        ("src/utils/ is a dir", ["src/utils/"]),
        ("tests/test_x.py:3:7: E501", ["tests/test_x.py:3:7"]),
        ("lines src/a.go:10-20 changed", ["src/a.go:10-20"]),
        ("--config=conf/app.yaml,conf/extra.yaml", ["conf/app.yaml", "conf/extra.yaml"]),
        ('open("data/in.csv")', ["data/in.csv"]),
        ("https://github.com/acme/repo/blob/main/x.py", []),
        ("and/or, apps/v1, 2025/01/02, x/2, a/b", []),
        ("e.g. os.path.join and json.loads", []),
        ("a//b and / alone", []),
        ("", []),
    ],
)
def test_harvest(text: str, expected: list[str]) -> None:
    assert harvest(text) == expected


def test_harvest_deduplicates_in_first_seen_order() -> None:
    assert harvest("b/c/d.py a.py b/c/d.py a.py") == ["b/c/d.py", "a.py"]


def test_base64_is_not_a_path() -> None:
    blob = "/".join("QUJDREVGR0hJSktMTU5PUFFSU1RVVldY" for _ in range(20))
    assert harvest(blob) == []


def test_compact_lists_plainly_up_to_the_limit() -> None:
    assert compact(["a/b.py", "a/c.py"], 2) == "a/b.py, a/c.py"


def test_compact_groups_by_directory_beyond_the_limit() -> None:
    tokens = ["src/a.py", "src/b.py:3", "docs/x.md", "/abs/y.go", "/abs/z.go", "README.md"]
    rendered = compact(tokens, 3)
    assert rendered == "src/{a.py,b.py:3}, docs/x.md, /abs/{y.go,z.go}, README.md"
    assert all(is_kept(token, rendered, expand(rendered)) for token in tokens)


path_segment = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", min_size=1, max_size=8)
paths = st.builds(
    lambda parts, ext: "/".join(parts) + "." + ext,
    st.lists(path_segment, min_size=2, max_size=4),
    st.sampled_from(["py", "md", "go", "ts"]),
)


@given(st.lists(paths, min_size=0, max_size=30), st.integers(min_value=0, max_value=12))
def test_nothing_is_lost_by_grouping(tokens: list[str], limit: int) -> None:
    rendered = compact(tokens, limit)
    expanded = expand(rendered)
    assert all(is_kept(token, rendered, expanded) for token in tokens)


@given(st.lists(paths, min_size=1, max_size=10), st.text(alphabet=" \n\t,;()'\"", min_size=1, max_size=3))
def test_every_path_in_text_is_harvested(tokens: list[str], separator: str) -> None:
    assert set(harvest(separator.join(tokens))) == set(tokens)


_PIECES = [
    "/",
    "/src",
    "~/",
    ".",
    "a",
    "app",
    "-",
    "_",
    " ",
    "\n",
    "\t",
    ":12",
    "1",
    "://",
    *(f".{ext}" for ext in locators._EXTENSIONS.split("|")),
]
_PLAIN_ANCHOR = re.compile(rf"/|\.(?:{locators._EXTENSIONS})(?![\w-])")


def _harvest_by_one_search(text: str) -> list[str]:
    """``harvest`` as first written: one search for both sorts of anchor, the word around each."""
    found: dict[str, None] = {}
    anchor = _PLAIN_ANCHOR.search(text)
    while anchor is not None:
        at = anchor.start()
        start = max(text.rfind(" ", 0, at), text.rfind("\n", 0, at), text.rfind("\t", 0, at)) + 1
        stop = re.compile(r"\S*").match(text, at).end()  # type: ignore[union-attr]
        found.update(dict.fromkeys(locators._harvest_word(text[start:stop])))
        anchor = _PLAIN_ANCHOR.search(text, stop)
    return list(found)


@example(["/src", "/", "app", " ", "app", ".py", " ", "/src", ".md"])
@given(st.lists(st.sampled_from(_PIECES), max_size=24))
def test_the_factored_anchor_search_finds_what_the_plain_alternation_finds(pieces: list[str]) -> None:
    """Slashes and extension dots are looked for apart: the same tokens, in the same order."""
    text = "".join(pieces)
    extension_dot = re.compile(rf"\.(?:{locators._EXTENSIONS})(?![\w-])")
    assert [m.span() for m in locators._EXT_DOT.finditer(text)] == [
        m.span() for m in extension_dot.finditer(text)
    ]
    assert harvest(text) == _harvest_by_one_search(text)
