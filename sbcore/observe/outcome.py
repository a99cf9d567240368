"""The one thing taken from a command's result: a small structured outcome.

Results are otherwise never observed (the projection drops successful ones whole and keeps
only the capped head of a failed one). A command whose output is piped (``pytest | tail``)
or whose status is echoed (``make; echo $?``) is recorded by the harness as a success even
when the work failed, so a structural check reading only ``is_error`` misses it. For command
tools the projector therefore reads the head and the tail of the result for the runner's own
verdict and keeps only this, never the text:

``failed``
    whether the result shows the work failing: an echoed non-zero exit status at the end
    (only when the command echoes ``$?``), or a runner's failure summary;
``exit_code``
    the exit status, when the harness or an echo states it;
``counts``
    the runner's summary counts (``failed``, ``passed``, ``errors``) when it prints them;
``line``
    one error line (the most telling one), capped and passed through the redactor.

Standard library only.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from typing import Any

from sbcore.observe.elide import redact
from sbcore.observe.error_words import ERROR_WORDS, NearestErrorWord, error_pattern_at, has_error_word
from sbcore.observe.failing_test import explained, names_only, unrendered
from sbcore.observe.fallbacks import marks_success, printed, prints_only_on_failure
from sbcore.observe.lazy_pattern import Lazy
from sbcore.observe.line_search import LineOpening
from sbcore.observe.summaries import is_wrapper_summary
from sbcore.observe.tables import TABLE_RULE, untabled
from sbcore.observe.verdicts import (
    EXPECTED_BUT,
    case_folded,
    count_results,
    is_word,
    logged_failure,
    summary_failed,
    unstamped,
)

SCAN_CHARS = 4000
"""How much of the head and of the tail of a result is read."""
LINE_CAP = 200

# A bare status echoed at the very end: `1`, `exit: 1`, `EXIT=2`, `exit code: 1`, `status 1`.
_ECHOED_STATUS = re.compile(  # `1`, `exit=1`, `rc: 1`, `xcodebuild exit=65` (the program named first)
    r"^\s*(?:(?:[\w.-]+[ _-])?(?:exit|status|rc|code)[a-z _-]*[:= ]\s*)?(-?\d{1,3})\s*$", re.I
)
_ECHOES_STATUS = re.compile(r"\$\?|\$\{?PIPESTATUS")
# The label an echo of the status prints before it (`echo "exit=$?"`, `echo rc: $?`).
_ECHO_LABEL = Lazy(r"\b(?:echo|printf)[ \t]+[\"']?([^\"'$\n;|&%]{1,40})\$\?", 0)
_HARNESS_EXIT = re.compile(r"^\s*exit code (-?\d+)\s*$", re.I | re.M)
_NOISE = re.compile(
    r"^(?:exit code -?\d+|[\W_]+|traceback \(most recent call last\):?"  # no letter nor digit: rules, marks
    r"|\[(?:error|warn(?:ing)?|info|fail(?:ed)?)\]"  # a level tag with nothing after it
    r"|(?:real|user|sys)\s+\d+m[\d.]+s"  # the shell's `time` report (`real\t0m41.203s`)
    # a banner's line drawn in box or block characters, one word at most (gitleaks' `░    gitleaks`)
    r"|(?=[^\n]*[\u2500-\u259f])[\u2500-\u259f\W_]*(?!(?:errors?|fail(?:ed|ure)?)\b)\w*[\u2500-\u259f\W_]*)$",
    re.I,
)
_NAMED_ERROR = re.compile(r"\b[A-Z]\w*(?:Error|Exception):")
# A compiler's or a linter's diagnostic: a file, its line (and column), then what is wrong there
# (`src/geo.erl:44:19: function f/4 undefined`, `main.go:12:2: undefined: x`, `a.ts:3:5 - error TS2304: …`),
# whatever the tool. A warning or a note at a place is not the failure; nor is a frame (`x.py:12: in f`).
# Found from its location (a literal "." the scan finds fast), then the line is checked to open with the file.
_LOCATION = re.compile(
    r"\.[A-Za-z]\w{0,9}(?:(?::\d+){1,2}\]?(?::[^\S\n]*|[^\S\n]+-[^\S\n]+|[^\S\n]+(?=[A-Z]))"
    r"|[^\S\n]\(\d+:\d+\):[^\S\n]*)"  # a bundler's place after the file (`src/db.ts (3:9): "X" is not …`)
    r"(?!(?i:warning|note|info|hint|in)\b)[^\s\d:]"
)
# The file opens the line, after an error's one-letter or one-word severity (`e: file:///…` from kotlinc), a
# level tag (sbt's `[error] /src/Foo.scala:42:15: …`) or the program's name (C's `assert`: `test_parser:
# tests/test_parser.c:88: f: Assertion … failed.`; not a lesser severity: `warning: a.c:3: …`), or in brackets
# (`[internal/store/snapshot.go:58] - G304 …` from gosec)
_LOCATED_FILE = re.compile(
    r"(?:\[error\](?:[^:\n]*:)?)?[^\S\n]*(?:(?:e|E|error|(?!(?i:warning|warn|note|info|hint)\b)[\w.+-]+):[^\S\n]+)?"
    r"(?:file://|\[)?[\w./~+-]+"
)
# A failing test as the Test Anything Protocol reports it (Ember's and node-tap's runners, Bats, Perl's prove,
# pgTAP): `not ok 9 - price-tag: it formats cents`, behind the tag of a runner that ran it beside others
# (`[test:ember] not ok 9 …`). It names the test with no error word, where the only line with one is the
# count at the end (`# fail  1`).
_TAP_FAILURE = Lazy(r"^[^\S\n]*(?:\[[\w@./:-]+\][^\S\n]+)?not ok \d+\b.*$", re.M)
# A count and nothing else (TAP's `# fail  1`, behind a runner's tag or not; FiveAM's `Fail: 1 ( 3%)`).
_COUNT_ONLY = re.compile(
    r"(?i)^(?:\[[\w@./:-]+\]\s+)?[#\W]*(?:fail(?:ed|ures?)?|errors?)\s*:?\s*\d+\s*(?:\(\s*[\d.]+\s*%\s*\))?\W*$"
)
# A heading the failures' details are listed under (FiveAM's ` Failure Details:`, `Failed tests:`).
_DETAILS_HEADING = Lazy(
    r"^[^\S\n]*(?:Failure [Dd]etails|Failures|Failed [Tt]ests|Failing [Tt]ests)[^\S\n]*:[^\S\n]*$", re.M
)
# Symfony Console's error block (Composer, Drush, Magento, Symfony's own console): the place it was thrown on
# a line of its own, the message under it (`In Log.php line 92:`, then `Incompatible argument type: …`),
# which the header is read with as any heading is.
_CONSOLE_HEADER = re.compile(r"^[^\S\n]*In [\w.\\/-]+\.[A-Za-z]\w{0,9} line \d+:[^\S\n]*$", re.M)
_LOGGED = re.compile(r"\b(?:INFO|DEBUG|TRACE)\b|\blevel=(?:info|debug|trace)\b")  # a log record at a place
_BANNER = re.compile(r"^[=\-_ ]*(?:test session starts|short test summary info|FAILURES|ERRORS)[=\-_ ]*$")
# A heading the details follow on the next lines (`Error found:`, `Errors:`): a few words and a colon. Passed
# over for the details, unless the line names failing tests (`Failures:`), which a reason is joined to.
# An error word that a message follows on its line (`ASSERT errors for:  assert (sum (h), 1)`, `Test failed:
# total was 3`): a line that says what went wrong, over one with the word alone (a runner's `!!!!! test
# failed` banner, a test's own code echoed above it: `assert (numel (h), 65)`). A count is no message
# (`Failures: 1`), nor a colon standing alone (tox's `evaluation failed :(`).
_WORDED_MESSAGE = re.compile(
    r"\b(?i:errors?|failures?|failed|exception)\b[^:\n]{0,30}(?<!\s):[^\S\n]*[^\s\d]"
)
_HEADING = re.compile(r"^[A-Za-z][A-Za-z ,'-]{0,40}:$")  # `Failures:`, `Warning, treated as error:`
_ASSERTION = re.compile(
    r"^(?:E\s{2,}|\w*(?:Error|Exception)\b:|error(?:\[E\d+\])?:|--- FAIL:|panic:"
    r"|FAILED\s+\S+\s+-\s+\S"  # pytest's short summary: `FAILED <test> - <its assertion>`
    r"|.*\b(?i:expected)\b.*\b(?i:but (?:was|got|found))\b)"  # JUnit, NUnit, Hamcrest, testify...
)


# Commands that show text rather than run work: their output saying FAILED is a quote, not a verdict.
_VIEWERS = frozenset(
    {"cat", "grep", "rg", "ag", "head", "tail", "less", "more", "sed", "awk", "find", "ls", "echo"}
    | {"git", "gh"}
)


FAILURE_MARKS = (
    "fail",
    "FAIL",
    "Fail",
    "rror",
    "RROR",
    "ERR!",
    "Traceback",
    "***",
    "Aborted",
    "not ok",
    "[emerg]",
)
"""Substrings every failure signal above contains (a summary, a count, an error line): a result with none
of them in its head or tail cannot read as failed, so it is not parsed at all."""


def reports_itself(command: str | None) -> bool:
    """Whether ``command`` tells itself whether its work failed, whatever marks its result holds, so its
    result must be read: it prints its own exit status (``; echo $?``), only a fallback run when the work
    failed prints (``make > build.log 2>&1 || tail build.log``, :mod:`.fallbacks`), or it echoes a marker
    only when the work passed (``./nightly.sh && echo OK || tail nightly.log``)."""
    if not command:
        return False
    return (
        _ECHOES_STATUS.search(command) is not None
        or prints_only_on_failure(command)
        or bool(marks_success(command))
    )


def can_fail_quietly(command: str | None) -> bool:
    """Whether a successful result of ``command`` could still show the work failing.

    Not for a command that shows text (``cat``, ``grep``, ``git log``, …) unless it reports its own
    failure: what such output says about failing is a quote, never a verdict, so it is never read.
    """
    if reports_itself(command):
        return True
    return command is None or _first_word(command) not in _VIEWERS


def may_show_failure(text: str, command: str | None) -> bool:
    """Whether a result marked successful could read as failed: a cheap test before :func:`read_outcome`.

    Most successful results (a listing, a file, a passing run) hold none of the failure marks, and the
    projection reads every one of them: this keeps their cost to a few substring searches.
    """
    if reports_itself(command):
        return True
    head, tail = text[:SCAN_CHARS], text[-SCAN_CHARS:] if len(text) > SCAN_CHARS else ""
    return any(mark in head or mark in tail for mark in FAILURE_MARKS)


def read_outcome(text: str, command: str | None, *, is_error: bool) -> dict[str, Any] | None:
    """The outcome of one command result, or None when the result says nothing about failure.

    ``is_error`` is the harness's own flag; the outcome of an errored result is always
    ``failed``. A result marked successful is failed only on the runner's own evidence.
    """
    head, tail = text[:SCAN_CHARS], text[-SCAN_CHARS:] if len(text) > SCAN_CHARS else ""
    read = head + ("\n" + tail if tail else "")
    scanned = unstamped(read)
    low = scanned.lower()
    exit_code = _harness_exit(head) if is_error else None
    if exit_code is None and command and _ECHOES_STATUS.search(command):
        exit_code = _echoed_status(text, command)
    counts = count_results(scanned, low)
    if is_error:
        failed = True
    elif exit_code is not None:
        failed = exit_code != 0
    elif prints_only_on_failure(command) and printed(text):
        failed = True  # the fallback printed: it ran because the work failed
    elif (marker := marks_success(command)) and marker not in text:
        failed = True  # `work && echo OK || fallback` printed no OK: the fallback ran, the work failed
    else:
        shows = command is None or _first_word(command) not in _VIEWERS
        piped = command is not None and "|" in command  # a pipe hid the exit status
        failed = shows and (summary_failed(scanned, counts) or (piped and logged_failure(scanned)))
    if not failed and not counts:
        return None
    outcome: dict[str, Any] = {"failed": failed}
    if exit_code is not None:
        outcome["exit_code"] = exit_code
    if counts:
        outcome["counts"] = counts
    if failed:
        # a text with no time stamp is as :func:`error_line` would unstamp it, its lower case known
        line = _error_line(scanned, low) if scanned is read else error_line(scanned)
        if line:
            outcome["line"] = line
    return outcome


def only_status(line: str) -> bool:
    """Whether a failure's line says no more than that it failed: nothing, or a status (`nuxi exit: 1`)."""
    return not line or _ECHOED_STATUS.match(line) is not None


