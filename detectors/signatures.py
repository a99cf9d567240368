"""An error's signature: the error line with what varies between two runs of one failure folded.

Two attempts fail alike when their signatures match (:func:`~sbcore.detectors.failures.same_failure`):
the same message, whatever numbers (lines, timings, counts), addresses, ids, temporary paths or long
quotations (the failing command or code echoed back, which an edit changes) it carried, and whatever tag a
workspace runner put before it. A quoted name stays: another name is another failure. Standard library only.
"""

from __future__ import annotations

import re


def signature(error: str) -> str:
    """``error`` (one line) lower-cased, with what varies between two runs of the same failure folded."""
    error = _TASK_TAG.sub("", error.lower(), count=1)  # `web:codegen: error …`, `2: error …`: `error …`
    if error.count(" | ") >= 2:
        # a table's row (`failure | - | main | Deployment/x: must set …`) is its message
        message = max(error.split(" | "), key=len)
        error = message if len(message) >= _MESSAGE_CELL else error
    whole = _WHOLE_QUOTED.match(error)  # a message rendered as a JSON string is the message
    folded = _VOLATILE.sub("…", QUOTED.sub(folded_quote, whole.group(1) if whole else error))
    return _DIGITS.sub("#", folded)


_MESSAGE_CELL = 20  # a row's longest cell that is shorter is a count or a name, not a message
_DIGITS = re.compile(r"\d+(?:\.\d+)?")
# A line that is one quoted string (`"Error: Cannot find module 'aws-sdk'",` in a JSON stack trace).
_WHOLE_QUOTED = re.compile(r'^"([^"]+)",?$')
# A runner's tag on each line it passes on: a workspace runner's package and task (turbo's `web:codegen: `),
# a test's number (`ctest -V`'s `2: `), the stream a shell passed it on (PowerShell's `verbose: `), a parallel
# runner's name or number for the script it ran (`[test:ember] `, `[1] `; not a log level's `[error] `).
_TASK_TAG = re.compile(r"^(?:[\w@./-]+:[a-z][\w-]*:|\d+:|verbose:|\[(?:[\w@./-]+:[\w:.-]+|\d+)\])[ \t]+")
# Each quoted string in turn, a closing quote never read as an opening one: what stands between two short
# quoted values (`("Optional(21.0)") is not equal to ("Optional(21.5)")`) is the message, not a quotation.
QUOTED = re.compile(r'"[^"\n]*"')


def folded_quote(match: re.Match[str]) -> str:
    """A long quotation folded; a quoted name kept, however long (`unknown fragment "ProductCardFields"`):
    another name is another failure."""
    quoted = match.group(0)
    return '"…"' if len(quoted) >= _LONG_QUOTED and not _QUOTED_NAME.fullmatch(quoted) else quoted


_QUOTED_NAME = re.compile(r'"[\w.:$<>#-]{1,80}"')
_LONG_QUOTED = 18  # a quotation of sixteen characters or more, with its quotes
# What differs between two runs of one failure besides numbers: addresses and hashes, ids, temporary paths.
_VOLATILE = re.compile(
    r"\b0x[0-9a-f]+\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"
    r"|\b(?=[a-z]*\d)[0-9a-f]{7,}\b|(?:/private)?/(?:tmp|var/folders)/\S+"
    r"|\b(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{16,}\b"  # a generated id or reference: letters and digits mixed
    r"|\b(?=(?:[a-z]*\d){3})(?=(?:\d*[a-z]){3})[a-z0-9]{10,15}\b"  # a shorter one, mixed throughout
)
