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

Standard library only (it is timed against ``python -c pass``: ``second-brain bench statusline``), and
it fails open: any problem prints nothing and exits 0, because a status bar is no place for a traceback.
``plugin/bin/sb-statusline`` runs it as ``python -P -m sbcore.hooks.statusline``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

MAX_STDIN = 1 << 20
HEADLINE_CAP = 48
LINE_CAP = 160


def render(payload: Mapping[str, Any], data: Path) -> str:
    """The status line for the session ``payload`` names, from what ``data`` holds."""
    from sbcore.state import document, status, turns

    session = payload.get("session_id")
    if not isinstance(session, str) or not session:
        return ""
    try:
        doc = document.read(status.status_path(data, session), version=status.VERSION)
    except document.DocumentError:
        doc = None
    if doc is None:
        return "SB not watching"
    state = str(doc.get("state") or "unknown")
    if state != "exited" and not status.process_alive(doc.get("pid")):
        state = "stopped"
    parts = [f"SB {state}"]
    try:
        report = turns.read(data, session)
    except document.DocumentError:
        report = None
    outcome = _outcome(doc, report)
    if outcome:
        parts.append(outcome)
    budget = _budget(doc.get("policy"))
    if budget:
        parts.append(budget)
    line = " · ".join(parts)
    return line if len(line) <= LINE_CAP else line[: LINE_CAP - 1] + "…"


def _outcome(doc: Mapping[str, Any], report: Mapping[str, Any] | None) -> str:
    """The last turn's outcome when the last pass was a turn end's; else the last pass's."""
    last = doc.get("last_pass")
    last = last if isinstance(last, Mapping) else None
    newer = last is None or bool(last.get("turn_end"))
    if report is not None and not newer:
        newer = _number(report.get("at")) >= _number(last.get("started_at") if last else None)
    if report is not None and newer:
        return "last turn: " + _with_headline(str(report.get("line") or ""), report.get("verdicts"))
    if last is None:
        return ""
    verdicts = last.get("verdicts")
    items = [item for item in verdicts if isinstance(item, Mapping)] if isinstance(verdicts, list) else []
    from sbcore.state.turns import outcome

    return f"pass {last.get('number')}: " + _with_headline(outcome(items), verdicts)


def _with_headline(line: str, verdicts: Any) -> str:
    """``line`` plus the headline of the first advisory the gate let through, cut to fit."""
    from sbcore.state.turns import DELIVERED

    for item in verdicts if isinstance(verdicts, list) else []:
        if not isinstance(item, Mapping):
            continue
        gate = item.get("gate")
        headline = item.get("headline")
        if isinstance(gate, Mapping) and gate.get("action") in DELIVERED and isinstance(headline, str):
            cut = " ".join(headline.split())
            cut = cut if len(cut) <= HEADLINE_CAP else cut[: HEADLINE_CAP - 1] + "…"
            return f'{line} "{cut}"'
    return line


def _budget(policy: Any) -> str:
    """``budget 84%`` (the hourly share left), or ``budget spent`` while a ceiling stops passes."""
    if not isinstance(policy, Mapping):
        return ""
    last = policy.get("last")
    if isinstance(last, Mapping) and last.get("reason") == "budget exhausted":
        return "budget spent"
    headroom = policy.get("budget")
    fraction = headroom.get("hour_fraction") if isinstance(headroom, Mapping) else None
    if not isinstance(fraction, int | float) or isinstance(fraction, bool):
        return ""
    if isinstance(headroom, Mapping) and headroom.get("task") == 0:
        return "budget spent"
    return f"budget {max(0, min(100, round(fraction * 100)))}%"


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else -1.0


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