def says_nothing(line: str) -> bool:
    """Whether a failure's line says no more than that the run failed, not even which test (`jest exit: 1`,
    a bare `FAILED`, a task runner's `make: *** [Makefile:12: render] Error 1`): a log or a report the run
    wrote where its recipe or configuration says is the only place it shows how."""
    return (
        only_status(line)
        or _BARE_VERDICT.fullmatch(line) is not None
        or _RUNNER_BANNER.match(line) is not None
    )


_BARE_VERDICT = re.compile(r"(?i)[^\w\n]*(?:failed|failure|fail|errors?|not ok)[^\w\n]*")
# A task runner's line saying only that a step of its recipe failed: make's, yarn's, just's, Task's.
_RUNNER_BANNER = re.compile(
    r"(?:g?make(?:\[\d+\])?: \*\*\* \[[^\]\n]*\] Error \d+|error Command failed with exit code \d+\.?"
    r"|error: Recipe `[^`\n]+` failed (?:on line \d+ )?with exit code \d+"
    r"|task: Failed to run task \"[^\"\n]+\": exit status \d+)$"
)


def says_little(line: str) -> bool:
    """Whether a failure's line says no more than that it failed, or which test did (`✕ a_test.py:tests failed
    in 0.85s.`, `FAIL src/cart.test.ts`): what went wrong is then in a log the run wrote, read later."""
    return only_status(line) or names_only(line) or _RUNNER_BANNER.match(line) is not None


