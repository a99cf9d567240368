"""The worker's half of the turn-end report: the verdicts of a turn-end pass, written for the user.

The pass a turn end fires is judged like any other; what is special is who hears of it. Its
per-detector verdicts go to :mod:`sbcore.state.turns` — the last report for the statusline,
``stats`` and ``why``, and (with ``loop.turn_end_report``) a claim-once copy the next hook shows as a
``systemMessage`` — so a person who walked away as the turn ended still learns what the observer
concluded, and an advisory the gate let through reaches them even if it expires in the mailbox
before the agent's next step. The agent is never shown the report.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sbcore.conductor.pipeline import Verdict
from sbcore.deliver.framing import frame_for_user
from sbcore.state import status_line, turns

log = logging.getLogger("sbcore.worker")


def build(
    verdicts: Sequence[Verdict],
    *,
    session_id: str,
    task_id: str,
    number: int,
    at: float,
    woke: str | None = None,
) -> dict[str, Any]:
    """The report of one turn-end pass; ``woke``: the advice id a wake line already showed the user."""
    items: list[dict[str, Any]] = []
    for verdict in verdicts:
        item = verdict.to_json()
        advice = verdict.decision.advice if verdict.decision is not None else None
        if advice is not None and verdict.delivered and advice.id != woke:
            item["text"] = frame_for_user(advice)
        items.append(item)
    return {
        "session_id": session_id,
        "task_id": task_id,
        "pass": number,
        "at": at,
        "line": turns.outcome(items),
        "verdicts": items,
    }


def record(data: Path, report: dict[str, Any], *, show: bool) -> None:
    """Write ``report`` (and, when ``show``, its claim-once copy); a failed write is logged, not raised."""
    try:
        turns.write(data, report, pending=show)
    except OSError as error:
        log.warning("turn-end report not written: %s", error)
        return
    status_line.refresh(data, str(report["session_id"]), report=report)
    log.info("turn-end report (pass %s): %s", report["pass"], report["line"])


def report_turn(
    data: Path,
    verdicts: Sequence[Verdict],
    *,
    session_id: str,
    task_id: str,
    number: int,
    wake: str,
    show: bool,
) -> None:
    """Build and record a turn-end pass's report: the statusline reads it at once, the next hook shows it
    once (when ``show``: ``loop.turn_end_report``). ``wake`` is the pass's wake entry (``woke: <id>``)."""
    report = build(
        verdicts,
        session_id=session_id,
        task_id=task_id,
        number=number,
        at=time.time(),
        woke=wake.removeprefix("woke: ") if wake.startswith("woke: ") else None,
    )
    record(data, report, show=show)
