import pytest
from hypothesis import given, strategies as st

from tokfast import tokenize


def test_simple_words():
    assert [t.text for t in tokenize("hello world")] == ["hello", "world"]


def test_punctuation_split():
    assert [t.text for t in tokenize("a,b.c")] == ["a", ",", "b", ".", "c"]


def test_unicode_offsets():
    toks = tokenize("naïve café")
    assert [(t.start, t.end) for t in toks] == [(0, 5), (6, 10)]


@given(st.text())
def test_roundtrip_offsets(s):
    for t in tokenize(s):
        assert s[t.start:t.end] == t.text
