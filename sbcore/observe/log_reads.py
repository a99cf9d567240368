"""Logs a command wrote and a later call read back: where a run's failure shows when its own result does not.

An agent often sends a run's output to a file (``npm run test:ci > /tmp/ci.log 2>&1; echo "exit=$?"``,
``nohup python train.py … > logs/run.log 2>&1 &``, ``make 2>&1 | tee build.log``) and reads the file with
another call (``tail -n 30 /tmp/ci.log``, ``sleep 60 && tail logs/run.log``, ``grep -A8 FAIL build.log``).
The run's own result then says only its status, or nothing at all (a background run succeeds at once), and
the call that shows the failure is a viewer, whose output the projection never reads as a verdict of its own
(what ``cat`` or ``grep`` prints is a quote). Read as the log of the run that wrote it, it is that run's
result: the projection reads it for an outcome as it reads a command's (:func:`~.outcome.read_outcome`), and
a failure becomes an ``error`` of the writing call.

Only a file a command named as its output, or one its failure names as the place of the details (a script's
``failed (see logs/run.log)``, npm's ``A complete log of this run can be found in: …``), and only a viewer
reading it by that name (the same path, or one of the two spelt relative to a folder the other names): a log
written by anything else, or read by a program that does more than show it, is left alone. One kind of file
is written by convention rather than by name: a test report in JUnit's XML (``reports/junit.xml`` from a Jest
reporter, ``target/surefire-reports/TEST-….xml``, ``build/test-results/test/….xml``, a ``.trx``), which
runners of every ecosystem write where their configuration says, so that no command names it. A viewer reading
one that no command named is read as the report of the latest command call that failed, when that call's own
result said only that it failed. Bounded; standard library only (it runs in the projection).
"""

from __future__ import annotations

import re
from collections import OrderedDict, deque
from collections.abc import Iterable

from sbcore.observe.lazy_pattern import Lazy

WRITERS_KEPT = 64
"""Command calls that wrote files, remembered with their files, the latest last: a viewer is matched to the
latest of them that wrote its file."""

