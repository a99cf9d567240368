"""Logs a command wrote and a later call read back: where a run's failure shows when its own result does not.

An agent often sends a run's output to a file (``npm run test:ci > /tmp/ci.log 2>&1; echo "exit=$?"``,
``nohup python train.py … > logs/run.log 2>&1 &``, ``make 2>&1 | tee build.log``) and reads the file with
another call (``tail -n 30 /tmp/ci.log``, ``sleep 60 && tail logs/run.log``, ``grep -A8 FAIL build.log``).
The run's own result then says only its status, or nothing at all (a background run succeeds at once), and
the call that shows the failure is a viewer, whose output the projection never reads as a verdict of its own
(what ``cat`` or ``grep`` prints is a quote). Read as the log of the run that wrote it, it is that run's
result: the projection reads it for an outcome as it reads a command's (:func:`~.outcome.read_outcome`), and
a failure becomes an ``error`` of the writing call.

Only a file a command named as its output, and only a viewer reading it by that name (the same path, or one
of the two spelt relative to a folder the other names): a log written by anything else, or read by a program
that does more than show it, is left alone. Bounded; standard library only (it runs in the projection).
"""

from __future__ import annotations

import re
from collections import OrderedDict

WRITERS_KEPT = 64
"""Log files remembered, with the call that last wrote each (the oldest is forgotten first)."""

# Where a command's output goes: a redirection (`> f`, `>> f`, `&> f`, `2> f`; not a descriptor `>&2`), or
# `tee` (with `-a`/`--append`), up to the end of the step.
_REDIRECT = re.compile(r"(?:^|[\s;&|])(?:\d|&)?>>?[ \t]*(?!&)(['\"]?)([^\s;&|<>()'\"]+)\1")
_TEE = re.compile(r"\btee(?:[ \t]+-(?:a|-append|i|p))*[ \t]+(['\"]?)([^\s;&|<>()'\"-][^\s;&|<>()'\"]*)\1")
# A step that only shows a file, and where it starts (at the start of the command, or after an operator).
_VIEW_STEP = re.compile(r"(?:^|[;&|(]|&&|\|\|)[ \t]*(?:tail|head|cat|less|more|grep|rg|sed|awk|bat)\b[^;&|]*")
# An option naming the file a run writes its log or report to (`-logFile Logs/run.log`, `--log-file=x.log`,
# `-testResults out/tests.xml`, `--junitxml report.xml`, `--out tmp/run.json`): a file name with an extension.
_OUTPUT_OPTION = re.compile(
    r"(?<!\S)--?(?:[a-z]+[-_]?)?(?:log|out|output|report|results?|junit)(?:[-_]?(?:file|path|xml))?"
    r"(?:=|[ \t]+)(['\"]?)([^\s;&|<>()'\"-][^\s;&|<>()'\"]*\.\w{1,5})\1",
    re.IGNORECASE,
)
_NOT_LOGS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})


class LogReads:
    """The logs the session's commands wrote, and which later viewer call reads which writer's log."""

    def __init__(self) -> None:
        self._writers: OrderedDict[str, str] = OrderedDict()  # log path as written -> the call that wrote it

    def read(self, call_id: str, command: str) -> str | None:
        """Take in the command of the call ``call_id``: the earlier call whose log it shows, or None (a viewer
        step naming a log an earlier call wrote, and not one this command writes itself: its own result shows
        that one); then the files it sends its output to are remembered as its logs."""
        written = _outputs(command)
        writer = self._writer_shown(command, written) if self._writers else None
        for path in written:
            self._writers.pop(path, None)
            self._writers[path] = call_id
        while len(self._writers) > WRITERS_KEPT:
            self._writers.popitem(last=False)
        return writer

    def _writer_shown(self, command: str, written: list[str]) -> str | None:
        for step in _VIEW_STEP.finditer(command):
            words = {word.strip("'\"").removeprefix("./") for word in step.group(0).split()[1:]}
            for path, writer in reversed(self._writers.items()):
                if path not in written and any(_same_file(word, path) for word in words):
                    return writer
        return None


def _outputs(command: str) -> list[str]:
    """The files ``command`` sends its output to: redirected, teed, or named by an option for its log or
    report."""
    patterns = (_OUTPUT_OPTION, _REDIRECT, _TEE) if ">" in command or "tee" in command else (_OUTPUT_OPTION,)
    paths = [found.group(2).removeprefix("./") for pattern in patterns for found in pattern.finditer(command)]
    return [path for path in paths if path not in _NOT_LOGS and not path.isdigit()]


def _same_file(word: str, path: str) -> bool:
    """Whether ``word`` names the file written as ``path`` (one may be spelt from a folder the other names:
    ``/tmp/run/ci.log`` and ``run/ci.log``)."""
    if word == path:
        return True
    longer, shorter = (word, path) if len(word) > len(path) else (path, word)
    return "/" in shorter and longer.endswith("/" + shorter)