def error_line(text: str) -> str:
    """The most telling line of an error: an assertion or error message over a banner or a status.

    The first assertion line wins; failing that, the first line naming an exception, then the first with
    an error word (one a message follows on its line, ``ASSERT errors for:  assert (…)``, before one with the
    word alone), then the first line at all (blank, noise and banner lines never count). A line that
    only names the failing test or counts failures (Go's ``--- FAIL: TestX``, jest's ``FAIL file``) gets
    the reason the runner printed with it joined on (:mod:`.failing_test`). A text whose
    only line break is ``\n`` (nearly every one) is searched whole, one pattern at a time, instead of
    line by line.
    """
    return _error_line(unstamped(text), None)


def _error_line(text: str, lower: str | None) -> str:
    """:func:`error_line` of a text without time stamps (``lower``, when given, is ``text.lower()``)."""
    if "|" in text and ("-+-" in text or "=+=" in text) and TABLE_RULE.search(text):
        text, lower = untabled(text), None
    if not any(char in text for char in _OTHER_BREAKS):
        chosen = _telling_line(text, lower)
    else:
        chosen = _telling_line_by_line(text)
    chosen = explained(text, chosen)
    if "Caused by:" in text:
        chosen = _root_cause(text, chosen)
    elif chosen.startswith("FAILURE: Build failed") and "What went wrong:" in text:
        chosen = _what_went_wrong(text, chosen)
    if " exit status" in text and "returned" in text:
        chosen = _from_the_program(text, chosen)
    if _COUNT_ONLY.match(chosen) and ("ailure" in text or "ailed" in text or "ailing" in text):
        chosen = _first_detail(text, chosen)
    if chosen.endswith(":"):
        chosen = _with_message(text, chosen)
    elif _BARE_VERDICT.fullmatch(chosen):
        chosen = _verdict_with_message(text, chosen)
    elif chosen[:8].lower() == "expected" and "but " not in chosen.lower():
        chosen = _with_actual(text, chosen)
    chosen = redact(chosen)
    return chosen if len(chosen) <= LINE_CAP else chosen[: LINE_CAP - 1] + "…"


