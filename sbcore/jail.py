"""The path jail: every file the observer's tools touch is a regular file under the workspace root.

A detector's model chooses the paths, so every path is hostile input. The rules, in order:

1. Lexical: a string, non-empty, no NUL byte, bounded length (whole path and each component), no ``~``
   (nothing is expanded), not naming a pseudo-filesystem (``/proc``, ``/dev``, ``/sys``).
2. Resolution: joined to the root (absolute paths are taken as they are) and resolved with
   ``os.path.realpath``; the result must be the root or under it (``os.path.commonpath``) and not inside a
   pseudo-filesystem. This is what refuses ``..`` escapes and symlinks pointing outside, while links from
   inside to inside keep working.
3. Opening: the resolved path is opened one component at a time from a descriptor of the root with
   ``O_NOFOLLOW``, so a symlink swapped in after the check is refused rather than followed; the last component
   is ``lstat``-ed before it is opened, and only a regular file under the size cap is opened at all (a FIFO is
   never opened, so it cannot block; a device is never opened, so it cannot have side effects).

Refusal messages name the path the caller gave, never where a link pointed, so the jail does not leak the
layout outside the workspace.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from sbcore.problems import SbcoreError
from sbcore.safefile import describe

PSEUDO_FILESYSTEMS = ("/proc", "/dev", "/sys")
"""Kernel interfaces that are never workspace content, whatever a symlink says."""

MAX_PATH_CHARS = 4096
MAX_COMPONENT_CHARS = 255
READ_CHUNK = 65536

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


class JailError(SbcoreError):
    """A path the jail refuses. The message is written for the model and is safe to show it."""


class NotFound(JailError):
    """An allowed path that does not exist: an ordinary error, not a refusal."""


@dataclass(frozen=True)
class Resolved:
    """A path that passed the lexical and resolution rules: ``real`` is absolute and inside the root."""

    given: str
    real: Path
    rel: str
    """Root-relative POSIX form (``.`` for the root), the form results print."""


def _under(path: str, base: str) -> bool:
    return path == base or path.startswith(base.rstrip("/") + "/")


def _is_pseudo(path: str) -> bool:
    return any(_under(path, fs) for fs in PSEUDO_FILESYSTEMS)


class Jail:
    """Resolves and opens paths for the read-only tools, confined to one workspace root."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        real = os.path.realpath(os.fspath(root))
        if real == "/":
            raise ValueError("refusing to use the filesystem root as a workspace jail")
        if _is_pseudo(real):
            raise ValueError(f"refusing a workspace root inside a pseudo-filesystem: {real}")
        if not os.path.isdir(real):
            raise ValueError(f"workspace root is not a directory: {real}")
        self.root = Path(real)
        self._root_str = real

    def __repr__(self) -> str:
        return f"Jail({self._root_str!r})"

    # -- rules 1 and 2 -------------------------------------------------------------------------------------

    def resolve(self, given: object) -> Resolved:
        """Apply the lexical and resolution rules to ``given``; raise :class:`JailError` when refused."""
        if not isinstance(given, str):
            raise JailError("path must be a string")
        if given == "":
            raise JailError("path is empty; use '.' for the workspace root")
        if "\x00" in given:
            raise JailError("refused: the path contains a NUL byte")
        if len(given) > MAX_PATH_CHARS:
            raise JailError(f"refused: the path is longer than {MAX_PATH_CHARS} characters")
        if any(len(part) > MAX_COMPONENT_CHARS for part in given.split("/")):
            raise JailError(f"refused: a path component is longer than {MAX_COMPONENT_CHARS} characters")
        if given.startswith("~"):
            raise JailError(
                f"refused: {given!r} — '~' is not expanded; give a path relative to the workspace root"
            )
        joined = os.path.join(self._root_str, given)
        if _is_pseudo(os.path.normpath(joined)):
            raise JailError(f"refused: {given!r} is in a pseudo-filesystem (/proc, /dev, /sys)")
        real = os.path.realpath(joined)
        if os.path.realpath(real) != real:
            # A resolved path is a fixed point of realpath. It is not when realpath met a symlink loop:
            # it then takes what follows the loop lexically (`loop/../link` becomes `link`, unresolved).
            raise JailError(f"refused: {given!r} passes through a symlink that cannot be resolved")
        if _is_pseudo(real) or os.path.commonpath([self._root_str, real]) != self._root_str:
            raise JailError(f"refused: {given!r} is outside the workspace root")
        rel = os.path.relpath(real, self._root_str)
        return Resolved(given=given, real=Path(real), rel=Path(rel).as_posix())

    def contains(self, path: str | os.PathLike[str]) -> bool:
        """Whether ``path`` resolves (through any symlinks) to the root or under it."""
        real = os.path.realpath(os.fspath(path))
        return not _is_pseudo(real) and os.path.commonpath([self._root_str, real]) == self._root_str

    def relative(self, path: str | os.PathLike[str]) -> str:
        """Root-relative POSIX form of a path known to be inside the root."""
        return Path(os.path.relpath(os.fspath(path), self._root_str)).as_posix()

    # -- rule 3 --------------------------------------------------------------------------------------------

    def stat(self, given: object) -> tuple[Resolved, os.stat_result]:
        """Resolve ``given`` and ``lstat`` it through a symlink-free walk from the root."""
        resolved = self.resolve(given)
        parent_fd, name = self.open_parent(resolved)
        try:
            if name == ".":
                return resolved, os.fstat(parent_fd)
            try:
                return resolved, os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
            except FileNotFoundError:
                raise NotFound(f"{given!r} does not exist") from None
            except OSError as exc:
                raise JailError(f"cannot access {given!r}: {exc.strerror}") from None
        finally:
            os.close(parent_fd)

    def directory(self, given: object) -> Resolved:
        """Resolve ``given`` as an existing directory inside the root."""
        resolved, st = self.stat(given)
        if not stat.S_ISDIR(st.st_mode):
            raise JailError(f"{resolved.given!r} is not a directory")
        return resolved

    def open_directory(self, given: object) -> tuple[Resolved, int]:
        """Resolve ``given`` and open it as a folder without following any link on the way or at its end.

        For a bounded listing (``os.scandir`` on the descriptor): the caller closes the descriptor. A name
        that is a link, a FIFO or a file is refused, never opened.
        """
        resolved = self.resolve(given)
        parent_fd, name = self.open_parent(resolved)
        if name == ".":
            return resolved, parent_fd
        try:
            return resolved, os.open(name, _DIR_FLAGS, dir_fd=parent_fd)
        except FileNotFoundError:
            raise NotFound(f"{given!r} does not exist") from None
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise JailError(f"refused: {given!r} is not a folder (or was swapped for a link)") from None
            raise JailError(f"cannot open {given!r}: {exc.strerror}") from None
        finally:
            os.close(parent_fd)

    def read_file(self, given: object, *, max_bytes: int) -> tuple[Resolved, bytes]:
        """Resolve ``given`` and read it whole: only a regular file of at most ``max_bytes`` is read."""
        resolved = self.resolve(given)
        parent_fd, name = self.open_parent(resolved)
        try:
            if name == ".":
                raise JailError(f"{resolved.given!r} is a directory, not a file")
            return resolved, read_regular_at(parent_fd, name, max_bytes=max_bytes, label=resolved.given)
        finally:
            os.close(parent_fd)

    def open_parent(self, resolved: Resolved) -> tuple[int, str]:
        """A descriptor of the resolved path's parent (the caller closes it), reached without following any
        symlink, and the path's last name.

        The resolved path contains no symlinks (realpath removed them), so meeting one here means the tree
        changed after the check — refused, never followed.
        """
        parts = [] if resolved.rel == "." else resolved.rel.split("/")
        fd = os.open(self._root_str, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        if not parts:
            return fd, "."
        try:
            for part in parts[:-1]:
                try:
                    next_fd = os.open(part, _DIR_FLAGS, dir_fd=fd)
                except FileNotFoundError:
                    raise NotFound(f"{resolved.given!r} does not exist") from None
                except OSError as exc:
                    if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                        raise JailError(f"cannot access {resolved.given!r}: {exc.strerror}") from None
                    # O_NOFOLLOW | O_DIRECTORY fails on a symlink with ELOOP or ENOTDIR, depending on the OS
                    if not is_link_at(fd, part):
                        raise NotFound(
                            f"{resolved.given!r} does not exist (a parent is not a directory)"
                        ) from None
                    raise JailError(
                        f"refused: {resolved.given!r} passes through a symbolic link that does not resolve "
                        "inside the workspace (a loop, or the tree changed while it was being opened)"
                    ) from None
                os.close(fd)
                fd = next_fd
        except BaseException:
            os.close(fd)
            raise
        return fd, parts[-1]


def is_link_at(dir_fd: int, name: str) -> bool:
    """Whether ``name`` in the directory ``dir_fd`` is a symbolic link (not followed)."""
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def read_regular_at(dir_fd: int, name: str, *, max_bytes: int, label: str) -> bytes:
    """Read ``name`` in the directory ``dir_fd`` if it is a regular file of at most ``max_bytes``.

    ``lstat`` first (never open a FIFO or device), then open with ``O_NOFOLLOW | O_NONBLOCK`` and check the
    descriptor is the same inode, so a swap between the two steps is refused.
    """
    try:
        before = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        raise NotFound(f"{label!r} does not exist") from None
    except OSError as exc:
        raise JailError(f"cannot access {label!r}: {exc.strerror}") from None
    if not stat.S_ISREG(before.st_mode):
        raise JailError(f"refused: {label!r} is {describe(before.st_mode)}, not a regular file")
    if before.st_size > max_bytes:
        raise JailError(f"refused: {label!r} is {before.st_size} bytes, over the {max_bytes}-byte limit")
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise JailError(f"refused: {label!r} changed while it was being opened") from None
        raise JailError(f"cannot open {label!r}: {exc.strerror}") from None
    try:
        after = os.fstat(fd)
        if (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino) or not stat.S_ISREG(after.st_mode):
            raise JailError(f"refused: {label!r} changed while it was being opened")
        chunks: list[bytes] = []
        remaining = max_bytes + 1
        while remaining > 0:
            chunk = os.read(fd, min(READ_CHUNK, remaining))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise JailError(f"refused: {label!r} grew past the {max_bytes}-byte limit while being read")
    return data
