"""A command's outcome is read by whole-text searches where it can be: they must find what a reading line by
line finds (the error line) and what the count pattern finds (the runner's counts), on any text."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from sbcore.observe import outcome

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
        st.text(alphabet="aE: -=rorfail\t\xa0\x1f\u3000é✓", max_size=12),
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
    assert outcome._count_matches(text, text.lower()) == outcome._COUNT.findall(text)


def test_a_text_with_other_line_breaks_is_read_line_by_line() -> None:
    assert outcome.error_line("ok\r\nValueError: boom\rmore") == "ValueError: boom"
