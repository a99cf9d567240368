"""Flags that take a value and only change how a run's results are shown, per runner.

Two runs of one test target differ only in how they report when one says ``dotnet test -v q``
and the other ``dotnet test --verbosity normal``: the value (``q``, ``normal``) is not an
argument of the work, yet read as one it keeps two spellings of one run apart. Which flags
take a value, and whether that value selects work or shapes output, is a property of each
runner (``-t`` names tests in jest and is a timeout in mocha; ``-v`` takes a value only in
``dotnet``), so the table is per runner and lists only flags that always take a value and never
choose what runs: verbosity and log levels, reporters and formatters, colour, where a report
file goes, and how runs are paced (worker counts, timeouts, repeat counts). Flags that select
work (``--filter``, ``-k``, ``-t``, ``--tests``, ``--test_filter``, ``-run``) are never listed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Double-dash flags that take a value and only shape output wherever they appear.
_EVERY_RUNNER = frozenset({"--verbosity", "--log-level", "--loglevel"})

_PYTEST = frozenset(
    {"-r", "--tb", "--color", "--code-highlight", "--capture", "--show-capture", "--durations"}
    | {"--maxfail", "-n", "--timeout"}
    | {"--durations-min", "--log-cli-level", "--log-format", "--log-date-format", "--log-file"}
    | {"--log-file-level", "--junitxml", "--junit-xml", "--cov-report", "--html", "--json-report-file"}
)
_JS_TEST = frozenset(
    {"--reporter", "--reporters", "-R", "--outputFile", "--outputfile", "--coverageReporters"}
    | {"--maxWorkers", "--testTimeout", "--slow"}
)
_BAZEL = frozenset(
    {"--test_output", "--color", "--curses", "--show_progress_rate_limit", "--test_summary"}
    | {"--ui_event_filters", "--show_result", "--logging", "--jobs"}
)
_RUNNERS: dict[str, frozenset[str]] = {
    "pytest": _PYTEST,
    "js-test": _JS_TEST,
    "dotnet": frozenset({"-v", "--logger", "-l", "--results-directory", "--diag", "-d"}),
    "bazel": _BAZEL,
    "cargo": frozenset({"--message-format", "--color", "--jobs", "-j", "--test-threads"}),
    "go": frozenset({"-count", "-timeout", "-parallel", "-p", "-coverprofile", "-covermode"}),
    "gradle": frozenset({"--console", "--warning-mode", "--max-workers"}),
    "rspec": frozenset({"-f", "--format", "-o", "--out"}),
    "eslint": frozenset({"-f", "--format", "-o", "--output-file"}),
    "phpunit": frozenset({"--log-junit", "--testdox-html", "--testdox-text", "--coverage-text"}),
    "mypy": frozenset({"--junit-xml", "--html-report", "--txt-report"}),
    "ruff": frozenset({"--output-format", "--output-file", "-o"}),
    "manage.py": frozenset({"-v"}),  # Django's verbosity: `python manage.py test shop -v 2`
}


def without_shown(runner: str, args: Sequence[str]) -> list[str]:
    """``args`` with every reporting flag of ``runner`` removed together with its value.

    The value is the rest of the word after ``=`` (``--test_output=errors``) or the next word
    (``-v q``, ``--reporter dot``). Words after a bare ``--`` are read too: there they go to the
    runner's own test program (``cargo test -- --test-threads 1``).
    """
    flags = _EVERY_RUNNER | _RUNNERS.get(runner, frozenset())
    kept: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        name, has_value, _ = word.partition("=")
        if name in flags:
            index += 1 if has_value or index + 1 >= len(args) else 2
            continue
        if _OUTPUT_FLAG.match(name):  # where a log or a report goes, whatever the runner
            given = has_value or index + 1 >= len(args) or not _FILE_LIKE.match(args[index + 1])
            index += 1 if given else 2
            continue
        kept.append(word)
        index += 1
    return kept


# A flag naming where a log or a report file goes, in any runner's spelling (`--log-file`, `-logFile`,
# `-testResults`, `--junitxml`, `--results-directory`, `--report-path`): where output is written, not what
# runs. Its value is left out with it when it reads as a file or folder (a path, a name with an extension,
# or `-` for the standard output); a word that does not is an argument of the work and stays.
_OUTPUT_FLAG = re.compile(
    r"^--?(?:[a-z]+[-_]?)?(?:log|report|results?|junit)(?:[-_]?(?:file|path|dir|directory|xml))?$",
    re.IGNORECASE,
)
_FILE_LIKE = re.compile(r"^(?:-|[\w.~/-]*/[\w.~/-]*|[\w.-]+\.\w{1,5})$")
