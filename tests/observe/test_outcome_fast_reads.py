"""The outcome reader's searches that are answered without the pattern's scan of every position: each must
answer what the pattern answers, on any text (``line_search``, ``error_words``, the gated phrasings of
``summaries`` and ``failing_test``, the markup a report's line is read without)."""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import example, given, settings
from hypothesis import strategies as st

from sbcore.observe import error_words, failing_test, fallbacks, outcome, summaries, verdicts
from sbcore.observe.lazy_pattern import Lazy
from sbcore.observe.line_search import LineOpening, lines_holding

# Characters a case-blind pattern reads as ASCII letters, other scripts' letters and digits, the runners'
# marks, and the blanks and breaks a line's edges are made of.
_ODD = "ıİſKé٣✗✖\xa0\t\n "


def _compiled(pattern: re.Pattern[str] | Lazy) -> re.Pattern[str]:
    """The compiled pattern, or the one behind a pattern compiled on first use."""
    return pattern if isinstance(pattern, re.Pattern) else pattern._regex()


def _texts(pieces: tuple[str, ...], max_size: int = 12) -> st.SearchStrategy[str]:
    return st.lists(
        st.one_of(st.sampled_from(pieces), st.text(alphabet="aZ:-=_0 " + _ODD, max_size=6)), max_size=max_size
    ).map("".join)


_WORDED = (
    "Error",
    "FAIL",
    "exception",
    "Traceback",
    "NOT FOUND",
    "timed out",
    "time out",
    "timeout",
    "need formatting",
    "can't",
    "Issue:",
    "[EMERG]",
    "faıl",
    "İnvalid",
    "diff in ",
    "✗",
    "got it",
    "got",
    "!=",
    "should",
)


@settings(max_examples=400, deadline=None)
@given(_texts(_WORDED))
@example("FAİL")
@example("unexpectedly got")
def test_an_error_word_is_found_where_the_pattern_finds_one(text: str) -> None:
    assert error_words.has_error_word(text) == bool(error_words.ERROR_WORDS.search(text))
    assert failing_test._gives_reason(text) == bool(failing_test._REASON_WORDS.search(text))


@settings(max_examples=300, deadline=None)
@given(_texts(_WORDED, max_size=30), st.lists(st.integers(min_value=0, max_value=60), max_size=6))
def test_the_nearest_error_word_is_where_the_pattern_next_matches(text: str, starts: list[int]) -> None:
    """Asked from later and later positions, and again from further back, as the telling line's walk asks."""
    low = verdicts.case_folded(text)
    if low is None:
        return
    nearest = error_words.NearestErrorWord()
    for start in [*sorted(starts), *starts]:
        start = min(start, len(text))
        found = error_words.ERROR_WORDS.search(text, start)
        assert nearest(text, low, start) == (found.start() if found else -1)


# What the markup of a report's line was taken off with: the opening tags at the line's start, the closing
# ones to its end.
_MARKUP = re.compile(r"^(?:" + _compiled(outcome._MARKUP_OPENING).pattern + r")|(?:\]\]>|</[\w:.-]+>|\s)+$")
_MARKUP_PIECES = (
    "<a>",
    "</a>",
    "<b c='d'>",
    "<![CDATA[",
    "]]>",
    "</x:y.z>",
    "<br/>",
    ":",
    "x",
    " ",
    "\t",
    "\n",
)


@settings(max_examples=500, deadline=None)
@given(_texts(_MARKUP_PIECES))
@example("<failure message='x'>src/a.c:64: FAIL</failure>")
@example("<stdin>:3:1: error")
@example("<a x]]>")
def test_markup_is_taken_off_as_the_substitution_took_it(line: str) -> None:
    assert outcome._unmarked(line) == _MARKUP.sub("", line)


_OPENING_PIECES = (
    "FAILED",
    "FAIL ",
    "Error: x",
    "[fail]",
    "Tests:  2 failed",
    "Finished: FAILURE",
    "Aborting now due to x",
    " ✕ a failed",
    "<failure x>",
    "  fail: 3",
    "ERRORS 2 (1%)",
    "E   assert x",
    "E   1 / 1 (",
    "[error] Bash: ValueError: x",
    "--- FAIL: T",
    "FAILED a - b",
    "error[E1]:",
)


