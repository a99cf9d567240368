"""Why a test failed, when the line a runner prints first only says which test did.

The outcome keeps one error line of a failed command (:mod:`.outcome`), and repeat-failure reads
a loop from that line repeating. Several runners open their report with a line that names the
failing test, or only counts failures, and put the reason on the lines under it (or, in Go's
verbose mode, above it):

- Go: ``--- FAIL: TestParseRate (0.00s)`` over ``    rate_test.go:18: got 0.75, want 0.075``;
- jest: ``FAIL src/cart.test.js`` and ``● Cart › applies the discount`` over the matcher and its
  ``Expected:``/``Received:`` values;
- cargo: ``test tests::sums ... FAILED`` and a closing ``error: test failed, to rerun pass
  `--lib```, with the reason in ``thread '…' panicked at …`` and the lines after it;
- rspec: ``Failures:`` and ``rspec ./spec/x_spec.rb:7``, with the reason in ``Failure/Error:``
  and its ``expected:``/``got:`` lines (or the exception under it);
- mocha: ``1 failing``, with the reason under the numbered test title;
- PHPUnit: ``There was 1 failure:``, with the reason under the numbered test;
- dotnet test: ``Failed Shop.Tests.CartTests.Total [12 ms]``, with the reason after ``Error Message:``;
- Gradle: ``> Task :app:test FAILED`` and ``CartTest > total() FAILED``, with the exception under it;
- any runner's verbose line per test (``parse_test...*failed*``), and any runner's value wanted over the
  value got (``expected: 3`` then ``got: 4``) under a numbered test title.

Taken alone, such a line is the same for every failure of one test, so three different failures
after three fixes (progress) read as one error repeating. :func:`explained` joins the reason to
the test's name in one line; the caller caps and redacts it like any other error line. Only
text the outcome already reads (the head and the tail of the result) is looked at, and only
when the chosen line is one of these.

Standard library only, like the rest of the projection.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from sbcore.observe.lazy_pattern import Lazy
from sbcore.observe.verdicts import case_folded

NAME_CAP = 80
"""How much of the test's name is kept in front of the reason."""
_VALUES_KEPT = 2

# A line that says which test failed, or how many, and not why.
_NAMES_ONLY = re.compile(
    r"^(?:--- FAIL: .+|FAIL\s+\S+(?:\s+\(?[\d.]+ ?m?s\)?)?|●\s.+|Failures:|\d+ failing(?: \(.*\))?"
    r"|\d+ examples?, \d+ failures?.*|rspec \./\S+:\d+.*|test \S+ \.\.\. FAILED"
    r"|error: test failed, to rerun pass .*|error: \d+ targets? failed:?.*|\d+\) .+"
    r"|\w*(?:Error|Exception):|There (?:was|were) \d+ (?:failure|error)s?:|Failed \S+ \[[^\]]*\]"
    r"|[✕✗✘×]\s+\S+ (?:failed|fail)(?: in [\d.]+ ?m?s)?\.?"  # a runner's mark, a target, `failed in 0.85s`
    r"|FAILURE|FAILED|ERROR)$"  # a one-word heading the failure's details follow
)
# ... and two that read the whole line, tried only where their words are: a task or a test said to have
# failed (`> Task :app:test FAILED`), a verbose run's line per test (`name...*failed*`).
_NAMES_FAILED = (
    (" FAILED", Lazy(r"(?:> Task )?\S.* FAILED$", 0)),
    ("...", Lazy(r"\S.*?\.{3}\s*\*?(?i:failed|fail)\*?$", 0)),
)
RENDERED = Lazy(r"^\[error\](?: [A-Za-z_][\w.-]*(?: \([^)\n]*\))?:)?\s*", 0)
"""The projection's own ``[error] Tool:`` prefix, when a rendered error is read again: exactly that, so a
runner's own level tag before a file (sbt's and mill's `[error] /src/Foo.scala:42:15: type mismatch;`) loses
the tag only, not the file."""
_GO_FAIL = re.compile(r"^--- FAIL: (\S+)")
_JEST_TEST = Lazy(r"^\s*● (.+)$", 0)
_CARGO_PANIC = Lazy(r"^thread '([^']+)' panicked at (.*)$", 0)
_CARGO_OLD_PANIC = Lazy(r"^'(.*)', \S+$", 0)
_RSPEC_EXAMPLE = Lazy(r"^\s*\d+\) (.+)$", 0)
_MOCHA_FAILING = Lazy(r"^\s*\d+ failing\b", 0)
_PHPUNIT_FAILURES = Lazy(r"^There (?:was|were) \d+ (?:failure|error)s?:$", 0)
_DOTNET_FAILED = re.compile(r"^\s*Failed (\S+) \[[^\]]*\]$")
_GRADLE_FAILED = Lazy(r"^([^\s>].* > .+) FAILED$", 0)
# A line that states the failure: a named error with its message first, then words of a reason.
_STATED = re.compile(r"^(?:\w*(?:Error|Exception)\b(?: \[\w+\])?:\s*\S|panic:|assertion)")
_REASON_WORDS = re.compile(
    r"error|fail|exception|panic|assert|expected|want|got\b|mismatch|unexpected|should|not equal|!=|"
    r"cannot|can't|undefined|not found|no such|invalid|refused|timed? ?out",
    re.I,
)
# ``_REASON_WORDS`` spelt out but for "got", which ends a word (a "got" leaves the pattern to say).
_REASON_WORD_LIST = (
    *("error", "fail", "exception", "panic", "assert", "expected", "want", "mismatch", "should", "not equal"),
    *("!=", "cannot", "can't", "undefined", "not found", "no such", "invalid", "refused"),
    *("timed out", "timedout", "time out", "timeout"),
)
# The values under a reason: `Expected: 90`, `got: 100`, testify's `actual  : 4`, cargo's `left: 5`.
_VALUES = re.compile(r"^(?:[-+]\s*)?(?:expected|actual|got|want|received|left|right)\s*:", re.I)
_CODE_FRAME = Lazy(r"^(?:>?\s*\d+ \||\|)", 0)

