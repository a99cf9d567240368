"""Where state lives, and the only functions allowed to write it.

Standard library only: the hooks import this. Every directory the observer
creates is 0700 and every file 0600, whatever the caller's umask, because the
spool and mailbox carry projected session content and advisory text.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
from pathlib import Path

from sbcore.problems import SbcoreError

DIR_MODE = 0o700
FILE_MODE = 0o600


DATA_DIR_POINTER = "data-dir"
"""File in :func:`config_dir` naming the installed plugin's data directory (written by ``install``)."""


def data_dir() -> Path:
    """The observer's state directory: one directory however a process was started.

    ``SBCORE_DATA_DIR`` wins (tests, explicit setups), then the plugin data dir
    Claude Code hands hooks (``CLAUDE_PLUGIN_DATA``). Monitors and a user's
    terminal do not get that variable, so ``second-brain install`` records the
    plugin's data directory in ``config_dir()/data-dir`` and everything else
    reads it from there; without an install, ``$XDG_DATA_HOME/sbcore``.
    """
    explicit = os.environ.get("SBCORE_DATA_DIR") or os.environ.get("CLAUDE_PLUGIN_DATA")
    if explicit:
        return Path(explicit)
    try:
        recorded = (config_dir() / DATA_DIR_POINTER).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        recorded = ""
    if recorded and os.path.isabs(recorded):
        return Path(recorded)
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


def workspace_key(workspace: str | os.PathLike[str]) -> str:
    """A collision-free directory name for a workspace: readable tail plus a path hash.

    ``safe_name`` alone folds distinct paths together (``/a/b-c`` and ``/a-b/c``), which
    would let one workspace read another's local configuration.
    """
    real = os.path.realpath(os.fspath(workspace))
    digest = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{safe_name(os.path.basename(real) or 'root')[:60]}-{digest}"


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` (and any missing parents) as 0700 directories; tighten it if it exists.

    ``path`` itself must not be a symbolic link (``NotADirectoryError``), unless it is the data directory
    (which a user may keep elsewhere): neither chmod nor writes follow a folder of it out.

    Parents are created one by one rather than with ``mkdir(parents=True)``,
    which would give them the umask's default mode (0777 under umask 0).
    Directories that already exist above ``path`` are left as they are: they
    may be the user's own (``~/.local/share``).
    """
    if os.path.islink(path) and Path(path) != data_dir():
        # a folder of the data directory replaced by a link (events/ pointing at someone else's tree):
        # writing through it would put private state, 0700 and 0600, wherever it points
        raise NotADirectoryError(errno.ENOTDIR, "a symbolic link where a private folder belongs", str(path))
    missing: list[Path] = []
    probe = path
    while not probe.is_dir():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for directory in reversed(missing):
        try:
            directory.mkdir(mode=DIR_MODE)
        except FileExistsError:  # another process got there first, or it is not a directory
            if not directory.is_dir():
                raise
        _tighten(directory)
    if not missing:
        _tighten(path)
    return path


def _tighten(directory: Path) -> None:
    if (directory.stat().st_mode & 0o777) != DIR_MODE:
        os.chmod(directory, DIR_MODE)


def write_private(path: Path, data: bytes) -> None:
    """Atomically replace ``path`` with ``data`` as a 0600 file, in a 0700 directory."""
    ensure_private_dir(path.parent)
    replace_file(path, data, FILE_MODE)


def replace_file(path: Path, data: bytes, mode: int | None) -> None:
    """Write ``data`` beside ``path``, fsync it, rename it over ``path``: readers see old or new, never half.

    ``mode`` None gives the file the umask's default, for files the user shares
    (a workspace's committed configuration); the directory is left as it is.
    """
    tmp = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    fd = os.open(tmp, flags, 0o666 if mode is None else FILE_MODE)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


class SymlinkRefused(SbcoreError, OSError):
    """A state file's path is a symbolic link: refused, never followed (it could point anywhere)."""


def open_private(path: Path, flags: int) -> int:
    """``os.open`` for a state file the observer appends to or locks: created 0600, and never through a
    symbolic link (``O_NOFOLLOW``), as the atomic writes never are (``O_EXCL``). A link planted at ``path``
    -- by another local user, or a bug -- would otherwise make the observer append to, or create, a file of
    that link's choosing. Raises :class:`SymlinkRefused` for a link; the caller closes the descriptor."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            refusal = "refusing to follow a symbolic link at a state file"
            raise SymlinkRefused(exc.errno, refusal, str(path)) from None
        raise
    try:
        if (os.fstat(fd).st_mode & 0o777) != FILE_MODE:
            os.fchmod(fd, FILE_MODE)
    except BaseException:
        os.close(fd)
        raise
    return fd


def append_private(path: Path, data: bytes, *, line_start: bool = False) -> None:
    """Append ``data`` to a 0600 file with one ``O_APPEND`` write.

    ``O_APPEND`` makes each write land at the current end, so concurrent
    appenders (parallel hooks) never overwrite each other. A short write (a
    full disk, a signal) is continued rather than silently truncated.

    ``line_start`` is for line-oriented files: if the file does not end with a
    newline (an earlier write was torn by a crash or ``ENOSPC``), a newline is
    written first, so the torn fragment stays one bad line of its own instead
    of swallowing the first line of ``data``.
    """
    ensure_private_dir(path.parent)
    fd = open_private(path, os.O_RDWR | os.O_APPEND | os.O_CREAT)
    try:
        status = os.fstat(fd)
        if line_start and status.st_size > 0 and os.pread(fd, 1, status.st_size - 1) != b"\n":
            data = b"\n" + data
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
    finally:
        os.close(fd)