@settings(max_examples=500, deadline=None)
@given(_texts(_OPENING_PIECES), st.integers(min_value=0, max_value=40))
def test_a_line_opening_pattern_is_found_where_the_anchored_pattern_is(text: str, start: int) -> None:
    for body in (
        verdicts._FAILURE_LINE_BODY,
        verdicts._LABELLED_FAILURES_BODY,
        outcome._ASSERTION_OPENING,
    ):
        anchored = re.compile("^(?:" + body + ")", re.M)
        assert LineOpening(body).search(text) == bool(anchored.search(text))
        line_start = text.rfind("\n", 0, min(start, len(text))) + 1
        found = anchored.search(text, line_start)
        assert LineOpening(body).find(text, line_start) == (found.start() if found else -1)


# Each pattern searched only in the lines holding its words, with those words.
_IN_LINES = (
    (verdicts._FAILURE_COUNT, verdicts._FAILURE_COUNT_WORDS),
    (verdicts._FAILED_WITH_STATUS, verdicts._FAILED_WITH_STATUS_WORDS),
    (verdicts._OWN_EXIT, verdicts._OWN_EXIT_WORDS),
    (verdicts._COUNTS_SPACED, verdicts._COUNTS_SPACED_WORDS),
    (verdicts._STATUS_COUNT, verdicts._STATUS_LABELS),
    (verdicts._ERRORS_COUNTED, verdicts._ERRORS_COUNTED_WORDS),
    (verdicts._LABEL_COUNT, verdicts._LABELS_COUNTED),
)
_ROW_PIECES = (
    "Failures: 2",
    "3 failures",
    "x1 failure",
    "failed with exit code 2",
    "FAILED with status 1",
    "exited with code 3",
    "EXIT CODE: -1",
    "ExitCode=25",
    "Total 38 Passed 37 Failed 1",
    "Errors\t2",
    "Status: 1 ERROR",
    "Summary: 0 warnings, 3 errors",
    "3 tests, 1 error",
    ", 2 errors",
    "Failed: 2, Passed: 40",
    "Broken:\t1",
    "Error: 1",
)


@settings(max_examples=500, deadline=None)
@given(_texts(_ROW_PIECES))
@example("Tests run: 9, Failures: 0, Errors: 1")
def test_a_pattern_is_found_in_the_lines_holding_its_words_as_in_the_whole_text(text: str) -> None:
    for pattern, words in _IN_LINES:
        in_lines = [
            match.span()
            for start, end in lines_holding(text, words)
            for match in pattern.finditer(text, start, end)
        ]
        assert in_lines == [match.span() for match in pattern.finditer(text)], words


_WRAPPER_PIECES = (
    "exited with code 2",
    "exit code: -1",
    "non-zero exit",
    "returned an error exit status",
    "did not complete successfully",
    "error occurred while running",
    "command finished with error",
    "exited (1)",
    "failed: a/b.o",
    "......failed 0.04 sec",
    "[failed]",
    "error: test failed",
    " 7/12 lib:unit  FAIL  0.02s",
    "due to previous errors",
    "because of an error",
    "error: deploy failed",
    "fatal error: aborted",
    "executionerror('x', 1",
    "myexception('y', -2",
    "the following build command",
    "recipe for target failed",
    "script 'x' exited",
    "target 'Test' failed.",
    "task x fail",
    "lifecycle script",
    "build failed",
    "npm err!",
    "failed to compile",
    "elifecycle",
    "process completed with",
    "compilation failed",
    "there were test failures",
    "*** [all]",
    "] error 2",
    "error: 3 tests failed",
    "failure for the goal",
    "test run failed",
    "found 2 errors",
    "encountered 1 problem",
    "error: check found errors",
    "error: test failures",
    "nginx test failed",
    "could not be analyzed",
    "status: failed",
    "status: 1 error",
    "[ fail 1 |",
    "component failures [1]",
    "errors (2):",
    "see: out/a.log",
    "see the logs",
    "check output",
    "1 failed",
    "2 errors",
)


@settings(max_examples=800, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(_WRAPPER_PIECES), st.text(alphabet="ab -:_0é\t", max_size=8)), max_size=4
    )
)
def test_a_short_line_is_searched_for_a_phrasing_only_where_its_word_is(pieces: list[str]) -> None:
    for line in ("".join(pieces), " ".join(pieces)):
        assert summaries.is_wrapper_summary(line) == bool(summaries._WRAPPER_SUMMARY.search(line.lower()))


