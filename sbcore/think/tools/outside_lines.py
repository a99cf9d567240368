"""Run's output without what it shows of files outside the repository.

A granted linter reads its configuration from the repository, and a committed configuration can name any file
on the machine for it to check (``files = /home/me/notes.py``, an extra include, a symlinked source tree). The
linter then prints that file's lines, as locations and as source snippets, and the output goes to a model.
Redaction takes the secrets out of it, but not the rest of a file the user never shared. So before the output
leaves the tool, every line that names a path outside the workspace (absolute, ``~/``, or a ``../`` that
climbs out; links resolved) is withheld, with the lines that follow it up to the next line that names a file
inside, or a blank line: that is where linters print the snippet of the location above (ruff, mypy
``pretty``, flake8 ``--show-source``, eslint, tsc). The output says how many lines were withheld.

The cost: a traceback through installed packages (``/usr/lib/python3…``) loses those frames, and a message
about a file outside loses its words. Lines naming nothing and summaries after a blank line stay.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

# A path token: at a line's start or after a space, quote, parenthesis or "=", opening "/", "~/" or "../".
_PATH = re.compile(r"(?:^|(?<=[\s\"'(=\[]))(?P<p>(?:/|~/|\.\./)[^\s:\"'()\[\],]*)")
# A location at a line's start: a relative file name or path with a line number (``src/app.py:12``,
# ``app.ts(3,4)``), not a call in a snippet (``print(1)``, ``os.path.join(a)``).
_LOCATION = re.compile(
    r"^\s*(?P<p>[\w.@+-]*[\w@+-]\.[A-Za-z0-9]{1,8}|[\w.@+-]+(?:/[\w.@+-]+)+)(?::\d+|\(\d+,\d+\))"
)


# Any name before a line number at a line's start (``escape:3:1: …``).
_LEADING = re.compile(r"^\s*(?P<p>[^\s:\"'()|]+):\d+")


def withhold_outside(text: str, root: Path) -> str:
    """``text`` with the lines about files outside ``root`` withheld, and a line saying how many were."""
    if "/" not in text:
        return text
    base = root.resolve()
    kept: list[str] = []
    withheld = 0
    hiding = False
    for line in text.split("\n"):
        paths = [match.group("p") for match in _PATH.finditer(line)]
        if (lead := _LEADING.match(line)) is not None:
            paths.append(lead.group("p"))  # a relative name: outside if it is a link that leads out
        if any(_outside(path, base) for path in paths):
            hiding = True
            withheld += 1
            continue
        if hiding:
            if line.strip() and not paths and not _names_inside(line, base):
                withheld += 1
                continue
            hiding = False
        kept.append(line)
    if not withheld:
        return text
    noun = "line" if withheld == 1 else "lines"
    kept.append(f"[{withheld} {noun} about files outside the repository withheld]")
    return "\n".join(kept)


def _outside(token: str, base: Path) -> bool:
    path = Path(os.path.expanduser(token)) if token.startswith("~/") else Path(token)
    if not path.is_absolute():
        path = base / path
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):
        resolved = Path(os.path.normpath(path))
    return resolved != base and base not in resolved.parents


def _names_inside(line: str, base: Path) -> bool:
    """Whether the line opens with a location in a file inside the repository (``src/app.py:12: …``)."""
    match = _LOCATION.match(line)
    return match is not None and not _outside(match.group("p"), base)
