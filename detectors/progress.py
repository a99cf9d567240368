"""Whether a failing attempt at a piece of work is the attempt before it again, with nothing learnt.

Repeat-failure keeps a streak of failed attempts for each piece of work; this is how it judges one step of
a streak, from what the session shows between the two attempts whatever the tools: an edit, a command, a
read, a wait, the user's answer, the user's own request for retries. A different error after something was
done is the work moving; the same error is a fix that did not take; fewer tests failing is progress; a
wait between the two, or the user's own hand, is not the agent looping. The positions it reads are folds
of the history (:class:`~sbcore.observe.history.Positions`), so each observation is read once.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from itertools import islice, pairwise

from sbcore.api import Observation
from sbcore.observe.history import ObservationHistory, Positions
from sbcore.observe.log_reads import names_a_log

from .failures import same_failure
from .identity import only_waits, waits_first
from .retries_asked import asks_only_looks, asks_repeats, asks_retries
from .roles import COMMAND_TOOLS, EDIT_TOOLS, command_in
from .signatures import signature


@dataclass(frozen=True)
class Call:
    """A settled command call: ``error`` is None when it succeeded."""

    index: int  # absolute position in the history (see ObservationHistory)
    observation: Observation
    command: str
    error: Observation | None


@dataclass(frozen=True)
class Attempt:
    call: Call
    error: str

    @cached_property
    def signature(self) -> str:
        """The error with what varies between two runs of the same failure folded (:func:`signature`)."""
        return signature(self.error)

    @cached_property
    def summaries(self) -> frozenset[str]:
        """The signatures of the lines in this attempt's output that report its failure without saying what
        went wrong: a count of failures (`0% tests passed, 1 tests failed out of 1`), an item's status row
        (`1/1 Test #7: golden_pbr …***Failed  2.38 sec`) or a verdict and the name it is about (`FAIL:
        test_utf8`, `not ok 3 parses dates`). A run that shows its details beside such a line and a run that
        shows the line alone failed alike."""
        text = self.call.error.text if self.call.error is not None else ""
        low = text.lower()
        if "fail" not in low and "error" not in low:
            return frozenset()
        found: set[str] = set()
        for line in text.splitlines()[1:]:
            if _STATUS_ROW.search(line) or _VERDICT_LINE.match(line):
                found.add(signature(line.strip()))
            elif (
                _DIGIT.search(line)
                and _COUNT_LINE.match(sig := signature(line.strip()))
                and _FAILURE_WORD.search(sig)
            ):
                found.add(sig)
        return frozenset(found)

    @property
    def failing(self) -> int | None:
        outcome = self.call.error.outcome if self.call.error is not None else None
        counts = (outcome or {}).get("counts") or {}
        value = counts.get("failed")
        return value if isinstance(value, int) else None


def stuck_tail(attempts: list[Attempt], history: ObservationHistory) -> int:
    """How many of the latest attempts are linked by stuck steps (1 when the last one made progress)."""
    run = 1
    for earlier, later in zip(reversed(attempts[:-1]), reversed(attempts[1:]), strict=True):
        if not _stuck(earlier, later, history):
            break
        run += 1
    return run


def recurring(attempts: list[Attempt], history: ObservationHistory) -> list[Attempt]:
    """The attempts of a streak that failed with the latest one's error: an error that comes back
    after other errors in between is a loop too (the fixes go round in a circle), unless the user
    asked for a retry along the way."""
    latest = attempts[-1]
    same = [attempt for attempt in attempts if _same_error(attempt, latest, history)]
    if _waits(history).any_between(same[0].call.index, latest.call.index) or all(
        waits_first(attempt.call.command or "") for attempt in same[1:]
    ):
        return []  # polling: a wait between, or each retry asked after a pause
    if any(_user_granted(history, a.call.index, b.call.index) for a, b in pairwise(same)):
        return []
    calls, edits = _tool_calls(history), edit_calls(history)
    blind = all(not calls.any_between(a.call.index, b.call.index) for a, b in pairwise(same))
    unchanged = all(not edits.any_between(a.call.index, b.call.index) for a, b in pairwise(same))
    if (blind and _retries_asked(history, same[0].call.index)) or (
        unchanged and _repeats_asked(history, same[0].call.index)
    ):
        return []  # the retries the user asked for
    first, last = same[0].failing, latest.failing
    if first is not None and last is not None and last < first:
        return []  # fewer tests failing each time: progress
    return same


def _stuck(earlier: Attempt, later: Attempt, history: ObservationHistory) -> bool:
    """Whether ``later`` is ``earlier`` again with nothing learnt: the same failure, the same way.

    Judged from what the attempts show, whatever tools came between them: after anything was done (an
    edit, a command, a read), a different error is the work moving (a fix that got further, a change
    made through a command, an investigation) and the same error is a fix that did not take; fewer
    tests failing is progress. Run again straight away, with nothing done between, it is a blind retry
    whatever it printed (what changed came from elsewhere), unless the agent changed how it ran it (the
    same work with another seed or option value) and it failed differently: an experiment. An attempt the
    user answered for (see :func:`_user_granted`) or a wait between them (polling split over calls) is
    not a blind retry, nor is running it again straight away when the turn's prompt asked for retries
    (:func:`_retries_asked`), or with nothing edited between when it asked for several runs
    (:func:`_repeats_asked`).
    """
    first, then = earlier.call.index, later.call.index
    if _user_granted(history, first, then) or _waits(history).any_between(first, then):
        return False
    if waits_first(later.call.command or ""):
        return False  # asked again after a pause: polling
    blind = not _tool_calls(history).any_between(first, then)
    if blind and _retries_asked(history, first):
        return False  # the retries the user asked for
    if not edit_calls(history).any_between(first, then) and _repeats_asked(history, first):
        return False  # runs the user asked for several of, each one's result looked at
    fewer = earlier.failing is not None and later.failing is not None and later.failing < earlier.failing
    if fewer:
        return False
    if _same_error(earlier, later, history):
        return True
    # A different error straight after: a blind retry, unless the agent changed how it ran (another seed,
    # another option's value), which failing differently is an experiment, not the same run again, or the user
    # asked it to change nothing yet, only to look (each run then shows another failure of what it surveys).
    return (
        not _tool_calls(history).any_between(first, then)
        and _typed(earlier) == _typed(later)
        and not _looks_asked(history, first)
    )


def _same_error(earlier: Attempt, later: Attempt, history: ObservationHistory) -> bool:
    """Whether two attempts failed alike: one error, or neither saying more than that it failed (an exit
    status, counts: the output went to a log or a report read afterwards) with nothing edited between, so
    nothing could have made them differ; so too one that says no more because it sent its output away (to
    a log or a report, or said its details are in one) beside one that says what failed, and one that says
    no more than its count of failures, its status row or its verdict beside one that shows its details
    with that same line."""
    if same_failure(earlier.signature, later.signature):
        return not _moved(earlier, later, history)
    if edit_calls(history).any_between(earlier.call.index, later.call.index):
        return False
    quiet = [_UNINFORMATIVE.match(attempt.signature) is not None for attempt in (earlier, later)]
    if all(quiet):
        return True
    if any(quiet) and earlier.summaries & later.summaries:
        return True
    if any(  # one showing only its verdict (`FAIL: t_utf8`), the other its details beside that verdict
        _VERDICT_LINE.match(one.error) is not None and one.signature in other.summaries
        for one, other in ((earlier, later), (later, earlier))
    ):
        return True
    return any(
        (says_little and _SENT_AWAY.search(attempt.call.command or "") is not None)
        or names_a_log(attempt.error)
        for says_little, attempt in zip(quiet, (earlier, later), strict=True)
    )


def _moved(earlier: Attempt, later: Attempt, history: ObservationHistory) -> bool:
    """Whether ``later`` failed at another line of the file ``earlier`` failed in, a file no edit between
    them touched: the place is then the failure's own (a check further down a test file failing,
    `reduction.ll:7:10` after `reduction.ll:4:10`, once the edited code passes the ones above it), not a
    line an edit shifted."""
    one, other = _AT_LINE.match(earlier.error), _AT_LINE.match(later.error)
    if one is None or other is None or one["file"] != other["file"] or one["line"] == other["line"]:
        return False
    name = "/" + one["file"].rsplit("/", 1)[-1]
    edits = edit_calls(history)
    start = bisect_right(edits.positions, earlier.call.index)
    stop = bisect_left(edits.positions, later.call.index)
    for position in islice(edits.positions, start, stop):
        path = history.at(position).args.get("file_path")
        if not isinstance(path, str) or ("/" + path).endswith(name):
            return False  # the file itself edited (or an edit of no known file): its lines may have moved
    return True


# A located diagnostic's file and line (`/src/t/reduction.ll:4:10: error: …`, `a.cs(12,5): error …`).
_AT_LINE = re.compile(r"(?:[\w.+-]+: +)?(?P<file>[\w./~+-]+\.[A-Za-z]\w{0,9})(?::|\()(?P<line>\d+)")


# An error line that says only that the work failed: an exit status, labelled or not (`exit=#`, `Exit code
# #`, `vitest exit: #`, `rc=#`), counts or a number alone (`# examples, # failures`, `# tests completed, #
# failed`, a fallback's `grep -c` printing `#`), a count row with its label first (`ℹ fail #`, `fail: # (
# #%)`), or a fallback's word alone (`|| echo FAILED`).
# A count line (`# examples, # failures`, `#% tests passed, # tests failed out of #`), as signed.
_COUNTS = r"#%?(?:\s+(?:\w+|#%?))*(?:,\s*#%?(?:\s+(?:\w+|#%?))*)*"
_UNINFORMATIVE = re.compile(
    r"^[^a-z0-9#]{0,3}(?:(?:[\w-]+[ _-])?(?:exit(?:[ _-]?(?:code|status))?|rc|status)\s*[=:]?\s*#"
    rf"|{_COUNTS}"
    r"|[a-z]+:?\s+#(?:\s*\(\s*#%\))?|fail(?:ed|ure)?|error)\W*$"
)
_COUNT_LINE = re.compile(rf"^{_COUNTS}\W*$")
_FAILURE_WORD = re.compile(r"\b(?:fail\w*|errors?)\b")
# An item's status row, its name and its verdict joined by a dotted leader (`Test #7: golden ....***Failed`,
# `shellcheck.......Failed`), or numbered with its verdict and its time (`7/12 lib:unit / t_q  FAIL  0.02s`).
_STATUS_ROW = re.compile(
    r"\.{4,}[\s*]*(?i:fail)|^ *\d+/\d+ +\S.{0,160}? (?i:fail|failed|error|timeout) +[\d.]+ *(?:s|sec|ms)\b"
)
# A verdict and only the name it is about (Automake's and lit's `FAIL: test_utf8`, TAP's `not ok 3 parses
# dates`, GoogleTest's `[  FAILED  ] Parser.Handles`).
_VERDICT_LINE = re.compile(
    r"^\s*(?:FAIL|FAILED|ERROR|not ok(?: \d+)?|\[\s*FAILED\s*\])(?::\s*|\s+)[\w./:#<>\[\]-]+"
    r"(?: \(.{0,40}\))?\s*$"
)
_DIGIT = re.compile(r"\d")


# A command that sends its output to a file: a redirection of its output (not `2>&1`), `tee`, or an option
# naming a report file (`--out tmp/run.json`, `--junitxml=report.xml`, `-o results.xml`).
_SENT_AWAY = re.compile(
    r"(?:^|[\s;&|])(?:1|&)?>>?[ \t]*(?!&|/dev/null)[^\s;&|]|\btee\b"
    r"|(?<!\S)--(?:out|output|out-file|output-file|report|junit\w*|\w*xml)[= ]|(?<!\S)-o[ \t]+\S+\.\w+"
)


def _typed(attempt: Attempt) -> str:
    return " ".join((attempt.call.command or "").split())


def _picked(history: ObservationHistory, name: str, picks: Callable[[Observation], bool]) -> Positions:
    """The positions of the observations ``picks`` chooses (``name`` names the predicate)."""
    return history.fold(("positions", name), lambda: Positions(picks))


def _user_prompts(history: ObservationHistory) -> Positions:
    """The user's own prompts (not the harness's note that the user interrupted a call)."""
    return _picked(history, "user-prompts", _is_prompt)


def _user_granted(history: ObservationHistory, first: int, then: int) -> bool:
    """Whether the attempt at ``then`` is the user's: a prompt of theirs came after the attempt at
    ``first`` and the agent's very next call is this one. Whatever the words (a retry granted, a change
    made on their side, "try it now"), the agent did what the user answered to the failure; a prompt
    followed by other work first was about something else."""
    prompt = _user_prompts(history).last_between(first, then)
    return prompt is not None and not _tool_calls(history).any_between(prompt, then)


def _retries_asked(history: ObservationHistory, first: int) -> bool:
    """Whether the user's prompt of this turn (the last one before the attempt at ``first``) asked for the
    work to be retried: then running it again straight away is what they asked for, not a blind loop."""
    prompt = _user_prompts(history).last_between(-1, first)
    return prompt is not None and asks_retries(history.at(prompt).text)


def _repeats_asked(history: ObservationHistory, first: int) -> bool:
    """Whether the user's prompt of this turn asked for several runs (:func:`asks_repeats`)."""
    prompt = _user_prompts(history).last_between(-1, first)
    return prompt is not None and asks_repeats(history.at(prompt).text)