def _root_cause(text: str, chosen: str) -> str:
    """The last ``Caused by:`` of an exception chain (the JVM's languages print the wrapper first and its
    causes under it, the root last): two runs' logs read back in different cuts (one showing the wrapper
    `BeanCreationException: Error creating bean …`, one only its causes) fail on that one cause."""
    causes = [line for line in map(_shown, text.split("\n")) if line.startswith("Caused by:")]
    return causes[-1] if causes else chosen


def _what_went_wrong(text: str, banner: str) -> str:
    """The innermost cause under Gradle's ``* What went wrong:`` (each ``>`` line a cause of the one above
    it), in place of its banner: the banner (``FAILURE: Build failed with an exception.``) ends every failed
    build, and three builds failing for three reasons (a proxy refusing, nothing cached offline, a 403) share
    it."""
    lines = [_shown(line) for line in text.split("\n")]
    start = next((at for at, line in enumerate(lines) if line == "* What went wrong:"), None)
    if start is None:
        return banner
    section: list[str] = []
    for line in lines[start + 1 :]:
        if line.startswith("* "):
            break
        if line:
            section.append(line)
    causes = [line.removeprefix(">").strip() for line in section if line.startswith(">")]
    return (causes[-1] if causes else section[0] if section else banner) or banner


def _with_actual(text: str, expected: str) -> str:
    """``expected`` (`Expected: 3`) with the line under it that says what came instead (`But was:  2`), as
    NUnit prints an assertion on two lines: two runs failing on other values differ."""
    lines = iter(text.split("\n"))
    for line in lines:
        if _shown(line) == expected:
            actual = _shown(next(lines, ""))
            return f"{expected} {actual}" if actual[:4].lower() == "but " else expected
    return expected


def _with_message(text: str, heading: str) -> str:
    """``heading`` (a line ending in a colon, which introduces what follows) with the first line under it
    that says something: a CLI that prints its error so (`Error:`, then `The SSO session … has expired`;
    `FirebaseError: 7 PERMISSION_DENIED:`, then what was denied) fails differently each time although the
    heading is the same."""
    lines = iter(text.split("\n"))
    for line in lines:
        if _shown(line) == heading:
            message = next((shown for shown in map(_shown, lines) if _counts_as_line(shown)), "")
            return f"{heading} {message}" if message else heading
    return heading


# A compiler driver saying the program it ran failed (`collect2: error: ld returned 1 exit status`).
_DRIVER_SAYS = Lazy(r"\berror: ([\w.+-]+) returned [1-9]\d* exit status", 0)


def _from_the_program(text: str, chosen: str) -> str:
    """Where a driver says the program it ran failed (gcc's ``collect2: error: ld returned 1 exit status``),
    the last line that program printed above it (``…/bin/ld: region `iram0_0_seg' overflowed by 812
    bytes``), in place of the driver's line or a build tool's ``FAILED: app.elf`` over it: the same failure
    whether the run was cut to its tail or shown whole."""
    said = _DRIVER_SAYS.search(text)
    if said is None:
        return chosen
    own = re.compile(rf"^\S*?\b{re.escape(said.group(1))}(?:\.\w+)?: ")
    found = [line for line in map(_shown, text[: said.start()].split("\n")) if own.match(line)]
    return found[-1] if found else chosen


