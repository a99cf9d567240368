"""Carrying the user's own state to a new data directory, so an install loses nothing the user made.

Before ``second-brain install`` the terminal commands keep state in ``$XDG_DATA_HOME/sbcore``; after it,
in the plugin's data directory, where Claude Code points the hooks and the worker. What the user made
there by hand — each workspace's local layer and trust approval (``workspaces/``), the soak logs
(``soak/``), the labels (``labels/``) and the database (``sbcore.db``: task ledgers, calibration) — would
otherwise stay behind, and a workspace trusted a minute ago would read as untrusted. So install copies
each of them that the new directory lacks, says what it copied, and leaves the old directory as it was
(a copy, never a move: nothing is lost if the new place turns out wrong). A session's own files (spool,
events, status…) are not carried: they belong to sessions that ran under the old directory.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from sbcore import paths

CARRIED_DIRS = ("workspaces", "soak", "labels")
"""Folders of state the user made: per-workspace layers and approvals, soak logs, labels."""
DATABASE = "sbcore.db"


def carry_over(old: Path, new: Path) -> list[str]:
    """Copy the user's state from ``old`` to ``new`` where ``new`` lacks it; one line per thing copied."""
    if not old.is_dir() or _same(old, new):
        return []
    said: list[str] = []
    for name in CARRIED_DIRS:
        source = old / name
        if source.is_dir() and not source.is_symlink():
            copied = _copy_missing(source, new / name)
            if copied:
                said.append(f"{name}/: {copied} file{'s' * (copied != 1)}")
    database = old / DATABASE
    if database.is_file() and not database.is_symlink() and not (new / DATABASE).exists():
        paths.ensure_private_dir(new)
        _copy_database(database, new / DATABASE)
        said.append(DATABASE)
    return said


def _same(old: Path, new: Path) -> bool:
    with contextlib.suppress(OSError):
        return old.resolve() == new.resolve()
    return False


def _copy_missing(source: Path, target: Path) -> int:
    """Copy each regular file under ``source`` that ``target`` lacks (0600, folders 0700); how many."""
    copied = 0
    for folder, names, files in os.walk(source, followlinks=False):
        relative = Path(folder).relative_to(source)
        names[:] = [name for name in names if not (Path(folder) / name).is_symlink()]
        for name in files:
            origin = Path(folder) / name
            destination = target / relative / name
            if origin.is_symlink() or not origin.is_file() or destination.exists():
                continue
            paths.ensure_private_dir(destination.parent)
            paths.write_private(destination, origin.read_bytes())
            copied += 1
    return copied


def _copy_database(source: Path, target: Path) -> None:
    """SQLite's own backup: a consistent copy even while a worker writes the old one."""
    tmp = target.with_name(f".{target.name}.carry")
    tmp.unlink(missing_ok=True)
    with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as origin:
        descriptor = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(descriptor)
        with contextlib.closing(sqlite3.connect(tmp)) as copy:
            origin.backup(copy)
    os.replace(tmp, target)