# Every command call of a session passes through here, so each search opens with a literal (``>``, ``tee``,
# an option's dash, a viewer's name) found at the speed of a substring search, and a pattern is only matched
# where one occurs; a command's files are worked out only when it may write one.
# A redirection's target from its ``>`` (`> f`, `>> f`, `&> f`, `2> f`; not a descriptor `>&2`).
_REDIRECT_TARGET = re.compile(r">>?[ \t]*(?!&)(['\"]?)([^\s;&|<>()'\"]+)\1")
# ``tee``'s file (with `-a`/`--append`), from the word ``tee``.
_TEE_TARGET = Lazy(r"tee(?:[ \t]+-(?:a|-append|i|p))*[ \t]+(['\"]?)([^\s;&|<>()'\"-][^\s;&|<>()'\"]*)\1", 0)
# An option naming the file a run writes its log or report to (`-logFile Logs/run.log`, `--log-file=x.log`,
# `-testResults out/tests.xml`, `--junitxml report.xml`, `--out tmp/run.json`), matched at an option's dash;
# the file has an extension.
_OUTPUT_OPTION = re.compile(
    r"--?(?:[a-z]+[-_]?)?(?:log|out|output|report|results?|junit)(?:[-_]?(?:file|path|xml))?"
    r"(?:=|[ \t]+)(['\"]?)([^\s;&|<>()'\"-][^\s;&|<>()'\"]*\.\w{1,5})\1",
    re.IGNORECASE,
)
# A variable naming the file a run writes its log or report to, set for it (`LOG=build-ci.log ./ci/build.sh`,
# `REPORT_FILE=out/r.xml make test`): matched at the variable's name.
_OUTPUT_VARIABLE = re.compile(
    r"(?:^|[\s;&|])(?:[A-Z][A-Z0-9]*_)*(?:LOG|OUT|OUTPUT|REPORT|RESULTS?)(?:_?(?:FILE|PATH))?="
    r"(['\"]?)([^\s;&|<>()'\"]+\.\w{1,5})\1"
)
# A step that only shows a file: a viewer's name opening the command or a step after an operator.
_VIEWERS = ("tail", "head", "cat", "less", "more", "grep", "rg", "sed", "awk", "bat")
# (a quoted pattern may hold an operator's character: `grep -n 'ERR!\|Error' run.log`)
_VIEW_STEP = re.compile(
    r"(?:tail|head|cat|less|more|grep|rg|sed|awk|bat)\b(?:'[^'\n]*'|\"[^\"\n]*\"|[^;&|'\"])*"
)
_STEP_OPENS = frozenset(";&|(")
# What a command that only looks opens with, past its `cd` and `sleep` steps: a viewer, or a wrapper that
# polls one (`sleep 60 && tail x.log`, `until grep -q done run.log; do sleep 5; done`).
_LOOKS = frozenset({*_VIEWERS, "watch", "timeout", "until", "while"})
_STEP_BREAK = re.compile(r"[;&|]+")
# A failure naming the log that holds its details: `(see logs/papermill-2024-10.log)`, `A complete log of
# this run can be found in: /root/.npm/_logs/…-debug-0.log`, `details in build/out.log`, `log written to
# x.log`, `Consult /var/lib/dkms/m/1.0/build/make.log for more information`, `check build/err.log`.
_NAMED_LOG = re.compile(
    r"(?i:\bsee|\bconsult|\bcheck|\brefer to|found in|details? (?:in|at)|(?:written|saved) to|\b(?:is|are) in"
    r"|\blog(?: file)?(?: is| at)?)[ \t]*:?[ \t]*"
    r"[`'\"(]?((?:~|\.{1,2})?/?[\w.@+-]+(?:/[\w.@+-]+)*\.log)\b"
)
# A test report in JUnit's XML (or .NET's .trx), by the names runners give them: a file or folder named for
# JUnit, test results or a report, or Surefire's and Ant's `TEST-<class>.xml`.
_TEST_REPORT = re.compile(
    r"(?i)(?:junit|test[-_]?results?|surefire|failsafe|reports?\b|(?:^|/)TEST-)[^\s'\"]*\.xml$|\.trx$"
)
# A run saying where its output went, whatever the file's name (idf.py's `the output of the command is in the
# /home/dev/fw/build/log/idf_py_stderr_output_91342`): a path with a folder, after the output, log or details
# said to be in it; found from " is in " or " are in ".
_OUTPUT_IS_IN = Lazy(
    r"(?i:output|log|details|results)\b[^\n]{0,40}?\b(?:is|are) in:?(?: the)?[ \t]+[`'\"]?"
    r"((?:~|\.{1,2})?/?[\w.@+-]+(?:/[\w.@+-]+)+)",
    0,
)
_NAMED_KEPT = 4
_NAMED_REACH = 256  # how far before a `.log` its phrase and its path may start
_NOT_LOGS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})


def names_a_log(line: str) -> bool:
    """Whether a failure's line says where its details went (`deployment FAILED. Full output written to
    logs/deploy.log`): a run that says no more than that about what failed."""
    return ".log" in line and _NAMED_LOG.search(line) is not None