def _first_detail(text: str, count: str) -> str:
    """In place of a count of failures (`Fail: 1 ( 3%)`), the first failure listed under a heading of their
    details (a rule under the heading skipped): which test failed and how, where the count says neither."""
    heading = _DETAILS_HEADING.search(text)
    if heading is None:
        return count
    for line in map(_shown, text[heading.end() :].split("\n")):
        if _counts_as_line(line):
            return line
    return count


def _verdict_with_message(text: str, verdict: str) -> str:
    """A verdict alone on its line (R CMD check's ` ERROR` under `* checking tests ...`) with the sentence
    after it that says what failed (`Running the tests in 'tests/testthat.R' failed.`); alone when what
    follows is no sentence (a rule of dashes, a runner's banner)."""
    joined = _with_message(text, verdict)
    message = joined[len(verdict) + 1 :]
    return joined if message[:1].isalnum() else verdict


# ASCII characters other than "\n" that ``splitlines`` breaks at or ``strip`` removes besides " \t".
_OTHER_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
# ``_ASSERTION`` on a line as :func:`_shown` renders it, written to run over a whole text: ``[^\S\n]`` is the
# whitespace ``strip`` removes within a line, and no part of the pattern can reach past a line's end; found
# from the line breaks (:class:`~.line_search.LineOpening`).
_ASSERTION_OPENING = (
    # (pytest's `E   assert …`, not a progress row's `E   1 / 1 (100%)`)
    r"(?:\[error\][^:\n]*:)?[^\S\n]*(?:E[^\S\n]{2,}(?!\d+ / \d+ \()\S|\w*(?:Error|Exception)\b:"
    r"|error(?:\[E\d+\])?:"
    r"|--- FAIL:|panic:|FAILED[^\S\n]+\S+[^\S\n]+-[^\S\n]+\S)"
)
_ASSERTION_LINE = LineOpening(_ASSERTION_OPENING)


def _assertion_lines(text: str, folded: str | None) -> Iterator[int]:
    """Where each line that ``_ASSERTION`` matches (as :func:`_shown` renders it) begins, in order
    (``folded``: the text's :func:`~.verdicts.case_folded` copy)."""
    expected: list[int] = []
    if "expected" in (text.lower() if folded is None else folded):
        expected = sorted(_expected_lines(text, folded))
    index, position = 0, 0
    while position <= len(text):
        at = _ASSERTION_LINE.find(text, position)
        while index < len(expected) and expected[index] < position:
            index += 1
        if index < len(expected) and (at < 0 or expected[index] < at):
            at = expected[index]
        if at < 0:
            return
        yield at
        after = text.find("\n", at)
        if after < 0:
            return
        position = after + 1


def _expected_lines(text: str, folded: str | None) -> set[int]:
    """Where the lines of ``EXPECTED_BUT``'s matches in ``text`` begin: each is tried only where the folded
    copy says "expected" (the pattern, opening with a ``\\b``, would be tried at every position)."""
    if folded is None:
        return {text.rfind("\n", 0, hit.start()) + 1 for hit in EXPECTED_BUT.finditer(text)}
    found: set[int] = set()
    end = 0
    at = folded.find("expected")
    while at >= 0:
        if at >= end and (hit := EXPECTED_BUT.match(text, at)) is not None:
            found.add(text.rfind("\n", 0, at) + 1)
            end = hit.end()
        at = folded.find("expected", at + 1)
    return found


def _shown(raw: str) -> str:
    """A line as it is judged: without the projection's own ``[error] Tool:`` prefix, stripped, and without a
    report's markup around what it says (`<failure message="…">src/a.c:64: FAIL: …</failure>`, a line of
    tags alone saying nothing), its escaped characters read as the runner printed them (`expected:&lt;201&gt;`
    is `expected:<201>`, as the run's own output says it)."""
    line = unrendered(raw).strip()
    if "<" in line or "]]>" in line:
        # redacted before its tags go: an element's name may be what says its text is a secret (`<token>…`)
        line = _unmarked(redact(line))
    if "&" in line and ";" in line:
        line = html.unescape(line)
    return line


# Tags opening or closing a line of an XML report, and a CDATA section's brackets (not a pseudo-file's name
# before its place, `<stdin>:3:1: error: …`): the opening ones at its start, the closing ones, spelt
# backwards, at the start of the reversed line.
_MARKUP_OPENING = Lazy(r"(?:<[A-Za-z][\w:.-]*(?:\s[^<>]*)?/?>|<!\[CDATA\[|\s)+(?!:)", 0)
_MARKUP_CLOSING_REVERSED = Lazy(r"(?:>\]\]|>[\w:.-]+/<|\s)+", 0)


