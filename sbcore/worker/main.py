"""Starting a worker: resolve the session, take over stdio and logging, hold the lock (or stand by), run.

The same entry point serves every host: the plugin monitor (``bin/sb-worker``
→ ``second-brain worker --data … --root … --project …``), the headless start
from the SessionStart hook, and a person running ``second-brain worker
--session ID`` to debug. Nothing here prints to stdout; errors that stop the
worker before it has a log go to stderr.

A worker serves one session at a time, but not always the one it started
with: when the CLI it watches moves to another session (``/clear``,
``/resume``; see :mod:`sbcore.worker.follow`), the session it served is left,
its lock released, and the worker takes the new session's lock (or stands by
for it), moves its log to the new session's and serves that one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from sbcore import paths
from sbcore.hooks.cli_session import CliSession
from sbcore.problems import SbcoreError
from sbcore.worker import locate
from sbcore.worker.follow import Follower, sweep_stale_pointers
from sbcore.worker.lifecycle import (
    Channel,
    Lifeline,
    LogRoute,
    ParentWatch,
    SessionLock,
    log_path,
    logging_to,
    open_log,
)
from sbcore.worker.session import Session, SessionSpec
from sbcore.worker.status import StatusFile

log = logging.getLogger("sbcore.worker")

OBSERVER_MARKER = "SBCORE_OBSERVER"
"""Set to ``1`` in the worker's environment, so every process it spawns is known as the observer's own."""


@dataclass(frozen=True)
class WorkerOptions:
    """What ``second-brain worker`` was told; everything unset is taken from the environment."""

    session_id: str | None = None
    data: Path | None = None
    project: Path | None = None
    transcript: Path | None = None
    root: Path | None = None
    parent_pid: int | None = None
    host: str | None = None
    tick_s: float = 0.25
    poll_s: float = 1.0


class UsageError(SbcoreError):
    """The worker cannot start with what it was given (no session id)."""


def run_worker(options: WorkerOptions) -> int:
    """Run one worker to the end of its session; the exit code (0 for every orderly exit)."""
    os.environ[OBSERVER_MARKER] = "1"
    session_id = options.session_id or locate.session_from_env()
    if not session_id:
        raise UsageError("no session: pass --session or run under Claude Code (CLAUDE_CODE_SESSION_ID)")
    data = options.data or paths.data_dir()
    os.environ["SBCORE_DATA_DIR"] = str(data)  # config, mailbox and children all agree on one directory
    try:
        paths.ensure_private_dir(data)
        log_fd = open_log(log_path(data, session_id))
    except OSError as error:
        return _unusable(options, data, error)
    channel = Channel(divert=log_fd)
    try:
        with logging_to(log_fd) as stream:
            route = LogRoute([log_fd, 1, 2, sys.stdout.fileno(), stream.fileno()])
            return _serve(options, _Target(session_id, options.transcript), data, channel, route)
    finally:
        channel.close()
        os.close(log_fd)


def _unusable(options: WorkerOptions, data: Path, error: OSError) -> int:
    """No data directory to work in: say so once on stderr, then wait quietly for the session to end.

    Exiting at once would be announced to the session by a monitor host; a
    worker that cannot work stays out of the way instead, like the launcher
    does when it finds no interpreter.
    """
    print(f"second-brain worker: cannot use the data directory {data}: {error}", file=sys.stderr, flush=True)
    channel = Channel()
    lifeline = Lifeline(ParentWatch.from_env(options.parent_pid), channel)
    lifeline.install_signals()
    while lifeline.wait(options.poll_s) is None:
        pass
    channel.close()
    return 1


@dataclass(frozen=True)
class _Target:
    """The session to serve next, and how the worker came to it."""

    session_id: str
    transcript: Path | None = None
    source: str | None = None
    """The SessionStart source that moved the CLI here (``clear``, ``resume`` …); None for the first one."""
    previous: str | None = None

    @classmethod
    def following(cls, pointer: CliSession, previous: str) -> _Target:
        path = pointer.transcript_path
        return cls(pointer.session_id, Path(path) if path else None, pointer.source, previous)


def _serve(options: WorkerOptions, target: _Target, data: Path, channel: Channel, route: LogRoute) -> int:
    parent = ParentWatch.from_env(options.parent_pid)
    lifeline = Lifeline(parent, channel)
    lifeline.install_signals()
    host = options.host or _guess_host(channel)
    cwd = (options.project or Path.cwd()).resolve()
    log.info(
        "worker %d for session %s (host %s, watching %s, cwd %s)",
        os.getpid(),
        target.session_id,
        host,
        parent.describe(),
        cwd,
    )
    follower = Follower.of(data, parent)
    if follower is not None:
        sweep_stale_pointers(data)
    while True:
        held = _hold(data, target, host, lifeline, follower, route, options.poll_s)
        if held is None:
            return 0
        lock, target = held
        identity = {"followed_from": target.previous, "source": target.source} if target.previous else {}
        status = StatusFile(
            data,
            target.session_id,
            host=host,
            cwd=str(cwd),
            plugin_root=str(options.root) if options.root else None,
            plugin_version=_plugin_version(options.root),
            **identity,
        )
        spec = SessionSpec(
            session_id=target.session_id,
            data=data,
            cwd=cwd,
            host=host,
            transcript=target.transcript,
            tick_s=options.tick_s,
            poll_s=options.poll_s,
        )
        try:
            session = Session(spec, lifeline, channel, status, follower=follower)
            asyncio.run(session.run())
        except Exception as error:  # a bug: say so, then keep quiet until the session ends (exiting is loud)
            log.exception("worker crashed")
            status.update(state="exited", exit={"reason": "crashed", "at": time.time(), "error": repr(error)})
            lock.release()
            while lifeline.wait(options.poll_s) is None:
                pass
            return 1
        moved = session.departure.moved_to
        if moved is None:
            break
        lock.release()
        target = _switch(target, moved, route, data)
    reason = lifeline.reason
    log.info("exiting: %s", reason)
    status.update(state="exited", detail=f"exited: {reason}", exit={"reason": reason, "at": time.time()})
    lock.release()
    if reason == "parent_gone" and follower is not None:
        follower.forget()
    return 0


def _hold(
    data: Path,
    target: _Target,
    host: str,
    lifeline: Lifeline,
    follower: Follower | None,
    route: LogRoute,
    poll_s: float,
) -> tuple[SessionLock, _Target] | None:
    """Take the target session's lock, standing by while another worker holds it; None if told to exit.

    A standby follows the CLI too: when the conversation moves on, it stands
    by for the new session instead — never taking over one that was left.
    """
    lock = SessionLock(data, target.session_id)
    if lock.try_acquire(host=host):
        return lock, target
    log.info("standing by: the session is held by %s", lock.holder())
    while True:
        reason = lifeline.wait(poll_s)
        if reason is not None:
            log.info("exiting from standby: %s", reason)
            return None
        moved = follower.moved(target.session_id) if follower is not None else None
        if moved is not None:
            target = _switch(target, moved, route, data)
            lock = SessionLock(data, target.session_id)
            if not lock.try_acquire(host=host):
                log.info("standing by: the session is held by %s", lock.holder())
                continue
        elif not lock.try_acquire(host=host):
            continue
        log.info("took over the session")
        return lock, target


def _switch(target: _Target, pointer: CliSession, route: LogRoute, data: Path) -> _Target:
    """Turn to the session the CLI moved to; the log moves to that session's log file."""
    new = log_path(data, pointer.session_id)
    log.info("following the CLI to session %s; this worker's log continues in %s", pointer.session_id, new)
    route.move(new)
    log.info(
        "worker %d for session %s, followed from session %s (session start: %s)",
        os.getpid(),
        pointer.session_id,
        target.session_id,
        pointer.source or "unknown",
    )
    return _Target.following(pointer, target.session_id)


def _guess_host(channel: Channel) -> str:
    """A pipe on stdout is a monitor's; a detached start under Claude Code is headless; else by hand."""
    if channel.pipe:
        return "monitor"
    return "headless" if "CLAUDE_PID" in os.environ else "manual"


def _plugin_version(root: Path | None) -> str | None:
    """The installed plugin's version (``<root>/.claude-plugin/plugin.json``), to show beside the code's."""
    if root is None:
        return None
    try:
        version = json.loads((root / ".claude-plugin" / "plugin.json").read_text()).get("version")
    except (OSError, ValueError, AttributeError):
        return None
    return version if isinstance(version, str) else None
