"""``second-brain run``: ask for a pass now and print each detector's verdict (``/second-brain:run``).

With a worker running for the session, it leaves a request file the worker
picks up within a tick and waits for the pass in the status file. With none,
it does the worker's job once, in this process: catch the spool up from the
transcript, run one pass, gate its advice into the mailbox (the hooks deliver
it as usual), and print. Either way the pass skips the two limits that pace
cost (clock floor, volume) and neither that means something: a mute or a
spent budget still refuses it, and says so.

Exit codes: 0 a pass ran; 1 it was refused (muted, budget, workspace not
enrolled) or the worker did not answer in time; 2 no session to run for.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run one observer pass now and print each detector's verdict",
        description=(
            "Catch up on the session's transcript, run one pass now (past the clock floor and the volume "
            "threshold, not past a mute or a spent budget), gate any advice into the mailbox, and print "
            "each detector's verdict. Uses the session's running worker when there is one."
        ),
    )
    parser.add_argument(
        "--session", metavar="ID", help="session id (default: $CLAUDE_CODE_SESSION_ID, else the newest here)"
    )
    parser.add_argument("--data", metavar="DIR", help="state directory (default: the plugin data dir)")
    parser.add_argument("--project", metavar="DIR", help="the session's working directory (default: cwd)")
    parser.add_argument("--transcript", metavar="PATH", help="the session transcript (default: derived)")
    parser.add_argument(
        "--timeout", type=float, default=120.0, metavar="S", help="how long to wait for a running worker"
    )
    parser.add_argument("--json", action="store_true", help="print the pass report as JSON")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from sbcore import paths
    from sbcore.worker import locate

    project = Path(args.project or Path.cwd()).resolve()
    data = Path(args.data) if args.data else paths.data_dir()
    session = args.session or locate.session_from_env() or _newest_session(project)
    if session is None:
        print(
            "second-brain run: no session: pass --session, or run it inside Claude Code "
            f"(no transcript found for {project})",
            file=sys.stderr,
        )
        return 2
    request = uuid.uuid4().hex[:12]
    report = _ask_worker(data, session, request, args.timeout)
    if report is None:
        report = _run_here(
            data, session, project, Path(args.transcript) if args.transcript else None, request
        )
    if args.json:
        from sbcore.conductor.provenance import stamped

        print(json.dumps(stamped(report, Path(project)), indent=2, sort_keys=True, default=str))
    else:
        print(_render(session, report))
    return 1 if "refused" in report else 0


def _newest_session(project: Path) -> str | None:
    """The most recently written transcript of this project directory, as a session id."""
    from sbcore.worker import locate

    directory = locate.derived_transcript("x", project).parent
    try:
        newest = max(directory.glob("*.jsonl"), key=lambda path: path.stat().st_mtime, default=None)
    except OSError:
        return None
    return newest.stem if newest is not None else None


def _ask_worker(data: Path, session: str, request: str, timeout: float) -> dict[str, Any] | None:
    """Hand the request to a live worker and wait for its pass; None when no worker holds the session."""
    from sbcore import paths
    from sbcore.worker.lifecycle import SessionLock
    from sbcore.worker.status import read_status
    from sbcore.worker.worker_state import request_path

    probe = SessionLock(data, session)
    if probe.try_acquire(host="run-probe"):
        probe.release()
        return None
    paths.write_private(request_path(data, session), request.encode() + b"\n")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = read_status(data, session) or {}
        last = status.get("last_pass") or {}
        if last.get("request") == request:
            return dict(last) | ({"trust": status["trust"]} if status.get("trust") else {})
        refused = status.get("run_refused") or {}
        if refused.get("request") == request:
            return {"refused": refused.get("why", "refused")}
        if status and not status.get("alive", False):
            break
        time.sleep(0.2)
    return {"refused": f"the session's worker did not run the pass within {timeout:g} s"}


def _run_here(
    data: Path, session: str, project: Path, transcript: Path | None, request: str
) -> dict[str, Any]:
    """No worker: take the session lock and do one pass in this process."""
    import asyncio
    import os

    from sbcore.worker.lifecycle import Channel, Lifeline, ParentWatch, SessionLock
    from sbcore.worker.main import OBSERVER_MARKER
    from sbcore.worker.session import Session, SessionSpec
    from sbcore.worker.status import StatusFile

    os.environ[OBSERVER_MARKER] = "1"
    lock = SessionLock(data, session)
    if not lock.try_acquire(host="run"):
        return {"refused": "a worker started for this session meanwhile: run the command again"}
    try:
        status = StatusFile(data, session, host="run", cwd=str(project))
        spec = SessionSpec(session_id=session, data=data, cwd=project, host="run", transcript=transcript)
        channel = Channel(stdout=False)
        runner = Session(spec, Lifeline(ParentWatch(os.getpid()), channel), channel, status)
        report = asyncio.run(runner.run_now(request))
        status.update(state="exited", detail="one pass run by `second-brain run`; no worker is running")
        return report
    finally:
        lock.release()


def _render(session: str, report: dict[str, Any]) -> str:
    if "refused" in report:
        return f"second-brain run ({session}): no pass: {report['refused']}"
    lines = [
        f"pass {report.get('number')} ({report.get('reason')}) over {report.get('observations', 0)} "
        f"observations, {report.get('tokens', 0):,} tokens, {report.get('duration_s', 0):.1f} s"
    ]
    verdicts = report.get("verdicts") or []
    width = max((len(item["detector"]) for item in [*verdicts, *(report.get("skipped") or [])]), default=0)
    for item in verdicts:
        line = f"  {item['detector']:<{width}}  {item['label']}"
        if item.get("headline"):
            line += f' "{item["headline"]}"'
        gate = item.get("gate")
        if gate:
            line += f" -> {gate['action']} ({gate['reason']})"
        lines.append(line)
    for item in report.get("skipped") or []:
        lines.append(f"  {item['detector']:<{width}}  not run: {item['why']}")
    if not verdicts and not report.get("skipped"):
        lines.append("  no detector was due")
    if report.get("error"):
        lines.append(f"  the pass failed: {report['error']}")
    from sbcore.cli.trust_view import render_trust

    lines.extend(render_trust(report.get("trust")))
    return "\n".join(lines)