Reading = tuple[int, str, str]
"""Where a runner's report of a failed test starts (a line index), the test's name, and why it failed."""


def names_only(line: str) -> bool:
    """Whether ``line`` only names a failing test or counts failures (a reason may be joined to it)."""
    return _NAMES_ONLY.match(line) is not None or any(
        word in line and pattern.match(line) is not None for word, pattern in _NAMES_FAILED
    )


def unrendered(line: str) -> str:
    """``line`` without the projection's own ``[error] Tool:`` prefix (``RENDERED``), if it has one."""
    found = RENDERED.match(line) if line.startswith("[error]") else None
    return line if found is None else line[found.end() :]


def explained(text: str, chosen: str) -> str:
    """``chosen`` with the reason joined to it (``name — reason``) when it only names a failing test
    or counts failures and the text shows why; otherwise ``chosen`` unchanged."""
    if not names_only(chosen):
        return chosen
    readers = [read for needle, read in _READERS if needle in text]
    if not readers:
        return chosen
    lines = [unrendered(line) for line in text.splitlines()] if "[error]" in text else text.splitlines()
    found = [reading for read in readers if (reading := read(lines)) is not None]
    if not found:
        return chosen
    _, name, reason = min(found)
    name = name if len(name) <= NAME_CAP else name[: NAME_CAP - 1] + "…"
    return f"{name} — {reason}"


def _go(lines: Sequence[str]) -> Reading | None:
    """Go's ``--- FAIL: TestX`` and the test's indented output: below it, or above it under ``-v``."""
    at, found = _first(lines, _GO_FAIL)
    if found is None:
        return None
    block: list[str] = []
    for line in lines[at + 1 :]:
        if not line.strip():
            continue
        if line[0] in " \t" or line.startswith("panic:"):
            if not line.strip().startswith("--- "):  # a subtest's own FAIL line
                block.append(line.strip())
            continue
        break
    if not block:  # `go test -v` prints a test's output before its FAIL line
        for line in reversed(lines[:at]):
            if line.strip() and line[0] in " \t" and not line.strip().startswith("--- "):
                block.insert(0, line.strip())
            elif line.strip():
                break
    reason = _telling(block)
    return (at, f"--- FAIL: {found.group(1)}", reason) if reason else None


