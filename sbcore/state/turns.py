"""The turn-end report: what each detector concluded when the agent's turn last ended, on disk.

A turn end always fires a pass, and its verdicts are for the user alone (design, "Trigger policy"):
the statusline shows a one-line outcome as soon as the pass is over, and the next hook interaction
shows the full per-detector lines once, as a ``systemMessage``. Neither can appear inside the ending
turn (the Stop hook returns long before the pass finishes), so the worker writes two files under
``<data>/turns/`` (0700; files 0600, versioned documents, :mod:`sbcore.state.document`):

* ``<session>.json`` — the last turn-end report, kept: the statusline, ``stats`` and ``why`` read it;
* ``<session>.pending.json`` — the same report waiting for the next hook (only with
  ``loop.turn_end_report`` on). :func:`claim` takes it exactly once: a ``rename`` to a name of the
  claiming process's own, which only one process can win, then read and unlink.

A report is ``{"session_id", "task_id", "pass", "at", "line", "verdicts": [...]}``; each verdict is
``{"detector", "label", "headline", "gate": {"action", "reason"}, "advice_id", "text"}`` with the
gate and advice fields only when there was an answer for the gate, and ``text`` — the advisory as the
user is shown it — only for one the gate let through, so the report carries it to the user even if it
expires in the mailbox before a hook comes to collect it.

Standard library only: the hooks and the statusline read these files.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sbcore import paths
from sbcore.state import document

VERSION = 1
DELIVERED = ("deliver_agent", "deliver_human_only")
"""The gate actions that send an advisory on (to the agent and the user, or to the user alone)."""
FAILED = ("failed", "timed out")
"""The labels of a detector that gave no answer (``FeedbackResult.label``)."""


def report_path(data: Path, session_id: str) -> Path:
    """``<data>/turns/<session>.json``: the last turn-end report."""
    return data / "turns" / f"{paths.safe_name(session_id)}.json"


def pending_path(data: Path, session_id: str) -> Path:
    """``<data>/turns/<session>.pending.json``: the report the next hook shows once."""
    return data / "turns" / f"{paths.safe_name(session_id)}.pending.json"


def outcome(verdicts: Sequence[Mapping[str, Any]]) -> str:
    """The one-line outcome: ``all silent``, or who advised, who was held back (and why), who failed."""
    parts: list[str] = []
    for item in verdicts:
        gate = item.get("gate") if isinstance(item.get("gate"), Mapping) else None
        if gate is not None and gate.get("action") in DELIVERED:
            parts.append(f"{item.get('detector')} advised")
        elif gate is not None and item.get("label") == "advise":
            parts.append(f"{item.get('detector')} held ({gate.get('reason')})")
        elif item.get("label") in FAILED:
            parts.append(f"{item.get('detector')} {item.get('label')}")
    return "; ".join(parts) or "all silent"


def write(data: Path, report: Mapping[str, Any], *, pending: bool) -> None:
    """Record ``report`` as the session's last turn-end report; ``pending``: also for the next hook."""
    session = str(report["session_id"])
    document.write(report_path(data, session), report, version=VERSION)
    if pending:
        document.write(pending_path(data, session), report, version=VERSION)


def read(data: Path, session_id: str) -> dict[str, Any] | None:
    """The session's last turn-end report; None when there is none (raises DocumentError if unusable)."""
    return document.read(report_path(data, session_id), version=VERSION)


def claim(data: Path, session_id: str) -> dict[str, Any] | None:
    """Take the waiting report exactly once; None when none waits (or another process took it).

    A report that cannot be read is removed all the same (it would otherwise be offered forever) and
    its :class:`~sbcore.state.document.DocumentError` raised for the caller to log.
    """
    pending = pending_path(data, session_id)
    mine = pending.with_name(f"{pending.name}.{os.getpid()}")
    try:
        os.rename(pending, mine)
    except FileNotFoundError:
        return None
    try:
        return document.read(mine, version=VERSION)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(mine)


def render(report: Mapping[str, Any], *, shown: Sequence[str] = ()) -> str:
    """The full per-detector lines for the user; ``shown``: advice ids already in the same answer."""
    at = report.get("at")
    when = time.strftime("%H:%M", time.localtime(at)) if isinstance(at, int | float) else "?"
    lines = [
        f"Second Brain, on the turn that ended at {when} (pass {report.get('pass')}): {report.get('line')}. "
        "Shown to you only; the agent is not told."
    ]
    texts: list[str] = []
    for item in report.get("verdicts") or []:
        if not isinstance(item, Mapping):
            continue
        line = f"- {item.get('detector')}: {item.get('label')}"
        if item.get("headline"):
            line += f' "{item["headline"]}"'
        gate = item.get("gate")
        if isinstance(gate, Mapping):
            line += f" → {gate.get('action')} ({gate.get('reason')})"
        lines.append(line)
        text = item.get("text")
        if isinstance(text, str) and text and item.get("advice_id") not in shown:
            texts.append(text)
    return "\n".join([*lines, *(f"\n{text}" for text in texts)])
