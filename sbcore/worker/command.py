"""``second-brain worker`` and ``python -m sbcore.worker``: the session worker's command line.

It prints nothing: a monitor's every stdout line costs the agent a model
turn, so all output goes to ``<data>/logs/worker-<session>.log`` and the
status file. Exit codes: 0 when the session ended (or the worker was told to
stop), 1 after a crash (logged), 2 when it cannot start (no session id).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DESCRIPTION = (
    "Tail one Claude Code session's transcript, run the observer's passes and queue gated advice "
    "for the hooks. One worker per session: a second one stands by silently and takes over if the "
    "first dies. Exits when the session's process (CLAUDE_PID) is gone, on SIGTERM, or when stdout "
    "is closed. Logs to <data>/logs/worker-<session>.log; status in <data>/status/<session>.json."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The worker's options, for ``second-brain worker`` and for :func:`main` alike."""
    parser.add_argument("--session", metavar="ID", help="session id (default: $CLAUDE_CODE_SESSION_ID)")
    parser.add_argument("--data", metavar="DIR", help="state directory (default: the plugin data dir)")
    parser.add_argument("--project", metavar="DIR", help="the session's working directory (default: cwd)")
    parser.add_argument(
        "--transcript", metavar="PATH", help="the session transcript (default: from the hooks, or derived)"
    )
    parser.add_argument("--root", metavar="DIR", help="the plugin's root (to report the installed version)")
    parser.add_argument(
        "--parent-pid",
        type=int,
        metavar="PID",
        help="exit when this process is gone (default: $CLAUDE_PID, else the parent process)",
    )
    parser.add_argument(
        "--host",
        choices=("monitor", "headless", "manual"),
        help="who started it (default: monitor when stdout is a pipe)",
    )
    parser.add_argument("--tick", type=float, default=0.25, metavar="S", help="seconds between polls")
    parser.add_argument(
        "--poll",
        type=float,
        default=1.0,
        metavar="S",
        help="seconds between checks while standing by or dormant",
    )


def run(args: argparse.Namespace) -> int:
    """Start the worker the options describe; its exit code."""
    from sbcore.worker.main import UsageError, WorkerOptions, run_worker

    def path(value: str | None) -> Path | None:
        return Path(value) if value else None

    options = WorkerOptions(
        session_id=args.session,
        data=path(args.data),
        project=path(args.project),
        transcript=path(args.transcript),
        root=path(args.root),
        parent_pid=args.parent_pid,
        host=args.host,
        tick_s=max(0.01, args.tick),
        poll_s=max(0.01, args.poll),
    )
    try:
        return run_worker(options)
    except UsageError as error:
        print(f"second-brain worker: {error}", file=sys.stderr)
        return 2


def main(argv: list[str] | None = None) -> int:
    """``python -m sbcore.worker``: the same as ``second-brain worker``, exit codes included."""
    parser = argparse.ArgumentParser(prog="python -m sbcore.worker", description=DESCRIPTION)
    add_arguments(parser)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return run(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
