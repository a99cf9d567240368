"""What an edit changes, read by the projection from its whole text: the definitions it adds (``defines``)
and whether only comments changed (``comments_only``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbcore.observe import edit_reading as definitions
from sbcore.observe.edit_reading import added_definitions, comments_only, defined_names

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "transcripts"


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("def total(cart):", "total"),
        ("    async def fetch(self) -> None:", "fetch"),
        ("pub fn discount(cart: &Cart) -> u64 {", "discount"),
        ("func (c *Cart) Total() int {", "Total"),
        ("export function slugify(s) {", "slugify"),
        ("const parse = (text) => {", "parse"),
        ("sub count ($self, %args) {", "count"),
        ("  public decimal Surcharge(Vehicle v) {", "Surcharge"),
        ("class Throttler(rate: Int):", "Throttler"),
        ("parseDuration :: Text -> Either Err Int", "parseDuration"),
        ("let rec walk tree =", "walk"),
        ("  pure real(dp) function bilinear(x, y)", "bilinear"),  # Fortran, a result type before it
        ("subroutine solve(a, b)", "solve"),
        ("   procedure Put_Line (Item : String) is", "Put_Line"),  # Ada
    ],
)
def test_a_definition_in_any_of_the_usual_spellings_is_named(line: str, name: str) -> None:
    assert defined_names(line) == {name}


def test_stubs_cut_lines_and_calls_define_nothing() -> None:
    assert (
        defined_names("def todo(): pass\nfn noop() {}\ndef cut(a, b…\ntotal(cart)\nreturn x => x + 1")
        == set()
    )


def test_only_the_names_the_old_text_did_not_define_are_added_in_order() -> None:
    old = "def a():\n    return 1\n"
    new = "def b():\n    return 2\n\nasync def a():\n    return 1\n\ndef c():\n    return 3\n"
    assert added_definitions(new, old) == ["b", "c"]
    assert added_definitions(old, new) == []


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
def test_the_prefilter_finds_what_the_pattern_alone_finds_on_real_edits() -> None:
    """Lines are matched only when they could match (a cheap test first): the same names as matching every
    line, on every Edit and Write of the corpus."""
    pattern = re.compile(definitions._DEFINITION.pattern)

    def every_line(text: str) -> set[str]:
        names = set()
        for line in text.splitlines():
            found = pattern.match(line)
            if found and "…" not in line and not definitions._EMPTY_BODY.search(line):
                names.add(next(value for value in found.groupdict().values() if value))
        return names

    texts = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        for raw in path.read_text(errors="replace").splitlines():
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            content = (record.get("message") or {}).get("content")
            for block in content if isinstance(content, list) else ():
                if isinstance(block, dict) and block.get("name") in ("Edit", "Write"):
                    given = block.get("input") or {}
                    texts += [str(given.get(key) or "") for key in ("new_string", "old_string", "content")]
    assert len(texts) > 500
    assert [text for text in texts if defined_names(text) != every_line(text)] == []


_SOURCE_LINES = (
    "def total(cart):",
    "  async def fetch(self):",
    "export const parse = (text) => {",
    "const slug = s => s.trim()",
    "total :: Cart -> Int",
    "handler = function (req) {",
    "pub(crate) fn discount(c: &Cart) -> u64 {",
    "\tclass Throttler:",
    "\u3000func (c *Cart) Total() int {",
    "  real(dp) function bilinear(x, y)",
    "return total(cart)",
    "def stub(): pass",
    "def cut(a, b…",
    "# def commented(): out",
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(_SOURCE_LINES), st.text(alphabet="def :=>(){}\tx", max_size=10))),
    st.sampled_from(("\n", "\r\n", "\n\n", "\x1c", "\u2028", "\n\x0c")),
)
def test_definitions_are_found_in_order_as_reading_every_line_finds_them(lines: list[str], sep: str) -> None:
    """Only lines that may define something are read (found by scans of the whole text): the same names, in
    the same order, as matching the pattern on every line ``splitlines`` cuts."""
    text = sep.join(lines)
    names: dict[str, None] = {}
    for line in text.splitlines():
        found = definitions._DEFINITION.match(line)
        if found and "…" not in line and not definitions._EMPTY_BODY.search(line):
            names[next(value for value in found.groupdict().values() if value)] = None
    assert list(definitions._in_order(text)) == list(names)


def test_a_c_function_returning_a_type_of_the_projects_own_is_found() -> None:
    """Whatever type a C function returns, its head ends with its parameters or its body's brace."""
    text = "Widget *make_widget(int n) {\n    return alloc(n);\n}\nstatic Queue q_new(void)\nwidget_free(w);"
    assert list(definitions._in_order(text)) == ["make_widget", "q_new"]


def test_comments_only_reads_doc_comments_trailing_comments_and_comment_markers() -> None:
    assert comments_only("-- | The total.\ntotal :: Cart -> Int\n", "total :: Cart -> Int\n")
    assert comments_only("  real(dp) :: x(:)  !! samples\n", "  real(dp) :: x(:)\n")
    assert comments_only("(** the parser *)\nlet parse s = s\n", "let parse s = s\n")
    assert not comments_only("-- total (x + 1)\n", "total x = x + 1\n")  # code commented out
    assert not comments_only("total x = x + 2\n", "total x = x + 1\n")
    assert not comments_only("", "")
