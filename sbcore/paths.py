"""Where state lives, and the only functions allowed to write it.

Standard library only: the hooks import this. Every directory the observer
creates is 0700 and every file 0600, whatever the caller's umask, because the
spool and mailbox carry projected session content and advisory text.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600


def data_dir() -> Path:
    """The observer's state directory.

    ``SBCORE_DATA_DIR`` wins (tests, explicit setups), then the plugin data dir
    Claude Code hands hooks (``CLAUDE_PLUGIN_DATA``), then ``$XDG_DATA_HOME/sbcore``.
    """
    explicit = os.environ.get("SBCORE_DATA_DIR") or os.environ.get("CLAUDE_PLUGIN_DATA")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "sbcore"


def config_dir() -> Path:
    """The user's global configuration directory (``$XDG_CONFIG_HOME/sbcore``)."""
    explicit = os.environ.get("SBCORE_CONFIG_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "sbcore"


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def safe_name(value: str) -> str:
    """A file-name-safe rendering of a session id or workspace path."""
    cleaned = _UNSAFE.sub("-", value).strip(".-") or "_"
    return cleaned[:200]


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` (and parents) as 0700 directories; tighten it if it exists."""
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    if (path.stat().st_mode & 0o777) != DIR_MODE:
        os.chmod(path, DIR_MODE)
    return path


def write_private(path: Path, data: bytes) -> None:
    """Atomically replace ``path`` with ``data`` as a 0600 file."""
    ensure_private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, FILE_MODE)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def append_private(path: Path, data: bytes) -> None:
    """Append ``data`` to a 0600 file with a single ``O_APPEND`` write."""
    ensure_private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE)
    try:
        if (os.fstat(fd).st_mode & 0o777) != FILE_MODE:
            os.fchmod(fd, FILE_MODE)
        os.write(fd, data)
    finally:
        os.close(fd)