def _jest(lines: Sequence[str]) -> Reading | None:
    """jest's ``● Suite › test`` and the indented block under it (code frame and stack left out)."""
    at, found = _first(lines, _JEST_TEST)
    if found is None:
        return None
    block: list[str] = []
    for line in lines[at + 1 :]:
        stripped = line.strip()
        if not stripped:
            continue
        if _JEST_TEST.match(line) or not line.startswith("    "):
            break
        if not _CODE_FRAME.match(stripped) and not stripped.startswith("at "):
            block.append(stripped)
    reason = _telling(block)
    return (at, f"● {found.group(1).strip()}", reason) if reason else None


def _cargo(lines: Sequence[str]) -> Reading | None:
    """A Rust test's panic: the message in the ``panicked at`` line (before 1.73) or the lines after it."""
    at, found = _first(lines, _CARGO_PANIC)
    if found is None:
        return None
    test, rest = found.groups()
    old = _CARGO_OLD_PANIC.match(rest)
    if old is not None:
        reason = old.group(1)
    else:
        after: list[str] = []
        for line in lines[at + 1 :]:
            if not line.strip() or line.startswith("note:") or len(after) > _VALUES_KEPT:
                break
            after.append(line.strip())
        reason = _joined(after)
    return (at, f"test {test}", reason) if reason else None


def _rspec(lines: Sequence[str]) -> Reading | None:
    """rspec's ``Failure/Error:`` with the lines under it (``expected:``/``got:``, or the exception)."""
    at = next((index for index, line in enumerate(lines) if line.strip().startswith("Failure/Error:")), -1)
    if at < 0:
        return None
    name = next(
        (found.group(1) for line in reversed(lines[:at]) if (found := _RSPEC_EXAMPLE.match(line))), "Failure"
    )
    parts = [lines[at].strip()]
    for line in lines[at + 1 :]:
        stripped = line.strip()
        if not stripped or stripped.startswith("(compared"):
            continue
        if stripped.startswith("#") or len(parts) > _VALUES_KEPT or _RSPEC_EXAMPLE.match(line):
            break
        parts.append(stripped)
    return at, name.strip(), _joined(parts)


def _mocha(lines: Sequence[str]) -> Reading | None:
    """mocha's first numbered failure after ``N failing``: its title lines, then the error under them."""
    at, found = _first(lines, _MOCHA_FAILING)
    if found is None:
        return None
    title: list[str] = []
    reason: list[str] = []
    for line in lines[at + 1 :]:
        stripped = line.strip()
        if not stripped:
            continue
        if not title and not _RSPEC_EXAMPLE.match(line):
            return None
        if not title or not title[-1].endswith(":"):
            title.append(stripped)
            continue
        reason.append(stripped)
        if not stripped.endswith(":") or len(reason) > 1:
            break
    if not reason:
        return None
    return at, " ".join(title).rstrip(":"), " ".join(reason)


def _phpunit(lines: Sequence[str]) -> Reading | None:
    """PHPUnit's first numbered failure after ``There was 1 failure:`` and the message under it, up to
    the file it points at."""
    at, found = _first(lines, _PHPUNIT_FAILURES)
    if found is None:
        return None
    rest = [line.strip() for line in lines[at + 1 :]]
    start = next((index for index, line in enumerate(rest) if line), len(rest))
    name = _RSPEC_EXAMPLE.match(rest[start]) if start < len(rest) else None
    if name is None:
        return None
    reason: list[str] = []
    for line in rest[start + 1 :]:
        if not line or line.startswith("/") or len(reason) > _VALUES_KEPT:
            break
        reason.append(line)
    return (at, name.group(1), _joined(reason)) if reason else None


def _dotnet(lines: Sequence[str]) -> Reading | None:
    """dotnet test's ``Failed <test> [time]`` and the lines of its ``Error Message:``."""
    at, found = _first(lines, _DOTNET_FAILED)
    if found is None:
        return None
    reason: list[str] = []
    reading = False
    for line in lines[at + 1 : at + 4 + _VALUES_KEPT]:
        stripped = line.strip()
        if stripped == "Error Message:":
            reading = True
        elif stripped.startswith("Stack Trace:") or len(reason) > _VALUES_KEPT:
            break
        elif reading and stripped:
            reason.append(stripped)
    return (at, f"Failed {found.group(1)}", _joined(reason)) if reason else None


