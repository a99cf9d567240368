"""Whether a command's result, marked successful, says itself that the work failed: a runner's summary.

A command whose exit status a pipe or a wrapper hid (`… | tail`, `|| true`, a log read back) still shows its
runner's own verdict: a failure line opening a line (`FAIL`, `[ERROR]`, `BUILD FAILED`, a runner's cross
before an item it failed, a report's `<failure>` record), a count of failures above zero, a compiler's
diagnostic at error severity, a runner saying the command under it exited with a status other than 0. The
outcome reader (:mod:`.outcome`) asks these of a result's head and tail; each pattern is searched only where
the words it cannot match without are, since most results hold none. Standard library only (it runs in the
projection).
"""

from __future__ import annotations

import re

from sbcore.observe.lazy_pattern import Lazy
from sbcore.observe.line_search import LineOpening, lines_holding

_COUNT = re.compile(r"\b(\d+) (failed|passed|errors?|failing|passing)\b", re.I)
_ERROR_SUMMARY = Lazy(
    r"(?:^|[\s,(=])[1-9]\d* errors? (?:in|during)\b"
    r"|\b(?:Found|[Ee]ncountered) [1-9]\d* (?:[a-z]+ )?errors?\b",
    re.M,
)
# A runner's failure summary: these open a line ...
# Build tools' own failure banners are among them, whatever the tool: a level tag opening the line
# (`[ERROR]`, `[error]`), `BUILD FAILED`/`BUILD FAILURE`, `FAILURE:`, `Result: FAIL`, a run that says it
# stopped (`Aborted with 1 warnings in strict mode!`, `Aborted (core dumped)`), and a summary
# counting failures or errors above zero (`Tests run: 14, Failures: 1`, `3 examples, 1 failure`).
_FAILURE_LINE_BODY = (
    r"FAILED\b|FAIL\b|--- FAIL:|ERROR:|Error:|npm ERR!|error(?:\[E\d+\])?:|Tests:\s+\d+ failed|"
    r"Traceback \(most recent call last\)|make(?:\[\d+\])?: \*\*\*|"
    r"\[(?:ERROR|error|FAIL|fail)\]|(?:\*\* )?BUILD FAIL(?:ED|URE)\b|FAILURE:|Result: FAIL\b|Aborted\b"
    # a run's closing status alone on its line (Jenkins' `Finished: FAILURE`, `Status: FAILED`)
    r"|[A-Z][a-z]{2,15}: (?:FAILURE|FAILED)[ \t]*$"
    # a run saying it stops for a failure (`Aborting batchmode due to failure:`, `Aborting due to 2 errors`)
    r"|Aborting\b[^\n]{0,60}\bdue to\b"
    # a runner's mark before an item it says failed (`✕ src/a_test.py:tests failed in 0.85s.`)
    r"|[ \t]*[✕✗✘×][ \t]+\S[^\n]*\bfail(?:ed|s|ure)?\b"
    # a test report's record of a failure (JUnit's and xUnit's `<failure type="…">`, read back from it)
    r"|[ \t]*<(?:failure|error)\b[^>\n]*>"
)
_FAILURE_LINE = LineOpening(_FAILURE_LINE_BODY)
# An assertion's "expected … but was" anywhere in a line (its "but was" may open the next, as NUnit prints
# it), found apart (a ``[^\n]*`` opening the outcome reader's assertion pattern would cost a scan of every
# line); its line is the one the "expected" is in.
EXPECTED_BUT = re.compile(r"\b(?i:expected)\b[^\n]*(?:\n[^\S\n]*)?\b(?i:but (?:was|got|found))\b")
# A summary counting failures above zero, anywhere in a line (`Tests run: 14, Failures: 1`, `3 examples,
# 1 failure`): searched unanchored, only in the lines holding its words, since a `^.*` costs a scan per line.
_FAILURE_COUNT = re.compile(r"\bFailures: [1-9]|\b[1-9]\d* failures?\b")
_FAILURE_COUNT_WORDS = ("Failures: ", " failure")
# A count row naming failures or errors before their number, above zero, alone on its line but for a share
# after it (node's test runner's `ℹ fail 1`, FiveAM's `Fail: 1 ( 3%)`, a summary's `errors 2`).
_LABELLED_FAILURES_BODY = (
    r"[^A-Za-z0-9_\n]{0,3}(?i:fail(?:ed|ures?|ing)?|errors?)[ \t]*:?[ \t]+[1-9]\d*[ \t]*"
    r"(?:\([^)\n]*\))?[ \t]*$"
)
_LABELLED_FAILURES = LineOpening(_LABELLED_FAILURES_BODY)
# A summary row counting errors above zero beside the tests, runs or failures it counts (Minitest's and
# Test::Unit's `41 runs, 63 assertions, 0 failures, 1 errors, 0 skips`, busted's `3 successes / 0 failures /
# 1 error / 0 pending`): a test that raised is a failed one,
# whatever the runner calls it. Or a row of counts each after its label, one of failures or errors above zero
# (JUnit's `Tests run: 9, Failures: 0, Errors: 1`, goss's `Count: 23, Failed: 1, Skipped: 0`, `Failed: 2,
# Passed: 40`), wherever the row stands on its line (behind a builder's `docker.ubuntu: `).
# Each opens with a literal or a capital, where ``re`` finds it fast; the rest of its row is checked after.
_ERRORS_COUNTED = re.compile(r"[,;/|][ \t]*[1-9]\d* errors?\b")
_ERRORS_COUNTED_WORDS = (" error",)
_COUNTED_BEFORE = re.compile(r"\b\d+ (?:runs?|tests?|examples?|assertions?|failures?|specs?|scenarios?)\b")
# (the numbers may be padded into columns: dotnet's `Failed!  - Failed:     6, Passed:     0, Total:     6`)
_LABEL_COUNT = Lazy(r"(?:Failed|Failures|Failing|Errors?|Broken):[ \t]+[1-9]", 0)
_LABELS_COUNTED = ("Failed:", "Failures:", "Failing:", "Error:", "Errors:", "Broken:")
_LABELLED_BEFORE = Lazy(r"\b[A-Z][A-Za-z]{1,15}(?: [a-z]{1,10})?:[ \t]+\d+(?:\.\d+)?, $", 0)
_LABELLED_AFTER = Lazy(r"\d*, [A-Z][A-Za-z]{1,15}:[ \t]+\d", 0)
_RECAP_COUNT = Lazy(r"(?:failed|failures?|errors?|unreachable)=[1-9]", 0)
_RECAP_BEFORE = Lazy(r"\b[a-z]+=\d+[ \t]+$", 0)


