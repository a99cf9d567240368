"""``second-brain stats``: what the observer did, said, got taken up and cost (``/second-brain:stats``).

File reads only, so it answers with or without a worker (stale-but-readable, and it says when the status
was written): see :mod:`sbcore.conductor.stats` for the sources and the counting rules, docs/stats.md for
the fields. ``--json`` prints the whole document. Exit code 0, also when nothing was observed yet (it says
so).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "stats",
        help="passes, advisories delivered and dropped, uptake, tokens and cost, budget, worker",
        description=(
            "For this session, this task, the last 24 hours and the last 7 days: passes by reason, "
            "advisories queued, delivered and dropped (by the gate's reason, per detector), uptake (acted, "
            "rejected, ignored, no evidence), the observer's tokens and estimated cost beside the agent's "
            "own (from its transcript), budget headroom, calibration, and the worker's state and versions."
        ),
    )
    session_options(parser)
    parser.add_argument("--json", action="store_true", help="print the whole document as JSON")
    parser.set_defaults(func=_stats)


def session_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--session",
        metavar="ID",
        help="session id (default: $CLAUDE_CODE_SESSION_ID, else the newest status)",
    )
    parser.add_argument("--data", metavar="DIR", help="state directory (default: the plugin data dir)")


def locate(args: argparse.Namespace) -> tuple[Path, str, dict[str, Any] | None] | None:
    """The data directory, the session and its status document (None when the worker never wrote one).

    None, after saying so, when no session was ever observed here: on a fresh install that is the
    answer, not an error (exit 0; with ``--json`` a document saying it)."""
    from sbcore import paths
    from sbcore.worker import locate as where
    from sbcore.worker.status import read_status

    data = Path(args.data) if args.data else paths.data_dir()
    session = args.session or where.session_from_env() or _newest(data)
    if session is None:
        reason = (
            "nothing observed yet: no session has run with the observer here "
            f"({data}); start Claude Code with the plugin installed, then ask again"
        )
        if args.json:
            from sbcore.conductor.provenance import here, stamped

            nothing = {"observed": False, "data_dir": str(data), "reason": reason}
            print(json.dumps(stamped(nothing, here()), indent=2))
        else:
            print(f"second-brain {args.command}: {reason}")
        return None
    return data, session, read_status(data, session)


def _newest(data: Path) -> str | None:
    found = sorted((data / "status").glob("*.json"), key=lambda path: path.stat().st_mtime)
    return found[-1].stem if found else None


def transcripts(data: Path) -> dict[str, Path]:
    """Every session's transcript, as its status file names it."""
    from sbcore.worker.status import read_status

    found: dict[str, Path] = {}
    for path in (data / "status").glob("*.json"):
        doc = read_status(data, path.stem)
        if doc is not None and isinstance(doc.get("transcript"), str):
            found[str(doc.get("session_id", path.stem))] = Path(doc["transcript"])
    return found


def _stats(args: argparse.Namespace) -> int:
    from sbcore import __version__
    from sbcore.conductor.stats import collect

    found = locate(args)
    if found is None:
        return 0
    data, session, status = found
    document = collect(
        data,
        session_id=session,
        status=status,
        transcripts=transcripts(data),
        installed=__version__,
        now=time.time(),
    )
    if args.json:
        from sbcore.conductor.provenance import here, stamped

        print(json.dumps(stamped(document, here()), indent=2, sort_keys=True))
    else:
        print(render(document))
    return 0


def render(document: Mapping[str, Any]) -> str:
    """The document for people: one block per span, then budget, worker, calibration."""
    lines = [f"session {document['session_id']}, task {document.get('task_id') or '?'}"]
    for name, span in document["spans"].items():
        lines += ["", f"{name.replace('_', ' ')}:", *_span_lines(span)]
    lines += ["", *_budget_lines(document.get("budget")), *_worker_lines(document["worker"])]
    table = document.get("calibration") or {}
    if table:
        lines += ["", "calibration (all closed outcomes: uptake by confidence):"]
        for detector, row in table.items():
            bands = ", ".join(f"{b['confidence']}: {b['acted']}/{b['outcomes']}" for b in row["bands"])
            lines.append(f"  {detector}: {row['uptake']:.0%} of {row['outcomes']} acted on ({bands})")
    for demotion in document.get("demotions") or ():
        lines.append(
            f"  demoted {demotion['detector']}: {demotion['key']} = {demotion['value']} "
            f"({demotion['reason']})"
        )
    return "\n".join(lines)


