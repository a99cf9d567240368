"""Durable transcript offsets, one file per (session, stream).

Layout: ``<data>/offsets/<session>/<stream>.json`` holding
``{"v": 1, "offset": N, "file": [dev, ino, head_len, head_crc] | null}``.
``file`` identifies the transcript the offset was taken from (see
:class:`sbcore.observe.reader.FileId`), so a replaced transcript is noticed
instead of being read from a stale position. Writes go through
:func:`sbcore.paths.write_private` (0600, atomic rename); directories are 0700.

The store only reports what it finds: a missing file is ``None``, an
unreadable one raises :class:`CorruptOffset`. Deciding what that means (read
from the start, or re-seek to the end) is :class:`sbcore.observe.spool.Tail`'s
job.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sbcore import paths
from sbcore.observe.reader import FileId
from sbcore.problems import SbcoreError
from sbcore.state import document

_VERSION = 1


class CorruptOffset(SbcoreError, ValueError):
    """An offset file exists but cannot be used; the message names the file and the problem."""


@dataclass(frozen=True, slots=True)
class StoredOffset:
    """Where a stream was read up to, and which file that offset belongs to."""

    offset: int
    file_id: FileId | None = None


class OffsetStore:
    """The offsets of one session's transcript streams (``main``, ``agent-<id>``, ...)."""

    def __init__(self, session_id: str, data: Path | None = None) -> None:
        self.directory = (data or paths.data_dir()) / "offsets" / paths.safe_name(session_id)

    def path(self, stream: str) -> Path:
        """The offset file of ``stream``."""
        return self.directory / f"{paths.safe_name(stream)}.json"

    def load(self, stream: str) -> StoredOffset | None:
        """The stored offset of ``stream``; ``None`` if there is none.

        Raises :class:`CorruptOffset` when the file is there but unusable.
        """
        path = self.path(stream)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise CorruptOffset(f"{path}: unreadable offset file ({error.strerror})") from error
        return _decode(path, raw)

    def save(self, stream: str, stored: StoredOffset) -> None:
        """Persist ``stored`` for ``stream`` atomically (0600 file, 0700 directories)."""
        body = {"offset": stored.offset, "file": list(stored.file_id) if stored.file_id else None}
        document.write(self.path(stream), body, version=_VERSION)

    @contextmanager
    def lock(self, stream: str) -> Iterator[None]:
        """Hold an exclusive lock on ``stream`` for a read-project-save cycle.

        Parallel tool calls fire parallel hooks; without the lock two of them
        would read from the same offset and spool the same batch twice. The
        lock is ``flock`` on ``<stream>.lock`` (0600), so it dies with its
        holder and a crashed process never leaves it held.
        """
        paths.ensure_private_dir(self.directory)
        fd = paths.open_private(self.directory / f"{paths.safe_name(stream)}.lock", os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # releases the flock


def _decode(path: Path, raw: bytes) -> StoredOffset:
    try:
        body = document.decode(path, raw, version=_VERSION)
    except document.DocumentError as error:
        raise CorruptOffset(str(error)) from error
    offset = body.get("offset")
    if type(offset) is not int or offset < 0:
        raise CorruptOffset(f"{path}: key 'offset': expected a non-negative integer, got {offset!r}")
    file_id = body.get("file")
    if file_id is None:
        return StoredOffset(offset)
    if not (isinstance(file_id, list) and len(file_id) == len(FileId._fields)):
        raise CorruptOffset(f"{path}: key 'file': expected {list(FileId._fields)} or null, got {file_id!r}")
    if not all(type(n) is int and n >= 0 for n in file_id):
        raise CorruptOffset(f"{path}: key 'file': expected non-negative integers, got {file_id!r}")
    return StoredOffset(offset, FileId(*file_id))