def _counts_failures_in_a_row(text: str) -> bool:
    """Whether ``text`` holds one of the rows above, with failures or errors above zero."""
    for start, end in lines_holding(text, _ERRORS_COUNTED_WORDS):
        for match in _ERRORS_COUNTED.finditer(text, start, end):
            if _COUNTED_BEFORE.search(text[start : match.start()]):
                return True
    for start, end in lines_holding(text, _LABELS_COUNTED) if ": " in text else ():
        for match in _LABEL_COUNT.finditer(text, start, end):
            before = text[max(start, match.start() - 200) : match.start()]
            if _LABELLED_BEFORE.search(before) or _LABELLED_AFTER.match(text, match.end()):
                return True
    if "=" in text and ("failed=" in text or "errors=" in text or "unreachable=" in text):
        for match in _RECAP_COUNT.finditer(text):
            before = text[max(text.rfind("\n", 0, match.start()) + 1, match.start() - 200) : match.start()]
            if _RECAP_BEFORE.search(before):
                return True
    return False


# A row of counts each after its label, with no colon, failures or errors above zero among them (tcltest's
# `all.tcl:	Total	38	Passed	37	Skipped	0	Failed	1`).
_COUNTS_SPACED = re.compile(
    r"\b[A-Z][a-z]{2,15}[ \t]+\d+[ \t]+(?:[A-Z][a-z]{2,15}[ \t]+\d+[ \t]+)*(?:Failed|Errors)[ \t]+[1-9]\d*\b"
)
_COUNTS_SPACED_WORDS = ("Failed", "Errors")
# A program's report of its own exit status, not 0, given as a field (`EXIT CODE: -1`, `ExitCode=25`, `exit
# code: 2`); prose about an exit code (`exit code 1 means …`) has no ":" or "=".
_OWN_EXIT = Lazy(r"(?:EXIT CODE|[Ee]xit code|[Ee]xitCode)[ \t]*[:=][ \t]*-?[1-9]", 0)
_OWN_EXIT_WORDS = ("XIT CODE", "xit code", "xitCode")
# A run's closing status, its label opening the line, counting errors or failures above zero (R CMD check's
# `Status: 1 ERROR, 1 NOTE`, `Result: 2 failures`, `Summary: 0 warnings, 3 errors`).
_STATUS_COUNT = Lazy(
    r"(?:[Ss]tatus|STATUS|[Rr]esult|RESULT|[Ss]ummary|SUMMARY): *(?:[^\n]{0,60}?[,;|/] *)?[1-9]\d* +"
    r"(?:ERRORS?|[Ee]rrors?|FAILURES?|[Ff]ailures?|FAILED|[Ff]ailed)\b",
    0,
)
# A row of counts between bars, a failure or error count above zero among them, its label first (testthat's
# `[ FAIL 1 | WARN 0 | SKIP 2 | PASS 47 ]`, a table's `| Failed: 2 |`).
_BARRED_COUNT = re.compile(
    r"[\[|][ \t]*(?:FAIL(?:ED|URES?)?|[Ff]ail(?:ed|ures?)?|ERRORS?|[Ee]rrors?)"
    r"[ \t]*:?[ \t]*[1-9]\d*[ \t]*[|\]]"
)
# A failed test as the Test Anything Protocol prints it, not one it was told to expect failing (`# TODO`).
_TAP_NOT_OK = Lazy(r"not ok \d+\b(?![^\n]*#[ \t]*(?i:todo|skip)\b)", 0)
# A server's own check at its gravest severities, wherever its line starts (`nginx: [emerg] …`, a log's
# `2025/03/01 10:00:00 [emerg] 31877#31877: host not found in upstream …`).
_SEVERE_TAG = Lazy(r"\[emerg\][ \t]+\S", 0)


