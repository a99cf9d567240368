"""The shape of ``<data>/hot.json``: the hot keys a hook reads without YAML or JSON Schema.

:mod:`sbcore.config.hot` writes the snapshot; :mod:`sbcore.hooks.hotconfig`
reads it. Both take the names, the version and the per-detector keys from here.
"""

from __future__ import annotations

import os
from pathlib import Path

VERSION = 1
FILE_NAME = "hot.json"
ANY_WORKSPACE = "*"
"""The scope used for a workspace the snapshot has no entry for."""
GROUPS: tuple[str, ...] = ("enable", "mute", "finish_gate", "gate", "headless")
"""Configuration groups copied whole into every scope."""
DETECTOR_KEYS: tuple[str, ...] = ("enabled", "confidence_floor", "finish_gate_floor")
"""The per-detector values a scope carries: the properties of :class:`sbcore.state.floors.DetectorLike`."""


def file_stamp(path: Path) -> list[int] | None:
    """``[inode, size, modification time in ns]`` of ``path`` (links not followed); None when it is not there.

    What the snapshot records of the files an approval hangs on, and what a hook compares (a ``stat``)."""
    try:
        status = os.lstat(path)
    except OSError:
        return None
    return [status.st_ino, status.st_size, status.st_mtime_ns]


def snapshot_path(data: Path) -> Path:
    """``<data>/hot.json``."""
    return data / FILE_NAME
