"""What ``second-brain stats`` reports: the observer's work, voice, uptake and cost over four spans.

There is no worker to ask (design, §Human surfaces: the commands are file reads), so everything here is
read from what the observer keeps: the pass journal (passes, tokens, models, per-detector verdicts) and
the outcome rows in the one database, the gate's history files (every decision with its reason), the
session's status file (budget headroom, worker state and version) and the agent's own transcripts (its
token use). Four spans: this session, this task, the last 24 hours and the last 7 days (every session
the data directory holds).

Counting rules (docs/stats.md): *queued* is an advisory the gate admitted, *delivered* one a drain
claimed, *dropped* every gate, post, claim or sweep decision that removed an advisory, by reason (a
detector's silence, ``not_advise``, is not an advisory and is counted apart). Uptake counts closed
outcome records (:mod:`sbcore.gate.uptake`) plus the ones still open in the task.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sbcore.conductor import prices
from sbcore.gate import calibration
from sbcore.gate.history import History
from sbcore.gate.uptake import JUDGED, UPTAKES
from sbcore.observe.usage import KINDS, AgentUsage, transcript_usage
from sbcore.state import db

DAY = 86400.0
SPANS = {"last_24h": DAY, "last_7d": 7 * DAY}


@dataclass(frozen=True)
class Scope:
    """Which records count: one session's, one task's, or everything since a moment."""

    name: str
    session_id: str | None = None
    task_id: str | None = None
    since: float | None = None

    def admits(self, record: Mapping[str, Any]) -> bool:
        if self.session_id is not None and record.get("session_id") != self.session_id:
            return False
        if self.task_id is not None and record.get("task_id") != self.task_id:
            return False
        at = record.get("at")
        return self.since is None or (isinstance(at, int | float) and at >= self.since)


def scopes(session_id: str, task_id: str | None, now: float) -> list[Scope]:
    found = [Scope("session", session_id=session_id)]
    if task_id is not None:
        found.append(Scope("task", task_id=task_id))
    found += [Scope(name, since=now - span) for name, span in SPANS.items()]
    return found


# -- the gate's history -------------------------------------------------------------------------


def history_records(data: Path, *, since: float | None = None) -> list[dict[str, Any]]:
    """Every record of every task history under ``data`` (files untouched since ``since`` skipped)."""
    records: list[dict[str, Any]] = []
    for path in sorted((data / "history").glob("*.jsonl")):
        try:
            if since is not None and path.stat().st_mtime < since:
                continue
        except OSError:
            continue
        records += History(path).read(0)[0]
    return records


def advisories(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Queued, delivered, soaked and dropped (by reason), in all and per detector."""
    total: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    per: dict[str, dict[str, Any]] = {}
    for record in records:
        kind = _kind(record)
        if kind is None:
            continue
        detector = str(record.get("detector") or "")
        mine = per.setdefault(
            detector, {"queued": 0, "delivered": 0, "soaked": 0, "dropped": {}, "silent": 0}
        )
        total[kind] += 1
        if kind == "dropped":
            reason = str(record.get("reason"))
            dropped[reason] += 1
            mine["dropped"][reason] = mine["dropped"].get(reason, 0) + 1
        else:
            mine[kind] += 1
    return {
        "queued": total["queued"],
        "delivered": total["delivered"],
        "soaked": total["soaked"],
        "dropped": sum(dropped.values()),
        "dropped_by_reason": dict(sorted(dropped.items())),
        "silent": total["silent"],
        "by_detector": {name: per[name] for name in sorted(per)},
    }


def _kind(record: Mapping[str, Any]) -> str | None:
    stage, action, reason = record.get("stage"), record.get("action"), record.get("reason")
    if stage == "gate":
        if reason == "not_advise":
            return "silent"
        return {"drop": "dropped", "soak": "soaked"}.get(str(action), "queued")
    if stage == "claim" and reason == "claimed":
        return "delivered"
    if stage in ("post", "claim", "sweep") and action == "drop":
        return "dropped"
    return None


def open_outcomes(records: Iterable[Mapping[str, Any]]) -> Counter[str]:
    """Per detector, outcome records still open: agent deliveries with no closing outcome yet."""
    delivered: dict[str, str] = {}
    for record in records:
        advice_id = record.get("advice_id")
        if record.get("stage") == "claim" and record.get("action") == "deliver_agent" and advice_id:
            delivered[str(advice_id)] = str(record.get("detector"))
    return Counter(delivered.values())


# -- the journal and the outcome rows ---------------------------------------------------------------