_STATUS_LABELS = ("tatus:", "TATUS:", "esult:", "ESULT:", "ummary:", "UMMARY:")  # what the pattern opens with


def _closing_status(text: str) -> bool:
    """Whether a line opens (but for blanks) with a status counting errors or failures above zero."""
    for start, end in lines_holding(text, _STATUS_LABELS):
        for match in _STATUS_COUNT.finditer(text, start, end):
            if not text[start : match.start()].strip():
                return True
    return False


def _in_lines_holding(pattern: re.Pattern[str] | Lazy, text: str, words: tuple[str, ...]) -> bool:
    """``pattern.search(text)`` as a truth value, for a pattern whose every match holds one of ``words`` on
    one line (:func:`~.line_search.lines_holding`): searched in those lines only."""
    return any(pattern.search(text, start, end) is not None for start, end in lines_holding(text, words))


def _tap_not_ok(text: str) -> bool:
    """Whether a line opens with ``not ok N`` (a runner's ``[tag]`` before it allowed), not a TODO or SKIP."""
    for match in _TAP_NOT_OK.finditer(text):
        before = text[text.rfind("\n", 0, match.start()) + 1 : match.start()].strip()
        if not before or (before.startswith("[") and before.endswith("]") and " " not in before):
            return True
    return False


# A build, a job or a step named in quotes and said to have errored (Packer's `Build 'amazon-ebs.al2023'
# errored after 6 minutes 27 seconds: …`): the runner's own verdict.
_ERRORED = Lazy(r"['\"][^'\"\n]{1,80}['\"] errored\b", 0)
# A diagnostic at a file's place at error severity, whatever the compiler (`main.c:3:5: error: …`,
# `src/mesh.odin(88:22) Error: …`, `Foo.pas(12,3) Fatal: …`): found from the extension's dot.
_LOCATED_ERROR = re.compile(
    r"\.[A-Za-z]\w{0,9}(?:(?::\d+){1,2}:?|\(\d+(?:[:,]\d+)?\):?)[ \t]+(?i:error|fatal)\b"
)
# A runner or a wrapper saying the command under it failed, or exited, with a status other than 0, anywhere in
# a line (yarn's `error Command failed with exit code 1.`, pnpm's `ELIFECYCLE  Command failed with exit code
# 1.`, a task runner's `step 'bundle' failed with exit status 2`, a test runner's `Program exited with code
# 1`): searched only where "ailed with", "AILED with" or "xited with" is.
_FAILED_WITH_STATUS = Lazy(
    r"(?:[Ff]ailed|FAILED|[Ee]xited) with (?:an? )?(?:exit |error |non-?zero )?(?:code|status)\b"
    r"[ :=(]*(?:of )?-?[1-9]",
    re.ASCII,
)
_FAILED_WITH_STATUS_WORDS = ("ailed with", "AILED with", "xited with")
# ... and these may stand anywhere in one (searched unanchored: a `^.*` in front costs a scan per line),
# a compiler's coded error among them (`error TS2322:`, `error CS0246:`, MSVC's `error C2065:`, `error
# LNK2019:`, F#'s `error FS0039:`, SqlPackage's `Error SQL72014:`): a diagnostic no passing build prints,
# whatever the compiler.
_FAILURE_ANYWHERE = Lazy(
    r"\btest result: FAILED\b|\b(?!0+ )\d+ (?:failed|failing)\b|\b[Ee]rror [A-Z]{1,4}\d{2,5}:",
    0,
)
# Words the line pattern cannot match without: tested first, since most results hold none (the one above is
# found through its own words, :func:`_failure_anywhere`).
_LINE_WORDS: tuple[str, ...] = ("FAIL", "ERROR", "Error:", "npm ERR!", "error", "Tests:", "Traceback")
_LINE_WORDS += ("make", "Abort")
_LINE_WORDS += ("✕", "✗", "✘", "×", "<failure", "<error")


