"""Read a Claude Code transcript (JSONL) forward from a durable byte offset.

The CLI appends to the transcript asynchronously, so a read can catch the last
line half-written. The rules below let a caller read the same file many times,
from wherever the previous read stopped, and see every record exactly once:

* Only complete lines (ending in ``\\n``) are parsed. An incomplete tail is
  left for the next read: the returned offset is the first byte of that line.
* An offset is meant to sit at a line start. If the byte before it is not a
  newline, the read resumes mid-line (after an oversize line was skipped in
  part, or after a re-seek to an end the writer had not finished), and the
  rest of that line is discarded instead of being parsed as garbage.
* A line longer than ``max_line_bytes`` is skipped and counted once, even when
  it spans several reads: the offset may then stop inside it, and the rule
  above discards the remainder on the next read.
* Bad UTF-8 is replaced (the record is kept and the line counted); blank
  lines, garbage, JSON that is not an object and JSON nested too deeply to
  parse (a ``RecursionError``) are counted and skipped.
  Unknown record types and fields pass through untouched: the projector
  decides what to ignore.
* An offset past the end of the file (truncated), or a file that is no longer
  the one the offset was taken from (replaced), re-seeks to the current end:
  a gap in observation, never a duplicate. ``stats.gap`` says which.

Everything is done on whole buffers (one ``split`` per chunk, ``json.loads``
per line); there is no per-byte Python loop.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024
_CHUNK = 4 * 1024 * 1024
_PROBE_BYTES = 64 * 1024
_PROBE_LIMIT = 16 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"
_HEAD_BYTES = 1024


class FileId(NamedTuple):
    """Which file an offset belongs to.

    The inode alone is not enough: file systems hand a deleted file's inode to
    the next file created, so a transcript or spool that is deleted and
    recreated often keeps its number. The checksum of the file's first bytes
    (which an append-only file never changes) tells the two apart.
    """

    dev: int
    ino: int
    head_len: int
    head_crc: int


def _identify(fd: int, status: os.stat_result) -> FileId:
    head = os.pread(fd, _HEAD_BYTES, 0)
    return FileId(status.st_dev, status.st_ino, len(head), zlib.crc32(head))


def _same_file(fd: int, status: os.stat_result, expect: FileId) -> bool:
    if (status.st_dev, status.st_ino) != (expect.dev, expect.ino) or status.st_size < expect.head_len:
        return False
    return zlib.crc32(os.pread(fd, expect.head_len, 0)) == expect.head_crc


Record = dict[str, Any]


@dataclass(slots=True)
class ReadStats:
    """What a read saw besides records (for logs, ``measure`` and the status file).

    Every complete line consumed lands in exactly one of ``records``,
    ``blank_lines``, ``invalid_lines`` and ``oversize_lines``; an oversize line
    is counted by the read that first sees it exceed the limit.
    ``replaced_lines`` counts records kept despite bad UTF-8. ``gap`` is
    ``"truncated"`` or ``"replaced"`` when the read re-seeked to the end.
    """

    records: int = 0
    bytes_read: int = 0
    blank_lines: int = 0
    invalid_lines: int = 0
    oversize_lines: int = 0
    replaced_lines: int = 0
    gap: str | None = None


@dataclass(slots=True)
class ReadResult:
    """The complete records read, and the offset to resume from.

    ``file_id`` identifies the file that was read (``None`` if it does not
    exist); store it with the offset and pass it back as ``expect`` so a
    replaced transcript is noticed.
    """

    records: list[Record]
    offset: int
    stats: ReadStats = field(default_factory=ReadStats)
    file_id: FileId | None = None


def read_records(
    path: str | os.PathLike[str],
    offset: int = 0,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    max_bytes: int | None = None,
    expect: FileId | None = None,
    final: bool = False,
) -> ReadResult:
    """Read the complete records of ``path`` from byte ``offset``.

    ``max_bytes`` is a soft bound on how much one call consumes (the worker
    reads in slices): reading stops once it has been reached, except that a
    call always consumes at least one whole line when one is available, so a
    line longer than the slice cannot stall the reader.

    ``expect`` is the ``file_id`` the offset was taken from; if the file at
    ``path`` is a different one, the read re-seeks to its end.

    ``final`` says the file is finished (an archived transcript, a session that
    ended): an unterminated last line is then parsed too instead of waiting
    for its newline. Do not tail a live file with it: the returned offset then
    sits after a line with no newline, and if the file grows after all, the
    mid-line rule discards whatever completes that line.

    A missing file reads as empty at the same offset.
    """
    if offset < 0:
        raise ValueError(f"{os.fspath(path)}: negative transcript offset {offset}")
    stats = ReadStats()
    records: list[Record] = []
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below; a missing file is normal
    except FileNotFoundError:
        return ReadResult(records, offset, stats)
    with handle:
        fd = handle.fileno()
        status = os.fstat(fd)
        file_id = _identify(fd, status)
        if offset > status.st_size:
            offset, stats.gap = status.st_size, "truncated"
        elif expect is not None and not _same_file(fd, status, expect):
            offset, stats.gap = status.st_size, "replaced"
        resync = offset > 0 and os.pread(fd, 1, offset - 1) != b"\n"
        handle.seek(offset)
        position = _consume(handle, offset, resync, max_line_bytes, max_bytes, final, records, stats)
    stats.bytes_read = position - offset
    stats.records = len(records)
    return ReadResult(records, position, stats, file_id)


def _consume(
    handle: BinaryIO,
    offset: int,
    resync: bool,
    max_line_bytes: int,
    max_bytes: int | None,
    final: bool,
    records: list[Record],
    stats: ReadStats,
) -> int:
    """The read loop; returns the offset of the first byte not consumed.

    ``position`` is always the file offset of ``pending[0]``: everything before
    it has been parsed, counted or deliberately discarded.
    """
    position = offset
    pending = b""
    remaining = max_bytes
    at_end = False
    while True:
        extending = remaining is not None and remaining <= 0
        if extending:
            if position > offset or max_bytes == 0:
                break
            size = _CHUNK  # nothing consumed yet: finish the first line, and only that
        else:
            size = _CHUNK if remaining is None else min(_CHUNK, remaining)
        chunk = handle.read(size)
        if not chunk:
            at_end = True
            break
        if remaining is not None:
            remaining -= len(chunk)
        if resync:
            newline = chunk.find(b"\n")
            if newline < 0:
                position += len(chunk)
                continue
            resync = False
            position += newline + 1
            chunk = chunk[newline + 1 :]
        data = pending + chunk if pending else chunk
        if extending:
            cut = data.find(b"\n")
            if cut >= 0:
                _parse_lines([data[:cut]], max_line_bytes, records, stats)
                return position + cut + 1
        cut = data.rfind(b"\n")
        if cut >= 0:
            _parse_lines(data[:cut].split(b"\n"), max_line_bytes, records, stats)
            position += cut + 1
            pending = data[cut + 1 :]
        else:
            pending = data
        if len(pending) > max_line_bytes:
            # It can only grow: count it now, drop it, discard the rest as it comes.
            stats.oversize_lines += 1
            position += len(pending)
            pending = b""
            resync = True
    if final and at_end and pending:
        _parse_lines([pending], max_line_bytes, records, stats)
        position += len(pending)
    return position


def _parse_lines(lines: list[bytes], max_line_bytes: int, records: list[Record], stats: ReadStats) -> None:
    loads = json.loads
    for line in lines:
        if len(line) > max_line_bytes:
            stats.oversize_lines += 1
            continue
        try:
            value = loads(line.decode())
        except RecursionError:  # nested deeper than the parser's stack: a bad line, like garbage
            stats.invalid_lines += 1
            continue
        except ValueError:  # also UnicodeDecodeError
            value = _parse_slow(line, stats)
            if value is None:
                continue
        if type(value) is dict:
            records.append(value)
        else:
            stats.invalid_lines += 1


def _parse_slow(line: bytes, stats: ReadStats) -> Any:
    """The rare line the fast path rejected: blank, bad UTF-8, a BOM, or garbage.

    Returns the parsed value, or ``None`` when the line was counted and dropped.
    """
    if not line.strip():
        stats.blank_lines += 1
        return None
    text = line.removeprefix(_BOM).decode(errors="replace")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        stats.invalid_lines += 1
        return None
    if "\ufffd" in text and type(value) is dict:
        try:
            line.decode()
        except UnicodeDecodeError:
            stats.replaced_lines += 1
    return value


def end_of(path: str | os.PathLike[str]) -> tuple[int, FileId | None]:
    """The current size of ``path`` and its identity; ``(0, None)`` if it does not exist.

    Starting a read here skips everything written so far (a re-seek); a line
    the writer has not finished is then discarded, not parsed as garbage.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return 0, None
    try:
        status = os.fstat(fd)
        return status.st_size, _identify(fd, status)
    finally:
        os.close(fd)


