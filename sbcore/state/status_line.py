"""The status-bar line, rendered where its facts change so a refresh need not start Python.

Claude Code runs the statusline command on every refresh. The line depends on two documents the worker
writes (its status file and the last turn-end report) and on whether the worker's process still runs,
so the worker renders it each time it writes either document, into ``<data>/status/<session>.line``:

    <pid to check, or 0>
    SB watching · last turn: repeat-failure advised "The same command failed…" · budget 84%

``plugin/bin/sb-statusline`` prints the second line with shell builtins alone when the first names a
running process (``kill -0``) or is 0 (a worker that said it exited), and the file is not older than
either document. The line is written after the document it comes from, so a document written without
its line (a crash between the two, a writer that renders none such as an older sbcore) is newer than
the line, and the launcher falls back to ``python -P -m sbcore.hooks.statusline``, which renders the
same line from the same documents through :func:`read_line`; so does no file at all.

Standard library only: the hooks floor reads this, and the worker writes through it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sbcore import paths
from sbcore.state import document, status, turns

HEADLINE_CAP = 48
LINE_CAP = 160


def line_path(data: Path, session_id: str) -> Path:
    """``<data>/status/<session>.line``: the pre-rendered line (beside the status file, swept with it)."""
    return data / "status" / f"{paths.safe_name(session_id)}.line"


def refresh(data: Path, session_id: str, *, doc: Mapping[str, Any] | None = None, report: Any = None) -> None:
    """Render the line from ``doc`` and ``report`` (read from disk when not given) and write it; never raises.

    Called by each writer of the two documents with the one it is about to write."""
    with contextlib.suppress(Exception):
        if doc is None:
            doc = document.read(status.status_path(data, session_id), version=status.VERSION)
        if doc is None:
            return  # no status file: the launcher says "not watching" without this file
        if report is None:
            report = _report(data, session_id)
        exited = doc.get("state") == "exited"
        pid = doc.get("pid")
        if not exited and not (isinstance(pid, int) and not isinstance(pid, bool) and pid > 0):
            return  # nothing the launcher could check: leave it to Python
        line = render(doc, report, alive=True)
        paths.write_private(line_path(data, session_id), f"{0 if exited else pid}\n{line}\n".encode())


def read_line(data: Path, session_id: str) -> str:
    """The line for ``session_id`` from the documents on disk (what the launcher falls back to)."""
    try:
        doc = document.read(status.status_path(data, session_id), version=status.VERSION)
    except document.DocumentError:
        doc = None
    if doc is None:
        return "SB not watching"
    return render(doc, _report(data, session_id), alive=status.process_alive(doc.get("pid")))


def _report(data: Path, session_id: str) -> dict[str, Any] | None:
    try:
        return turns.read(data, session_id)
    except document.DocumentError:
        return None


def render(doc: Mapping[str, Any], report: Mapping[str, Any] | None, *, alive: bool) -> str:
    """``SB <state> · <outcome> · <budget> · config: N problems``; ``alive``: whether the worker runs."""
    state = str(doc.get("state") or "unknown")
    if state != "exited" and not alive:
        state = "stopped"
    parts = [f"SB {state}"]
    outcome = _outcome(doc, report)
    if outcome:
        parts.append(outcome)
    budget = _budget(doc.get("policy"))
    if budget:
        parts.append(budget)
    problems = doc.get("config_problems")
    if isinstance(problems, list) and problems:
        parts.append(f"config: {len(problems)} problem{'s' * (len(problems) != 1)}")
    line = " · ".join(parts)
    line = " ".join(line.split())  # one line, whatever a headline held
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
    return f"pass {last.get('number')}: " + _with_headline(turns.outcome(items), verdicts)


def _with_headline(line: str, verdicts: Any) -> str:
    """``line`` plus the headline of the first advisory the gate let through, cut to fit."""
    for item in verdicts if isinstance(verdicts, list) else []:
        if not isinstance(item, Mapping):
            continue
        gate = item.get("gate")
        headline = item.get("headline")
        if isinstance(gate, Mapping) and gate.get("action") in turns.DELIVERED and isinstance(headline, str):
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