def _unmarked(line: str) -> str:
    """``line`` without the markup opening it and the markup closing it: what substituting the two patterns'
    alternation (the opening one anchored, the closing one to the line's end) leaves, found by two matches
    where the substitution tried the closing one at every position. A closing run that reaches back into the
    opening one leaves nothing (each closing piece ends where an opening piece or a blank does)."""
    opening = _MARKUP_OPENING.match(line)
    start = 0 if opening is None else opening.end()
    closing = _MARKUP_CLOSING_REVERSED.match(line[::-1])
    end = len(line) - (0 if closing is None else closing.end())
    return line[start:end] if end > start else ""


def is_noise(line: str) -> bool:
    """Whether a line (stripped) says nothing of a failure: an exit code alone, a line with no letter or digit
    (a rule of dashes, a runner's bare mark: `✖`), a bare level tag, a traceback's header, the shell's `time`
    report."""
    return _NOISE.match(line) is not None


def _counts_as_line(line: str) -> bool:
    return (
        bool(line)
        and not _NOISE.match(line)
        and not _BANNER.match(line)
        and not _ECHOED.match(line)
        and not _TABLE_ROW.match(line)
    )


# A summary table's row: a word, then only numbers (`Errors       0     0     0`, `Undefined: 0`), whatever
# they count.
_TABLE_ROW = re.compile(r"^[A-Za-z]+:?(?:[ \t]+\d+)+$")


# A command echoed before it runs, not what it printed: a script runner's `> phpstan analyse …` or `> jest`,
# a shell trace's `+ make test`, a prompt's `$ …`, a make recipe's `set -o pipefail && …`, behind a log's
# bracketed time or tag when it has one (`[14:03:13]: $ set -o pipefail && xcodebuild …`).
_ECHOED = re.compile(r"(?:\[[^\]\n]{1,40}\]:?[ \t]*)?(?:(?:=*>|[+$]) \S|set -[eouxv]+ )")
# A command-line option (`--abort-on-container-exit`, `--fail-fast`, `-Werror`, `--max-failures=3`): an
# error word inside one names a behaviour, not a failure (a runner echoing the command it runs).
_OPTION = re.compile(r"(?<!\S)--?[A-Za-z][\w.-]*(?:=\S*)?")


def without_options(line: str) -> str:
    """``line`` with its command-line options blanked: make echoes each recipe line plainly (`docker compose
    up --abort-on-container-exit …`), and an error word in an option's name is no error message."""
    return _OPTION.sub(" ", line) if "-" in line else line


def _says_error(line: str) -> bool:
    """Whether ``line`` holds an error word (``ERROR_WORDS``) outside its command-line options, and is not
    a line a tool logs at an informational level (`Info Looking up … mismatched versions`)."""
    if not has_error_word(line):
        return False
    bare = without_options(line)
    if not has_error_word(bare) or _logged(line):
        return False  # a record logged at an informational level (`… INFO [vuln] Vulnerability scanning`)
    if _INFORMATIONAL.match(line) is not None and _REPORTED_FAILURE.search(line) is None:
        return False  # `Info Looking up … mismatched versions`; not a failure reported on that stream
        # (PowerShell's `VERBOSE: [Tests].[test x] failed: (Error) Message: Invalid object name …`)
    if "ime" in bare and not has_error_word(_blanked(_TIMEOUT_SETTING, bare, ("timeout", "time out"))):
        return False  # a limit stated, not one reached (`Test timeout computed to be: 1500`, `timeout = 30s`)
    if ("0 " in bare or "o " in bare or "t " in bare) and not has_error_word(
        _blanked(_NONE_COUNTED, bare, ("0 ", "no ", "without "))
    ):
        return (
            False  # a count of none (`    0 Error(s)`, `0 failed`, `[OK] No errors`): a passing summary's row
        )
    # a step a runner passed over, marked with a cross (`Installing org... skipped ✗ (already installed)`):
    # no failure unless a word says one (the crosses are not ASCII)
    return line.isascii() or _SKIPPED.search(line) is None or has_error_word(bare.translate(_NO_MARKS))


def _blanked(pattern: re.Pattern[str] | Lazy, line: str, words: tuple[str, ...]) -> str:
    """``pattern.sub(" ", line)``, where every match of the case-blind ``pattern`` holds one of ``words``
    and none is empty: a line whose folded copy holds none is itself (most lines; the pattern's scan tries
    every position)."""
    low = case_folded(line)
    if low is not None and not any(word in low for word in words):
        return line
    kept, end = [], 0
    for found in pattern.finditer(line):
        kept.append(line[end : found.start()])
        end = found.end()
    kept.append(line[end:])
    return " ".join(kept)