_CASE_BLIND_CHARS = "\u0130\u0131\u017f\u212a"
_CASE_BLIND = str.maketrans(dict(zip(_CASE_BLIND_CHARS, "iisk", strict=True)))


def case_folded(text: str, lower: str | None = None) -> str | None:
    """``text`` lower-cased so that a case-blind pattern's literal word matches in it where it matches in
    ``text``, position for position; None for a text whose lower case is longer (none is known). ``lower``,
    when given, is ``text.lower()``, taken as the folded copy when no character needs folding first."""
    if text.isascii():
        return text.lower() if lower is None else lower
    if any(char in text for char in _CASE_BLIND_CHARS):
        text = text.translate(_CASE_BLIND)
        lower = None
    low = text.lower() if lower is None else lower
    return low if len(low) == len(text) else None


def summary_failed(scanned: str, counts: dict[str, int]) -> bool:
    """Whether a runner's own summary says the work failed (each pattern only where its words are)."""
    # A runner's errors count as failing work too: pytest's "1 error in 0.2s" is a test file that did not
    # even collect, a type checker's "Found 3 errors" a check that does not pass. Only in those summary
    # phrasings: "10:01:08 ERROR" in a log is a timestamp beside a level, not a count.
    if counts.get("failed", 0) > 0:
        return True
    if _error_summary(scanned):
        return True
    if _FAILURE_LINE.search(scanned) and any(word in scanned for word in _LINE_WORDS):
        return True
    if "ailure" in scanned and _in_lines_holding(_FAILURE_COUNT, scanned, _FAILURE_COUNT_WORDS):
        return True
    if _counts_failures_in_a_row(scanned):
        return True
    if " errored" in scanned and _ERRORED.search(scanned):
        return True
    if ("ail" in scanned or "rror" in scanned) and _LABELLED_FAILURES.search(scanned):
        return True  # a count row of failures above zero, the label first (`ℹ fail 1`, `Fail: 1 ( 3%)`)
    if _in_lines_holding(_FAILED_WITH_STATUS, scanned, _FAILED_WITH_STATUS_WORDS):
        return True  # the runner under a pipe or in a log saying so itself, whatever the runner
    if " ERR!" in scanned and _runner_err(scanned):
        return True
    if _in_lines_holding(_OWN_EXIT, scanned, _OWN_EXIT_WORDS):
        return True  # the program reporting its own exit status, not 0 (`TEST COMPLETE. EXIT CODE: -1`)
    if _in_lines_holding(_COUNTS_SPACED, scanned, _COUNTS_SPACED_WORDS):
        return (
            True  # a row of labels each before its count (tcltest's `Total 38 Passed 37 Skipped 0 Failed 1`)
        )
    if _closing_status(scanned):
        return True  # a run's closing status counting its errors (`Status: 1 ERROR, 1 NOTE`)
    if (
        "|" in scanned
        and ("ail" in scanned or "AIL" in scanned or "rror" in scanned or "RROR" in scanned)
        and _BARRED_COUNT.search(scanned)
    ):
        return True  # a row of counts between bars, failures above zero (`[ FAIL 1 | WARN 0 | PASS 47 ]`)
    if "not ok " in scanned and _tap_not_ok(scanned):
        return True  # the Test Anything Protocol's failed test, whatever runner printed it
    if "[emerg]" in scanned and _SEVERE_TAG.search(scanned):
        return True  # a server's check refusing its configuration (`nginx: [emerg] unknown directive …`)
    if _LOCATED_ERROR.search(scanned) is not None:
        return True  # a compiler's diagnostic at a file's place, at error severity, in a log or behind a pipe
    if "xpected" in scanned and EXPECTED_BUT.search(scanned):
        return True  # an assertion's message (`Expected: 5 But was: 0`), in a report or a run piped away
    if " FAILED\n" in scanned or scanned.endswith(" FAILED"):
        return (
            True  # a verdict closing a line: `CartTest > total() FAILED`, `> Task :test FAILED`, `… FAILED`
        )
    return _failure_anywhere(scanned)