class LogReads:
    """The session's latest command calls that wrote files, and which of them wrote the log a viewer reads."""

    def __init__(self) -> None:
        self._writers: deque[tuple[str, tuple[str, ...]]] = deque(maxlen=WRITERS_KEPT)  # (call id, its files)
        self._failed: str | None = None  # the latest failed command call, if its result said only that
        self._order: OrderedDict[str, int] = OrderedDict()  # the latest command calls, numbered as they ran
        self._calls = 0

    def failed(self, call_id: str, *, says_nothing: bool) -> None:
        """Take in a command call whose result showed it failing. When the result ``says_nothing`` but that
        (`jest exit: 1`), a test report read next by a name no command gave (a runner writes it where its
        configuration says) is that call's report; after a failure that said what failed, none is tied."""
        self._failed = call_id if says_nothing else None

    def read(self, call_id: str, command: str) -> str | None:
        """Take in the command of the call ``call_id``: the earlier call whose log it shows, or None (a viewer
        step naming a file an earlier call sent its output to, the latest such call, and not a file this
        command writes itself: its own result shows that one)."""
        may_write = (
            ">" in command
            or "tee" in command
            or (" -" in command and _may_name_output(command))
            or ("=" in command and _may_set_output(command))
        )
        written = _outputs(command) if may_write else ()
        writer = self._writer_shown(command, written) if self._writers or self._failed else None
        if written:
            self._writers.append((call_id, written))
        self._calls += 1
        self._order[call_id] = self._calls
        if len(self._order) > WRITERS_KEPT:
            self._order.popitem(last=False)
        return writer

    def named(self, call_id: str, text: str) -> None:
        """Take in the failure the call ``call_id`` showed: a log it names as the place of the details (``see
        logs/run.log``, npm's ``A complete log of this run can be found in: …``, ctest's ``Output from these
        tests are in: …/LastTest.log``), or one a command line it echoed sends its output to (make
        printing its recipe's ``tclsh tests/all.tcl -outfile build/test.log``), is that call's log, read
        later as its result."""
        named: dict[str, None] = {}
        at = text.find(".log")
        while at >= 0 and len(named) < _NAMED_KEPT:  # read only around each `.log`: a failure's text is long
            start = max(text.rfind("\n", 0, at) + 1, at - _NAMED_REACH)
            for hit in _NAMED_LOG.finditer(text, start, at + 4):
                named[hit.group(1).removeprefix("./")] = None
            at = text.find(".log", at + 4)
        for path in _echoed_outputs(text):  # a recipe line the run echoed (`tclsh all.tcl -outfile x.log`)
            if len(named) < _NAMED_KEPT:
                named[path.removeprefix("./")] = None
        for phrase in (" is in ", " are in "):
            at = text.find(phrase)
            while at >= 0 and len(named) < _NAMED_KEPT:
                start = max(text.rfind("\n", 0, at) + 1, at - _NAMED_REACH)
                end = text.find("\n", at)
                for hit in _OUTPUT_IS_IN.finditer(text, start, len(text) if end < 0 else end):
                    named[hit.group(1).removeprefix("./")] = None
                at = text.find(phrase, at + len(phrase))
        if named:
            self._writers.append((call_id, tuple(named)[:_NAMED_KEPT]))

    def read_whole(self, paths: tuple[str, ...]) -> str | None:
        """The latest call that wrote the file a tool reads whole (Claude Code's ``Read``), named by any of
        ``paths`` (as given, and relative to where the session runs), or None."""
        for call_id, written in reversed(self._writers):
            if any(_same_file(path, file) for path in paths for file in written):
                return call_id
        return self._reported(paths)

    def _reported(self, paths: Iterable[str]) -> str | None:
        """The latest failed call, when a file shown is a test report (see the module's docstring)."""
        if self._failed is not None and any(_TEST_REPORT.search(path) for path in paths):
            return self._failed
        return None

    def _writer_shown(self, command: str, written: tuple[str, ...]) -> str | None:
        if not any(name in command for name in _VIEWERS):
            return None  # most commands
        if not _only_looks(command):
            return None  # work, then a look at what it wrote (`make build; tail build/x.log`): its own
        shown = {
            word
            for step in _view_steps(command)
            for word in (word.strip("'\"").removeprefix("./") for word in step.split()[1:])
            if "." in word or "/" in word
        }
        for call_id, paths in reversed(self._writers):
            if any(_same_file(word, path) for word in shown for path in paths if path not in written):
                return self._rewritten(call_id)
        return self._reported(word for word in shown if word not in written)

    def _rewritten(self, writer: str) -> str:
        """The call whose log a file ``writer`` named holds: ``writer``, unless a later call failed saying
        only that it failed (a task runner's `make: *** [render] Error 1`, `exit=1`), whose recipe wrote the
        same file again where no command named it (`make render` running `cue export … 2> build/x.log`)."""
        failed = self._failed
        if failed is None or failed == writer or failed not in self._order or writer not in self._order:
            return writer
        return failed if self._order[failed] > self._order[writer] else writer


# How an option naming where a run's log or report goes opens (`-outfile`, `--log-file`, `--junitxml`), as
# a recipe echoed in a run's output spells it: looked for before ``_OUTPUT_OPTION`` is tried there.
_OPTION_OPENINGS = ("-out", "-log", "-junit", "-report", "-result")