def _gradle(lines: Sequence[str]) -> Reading | None:
    """Gradle's ``Class > test() FAILED`` and the indented exception under it."""
    at, found = _first(lines, _GRADLE_FAILED)
    if found is None:
        return None
    block: list[str] = []
    for line in lines[at + 1 :]:
        if not line.strip() or line[0] not in " \t" or len(block) > _VALUES_KEPT:
            break
        block.append(line.strip())
    return (at, found.group(1), _joined(block)) if block else None


def _values(lines: Sequence[str]) -> Reading | None:
    """Any runner's assertion printed as the value wanted over the value got (``expected: Ok(5400)`` then
    ``got: Error(…)``; ``Expected:``/``Received:``, ``expected:``/``actual:``), under the nearest numbered
    test title above it (``1) parse_test: …``), or the line above it when it states the failure."""
    for at, line in enumerate(lines[:-1]):
        if ":" not in line:
            continue  # neither a value wanted nor one got
        wanted, got = line.strip(), lines[at + 1].strip()
        if _GOT.match(wanted) and _WANTED.match(got):
            wanted, got = got, wanted  # rackunit prints what it got first
        elif not (_WANTED.match(wanted) and _GOT.match(got)):
            continue
        above = [earlier.strip() for earlier in reversed(lines[max(0, at - _TITLE_REACH) : at])]
        title = next((found.group(1) for text in above if (found := _RSPEC_EXAMPLE.match(text))), "")
        stated = above[0] if above and _gives_reason(above[0]) and not _VALUES.match(above[0]) else ""
        reason = _joined([stated, wanted, got] if stated else [wanted, got])
        return at, title.strip() or "Failure", reason
    return None


_WANTED = re.compile(r"(?i:expected)\s*:")
_GOT = re.compile(r"(?i:(?:but )?(?:got|actual|received|was|found))\s*:")
_TITLE_REACH = 4


# Each reader with a piece of text its report cannot be without: one that is not in the text is not run.
_READERS: tuple[tuple[str, Callable[[Sequence[str]], Reading | None]], ...] = (
    ("--- FAIL: ", _go),
    ("● ", _jest),
    ("' panicked at ", _cargo),
    ("Failure/Error:", _rspec),
    (" failing", _mocha),
    ("There w", _phpunit),
    ("Failed ", _dotnet),
    (" FAILED", _gradle),
    ("xpected", _values),  # last: a runner's own reader, when it has one, reads the same lines better
)


def _first(lines: Sequence[str], pattern: re.Pattern[str] | Lazy) -> tuple[int, re.Match[str] | None]:
    for index, line in enumerate(lines):
        found = pattern.match(line)
        if found is not None:
            return index, found
    return -1, None


def _gives_reason(line: str) -> bool:
    """Whether ``_REASON_WORDS`` matches in ``line``: found by substring searches in its folded copy, the
    pattern's scan (each word tried at every position) left for a line whose only candidate is "got"."""
    low = case_folded(line)
    if low is None or "got" in low:
        return _REASON_WORDS.search(line) is not None
    return any(word in low for word in _REASON_WORD_LIST)


def _telling(block: Sequence[str]) -> str:
    """The line of a test's output that says why it failed, with the values printed under it."""
    at = next((index for index, line in enumerate(block) if _STATED.match(line)), -1)
    if at < 0:
        at = next((index for index, line in enumerate(block) if _gives_reason(line)), 0 if block else -1)
    if at < 0:
        return ""
    values = [line for line in block[at + 1 : at + 1 + _VALUES_KEPT] if _VALUES.match(line)]
    return _joined([block[at], *values])


def _joined(parts: Sequence[str]) -> str:
    """Lines as one: after a line ending in a colon (``NoMethodError:``) its continuation, else ``; ``."""
    out = parts[0] if parts else ""
    for part in parts[1:]:
        out += (" " if out.endswith(":") else "; ") + part
    return out