# A log record at error severity saying the work it ran failed (Airflow's `{taskinstance.py:2905} ERROR - Task
# failed with exception`, `ERROR - Marking run <DagRun …> failed`, a scheduler's `FATAL: job 12 failed`): the
# runner's own verdict, read only where a pipe hid the command's exit status (:func:`logged_failure`), since
# a run that retried and passed logs the same line and exits 0.
_LOGGED_FAILURE = Lazy(
    r"\b(?:ERROR|CRITICAL|FATAL)\b[^\n]{0,200}?\b(?:[Tt]ask|[Jj]ob|[Rr]un|[Bb]uild|[Pp]ipeline|[Ss]tep|[Ss]tage)\b"
    r"[^\n]{0,200}?\bfailed\b",
    0,
)


def logged_failure(scanned: str) -> bool:
    """Whether a log record at error severity says the task, job, run or build failed (see the pattern), an
    error was thrown with its stack (:data:`_THROWN`), or a line opens with an error's name and its message
    (:func:`_error_opens_a_line`)."""
    return (
        (
            "failed" in scanned
            and ("ERROR" in scanned or "CRITICAL" in scanned or "FATAL" in scanned)
            and _LOGGED_FAILURE.search(scanned) is not None
        )
        or (
            "rror: " in scanned
            and ("\n    at " in scanned or "Require stack:" in scanned)
            and _THROWN.search(scanned) is not None
        )
        or (("rror: " in scanned or "xception: " in scanned) and _error_opens_a_line(scanned))
    )


