"""``second-brain why``: the last gate decisions with their reasons in words, and the last pass per detector.

"Why did it say that / why was it silent" (design, §Human surfaces) answered from files: the gate's
history of the session's task (every decision, claim, expiry and outcome, with the reason code and the
sentence the gate wrote), and the last pass as the status file or, with no status, the pass journal has
it. ``--json`` prints both. Exit code 0, also when nothing was observed yet (it says so).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from sbcore.cli.stats import locate, session_options

REASONS: Mapping[str, str] = {
    "muted": "everything is muted (mute.all)",
    "detector_muted": "that detector is disabled",
    "below_human_floor": "too unsure even to show you",
    "suppressed": "the agent declined this finding earlier in the task",
    "duplicate_key": "already said (same key)",
    "duplicate_similar": "already said (in other words)",
    "stale": "the agent already handled it",
    "rate_limited": "the hourly allowance of advice is spent",
    "cooldown": "too soon after the last advisory",
    "expired_ttl": "no longer current when it could be delivered",
    "expired_queue": "nobody collected it in time",
    "passed": "queued for the agent and you",
    "human_only": "queued for you alone (below the agent's floor)",
    "supersedes": "replaces an undelivered advisory of the same finding",
    "superseded": "replaced by a newer one before delivery",
    "supersede_target_gone": "the advisory it was to replace was already gone",
    "post_failed": "the mailbox could not be written",
    "claimed": "delivered",
    "stale_at_claim": "found already handled at delivery",
    "revalidated_out": "removed by a starting worker's re-check",
    "no_headline": "an advisory with nothing to say",
    "not_advise": "the detector had nothing to say",
}
"""Each gate reason code (sbcore.gate.history.Reason) as a person would say it."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "why",
        help="the last gate decisions with their reasons, and what each detector concluded last pass",
        description=(
            "The last N decisions the gate made about the session's advice (queued, delivered, dropped and "
            "why; outcomes with their evidence), in words, and each detector's verdict at the last pass."
        ),
    )
    session_options(parser)
    parser.add_argument("-n", type=int, default=10, metavar="N", help="how many decisions (default 10)")
    parser.add_argument("--all", action="store_true", help="include detectors' silences (not_advise)")
    parser.add_argument("--json", action="store_true", help="print the decisions and the last pass as JSON")
    parser.set_defaults(func=_why)


def _why(args: argparse.Namespace) -> int:
    found = locate(args)
    if found is None:
        return 0
    data, session, status = found
    decisions = recent_decisions(data, session, status, n=max(0, args.n), silences=args.all)
    last = last_pass(data, session, status)
    problems = [str(item) for item in (status or {}).get("config_problems") or ()]
    if args.json:
        document = {
            "session_id": session,
            "decisions": decisions,
            "last_pass": last,
            "config_problems": problems,
        }
        from sbcore.conductor.provenance import here, stamped

        print(json.dumps(stamped(document, here()), indent=2))
        return 0
    print(render(session, decisions, last))
    for problem in problems:
        print(f"configuration: {problem.splitlines()[0]}")
    return 0


def recent_decisions(
    data: Path, session: str, status: Mapping[str, Any] | None, *, n: int, silences: bool = False
) -> list[dict[str, Any]]:
    """The last ``n`` records of the session's task history (its silences only with ``silences``)."""
    from sbcore.gate.history import History

    task = status.get("task_id") if status is not None else None
    records, _ = History.for_task(str(task or session), data).read(0)
    kept = [
        record
        for record in records
        if record.get("session_id") == session and (silences or record.get("reason") != "not_advise")
    ]
    return [_decision(record) for record in kept[-n:]] if n else []


def _decision(record: Mapping[str, Any]) -> dict[str, Any]:
    reason = record.get("reason")
    out: dict[str, Any] = {
        "at": record.get("at"),
        "stage": record.get("stage"),
        "detector": record.get("detector"),
        "advice_id": record.get("advice_id"),
        "action": record.get("action"),
        "reason": reason,
        "in_words": REASONS.get(str(reason), str(reason or "")),
        "text": record.get("text"),
    }
    advice = record.get("advice")
    if isinstance(advice, Mapping):
        out["headline"] = advice.get("headline")
        out["confidence"] = advice.get("confidence")
    if record.get("stage") == "outcome":
        out["verdict"] = record.get("verdict")
        out["evidence"] = record.get("evidence") or []
        out["in_words"] = f"outcome {record.get('verdict')}"
    return out


def last_pass(data: Path, session: str, status: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Each detector's verdict at the session's last pass: the status file's, else the journal's."""
    last = (status or {}).get("last_pass")
    if isinstance(last, Mapping):
        return {
            "number": last.get("number"),
            "reason": last.get("reason"),
            "at": last.get("started_at"),
            "detectors": [
                *last.get("verdicts", []),
                *({**s, "label": s.get("why")} for s in last.get("skipped", [])),
            ],
        }
    from sbcore.state import db

    try:
        with db.opened(db.db_path(data), readonly=True) as conn:
            row = conn.execute(
                "SELECT number, reason, at, detectors FROM journal_passes WHERE session_id = ? "
                "ORDER BY at DESC LIMIT 1",
                (session,),
            ).fetchone()
    except sqlite3.Error:
        return None
    if row is None:
        return None
    return {
        "number": row["number"],
        "reason": row["reason"],
        "at": row["at"],
        "detectors": json.loads(row["detectors"]),
    }


def render(session: str, decisions: Sequence[Mapping[str, Any]], last: Mapping[str, Any] | None) -> str:
    lines = [f"session {session}: the last {len(decisions)} decisions"]
    for item in decisions:
        when = datetime.fromtimestamp(float(item["at"])).strftime("%H:%M:%S") if item.get("at") else "?"
        head = f'"{item["headline"]}" ' if item.get("headline") else ""
        said = item.get("text")
        tail = f" — {said}" if said and said != item.get("verdict") else ""
        lines.append(f"  {when} {item['detector'] or '-'} {head}{item['stage']}: {item['in_words']}{tail}")
        for evidence in item.get("evidence") or ():
            lines.append(f"      evidence: {evidence}")
    if last is None:
        lines.append("no pass recorded yet")
        return "\n".join(lines)
    lines.append(f"last pass {last.get('number')} ({last.get('reason')}):")
    for item in last.get("detectors") or ():
        gate = item.get("gate")
        fate = f" → {gate['action']} ({REASONS.get(gate['reason'], gate['reason'])})" if gate else ""
        headline = f' "{item["headline"]}"' if item.get("headline") else ""
        lines.append(f"  {item['detector']}: {item.get('label')}{headline}{fate}")
    return "\n".join(lines)