def _span_lines(span: Mapping[str, Any]) -> list[str]:
    passes, advice, uptake = span["passes"], span["advisories"], span["uptake"]
    reasons = ", ".join(f"{k} {v}" for k, v in passes["by_reason"].items()) or "none"
    dropped = ", ".join(f"{k} {v}" for k, v in advice["dropped_by_reason"].items()) or "none"
    taken = uptake["uptake"]
    lines = [
        f"  passes {passes['total']} ({reasons})",
        f"  advisories: queued {advice['queued']}, delivered {advice['delivered']}, "
        f"dropped {advice['dropped']} ({dropped})",
        f"  uptake: acted {uptake['acted']}, rejected {uptake['rejected']}, ignored {uptake['ignored']}, "
        f"no evidence {uptake['no_evidence']}, unjudged {uptake['unjudged']}, open {uptake['open']}"
        + (f" ({taken:.0%} acted on)" if taken is not None else ""),
    ]
    landed = uptake["by_detector"]
    for detector in sorted(set(advice["by_detector"]) | set(landed)):
        row = advice["by_detector"].get(detector, {"queued": 0, "delivered": 0, "dropped": {}})
        dropped_here = ", ".join(f"{k} {v}" for k, v in row["dropped"].items())
        took = landed.get(detector)
        lines.append(
            f"    {detector}: queued {row['queued']}, delivered {row['delivered']}"
            + (f", dropped {dropped_here}" if dropped_here else "")
            + (
                f"; acted {took['acted']}, rejected {took['rejected']}, ignored {took['ignored']}, "
                f"no evidence {took['no_evidence']}, unjudged {took['unjudged']}, open {took['open']}"
                if took
                else ""
            )
        )
    rate = span.get("per_hour")
    if rate is not None:
        spend = rate["observer_cost_usd"]
        lines.append(
            f"  per hour (over {rate['hours']:g} h of passes): {rate['delivered']:g} delivered"
            + (f", est. ${spend:.4f}" if spend is not None else "")
        )
    observer, agent = span["observer_tokens"], span["agent_tokens"]
    lines.append(f"  observer tokens {observer['total']:,}{_cost(observer)}")
    if agent is not None:
        lines.append(f"  agent tokens {agent['total']:,}{_cost(agent)}")
    if span["observer_to_agent_ratio"] is not None:
        lines.append(f"  observer/agent tokens {span['observer_to_agent_ratio']:.2%}")
    return lines


def _cost(tokens: Mapping[str, Any]) -> str:
    cost = tokens.get("cost_usd")
    unpriced = tokens.get("unpriced_models") or []
    text = f", est. ${cost:.4f}" if cost is not None else ""
    return text + (f" (no price for {', '.join(unpriced)})" if unpriced else "")


def _budget_lines(budget: Mapping[str, Any] | None) -> list[str]:
    if not budget or not budget.get("headroom"):
        return ["budget: unknown (no status from a worker)"]
    room = budget["headroom"]
    line = (
        f"budget headroom: task {room['task']:,} tokens, hour {room['hour']:,} ({room['hour_fraction']:.0%})"
    )
    return [line] + ([f"  SILENT: {budget['exhausted']}"] if budget.get("exhausted") else [])


def _worker_lines(worker: Mapping[str, Any]) -> list[str]:
    if worker["state"] == "absent":
        return [f"worker: none has run for this session (package {worker['installed_version']})"]
    when = worker.get("updated_at")
    stamp = (
        datetime.fromtimestamp(when).strftime("%Y-%m-%d %H:%M:%S") if isinstance(when, int | float) else "?"
    )
    alive = "running" if worker.get("alive") else "not running"
    lines = [
        f"worker: {worker['state']} ({alive}, status written {stamp}); code {worker.get('version')}, "
        f"plugin {worker.get('plugin_version') or '?'}, installed package {worker['installed_version']}"
    ]
    lines += [f"  VERSION SKEW: {item}" for item in worker["skew"]]
    return lines + [
        f"  CONFIGURATION: {item.splitlines()[0]}" for item in worker.get("config_problems") or ()
    ]