def iter_records(path: str | os.PathLike[str]) -> Iterator[Record]:
    """Every record of a finished transcript, in file order (one-shot read)."""
    yield from read_records(path, final=True).records


def subagent_transcripts(session_transcript: str | os.PathLike[str]) -> list[Path]:
    """The subagent streams that belong to a session transcript.

    Current CLIs write ``<dir>/<session>/subagents/agent-<id>.jsonl`` (listed
    first); older ones wrote ``agent-<id>.jsonl`` beside the session file, for
    every session of the project, so those count only when their first record
    carrying a ``sessionId`` names this session. Each is read as a stream of
    its own; use the file stem (``agent-<id>``) as its stream name. Sorted by
    name within each layout, so the order is stable between calls.
    """
    main = Path(session_transcript)
    session_id = main.stem
    found: list[Path] = []
    nested = main.parent / session_id / "subagents"
    if nested.is_dir():
        found.extend(sorted(path for path in nested.glob("agent-*.jsonl") if path.is_file()))
    for candidate in sorted(main.parent.glob("agent-*.jsonl")):
        if candidate.is_file() and _first_session_id(candidate) == session_id:
            found.append(candidate)
    return found


def _first_session_id(path: Path) -> str | None:
    """The ``sessionId`` of the first record that has one, reading no more than needed."""
    offset = 0
    while offset < _PROBE_LIMIT:
        result = read_records(path, offset, max_bytes=_PROBE_BYTES, final=True)
        for record in result.records:
            session_id = record.get("sessionId")
            if isinstance(session_id, str):
                return session_id
        if result.offset == offset:
            return None
        offset = result.offset
    return None
