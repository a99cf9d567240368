"""Opening files a user or a repo names, refusing what is not a regular file.

``open()`` on a FIFO blocks until a writer appears, and on a device it may block for ever, read without
end (``/dev/zero``) or have side effects, so a configuration layer or a transcript that is one of those would
hang a command or the worker. These helpers open with ``O_NONBLOCK | O_NOCTTY`` (opening never blocks and
never takes a terminal), check with ``fstat`` on the open descriptor (no race between check and open) that
the file is regular, and only then read it, optionally up to a size cap.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from sbcore.problems import SbcoreError

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


class NotRegularFile(SbcoreError, OSError):
    """The path exists but is a FIFO, a socket, a device or a directory; the message says which (the
    caller names the path)."""


class TooLarge(SbcoreError, OSError):
    """A regular file over the size cap the caller gave."""


def describe(mode: int) -> str:
    """What kind of file ``mode`` is, for an error message."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """Open ``path`` for binary reading if it is a regular file; raise :class:`NotRegularFile` if not.

    The descriptor is switched back to blocking mode once it is known to be a regular file (where
    ``O_NONBLOCK`` means nothing anyway), so the returned file object reads like any other.
    """
    fd = os.open(os.fspath(path), _FLAGS)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(f"{describe(mode)}, not a regular file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular_bytes(path: str | os.PathLike[str], *, max_bytes: int) -> bytes:
    """The whole content of the regular file ``path``, refused (:class:`TooLarge`) above ``max_bytes``."""
    with open_regular(path) as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise TooLarge(f"larger than the limit of {max_bytes} bytes")
    return data


def read_regular_text(path: str | os.PathLike[str], *, max_bytes: int) -> str:
    """:func:`read_regular_bytes` decoded as UTF-8 (``UnicodeDecodeError`` when it is not)."""
    return read_regular_bytes(path, max_bytes=max_bytes).decode("utf-8")


def check_regular(path: Path) -> str | None:
    """Why ``path`` cannot be read as an input file (missing, not regular), or None when it can."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return f"{path}: no such file"
    except OSError as exc:
        return f"{path}: cannot read: {exc.strerror or exc}"
    if stat.S_ISREG(mode):
        return None
    return f"{path} is {describe(mode)}, not a regular file"
