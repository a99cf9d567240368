"""``second-brain statusline``: one short line for Claude Code's status bar, from the files on disk.

Claude Code runs the statusline command whenever the status bar refreshes, with a JSON object on stdin
(``session_id``, ``transcript_path``, ``cwd``, ``workspace.current_dir`` / ``project_dir``, ``model``,
``version``, ``cost``…), and shows what it prints. It is the only surface that costs nothing at all —
no model turn relays it — and the only one that can tell a person who walked away as a turn ended what
the observer concluded (design, "Human surfaces"). So this reads, never asks: the worker's status file
(:mod:`sbcore.state.status`) and the last turn-end report (:mod:`sbcore.state.turns`), and prints

    ``SB watching · last turn: repeat-failure advised "The same command failed…" · budget 84%``

— the observer's state, the last turn's outcome (or the last pass's), the hourly budget left (or that
it is spent). No status file means no worker serves the session: ``SB not watching``, the honest line.

The worker renders the same line whenever it writes either file (:mod:`sbcore.state.status_line`), and
``plugin/bin/sb-statusline`` prints that with shell builtins alone while it is fresh; this module is its
fallback, run as ``python -P -m sbcore.hooks.statusline``. Standard library only (both are timed against
``python -c pass``: ``second-brain bench statusline``), and it fails open: any problem prints nothing and
exits 0, because a status bar is no place for a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

MAX_STDIN = 1 << 20


def render(payload: Mapping[str, Any], data: Path) -> str:
    """The status line for the session ``payload`` names, from what ``data`` holds."""
    from sbcore.state import status_line

    session = payload.get("session_id")
    if not isinstance(session, str) or not session:
        return ""
    return status_line.read_line(data, session)


def main(stdin: IO[bytes] | None = None, stdout: IO[str] | None = None) -> int:
    """Read the statusline JSON, print one line (or nothing); always 0."""
    try:
        from sbcore import paths

        raw = (stdin if stdin is not None else sys.stdin.buffer).read(MAX_STDIN)
        payload = json.loads(raw) if raw.strip() else {}
        if not isinstance(payload, dict):
            return 0
        line = render(payload, paths.data_dir())
        if line:
            out = stdout if stdout is not None else sys.stdout
            out.write(line + "\n")
            out.flush()
    except Exception:  # a status bar shows nothing rather than an error
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