# An error thrown with its stack, as a JavaScript runtime prints one (`Error: Cannot find module 'stripe'`,
# Node's `Require stack:` list, or `    at Module._load (node:internal/…:1051:27)` frames), wherever the
# error's line starts (behind a tool's `⚠  functions: `): the JavaScript twin of Python's traceback, read
# only where a pipe hid the exit status (an app that logs a caught error and goes on exits 0).
_THROWN = Lazy(
    r"\b[A-Z]?\w*Error: [^\n]+\n(?:Require stack:\n|[ \t]+at [^\n]*:\d+:\d+\)?[ \t]*(?:\n|$))",
    0,
)


# An error's name and its message, the name opening its line but for blanks (Jekyll's `  Liquid Exception:
# Liquid syntax error …`, `             Error: …`, `TypeError: x is undefined`), found from its colon.
_NAMED_MESSAGE = Lazy(r"(?:Error|Exception):[ \t]+\S", 0)
_NAME_BEFORE = Lazy(r"[ \t]*(?:[A-Z][A-Za-z]*[ \t]?)?\Z", 0)


def _error_opens_a_line(text: str) -> bool:
    """Whether a line of ``text`` opens with an error's name and its message (see the pattern above)."""
    for match in _NAMED_MESSAGE.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        if _NAME_BEFORE.match(text, start, match.start()):
            return True
    return False


# The two summary patterns open with a look at the character before them, so ``re`` tries them at every
# position of a text (several milliseconds a pass); each is found instead from where its words occur, and
# a test holds each search to its pattern on any text. The parts after those words:
_SUMMARY_TAIL = re.compile(r" errors? (?:in|during)\b")
_FOUND_TAIL = re.compile(r"[1-9]\d* (?:[a-z]+ )?errors?\b")
_FAILED_TAIL = Lazy(r" (?:failed|failing)\b", 0)
_CODE_TAIL = re.compile(r"[A-Z]{1,4}\d{2,5}:")


def _runner_err(text: str) -> bool:
    """Whether a line opens with a program's name and ``ERR!`` (``npm ERR!``, ``lerna ERR!``)."""
    at = text.find(" ERR!")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        if start < at and not any(blank in text[start:at] for blank in " \t"):
            return True
        at = text.find(" ERR!", at + 5)
    return False


def is_word(char: str) -> bool:
    """What ``\\w`` matches (in a text pattern): a letter, digit or numeral of any script, or ``_``."""
    return char.isalnum() or char == "_"


def _digits_before(text: str, at: int) -> int:
    """Where the run of decimal digits (``\\d``) ending at ``at`` starts (``at`` when there is none)."""
    start = at
    while start > 0 and text[start - 1].isdecimal():
        start -= 1
    return start


def _error_summary(text: str) -> bool:
    """``_ERROR_SUMMARY.search(text)``, as a truth value, found through " error", "Found", "ncountered"."""
    at = text.find(" error")
    while at >= 0:
        start = _digits_before(text, at)
        if (
            start < at
            and text[start] in "123456789"
            and (start == 0 or text[start - 1].isspace() or text[start - 1] in ",(=")
            and _SUMMARY_TAIL.match(text, at)
        ):
            return True
        at = text.find(" error", at + 1)
    for opening in ("Found ", "Encountered ", "encountered "):
        at = text.find(opening)
        while at >= 0:
            if (at == 0 or not is_word(text[at - 1])) and _FOUND_TAIL.match(text, at + len(opening)):
                return True
            at = text.find(opening, at + 1)
    return False


