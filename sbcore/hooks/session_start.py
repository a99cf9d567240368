"""SessionStart: record why the session started, and host a worker where no monitor can.

``source`` is the task-identity signal the worker needs: ``startup`` and
``clear`` begin a new task, ``resume`` continues one, ``fork`` branches off
into a task of its own (the two sides diverge from here), ``compact`` keeps it.
The transcript says none of this, so it goes to the events file.

The hook also records which session the CLI process (``CLAUDE_PID``) is in
now (:mod:`sbcore.hooks.cli_session`): after ``/clear`` the conversation has a
new session id but the same monitor, and the worker follows that pointer.

The worker's only host is the plugin monitor, and monitors run only in the
interactive UI. For headless sessions (``claude -p``, the SDK, CI) a user can
opt in with ``headless.observe``; then this hook starts the worker itself,
fully detached (its own session, stdio on /dev/null, ``SBCORE_OBSERVER=1`` so
the hooks ignore everything it runs), with the same arguments the monitor
passes. A compaction restart does not start another: the session's worker is
already running.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from sbcore.hooks.context import HookContext
from sbcore.hooks.events import record_event
from sbcore.hooks.failures import log_failure

WORKER_BOOT = "import sys\nfrom sbcore.cli import main\nsys.exit(main())"
"""What ``python -c`` runs to reach ``second-brain`` (the console script may not be on PATH)."""

STARTS_WORKER = frozenset({"startup", "resume", "clear", "fork"})
"""Sources after which a headless session needs a worker (``compact`` keeps the running one)."""


def handle(context: HookContext) -> dict[str, Any] | None:
    """Record the start; in an opted-in headless session, start the worker. Never answers."""
    if not context.recording:
        return None
    record_event(
        context.data,
        context.session_id,
        "session_start",
        context.now,
        context.payload,
        texts=("source", "transcript_path", "cwd", "model"),
    )
    point_cli_here(context)
    source = context.text("source")
    if context.headless and (source is None or source in STARTS_WORKER):
        start_worker(context)
    return None


def point_cli_here(context: HookContext) -> None:
    """Record that the CLI process running this hook is in this session now; a failure is logged.

    Interactive sessions only: the pointer is for the monitor-hosted worker,
    which outlives a ``/clear``. A headless session gets a worker of its own
    per start, and a ``claude -p`` the agent runs inside the session must
    never look like the session itself moving on.
    """
    from sbcore.hooks.cli_session import CliSession, cli_pid_from, process_start, write_pointer

    pid = cli_pid_from(context.environ)
    if pid is None or context.headless:
        return
    pointer = CliSession(
        cli_pid=pid,
        cli_start=process_start(pid),
        session_id=context.session_id,
        source=context.text("source"),
        transcript_path=context.text("transcript_path"),
        cwd=context.text("cwd"),
        at=context.now,
    )
    try:
        write_pointer(context.data, pointer)
    except OSError as error:
        log_failure(context.data, context.event, f"could not record the CLI's session: {error}")


def worker_command(context: HookContext) -> list[str]:
    """The worker's command line: the monitor's arguments plus who hosts it, under this interpreter."""
    project = context.environ.get("CLAUDE_PROJECT_DIR") or context.text("cwd") or os.getcwd()
    command = [sys.executable, "-P", "-c", WORKER_BOOT, "worker", "--host", "headless"]
    command += ["--session", context.session_id, "--data", str(context.data)]
    root = context.environ.get("CLAUDE_PLUGIN_ROOT") or _checkout_plugin_root()
    if root:
        command += ["--root", root]
    return [*command, "--project", project]


def start_worker(context: HookContext) -> None:
    """Start the worker detached; a failure is logged, never raised."""
    import subprocess

    command = worker_command(context)
    environment = dict(context.environ)
    environment["SBCORE_OBSERVER"] = "1"
    environment["CLAUDE_CODE_SESSION_ID"] = context.session_id
    project = command[-1]
    try:
        subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=environment,
            cwd=project if os.path.isdir(project) else None,
            start_new_session=True,
            close_fds=True,
        )
    except OSError as error:
        log_failure(context.data, context.event, f"could not start the headless worker: {error}")


def _checkout_plugin_root() -> str | None:
    """``<checkout>/plugin`` when this package runs from a source checkout."""
    candidate = Path(__file__).resolve().parents[2] / "plugin"
    return str(candidate) if (candidate / ".claude-plugin" / "plugin.json").is_file() else None