def _journal_rows(conn: sqlite3.Connection | None, scope: Scope) -> list[sqlite3.Row]:
    if conn is None or not _has(conn, "journal_passes"):
        return []
    clauses: list[str] = []
    params: list[Any] = []
    for column, value in (("session_id", scope.session_id), ("task_id", scope.task_id)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    if scope.since is not None:
        clauses.append("at >= ?")
        params.append(scope.since)
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    return list(conn.execute(f"SELECT * FROM journal_passes {where} ORDER BY at", params))


def passes(rows: Iterable[sqlite3.Row]) -> dict[str, Any]:
    by_reason: Counter[str] = Counter(str(row["reason"]) for row in rows)
    return {"total": sum(by_reason.values()), "by_reason": dict(sorted(by_reason.items()))}


def observer_tokens(rows: Iterable[sqlite3.Row]) -> dict[str, Any]:
    """Tokens by kind, by model and by detector, and the estimated cost."""
    by_model: dict[str, dict[str, int]] = {}
    by_detector: dict[str, dict[str, int]] = {}
    for row in rows:
        tokens = by_model.setdefault(str(row["model"]), dict.fromkeys(KINDS, 0))
        for kind in KINDS:
            tokens[kind] += int(row[kind])
        for item in json.loads(row["detectors"]):
            usage = item.get("usage")
            if isinstance(usage, dict):
                mine = by_detector.setdefault(str(item["detector"]), dict.fromkeys(KINDS, 0))
                for kind in KINDS:
                    mine[kind] += int(usage.get(kind, 0))
    return {**_priced(by_model), "by_detector": {name: by_detector[name] for name in sorted(by_detector)}}


def _priced(by_model: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
    totals = {kind: sum(tokens[kind] for tokens in by_model.values()) for kind in KINDS}
    costs = {
        model: prices.cost(model, tokens)
        for model, tokens in by_model.items()
        if model != "offline" and any(tokens.values())  # a synthetic reply spends nothing to price
    }
    unpriced = sorted(model for model, value in costs.items() if value is None)
    known = [value for value in costs.values() if value is not None]
    return {
        **totals,
        "total": sum(totals.values()),
        "by_model": {model: dict(by_model[model]) for model in sorted(by_model)},
        "cost_usd": round(sum(known), 6) if known or not unpriced else None,
        "unpriced_models": unpriced,
    }


def agent_tokens(usage: AgentUsage) -> dict[str, Any]:
    return {**_priced(usage.by_model), "replies": usage.replies}


def uptake(
    conn: sqlite3.Connection | None, scope: Scope, records: Iterable[Mapping[str, Any]]
) -> dict[str, Any]:
    """Closed outcomes by class (and per detector), plus the records still open in the scope's task."""
    closed: dict[str, dict[str, int]] = {}
    if conn is not None and scope.session_id is None:
        closed = calibration.uptake_counts(conn, since=scope.since, task_id=scope.task_id)
    elif conn is not None:
        closed = _session_uptake(conn, scope.session_id or "")
    listed = list(records)
    closed_ids = {
        str(record.get("advice_id"))
        for record in listed
        if record.get("stage") == "outcome" and _closes(record)
    }
    still = open_outcomes(
        record
        for record in listed
        if not (record.get("stage") == "claim" and str(record.get("advice_id")) in closed_ids)
    )
    totals: dict[str, int] = {
        name: sum(counts.get(name, 0) for counts in closed.values()) for name in UPTAKES
    }
    per: dict[str, dict[str, Any]] = {}
    for name in sorted(set(closed) | set(still)):
        per[name] = {kind: closed.get(name, {}).get(kind, 0) for kind in UPTAKES}
        per[name]["open"] = still.get(name, 0)
    for counts in per.values():
        judged = sum(counts[name] for name in JUDGED)
        counts["uptake"] = round(counts["acted"] / judged, 3) if judged else None
    judged = sum(totals[name] for name in JUDGED)
    return {
        **totals,
        "open": sum(still.values()),
        "uptake": round(totals["acted"] / judged, 3) if judged else None,
        "by_detector": per,
    }


def _closes(record: Mapping[str, Any]) -> bool:
    if record.get("closed_by") == "window":
        return True
    return bool(record.get("evidence")) and record.get("verdict") not in (None, "no_evidence")


def _session_uptake(conn: sqlite3.Connection, session_id: str) -> dict[str, dict[str, int]]:
    if not _has(conn, "uptake_outcomes"):
        return {}
    found: dict[str, dict[str, int]] = {}
    query = "SELECT detector, uptake, COUNT(*) FROM uptake_outcomes WHERE session_id = ? GROUP BY 1, 2"
    for detector, name, count in conn.execute(query, (session_id,)):
        found.setdefault(detector, dict.fromkeys(UPTAKES, 0))[name] = int(count)
    return found


def _has(conn: sqlite3.Connection, table: str) -> bool:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
    return row is not None


# -- the whole report ---------------------------------------------------------------------------------


def collect(
    data: Path,
    *,
    session_id: str,
    status: Mapping[str, Any] | None,
    transcripts: Mapping[str, Path],
    installed: str,
    now: float,
) -> dict[str, Any]:
    """The stats document: per span, and the session's budget, worker and calibration.

    ``transcripts`` maps session ids to their transcript (from the status files): the agent's tokens are
    read from them, the session's for its span and every one's for the rolling spans.
    """
    task_id = status.get("task_id") if status is not None else None
    records = history_records(data, since=now - SPANS["last_7d"])
    try:
        conn: sqlite3.Connection | None = db.connect(db.db_path(data), readonly=True)
    except sqlite3.Error:
        conn = None  # no database yet: nothing journalled
    try:
        spans = {
            scope.name: _span(conn, scope, records, transcripts, session_id)
            for scope in scopes(session_id, task_id if isinstance(task_id, str) else None, now)
        }
        table = calibration.calibration_table(conn) if conn is not None else {}
        demoted = [item.to_json() for item in calibration.demotions(conn)] if conn is not None else []
    finally:
        if conn is not None:
            conn.close()
    return {
        "session_id": session_id,
        "task_id": task_id,
        "at": now,
        "spans": spans,
        "budget": budget(status),
        "worker": worker(status, installed=installed),
        "calibration": table,
        "demotions": demoted,
    }


def _span(
    conn: sqlite3.Connection | None,
    scope: Scope,
    records: list[dict[str, Any]],
    transcripts: Mapping[str, Path],
    session_id: str,
) -> dict[str, Any]:
    mine = [record for record in records if scope.admits(record)]
    rows = _journal_rows(conn, scope)
    observer = observer_tokens(rows)
    agent = _agent_usage(scope, transcripts, session_id)
    primary = agent_tokens(agent) if agent is not None else None
    ratio = None
    if primary is not None and primary["total"]:
        ratio = round(observer["total"] / primary["total"], 4)
    counted = advisories(mine)
    return {
        "passes": passes(rows),
        "per_hour": per_hour(rows, delivered=counted["delivered"], cost=observer["cost_usd"]),
        "advisories": counted,
        "uptake": uptake(conn, scope, mine),
        "observer_tokens": observer,
        "agent_tokens": primary,
        "observer_to_agent_ratio": ratio,
    }


MIN_RATE_HOURS = 1 / 60
"""No rate per hour is given over less than a minute of passes."""


def per_hour(rows: list[sqlite3.Row], *, delivered: int, cost: float | None) -> dict[str, Any] | None:
    """Advisories delivered and observer cost per hour of the span's passes, first to last.

    Refused (None) below two passes, and below a minute of them: the first pass runs cold and would
    mislead as a rate (design, §Human surfaces), one pass has no duration to divide by, and a burst of
    passes seconds apart would extrapolate to thousands an hour.
    """
    if len(rows) < 2:
        return None
    hours = (float(rows[-1]["at"]) - float(rows[0]["at"])) / 3600
    if hours < MIN_RATE_HOURS:
        return None
    return {
        "hours": round(hours, 3),
        "delivered": round(delivered / hours, 3),
        "observer_cost_usd": round(cost / hours, 6) if cost is not None else None,
    }


def _agent_usage(scope: Scope, transcripts: Mapping[str, Path], session_id: str) -> AgentUsage | None:
    """The agent's usage over the span; None for a task that is not its session's whole transcript."""
    if scope.name == "task":
        if scope.task_id != session_id or session_id not in transcripts:
            return None
        return transcript_usage([transcripts[session_id]])
    if scope.session_id is not None:
        path = transcripts.get(scope.session_id)
        return transcript_usage([path]) if path is not None else None
    return transcript_usage(transcripts.values(), since=scope.since)


def budget(status: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Headroom as the worker last reported it, and whether a ceiling has silenced it."""
    policy = (status or {}).get("policy")
    if not isinstance(policy, Mapping):
        return None
    last = policy.get("last") if isinstance(policy.get("last"), Mapping) else {}
    exhausted = last.get("detail") if last and last.get("reason") == "budget exhausted" else None
    return {
        "headroom": policy.get("budget"),
        "task_used": policy.get("task_used"),
        "hour_used": policy.get("hour_used"),
        "backoff": policy.get("backoff"),
        "exhausted": exhausted,
    }


def worker(status: Mapping[str, Any] | None, *, installed: str) -> dict[str, Any]:
    """The worker's state as its status file says, and any skew between plugin, worker and package."""
    if status is None:
        return {"state": "absent", "installed_version": installed, "skew": [], "config_problems": []}
    running, plugin = status.get("version"), status.get("plugin_version")
    skew = []
    if running and running != installed:
        skew.append(f"the worker runs {running}, the installed package is {installed}: restart the session")
    if plugin and plugin != installed:
        skew.append(f"the plugin is {plugin}, the installed package is {installed}: reinstall the plugin")
    return {
        "state": status.get("state"),
        "alive": status.get("alive"),
        "pid": status.get("pid"),
        "host": status.get("host"),
        "updated_at": status.get("updated_at"),
        "version": running,
        "plugin_version": plugin,
        "installed_version": installed,
        "skew": skew,
        "provider": status.get("provider"),
        "config_problems": [str(item) for item in status.get("config_problems") or ()],
    }
