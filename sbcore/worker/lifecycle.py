"""The worker's life: one per session, stand by when another holds the session, exit with the session.

Everything here exists because of how the worker is hosted. A plugin monitor
is started by Claude Code at session start and its stdout is a notification
channel: every line printed costs the coding agent a model turn, and a monitor
that exits is announced to the session. A SIGKILLed CLI orphans its monitor.
So the worker:

* holds an exclusive ``flock`` per session (:class:`SessionLock`); a second
  instance (a resumed session's new monitor, a headless start racing a
  monitor) does not exit but stands by silently and takes the lock when the
  holder dies — the kernel releases a dead process's ``flock``, so no stale
  lock file can ever block it;
* exits promptly when its session is gone (:class:`ParentWatch`: the
  ``CLAUDE_PID`` process, with PID reuse and zombies handled), on SIGTERM,
  SIGINT or SIGHUP, and when its stdout is broken (the reader of the monitor
  pipe went away);
* keeps its stdout for one thing only (:class:`Channel`): the deliberate
  wake line. File descriptor 1 is pointed at the log file at start, so no
  stray ``print``, warning or child process can write to the monitor pipe.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import select
import signal
import stat
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Literal, TextIO

from sbcore import paths
from sbcore.hooks.cli_session import proc_stat

log = logging.getLogger("sbcore.worker")

ExitReason = Literal["parent_gone", "sigterm", "sigint", "sighup", "stdout_broken", "crashed"]

_SIGNALS: dict[int, ExitReason] = {
    signal.SIGTERM: "sigterm",
    signal.SIGINT: "sigint",
    signal.SIGHUP: "sighup",
}


# -- the session lock -----------------------------------------------------------------------------


def workers_dir(data: Path) -> Path:
    """Where the per-session lock and request files live (``<data>/workers``, 0700)."""
    return data / "workers"


class SessionLock:
    """The one-worker-per-session lock: ``flock`` on ``<data>/workers/<session>.lock`` (0600).

    The file's content says who holds it (pid, host, start time), for
    ``/second-brain:stats`` and for a standby's log line; the lock itself is
    the ``flock``, which the kernel drops when its holder dies however it
    dies. The descriptor is close-on-exec, so a process the worker spawns
    (a tool, a provider helper) never keeps the lock alive after the worker.
    """

    def __init__(self, data: Path, session_id: str) -> None:
        self.path = workers_dir(data) / f"{paths.safe_name(session_id)}.lock"
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def try_acquire(self, *, host: str) -> bool:
        """Take the lock if it is free; never waits."""
        if self._fd is not None:
            return True
        paths.ensure_private_dir(self.path.parent)
        fd = paths.open_private(self.path, os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(fd)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            raise
        holder = {"pid": os.getpid(), "host": host, "since": time.time()}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(holder).encode() + b"\n", 0)
        self._fd = fd
        return True

    def holder(self) -> dict[str, object] | None:
        """Who wrote the lock file last (the holder, if the lock is held); None if unknown."""
        try:
            body = json.loads(self.path.read_bytes() or b"null")
        except (OSError, ValueError):
            return None
        return body if isinstance(body, dict) else None

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None


# -- the session's process ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Identity:
    pid: int
    start_ticks: str | None  # /proc/<pid>/stat field 22; None where /proc is unavailable


class ParentWatch:
    """Is the session still alive? Watches the Claude Code process (``CLAUDE_PID``).

    A pid alone can lie twice: a killed CLI that its own parent has not
    reaped yet is a zombie that ``kill(pid, 0)`` still finds, and after it is
    reaped the pid can be reused by an unrelated process. So the process's
    start time is remembered at the first look and a zombie counts as gone.
    Without ``CLAUDE_PID`` (a worker started by hand) the watch falls back to
    the parent process: a change of ``getppid()`` means the parent died.
    """

    def __init__(self, pid: int | None) -> None:
        self._identity: _Identity | None = None
        self._ppid: int | None = None
        if pid is not None and pid > 0:
            found = proc_stat(pid)
            self._identity = _Identity(pid, found[1] if found else None)
        else:
            self._ppid = os.getppid()

    @classmethod
    def from_env(cls, explicit: int | None = None) -> ParentWatch:
        """Watch ``explicit`` if given, else ``CLAUDE_PID``, else the parent process."""
        if explicit is None:
            raw = os.environ.get("CLAUDE_PID", "")
            explicit = int(raw) if raw.isdigit() else None
        return cls(explicit)

    @property
    def cli(self) -> tuple[int, str | None] | None:
        """The Claude Code process watched (pid, start time), or None when only the parent is watched."""
        return None if self._identity is None else (self._identity.pid, self._identity.start_ticks)

    def describe(self) -> str:
        if self._identity is not None:
            return f"session process {self._identity.pid}"
        return f"parent process {self._ppid}"

    def alive(self) -> bool:
        if self._identity is None:
            return self._ppid is None or os.getppid() == self._ppid
        pid = self._identity.pid
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass  # it exists, owned by someone else (only possible after pid reuse; checked below)
        found = proc_stat(pid)
        if found is None:
            return not Path("/proc/self/stat").exists()  # no /proc at all: trust kill(0)
        state, started = found
        if state in ("Z", "X"):
            return False
        return self._identity.start_ticks is None or started == self._identity.start_ticks


# -- stdout: the wake channel ---------------------------------------------------------------------


class Channel:
    """The worker's stdout, reserved for the deliberate wake line.

    At start the real stdout is duplicated to a private descriptor and file
    descriptor 1 (and ``sys.stdout``) is pointed at ``divert`` — the worker's
    log — so whatever else tries to print, in this process or in a child that
    inherits descriptor 1, cannot reach the monitor pipe. :meth:`broken` polls
    the private descriptor: a pipe whose reader has gone reports ``POLLERR``
    (a socket or terminal ``POLLHUP``) without anything being written.
    ``stdout=False`` makes a channel with no stdout at all, for a caller whose
    stdout belongs to someone else (``second-brain run`` printing its report).
    """

    def __init__(self, divert: int | None = None, *, stdout: bool = True) -> None:
        self._fd: int | None = None
        if stdout:
            with contextlib.suppress(OSError):  # no stdout at all: nothing to wake, nothing to break
                self._fd = os.dup(1)
        self._broken = False
        if divert is not None:
            os.dup2(divert, 1)
            sys.stdout = os.fdopen(os.dup(divert), "w", buffering=1, encoding="utf-8", errors="replace")
        mode = os.fstat(self._fd).st_mode if self._fd is not None else 0
        self.pipe = stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)
        """True when stdout is a pipe or socket: hosted by a monitor, whose lines wake the session."""

    def broken(self) -> bool:
        """Whether the reader of stdout has gone away."""
        if self._broken or self._fd is None:
            return self._broken
        poller = select.poll()
        poller.register(self._fd, 0)  # POLLERR, POLLHUP and POLLNVAL are always reported
        try:
            events = poller.poll(0)
        except InterruptedError:
            return False
        if any(mask & (select.POLLERR | select.POLLHUP | select.POLLNVAL) for _, mask in events):
            self._broken = True
        return self._broken

    def wake(self, line: str) -> bool:
        """Write one wake line (newlines inside it are flattened); False if stdout is broken."""
        if self._fd is None or self._broken:
            return False
        data = (" ".join(line.split()) + "\n").encode("utf-8", errors="replace")
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view) :]
        except OSError as error:
            if error.errno in (errno.EPIPE, errno.EBADF, errno.ECONNRESET):
                self._broken = True
                return False
            raise
        return True

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


# -- signals --------------------------------------------------------------------------------------


class Lifeline:
    """Every reason the worker must stop, checked in one place.

    Signal handlers only record the signal and set an event, so a sleep in
    :meth:`wait` returns at once; the parent and stdout are polled on every
    call. The first reason found is kept: the worker exits for one reason.
    """

    def __init__(self, parent: ParentWatch, channel: Channel) -> None:
        self.parent = parent
        self.channel = channel
        self._event = threading.Event()
        self._reason: ExitReason | None = None

    def install_signals(self) -> None:
        """Route SIGTERM, SIGINT and SIGHUP to :meth:`stop` (main thread only)."""
        for number in _SIGNALS:
            signal.signal(number, self._on_signal)

    def _on_signal(self, number: int, frame: FrameType | None) -> None:
        self.stop(_SIGNALS.get(number, "sigterm"))

    def stop(self, reason: ExitReason) -> None:
        if self._reason is None:
            self._reason = reason
        self._event.set()

    @property
    def reason(self) -> ExitReason | None:
        """Why the worker must stop now, or None while it may go on."""
        if self._reason is None:
            if not self.parent.alive():
                self.stop("parent_gone")
            elif self.channel.broken():
                self.stop("stdout_broken")
        return self._reason

    def wait(self, seconds: float) -> ExitReason | None:
        """Sleep up to ``seconds`` (less if a signal arrives); the stop reason, if any."""
        if self.reason is None:
            self._event.wait(max(0.0, seconds))
        return self.reason


# -- logging --------------------------------------------------------------------------------------


def log_path(data: Path, session_id: str) -> Path:
    """The worker's log file: ``<data>/logs/worker-<session>.log`` (0600)."""
    return data / "logs" / f"worker-{paths.safe_name(session_id)}.log"


