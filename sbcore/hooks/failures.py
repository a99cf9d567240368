"""The hooks' failure log: one line per problem, so failing open is never failing silently.

``<data>/logs/hooks.log`` (0600 in a 0700 directory) is shared with the shell
launcher, which writes lines in the same shape. A hook must never fail
because its log could not be written, so :func:`log_failure` swallows its own
errors. Past :data:`MAX_BYTES` the log is rotated once to ``hooks.log.1``, so
a hook that fails on every tool call cannot fill the disk.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from sbcore import paths

MAX_BYTES = 1024 * 1024
"""Size at which ``hooks.log`` is moved to ``hooks.log.1`` (replacing an older one)."""
MAX_MESSAGE = 2000
"""Longest message kept on a line, in characters."""


def log_path(data: Path) -> Path:
    """Where the hooks' failure log lives under the data directory ``data``."""
    return data / "logs" / "hooks.log"


def log_failure(data: Path | None, event: str, message: str) -> None:
    """Append ``<UTC time> sb-hook <event>: <message>`` as one line; never raises."""
    with contextlib.suppress(Exception):
        target = log_path(data if data is not None else paths.data_dir())
        flat = " ".join(message.split())
        if len(flat) > MAX_MESSAGE:
            flat = flat[:MAX_MESSAGE] + f"…[+{len(flat) - MAX_MESSAGE} chars]"
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        line = f"{stamp} sb-hook {event or '?'}: {flat}\n"
        _rotate(target)
        paths.append_private(target, line.encode("utf-8", "replace"), line_start=True)


def _rotate(target: Path) -> None:
    try:
        size = target.stat().st_size
    except FileNotFoundError:
        return
    if size >= MAX_BYTES:
        os.replace(target, target.with_name(target.name + ".1"))
