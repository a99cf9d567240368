"""A command's outcome is read by whole-text searches where it can be: they must find what a reading line by
line finds (the error line) and what the count pattern finds (the runner's counts), on any text."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from sbcore.observe import outcome, summaries, verdicts

_LINES = (
    "",
    "   ",
    "Exit code 1",
    "===== test session starts =====",
    "=========== FAILURES ===========",
    "Traceback (most recent call last):",
    "----",
    "E       assert 1 == 2",
    "E   ",
    "E",
    "[error] Bash: Exit code 2",
    "[error] Bash: TypeError: bad operand",
    "[error] no colon here",
    "  ValueError: not a number",
    "error[E0308]: mismatched types",
    "--- FAIL: TestThing (0.00s)",
    "panic: runtime error",
    "FAILED tests/test_a.py::test_x - AssertionError",
    "FAILED  tests/test_a.py",
    "Build failed: see log",
    "the connection timed out",
    "Timeout waiting",
    "can't open file",
    "[TypeError: generate is not a function]",
    "some ordinary output",
    "3 failed, 12 passed in 0.5s",
    "Tests: 2 failed, 5 passed",
    "x3 failed",
    "1 error in 0.2s",
    "10 Passing",
    "7 failing",
    "12 errors",
    "ok 1 passed",
)
_TEXT = st.lists(
    st.one_of(
        st.sampled_from(_LINES),
        st.text(alphabet="aE: -=rorfail\t\xa0\x1f\u3000é✓ıſİK", max_size=12),
        st.sampled_from(_LINES).map(lambda line: "\xa0" + line + "\u3000"),
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
@example(["Exit code 1", "====", "[error] Bash: Exit code 2", "Build failed: see log"])
@example(["Traceback (most recent call last):", "ok", "  ValueError: not a number"])
@example(["✓ ok", "\xa0E   assert 1 == 2\u3000", "échec: error"])
def test_the_telling_line_is_found_as_line_by_line(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert outcome._telling_line(text) == outcome._telling_line_by_line(text)


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.sampled_from(("", "é", "İ", "\u2028")))
@example(["3 failed, 12 passed in 0.5s", "x3 failed", "12 errors"], "")
def test_counts_are_found_as_the_pattern_finds_them(lines: list[str], extra: str) -> None:
    text = extra.join(lines) if extra else "\n".join(lines)
    assert verdicts._count_matches(text, text.lower()) == verdicts._COUNT.findall(text)


def test_a_text_with_other_line_breaks_is_read_line_by_line() -> None:
    assert outcome.error_line("ok\r\nValueError: boom\rmore") == "ValueError: boom"


# Texts for the summary and named-error searches: runner phrasings cut into pieces, digits of other scripts,
# word characters of other scripts, and the characters each search looks at before and after its words.
_PIECES = (
    " error",
    " errors in",
    " error during",
    " errors",
    "Found ",
    "Found 3 errors",
    "Found 0 errors",
    " failed",
    " failing",
    "test result: FAILED",
    "test result: FAILEDx",
    "error TS2322: no",
    "error TS:",
    "error CS0246: missing",
    "xerror C2065:",
    "error cs12:",
    "Error:",
    "Exception:",
    "ValueError:",
    "Error: bare",
    "_KeyError:",
    "ÉError:",
    "aTypeError:",
    "ErrorError:",
    "MyException: x",
)
_SUMMARY_TEXT = st.lists(
    st.one_of(
        st.sampled_from(_PIECES),
        st.text(alphabet="0123456789٣²x_(,=\n\t\xa0 éTé", max_size=4),
    ),
    max_size=10,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(_SUMMARY_TEXT)
@example("1 error in 0.2s")
@example("x(12 errors during build")
@example("٣ errors in")
@example("²3 failed")
@example("Found 12 errors")
@example("error TS2322: Type")
def test_the_summaries_are_found_as_their_patterns_find_them(text: str) -> None:
    assert verdicts._error_summary(text) == bool(verdicts._ERROR_SUMMARY.search(text))
    assert verdicts._failure_anywhere(text) == bool(verdicts._FAILURE_ANYWHERE.search(text))


@settings(max_examples=500, deadline=None)
@given(_SUMMARY_TEXT, st.integers(min_value=0, max_value=40))
@example("a ValueError: x", 0)
@example("ErrorError:", 0)
@example("TypeError:", 1)
def test_a_named_error_is_found_where_the_pattern_finds_it(text: str, start: int) -> None:
    found = outcome._NAMED_ERROR.search(text, start)
    assert outcome._named_at(text, text.lower(), start) == (found.start() if found else -1)


def test_the_word_test_is_the_patterns_on_every_code_point() -> None:
    word = re.compile(r"\w")
    differ = [c for c in map(chr, _CODE_POINTS) if verdicts.is_word(c) != bool(word.match(c))]
    assert differ == []


def test_folding_puts_each_case_blind_letter_where_the_pattern_sees_it() -> None:
    """Every character ``re.IGNORECASE`` takes for an ASCII letter folds to that letter, and nothing else
    folds to one: a count spelt in any case is found where ``_COUNT`` finds it."""
    letters = re.compile("[a-z]", re.I)
    for char in map(chr, _CODE_POINTS):
        if char.isascii():
            continue
        folded = char.translate(verdicts._CASE_BLIND).lower()
        if letters.fullmatch(char) or folded.isascii():
            seen = next((c for c in "abcdefghijklmnopqrstuvwxyz" if re.fullmatch(c, char, re.I)), None)
            assert folded == seen, (hex(ord(char)), folded, seen)
        else:
            assert len(folded) == 1, hex(ord(char))


_CODE_POINTS = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.sampled_from(("ſ", "K", "ı", "İ", "٣", "²")))
@example(["3 paſſed", "2 FAİLED", "٣ failing"], "")
def test_counts_in_any_script_are_found_as_the_pattern_finds_them(lines: list[str], extra: str) -> None:
    text = extra.join(lines) if extra else "\n".join([*lines, "é"])
    assert verdicts._count_matches(text, text.lower()) == verdicts._COUNT.findall(text)


# A wrapper's summary inside a long line (an assertion quoting a page): each phrasing of the pattern, cut
# and glued to filler, so that every opening meets its word at every distance the pattern allows.
_WRAPPER_PIECES = (
    "exited with code 2",
    "exit status 1",
    "Exit code: -1",
    "non-zero exit",
    "returned non-zero",
    "returned nonzero",
    "Command failed",
    "the following build command",
    "recipe for target 'all' failed",
    "script 'test' exited",
    "Task :app:test FAILED",
    "lifecycle script",
    "ELIFECYCLE",
    "Build failed",
    "failed to execute",
    "npm ERR! x",
    "Process completed with",
    "compilation failed",
    "there were test failures",
    "There was failure",
    "make: *** [all] Error 2",
    "] error 2",
    "error: 3 tests failed",
    "failure for the goal",
    "failed in project",
    "test run failed",
    "exit",
    "task",
    "error:",
)
_LONG_LINE = st.lists(
    st.one_of(st.sampled_from(_WRAPPER_PIECES), st.text(alphabet="ab -:*[]!_0é\t", max_size=24)),
    max_size=16,
).map(lambda pieces: "".join(pieces).replace("\n", " "))


@settings(max_examples=500, deadline=None)
@given(_LONG_LINE, st.integers(min_value=0, max_value=300))
@example("there were test failures", 300)
@example("returned non-zero", 290)
@example("error: 3 tests failed", 0)
@example("x] error 2", 280)
def test_a_long_line_is_a_wrapper_summary_where_the_pattern_finds_one(line: str, pad: int) -> None:
    """A line past the length read whole is tried only near the pattern's words: the same answer."""
    for text in ("x" * pad + " " + line, line + " " + "y" * pad, line):
        assert summaries.is_wrapper_summary(text) == bool(summaries._WRAPPER_SUMMARY.search(text.lower()))