def _logged(line: str) -> bool:
    """Whether ``line`` is a record logged at an informational level (``_LOGGED``, searched only where one
    of its words is)."""
    return ("INFO" in line or "DEBUG" in line or "TRACE" in line or "level=" in line) and _LOGGED.search(
        line
    ) is not None


# A time limit's value closing the line it is stated in: what a runner is set to wait, not a wait that ran out
# (`Timeout of 2000ms exceeded` goes on after its value).
_TIMEOUT_SETTING = Lazy(
    r"(?i)\btime ?out\b[\w ]{0,24}?(?:[:=]|\bto be\b|\bset to\b|\bis\b)[ \t]*\d[\d.]*[ \t]*[a-z]{0,7}[ \t]*$",
    0,
)


# None of something counted (`0 Error(s)`, `0 failures`, `[OK] No errors`).
_NONE_COUNTED = re.compile(
    r"(?i)(?<![\d.,])0 (?:errors?|error\(s\)|failures?|failed|failing|errored)\b"
    r"|\b(?:no|without) (?:errors|failures)\b"
)


# "skipped" beside the cross, as a status is written (a failing test named "skips empty lines" is a failure)
_SKIPPED = re.compile(r"(?i)\bskipped[^\w\n]{0,3}[✗✘✕✖]|[✗✘✕✖][^\w\n]{0,3}skipped\b")
_NO_MARKS = str.maketrans(dict.fromkeys("✗✘✕✖"))


_INFORMATIONAL = re.compile(r"(?i:\[?(?:info|debug|trace|notice|verbose|note|hint)\]?:?)\s")
# A verdict with what it says after it (`failed: (Error) Message: …`, `FAILED: …`, `(failure)`): a failure
# reported, whatever stream carried the line.
_REPORTED_FAILURE = Lazy(r"(?i)\bfail(?:ed|ure)?:|\((?:error|failure)\)", 0)


def _telling_line(text: str, lower: str | None = None) -> str:
    """:func:`_telling_line_by_line` for a text whose lines end only at ``\n`` (``lower``, when given, is
    ``text.lower()``)."""
    summary = ""  # the first wrapper summary met, quoted only when nothing better is found
    folded = case_folded(text, lower)
    for at in _assertion_lines(text, folded):
        line = _shown(_line_at(text, at))
        # a heading's message is on the next line (`Error: 11/21/2025 10:22:31:`, then what failed): judged
        # with it, so a task's count of its tool's errors under a heading is a summary too
        message = _with_message(text, line) if line.endswith(":") else line
        if not is_wrapper_summary(message):
            return line
        summary = summary or message
    low = text if folded is None else folded
    word_at = error_pattern_at if folded is None else NearestErrorWord()
    worded = ""
    patterns = (
        (_NAMED_ERROR, _named_at),
        (_CONSOLE_HEADER, _console_at),
        (_LOCATION, _located_at),
        (ERROR_WORDS, word_at),
        (_TAP_FAILURE, _tap_failure_at),
    )
    for pattern, find in patterns:
        if pattern is _TAP_FAILURE and worded and not _COUNT_ONLY.match(worded):
            break  # a line saying how it failed beats the line naming the test; a count does not
        at = find(text, low, 0)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            line = _shown(text[start:end])
            said = _says_error(line) if pattern is ERROR_WORDS else pattern.search(line) is not None
            if _counts_as_line(line) and said and (pattern is _CONSOLE_HEADER or not _heading(line)):
                if is_wrapper_summary(line):
                    summary = summary or line
                elif pattern is not ERROR_WORDS or _WORDED_MESSAGE.search(line) or names_only(line):
                    return line
                else:
                    worded = worded or line
            at = find(text, low, end)
    return (
        worded
        or (summary and _located_warning(text))
        or summary
        or next((line for line in map(_shown, text.split("\n")) if _counts_as_line(line)), "")
    )


# A warning at a file's place (`Warning: qml/Gauge.qml:42:21: Unqualified access`, `src/a.c:3:5: warning: …`):
# under a summary that says only that the step failed, what made it fail (a linter or a `-Werror` build
# failing on its warnings).
_LOCATED_WARNING = Lazy(
    r"^[^\S\n]*(?:(?i:warning|warn)[^\S\n]*:[^\S\n]*)?[\w./~+-]+\.[A-Za-z]\w{0,9}(?::\d+){1,2}:[^\S\n]*"
    r"(?:(?i:warning)[^\S\n]*:[^\S\n]*)?[A-Za-z][^\n]*",
    re.M,
)


def _located_warning(text: str) -> str:
    """The first warning at a file's place in ``text`` (``_LOCATED_WARNING``), or ``""``."""
    if "arn" not in text and "ARN" not in text:
        return ""
    for found in _LOCATED_WARNING.finditer(text):
        line = _shown(found.group(0))
        if "arn" in line.lower():
            return line
    return ""