def test_a_phrasing_compiles_only_when_a_line_holds_its_word() -> None:
    probe = (
        "from sbcore.observe import summaries\n"
        "rule = dict(summaries._GATED)['could not be analy']\n"
        "print(summaries.is_wrapper_summary('ValueError: not a number'), rule._compiled is None)\n"
        "print(summaries.is_wrapper_summary('Codebase could not be analyzed'), rule._compiled is None)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.splitlines() == ["False True", "True False"]


_NAMES_PIECES = (
    "--- FAIL: T",
    "FAIL a",
    "> Task :x",
    " FAILED",
    "...",
    "*failed*",
    "fail",
    "1) x",
    "Error:",
    "x",
)


@settings(max_examples=500, deadline=None)
@given(_texts(_NAMES_PIECES, max_size=6))
@example("parse_test...*failed*")
@example("> Task :app:test FAILED")
def test_a_line_names_a_test_where_the_one_pattern_said_so(line: str) -> None:
    whole = re.compile(
        failing_test._NAMES_ONLY.pattern[:-2]
        + "".join("|" + _compiled(pattern).pattern[:-1] for _, pattern in failing_test._NAMES_FAILED)
        + ")$"
    )
    assert failing_test.names_only(line) == bool(whole.match(line))


_COUNTED_NONE = (
    "0 errors",
    "0 Error(s)",
    "No errors",
    "without failures",
    "NO FAILURES",
    "wıthout errors",
    "x",
)
_TIMEOUTS = ("timeout = 30s", "Time out is 5", "TİMEOUT: 3", "timed out", "x")


@settings(max_examples=300, deadline=None)
@given(_texts(_COUNTED_NONE + _TIMEOUTS, max_size=6))
def test_a_blanked_line_is_what_the_substitution_leaves(line: str) -> None:
    for pattern, words in (
        (outcome._NONE_COUNTED, ("0 ", "no ", "without ")),
        (outcome._TIMEOUT_SETTING, ("timeout", "time out")),
    ):
        assert outcome._blanked(pattern, line, words) == _compiled(pattern).sub(" ", line)


@settings(max_examples=200, deadline=None)
@given(_texts(("3 failed", "2 Passed", "1 error", "ſ", "İ"), max_size=8))
def test_counts_read_with_a_known_lower_case_are_the_counts(text: str) -> None:
    assert verdicts.count_results(text, text.lower()) == verdicts.count_results(text)


_SHELL_PIECES = (
    "'a b'",
    '"c \\" d"',
    "${X:-y}",
    " > out.log",
    " 2>&1",
    " &> all",
    "1>f",
    "x",
    " ",
    "<system-reminder>",
    "</system-reminder>",
    "\nShell cwd was reset to /x",
    "\n",
)


@settings(max_examples=300, deadline=None)
@given(_texts(_SHELL_PIECES, max_size=10))
def test_a_command_is_read_as_the_substitutions_read_it(text: str) -> None:
    for pattern, replacement in (
        (fallbacks._QUOTED, "''"),
        (fallbacks._VARIABLE, "x"),
        (fallbacks._HARNESS_ADDED, ""),
    ):
        assert fallbacks._replaced(pattern, replacement, text) == _compiled(pattern).sub(replacement, text)
    redirections = [found.groups("") for found in fallbacks._REDIRECT.finditer(text)]
    assert redirections == _compiled(fallbacks._REDIRECT).findall(text)


@settings(max_examples=200, deadline=None)
@given(
    _texts(
        ("[error]", " Bash:", " Read (x):", " a-b.c:", "[error] /src/Foo.scala:4: x", " ", "y"), max_size=4
    )
)
def test_a_rendered_line_loses_the_projections_prefix_only(line: str) -> None:
    expected = _compiled(failing_test.RENDERED).sub("", line, count=1) if line.startswith("[error]") else line
    assert failing_test.unrendered(line) == expected


def test_a_rare_phrasings_pattern_is_not_compiled_for_a_common_failure() -> None:
    """Compiling is most of what importing the outcome reader costs: a pattern only a rare result reaches is
    compiled when one does, not by every process."""
    probe = (
        "from sbcore.observe import fallbacks, failing_test, outcome, verdicts\n"
        "text = 'E   assert 1 == 2\\nFAILED tests/test_a.py::test_x - assert 1 == 2\\n1 failed in 0.2s'\n"
        "print(outcome.read_outcome(text, 'pytest -q | tail', is_error=False)['line'])\n"
        "rare = (verdicts._THROWN, verdicts._STATUS_COUNT, fallbacks._TOKEN, failing_test._GRADLE_FAILED,"
        " outcome._LOCATED_WARNING)\n"
        "print([pattern._compiled is None for pattern in rare])\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.splitlines() == ["E   assert 1 == 2", "[True, True, True, True, True]"]
