"""``second-brain forget``: drop what the observer holds about this session, a task, or everything.

``/second-brain:forget`` runs it. With no option it forgets the current session (``$CLAUDE_CODE_SESSION_ID``,
else ``--session``): its observations, events, advice history, mailbox, status, turn reports, log, the
ledgers of its tasks and their rows in the cross-task index, pass journal and outcome records, and the recall
chunks taken from them; its live worker drops its in-memory window. ``--task ID`` forgets one task's history,
ledger and rows; ``--all`` everything, every session. It prints what was removed (``--json`` for the figures).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "forget",
        help="drop what the observer holds about this session (window, ledger, history, spool) or everything",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
    )
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument("--all", action="store_true", help="forget every session, task ledger and soak log")
    scope.add_argument(
        "--session", metavar="ID", help="the session to forget (default: $CLAUDE_CODE_SESSION_ID)"
    )
    scope.add_argument("--task", metavar="ID", help="one task's advice history and ledger")
    parser.add_argument("--data", metavar="DIR", help="the data directory (default: the plugin's)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="how long to wait for a live worker (default 10)",
    )
    parser.add_argument("--json", action="store_true", help="print what was removed as JSON")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from sbcore import paths
    from sbcore.worker import forget, locate

    data = Path(args.data) if args.data else paths.data_dir()
    if args.all:
        report, what = forget.forget_all(data, timeout=args.timeout), "everything"
    elif args.task:
        report, what = forget.forget_task(data, args.task), f"task {args.task}"
    else:
        session = args.session or locate.session_from_env()
        if not session:
            print(
                "second-brain forget: no session: pass --session ID, --task ID or --all, "
                "or run it inside Claude Code",
                file=sys.stderr,
            )
            return 2
        report, what = forget.forget(data, session, timeout=args.timeout), f"session {session}"
    if args.json:
        from sbcore.conductor.provenance import here, stamped

        document = stamped({"forgot": what, **report.to_json()}, here())
        print(json.dumps(document, indent=2, sort_keys=True))
    else:
        print(f"second-brain forget: forgot {what}")
        print(f"  files removed: {report.files} ({report.bytes:,} bytes)")
        print(f"  task ledgers removed: {', '.join(report.tasks) or 'none'}")
        rows = ", ".join(f"{table} {count}" for table, count in sorted(report.rows.items()) if count)
        print(f"  other rows removed: {rows or 'none'}")
        if report.by_worker:
            print(f"  in-memory window dropped by the live worker of: {', '.join(report.by_worker)}")
        for problem in report.problems:
            print(f"  problem: {problem}")
    return 1 if report.problems else 0