def _echoed_outputs(text: str) -> list[str]:
    """The files an option in ``text`` sends a log or a report to, each found from its option's opening."""
    found: list[str] = []
    for opening in _OPTION_OPENINGS:
        at = text.find(opening)
        while at >= 0 and len(found) < _NAMED_KEPT:
            start = at - 1 if at and text[at - 1] == "-" else at  # `--log-file`
            hit = _OUTPUT_OPTION.match(text, start) if start == 0 or text[start - 1] in " \t" else None
            if hit is not None and hit.group(2) not in _NOT_LOGS:
                found.append(hit.group(2))
            at = text.find(opening, at + len(opening))
    return found


def views_own_output(command: str) -> bool:
    """Whether ``command`` sends its work's output to a file and then shows that file itself (``love . &>
    run.log; grep -n Error run.log``, ``npm run build > b.log 2>&1; tail b.log``): what it printed is the
    work's log, read back, and its status is the viewer's."""
    if not any(name in command for name in _VIEWERS) or _only_looks(command):
        return False
    written = _outputs(command) if (">" in command or "tee" in command or "=" in command) else ()
    return bool(written) and any(
        _same_file(word.strip("'\"").removeprefix("./"), path)
        for step in _view_steps(command)
        for word in step.split()[1:]
        for path in written
    )


def _only_looks(command: str) -> bool:
    """Whether the first step of ``command`` that does anything (past ``cd``, ``sleep``) looks at a file."""
    for step in _STEP_BREAK.split(command):
        words = step.split()
        if words and words[0] not in ("cd", "sleep"):
            return words[0] in _LOOKS
    return False


def _outputs(command: str) -> tuple[str, ...]:
    """The files ``command`` sends its output to: redirected, teed, or named by an option for its log or
    report."""
    paths: list[str] = []
    at = command.find(">")
    while at >= 0:
        opens = at - 1 if at and command[at - 1] in "0123456789&" else at  # `2>`, `&>`
        found = _REDIRECT_TARGET.match(command, at)
        if found is not None and (opens == 0 or command[opens - 1] in " \t\n;&|"):
            paths.append(found.group(2))
        at = command.find(">", found.end() if found is not None else at + 1)
    at = command.find("tee")
    while at >= 0:
        found = _TEE_TARGET.match(command, at)
        if found is not None and (at == 0 or command[at - 1] in " \t\n;&|"):
            paths.append(found.group(2))
        at = command.find("tee", at + 3)
    if " -" in command and _may_name_output(command):
        at = command.find(" -")
        while at >= 0:
            found = _OUTPUT_OPTION.match(command, at + 1)
            if found is not None:
                paths.append(found.group(2))
            at = command.find(" -", at + 2)
    if "=" in command and _may_set_output(command):
        paths.extend(found.group(2) for found in _OUTPUT_VARIABLE.finditer(command))
    return tuple(path.removeprefix("./") for path in paths if path not in _NOT_LOGS and not path.isdigit())


def _may_set_output(command: str) -> bool:
    """Whether ``command`` may set a variable naming its log or report (what ``_OUTPUT_VARIABLE`` needs)."""
    return "LOG" in command or "OUT" in command or "REPORT" in command or "RESULT" in command


def _may_name_output(command: str) -> bool:
    """Whether ``command`` may hold an option naming its log or report (what ``_OUTPUT_OPTION`` needs)."""
    low = command.lower()
    return "-log" in low or "-out" in low or "report" in low or "result" in low or "junit" in low


def _view_steps(command: str) -> list[str]:
    """The steps of ``command`` that open with a viewer's name (at its start, or after an operator)."""
    steps = []
    for name in _VIEWERS:
        at = command.find(name)
        while at >= 0:
            before = at - 1
            while before >= 0 and command[before] in " \t":
                before -= 1
            if before < 0 or command[before] in _STEP_OPENS:
                found = _VIEW_STEP.match(command, at)
                if found is not None:
                    steps.append(found.group(0))
            at = command.find(name, at + len(name))
    return steps


def _same_file(word: str, path: str) -> bool:
    """Whether ``word`` names the file written as ``path`` (one may be spelt from a folder the other names:
    ``/tmp/run/ci.log`` and ``run/ci.log``)."""
    if word == path:
        return True
    longer, shorter = (word, path) if len(word) > len(path) else (path, word)
    return "/" in shorter and longer.endswith("/" + shorter)
