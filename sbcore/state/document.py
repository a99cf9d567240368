"""Versioned JSON documents that processes share: one writer, one reader, one set of errors.

The worker, the hooks and the terminal commands talk through small files in the data directory: the
status file, the worker's durable state, the hot configuration snapshot, the CLI's session pointer,
tailing offsets, background launches. Each is a JSON object with a version ``v``, written atomically
(0600, a rename, so a reader sees the old document or the new one, never half of one) and read by a
process that must not trust it: another version, a hand edit, a truncated disk. So every one of them
goes through :func:`write` and :func:`read` here, and a bad file is one :class:`DocumentError` that
names the file and the key — never a ``KeyError`` three frames down.

Standard library only (the hooks read these files), and nothing of sbcore but :mod:`sbcore.paths`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sbcore.paths import write_private
from sbcore.problems import SbcoreError

MAX_BYTES = 4 * 1024 * 1024
"""Largest document read; a bigger file is not one of ours."""


class DocumentError(SbcoreError, ValueError):
    """A shared file that exists but cannot be used; the message names the file (and the key)."""


def encode(body: Mapping[str, Any], *, version: int, compact: bool = False) -> bytes:
    """``body`` as the bytes of a version-``version`` document (keys sorted, one trailing newline)."""
    document = {"v": version, **{key: value for key, value in body.items() if key != "v"}}
    separators = (",", ":") if compact else None
    text = json.dumps(document, ensure_ascii=False, sort_keys=True, separators=separators, default=str)
    return text.encode("utf-8", "replace") + b"\n"


def write(path: Path, body: Mapping[str, Any], *, version: int, compact: bool = False) -> None:
    """Replace ``path`` atomically with ``body`` as a version-``version`` document (0600, dirs 0700)."""
    write_private(path, encode(body, version=version, compact=compact))


def decode(path: Path, raw: bytes, *, version: int) -> dict[str, Any]:
    """The document in ``raw`` (read from ``path``), checked to be an object of ``version``."""
    try:
        document = json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise DocumentError(f"{path}: not JSON ({error})") from None
    if not isinstance(document, dict):
        raise DocumentError(f"{path}: expected an object, got {type(document).__name__}")
    found = document.get("v")
    if found != version:
        newer = isinstance(found, int) and not isinstance(found, bool) and found > version
        fix = (
            ": a newer sbcore wrote it; upgrade sbcore (then `second-brain install`), or run "
            "`second-brain forget --all` to start over"
            if newer
            else ""
        )
        raise DocumentError(f"{path}: key 'v': unsupported version {found!r} (expected {version}){fix}")
    return document


def read(path: Path, *, version: int) -> dict[str, Any] | None:
    """The version-``version`` document at ``path``; None when there is none.

    Raises :class:`DocumentError` when the file exists but is unreadable, too large, not JSON, not an
    object or of another version.
    """
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise DocumentError(f"{path}: unreadable ({error.strerror or error})") from None
    if len(raw) > MAX_BYTES:
        raise DocumentError(f"{path}: larger than {MAX_BYTES:,} bytes")
    return decode(path, raw, version=version)


def field(path: Path, document: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """``document[key]``, which must be of ``kind`` (bool never counts as a number)."""
    value = document.get(key)
    numeric = kind in (int, float) or (isinstance(kind, tuple) and (int in kind or float in kind))
    if not isinstance(value, kind) or (numeric and isinstance(value, bool)):
        raise DocumentError(f"{path}: key {key!r}: expected {_name(kind)}, got {value!r}")
    return value


def _name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(item.__name__ for item in kinds)