def _named_at(text: str, low: str, start: int) -> int:
    """Where ``_NAMED_ERROR`` next matches from ``start``, or -1, found through its ``Error:``/``Exception:``.

    A match is a whole word (``\\b`` before it, ``:`` after) of at least two characters that opens with an
    ASCII capital and ends with one of the two names; the earliest such word from ``start`` is the match.
    """
    found = -1
    for name in ("Error:", "Exception:"):
        at = text.find(name, start)
        while at >= 0 and (found < 0 or at < found):
            word = at
            while word > 0 and is_word(text[word - 1]):
                word -= 1
            if start <= word < at and "A" <= text[word] <= "Z":
                found = word if found < 0 else min(found, word)
                break
            at = text.find(name, at + 1)
    return found


def _gated_at(pattern: re.Pattern[str] | Lazy, gate: str) -> Callable[[str, str, int], int]:
    """A finder of ``pattern``'s next match from a position, or -1: a text without ``gate``, which every
    match holds, is passed at a substring search's cost (most failures hold neither a console's error block
    nor a TAP line)."""

    def at(text: str, low: str, start: int) -> int:
        found = pattern.search(text, start) if gate in text else None
        return -1 if found is None else found.start()

    return at


_console_at = _gated_at(_CONSOLE_HEADER, " line ")
_tap_failure_at = _gated_at(_TAP_FAILURE, "not ok")


def _located_at(text: str, low: str, start: int) -> int:
    """Where the next line from ``start`` that opens with a file's location (``_LOCATION``) has it, or -1."""
    for hit in _LOCATION.finditer(text, start):
        opens = text.rfind("\n", 0, hit.start()) + 1
        if _LOCATED_FILE.fullmatch(text, opens, hit.start()) and not _logged(_line_at(text, opens)):
            return hit.start()
    return -1


def _line_at(text: str, at: int) -> str:
    end = text.find("\n", at)
    return text[at : len(text) if end < 0 else end]


def _telling_line_by_line(text: str) -> str:
    named = located = messaged = tap = worded = first = summary = None
    for raw in text.splitlines():
        line = _shown(raw)
        if not _counts_as_line(line):
            continue
        first = first or line
        if is_wrapper_summary(line):
            summary = summary or line
            continue
        if _ASSERTION.match(line):
            return line
        if named is None and _NAMED_ERROR.search(line):  # `[TypeError: generate is not a function]`
            named = line
        if located is None and " line " in line and _CONSOLE_HEADER.match(line):
            located = line
        if (
            located is None
            and (hit := _LOCATION.search(line))
            and _LOCATED_FILE.fullmatch(line, 0, hit.start())
            and not _logged(line)
        ):
            located = line
        if tap is None and "not ok" in line and _TAP_FAILURE.match(line):
            tap = line
        if messaged is None and _says_error(line) and not _heading(line):
            if _WORDED_MESSAGE.search(line) or names_only(line):
                messaged = line
            worded = worded or line
    if summary and not (named or located or messaged or tap or worded):
        return _located_warning("\n".join(text.splitlines())) or summary
    telling = worded if worded and not _COUNT_ONLY.match(worded) else None
    return named or located or messaged or telling or tap or worded or summary or first or ""


def _heading(line: str) -> bool:
    return _HEADING.match(line) is not None and not names_only(line)


def _harness_exit(head: str) -> int | None:
    found = _HARNESS_EXIT.search(head[:200])
    return int(found.group(1)) if found else None


def _echoed_status(text: str, command: str) -> int | None:
    """The status a command echoed at its end: its last line (`exit=1`, `1`), or a labelled one a line or two
    above it (`echo "exit=$?"; wc -l run.log` prints the count after it; a bare number there is the count),
    or the line its own echo's label opens wherever it is (`echo "exit=$?"; grep -A4 error build.log`
    prints the lines it found after it)."""
    label = _ECHO_LABEL.search(command)
    if label is not None and any(char.isalpha() for char in label.group(1)):
        labelled = re.escape(label.group(1).strip())
        shown = re.findall(rf"^[ \t]*{labelled}[ \t]*(-?\d{{1,3}})[ \t]*$", text, re.M)
        if shown:
            return int(shown[-1])
    lines = [line for line in text.rstrip().splitlines()[-3:] if line.strip()]
    for line in reversed(lines):
        found = _ECHOED_STATUS.match(line)
        if found is not None and any(char.isalpha() for char in line):
            return int(found.group(1))
    found = _ECHOED_STATUS.match(lines[-1]) if lines else None
    return int(found.group(1)) if found else None


def _first_word(command: str) -> str:
    """The program ``command`` runs, past its env assignments (split a word at a time: a command may be a
    long script)."""
    words = command.split(None, 1)
    while words and "=" in words[0] and not words[0].startswith("-"):
        words = words[1].split(None, 1) if len(words) > 1 else []  # an env assignment
    return words[0].rsplit("/", 1)[-1] if words else ""
