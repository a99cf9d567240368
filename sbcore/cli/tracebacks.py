"""Tracebacks into a file, not onto the terminal, for the commands that replay many sessions.

A pack's trigger that raises does so in every pass it is asked in: thirteen passes of one transcript gave
thirteen full tracebacks on the terminal, between which the summary's word on it was lost. A replay
instead writes each distinct traceback once into a private log file, and the command prints one line per
detector with a count, naming the file (:func:`sbcore.conductor.replay_text.render_raised`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


class _Once(logging.Filter):
    """Lets each distinct message-and-traceback through once."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        trace = logging.Formatter().formatException(record.exc_info) if record.exc_info else ""
        key = record.getMessage() + trace
        if key in self._seen:
            return False
        self._seen.add(key)
        return True


class TracebackLog:
    """Where this run's warnings and tracebacks went (created on the first one), and how many there were."""

    def __init__(self) -> None:
        self.path: Path | None = None
        self.records = 0


class _FileOnDemand(logging.Handler):
    """Writes to a private temporary file (0600) created when the first record arrives."""

    def __init__(self, log: TracebackLog, prefix: str) -> None:
        super().__init__(logging.WARNING)
        self._log = log
        self._prefix = prefix
        self._file: int | None = None
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        self.addFilter(_Once())

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if self._file is None:
                self._file, name = tempfile.mkstemp(prefix=self._prefix, suffix=".log")
                self._log.path = Path(name)
            os.write(self._file, (self.format(record) + "\n").encode("utf-8", "replace"))
            self._log.records += 1
        except Exception:  # a log that cannot be written must not stop the replay
            self.handleError(record)

    def close(self) -> None:
        if self._file is not None:
            os.close(self._file)
            self._file = None
        super().close()


@contextlib.contextmanager
def tracebacks_to_file(prefix: str = "second-brain-replay-") -> Iterator[TracebackLog]:
    """Route the ``sbcore`` loggers' warnings and tracebacks to a file for the duration."""
    logger = logging.getLogger("sbcore")
    log = TracebackLog()
    handler = _FileOnDemand(log, prefix)
    saved = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield log
    finally:
        logger.removeHandler(handler)
        logger.propagate = saved
        handler.close()
