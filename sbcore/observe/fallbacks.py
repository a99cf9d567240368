"""A command whose only output is a fallback's, run when its work failed (``make > f 2>&1 || tail f``).

An agent often sends a run's output to a file and reads the file only if the run fails, in one command. The
harness then marks the result successful (the fallback succeeded), and what it shows is the log, or a count,
or a message the fallback printed. When everything the work prints goes to files, and nothing after the
fallback runs either way, the result can hold output only because the work failed:
:func:`prints_only_on_failure` says so of a command, and the outcome reader reads such a result as a failure
whatever it shows.

Read from the command's text alone, quotes respected, and conservatively: one simple command before the
``||`` (no pipe, no group or command substitution that may print past its redirections, not the shell's
``time``), its standard output and error both sent to files (``> f 2>&1``, ``&> f``, ``> f 2> g``;
``/dev/null`` counts); after it only fallbacks, pipes and groups (a ``;``, ``&&`` or ``&`` at the top there
could print after a success). Standard library only (it runs in the projection).
"""

from __future__ import annotations

import re

from sbcore.observe.lazy_pattern import Lazy

# The patterns but ``_MARKED`` are read only for a command with a fallback (rare): compiled the first time.
_QUOTED = Lazy(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"", 0)
_VARIABLE = Lazy(r"\$\{[^{}]*\}", 0)
# A redirection: its descriptor (none is 1; "&" is both), then where it goes: a file, or another descriptor.
_REDIRECT = Lazy(r"(?:(?<=\s)|^)(\d|&)?>>?[ \t]*(&\d|[^\s&<>|;]+)", 0)
_AFTER_FALLBACK = frozenset({"||", "|", "|&", ""})
# What the harness adds to a command's output of its own: a hook's context, a note that the shell's folder
# was reset. A result holding only these printed nothing.
_HARNESS_ADDED = Lazy(r"<system-reminder>.*?</system-reminder>|^Shell cwd was reset to [^\n]*$", re.S | re.M)


def prints_only_on_failure(command: str | None) -> bool:
    """Whether any output of ``command`` means its work failed (see the module's docstring)."""
    if not command or "||" not in command or "\n" in command:
        return False
    if ("2>" not in command and "&>" not in command) or command.count(">") <= command.count("2>"):
        return False  # the errors, or the output, go nowhere (`cmd || true`, `cmd 2>/dev/null || …`): most
    steps = _steps(command)
    if steps is None or len(steps) < 2 or steps[0][1] != "||":
        return False
    if any(operator not in _AFTER_FALLBACK for _, operator in steps[1:]):
        return False
    work = _replaced(_VARIABLE, "x", _replaced(_QUOTED, "''", steps[0][0]))
    if any(char in work for char in "(){}`") or work.split(None, 1)[:1] == ["time"]:
        return False  # a group or a substitution may print past the redirections; `time` prints its report
    return _all_to_files(work)


# A work chained to a marker echoed when it passed and to a fallback when it did not (`./nightly.sh && echo OK
# || tail -n 1 nightly.log`): the marker, a word or a quoted literal with nothing the shell expands.
_MARKED = re.compile(r"&&[ \t]*echo[ \t]+(?:(['\"])([^'\"$`\\\n]+)\1|([^\s'\"$`\\;&|()]+))[ \t]*\|\|")


def marks_success(command: str | None) -> str:
    """The marker ``command`` echoes only when its work passed (``work && echo OK || tail x``), or ``""``."""
    if not command or "echo" not in command or "||" not in command:
        return ""
    found = _MARKED.search(command)
    return "" if found is None else (found.group(2) or found.group(3)).strip()


def printed(text: str) -> str:
    """What a command printed, the harness's own additions taken out and the ends stripped."""
    return (
        _replaced(_HARNESS_ADDED, "", text).strip()
        if "<system-reminder>" in text or "Shell cwd" in text
        else text.strip()
    )


def _replaced(pattern: Lazy, replacement: str, text: str) -> str:
    """``pattern.sub(replacement, text)`` for a pattern that matches no empty text and a replacement that
    refers to no group."""
    kept, end = [], 0
    for found in pattern.finditer(text):
        kept.append(text[end : found.start()])
        end = found.end()
    kept.append(text[end:])
    return replacement.join(kept)


def _all_to_files(work: str) -> bool:
    """Whether the redirections of ``work`` (quotes blanked), read in order, send both its standard output
    and its standard error to files."""
    out = err = False
    for descriptor, target in (found.groups("") for found in _REDIRECT.finditer(work)):
        to_file = not target.startswith("&")
        if descriptor == "&":
            out = err = True
        elif descriptor in ("", "1"):
            out = to_file or (target == "&2" and err)
        elif descriptor == "2":
            err = to_file or (target == "&1" and out)
    return out and err


def _steps(command: str) -> list[tuple[str, str]] | None:
    """``command`` cut at its top-level operators (``;``, ``&&``, ``||``, ``|``, ``|&``, ``&``), each step
    with the operator after it (``""`` after the last); None when a quote or a group is left open. Operators
    inside a group (``( … )``, ``{ …; }``) are the group's; an ``&`` next to a ``>`` is part of a redirection
    (``2>&1``, ``&>``), not an operator. Read a token at a time (quoted text, an escape, a redirection, an
    operator, a group's bracket), not a character at a time."""
    steps: list[tuple[str, str]] = []
    start = depth = 0
    for token in _TOKEN.finditer(command):
        text = token.group()
        first = text[0]
        if first in "'\"":
            if len(text) < 2 or text[-1] != first or (first == '"' and _ESCAPED_END.search(text)):
                return None  # a quote left open
        elif first in "({":
            depth += 1
        elif first in ")}":
            if depth:
                depth -= 1
        elif first in ";|&" and not depth and text not in _REDIRECTIONS:
            steps.append((command[start : token.start()], text))
            start = token.end()
    if depth:
        return None
    steps.append((command[start:], ""))
    return steps


# A token that matters to cutting a command: quoted text (to its end, or the command's), an escaped
# character, a redirection holding an `&`, an operator, or a group's bracket (a brace only as a word of its
# own, not `${x}`).
_TOKEN = Lazy(
    r"'[^']*'?|\"(?:[^\"\\]|\\.)*\"?|\\.|\d*>&\d*-?|&>>?|\|\||&&|\|&|[;|&()]"
    r"|(?<![^ \t;&|])[{}](?![^ \t;&|])",
    0,
)
_REDIRECTIONS = frozenset({"&>", "&>>"})
_ESCAPED_END = Lazy(r"(?<!\\)(?:\\\\)*\\\"$", 0)