def open_log(path: Path) -> int:
    """Open (create 0600, append) the log file and return its descriptor."""
    paths.ensure_private_dir(path.parent)
    return paths.open_private(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)


class LogRoute:
    """Every descriptor that writes to the worker's log, so that the log can move to another file at once.

    The log is per session (``logs/worker-<session>.log``), and a worker that
    follows the CLI to a new session goes on in that session's log. File
    descriptors 1 and 2, the logging stream and ``sys.stdout`` are separate
    descriptors of one open file; :meth:`move` points each of them at the new
    file in place (``dup2``), so no writer has to be told.
    """

    def __init__(self, fds: Iterable[int]) -> None:
        self._fds = tuple(dict.fromkeys(fds))

    def move(self, path: Path) -> None:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        new = open_log(path)
        try:
            for fd in self._fds:
                os.dup2(new, fd, inheritable=fd in (1, 2))
        finally:
            os.close(new)


@contextlib.contextmanager
def logging_to(fd: int, level: int = logging.INFO) -> Iterator[TextIO]:
    """Send the ``sbcore`` loggers (and stray stderr) to ``fd`` for the duration.

    File descriptor 2 is pointed at the log too: the provider announcement,
    a warning, a traceback from a library thread all land in the file, not in
    whatever the host does with a monitor's stderr.
    """
    stream = os.fdopen(os.dup(fd), "a", buffering=1, encoding="utf-8", errors="replace")
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger("sbcore")
    saved_level, saved_propagate = root.level, root.propagate
    root.addHandler(handler)
    root.setLevel(level)
    root.propagate = False
    saved_stderr = os.dup(2)
    os.dup2(fd, 2)
    saved_sys_stderr = sys.stderr
    sys.stderr = stream
    try:
        yield stream
    finally:
        sys.stderr = saved_sys_stderr
        os.dup2(saved_stderr, 2)
        os.close(saved_stderr)
        root.removeHandler(handler)
        root.setLevel(saved_level)
        root.propagate = saved_propagate
        stream.close()