def _looks_asked(history: ObservationHistory, first: int) -> bool:
    """Whether the user's prompt of this turn asked the agent to change nothing yet, only to look."""
    prompt = _user_prompts(history).last_between(-1, first)
    return prompt is not None and asks_only_looks(history.at(prompt).text)


def _waits(history: ObservationHistory) -> Positions:
    """Command calls that only wait (``sleep 10``, ``sleep 5 && echo ok``): attempts with a wait between
    them are polling split over calls, not a loop."""
    return _picked(history, "waits", _is_wait)


def _tool_calls(history: ObservationHistory) -> Positions:
    return _picked(history, "tool-calls", _is_tool_call)


def _is_tool_call(obs: Observation) -> bool:
    return obs.kind == "tool"


def edit_calls(history: ObservationHistory) -> Positions:
    return _picked(history, "edit-calls", _is_edit_call)


def _is_prompt(obs: Observation) -> bool:
    return obs.kind == "prompt" and not obs.text.startswith(_INTERRUPTED)


_INTERRUPTED = "[prompt] [Request interrupted"


def _is_wait(obs: Observation) -> bool:
    if obs.kind != "tool" or obs.tool not in COMMAND_TOOLS:
        return False
    command = command_in(obs)
    return command is not None and only_waits(command)


def _is_edit_call(obs: Observation) -> bool:
    return obs.kind == "tool" and obs.tool in EDIT_TOOLS