def _failure_anywhere(text: str) -> bool:
    """``_FAILURE_ANYWHERE.search(text)`` as a truth value, found through the words it needs."""
    at = text.find(" fail")
    while at >= 0:
        start = _digits_before(text, at)
        if (
            start < at
            and text[start:at].strip("0")  # none failed is a passing summary (`12 passed, 0 failed`)
            and (start == 0 or not is_word(text[start - 1]))
            and _FAILED_TAIL.match(text, at)
        ):
            return True
        at = text.find(" fail", at + 1)
    for word, tail in (("test result: FAILED", None), ("error ", _CODE_TAIL), ("Error ", _CODE_TAIL)):
        at = text.find(word)
        while at >= 0:
            end = at + len(word)
            if at == 0 or not is_word(text[at - 1]):
                if tail is None and (end == len(text) or not is_word(text[end])):
                    return True
                if tail is not None and tail.match(text, end):
                    return True
            at = text.find(word, at + 1)
    return False


def count_results(text: str, lower: str | None = None) -> dict[str, int]:
    """The runner's summary counts in ``text`` (``lower``, when given, is ``text.lower()``)."""
    low = text.lower() if lower is None else lower
    if " fail" not in low and " pass" not in low and " error" not in low:
        return {}
    counts: dict[str, int] = {}
    for number, word in _count_matches(text, low):
        key = {"failing": "failed", "passing": "passed", "error": "errors"}.get(word.lower(), word.lower())
        counts[key] = int(number)  # the last summary wins: runners print their totals at the end
    return counts


# The characters ``re.IGNORECASE`` matches to an ASCII letter that ``str.lower`` leaves as they are or
# turns into two: replaced by that letter first, a lower-cased copy of any text has a word of a case-blind
# pattern where the pattern matches it, position for position (a test checks every code point).


def _count_matches(text: str, low: str) -> list[tuple[str, str]]:
    """``_COUNT.findall(text)``, tried only where a count can end: before " fail", " pass" or " error".

    A match is a run of digits, one space and the word; at most one can start in a run of digits (at its
    start), and no two overlap, so matching at each such place finds what ``findall`` finds. ``low`` is
    ``text.lower()``; its positions are those of ``text`` for ASCII, and a text with other characters is
    folded again (:func:`case_folded`) so that they are.
    """
    if not text.isascii():
        folded = case_folded(text, low)
        if folded is None:
            return _COUNT.findall(text)
        low = folded
    # only a word a digit stands before can end a count
    ends = sorted(
        at
        for word in (" fail", " pass", " error")
        for at in _occurrences(low, word)
        if at and text[at - 1].isdecimal()
    )
    found: list[tuple[str, str]] = []
    for end in ends:
        start = _digits_before(text, end)
        if start < end and (match := _COUNT.match(text, start)) is not None:
            found.append((match.group(1), match.group(2)))
    return found


def _occurrences(text: str, word: str) -> list[int]:
    out: list[int] = []
    at = text.find(word)
    while at >= 0:
        out.append(at)
        at = text.find(word, at + 1)
    return out


# A time stamp opening a line, as a tool writes one when asked to (`packer build -timestamp-ui`, a log's
# `2024-06-03T09:15:37Z`, `[14:03:13]`): which line is an error's, and what it says, is read without it.
_STAMP = re.compile(
    r"(?m)^(?:\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?"
    r"|\[\d\d:\d\d:\d\d(?:\.\d+)?\])"
    r":?[ \t]+"
)


# Where a stamped line may open, found from its line break (a literal ``re`` scans for at memchr's speed).
_STAMP_OPENS = re.compile(r"\n(?:\[?\d{4}-\d\d-\d\d[T ]\d|\[\d\d:\d\d:\d\d)")


def unstamped(text: str) -> str:
    """``text`` with the time stamp that opens a line taken off each line that has one (the whole text is
    rewritten only when a line opens with something like one)."""
    if _STAMP.match(text) is None and _STAMP_OPENS.search(text) is None:
        return text
    return _STAMP.sub("", text)
