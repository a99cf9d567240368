"""Read a Claude Code transcript (JSONL) forward from a durable byte offset.

The transcript is written asynchronously by the CLI, so the last line may be
incomplete when we read it. Only complete lines (ending in ``\\n``) are
returned; a partial tail is left for the next read, and the returned offset
always points at the start of the first unread line. Lines are decoded with
``errors="replace"`` (a bad byte never loses a record), oversize lines are
skipped and counted, and anything that is not a JSON object is counted and
skipped. Unknown record types and fields are passed through untouched: the
projector decides what to ignore.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024
_CHUNK = 1024 * 1024


@dataclass(slots=True)
class ReadStats:
    """What a read saw besides records: kept for ``measure`` and the status file."""

    records: int = 0
    bytes_read: int = 0
    oversize_lines: int = 0
    invalid_lines: int = 0


@dataclass(slots=True)
class ReadResult:
    """Complete records from ``start`` up to ``offset`` (exclusive)."""

    records: list[dict[str, Any]]
    offset: int
    stats: ReadStats = field(default_factory=ReadStats)


def read_records(
    path: str | os.PathLike[str],
    offset: int = 0,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    max_bytes: int | None = None,
) -> ReadResult:
    """Read the complete records of ``path`` starting at byte ``offset``.

    ``max_bytes`` bounds how much is consumed in one call (the worker reads in
    slices); the returned offset is then at a line boundary within that bound,
    unless a single line is longer than the bound and gets skipped as oversize.
    A missing file reads as empty at the same offset. An offset past the end of
    the file (the file was truncated or replaced) re-seeks to the current end:
    a gap, never a duplicate.
    """
    stats = ReadStats()
    records: list[dict[str, Any]] = []
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below; a missing file is normal
    except FileNotFoundError:
        return ReadResult(records, offset, stats)
    with handle:
        size = os.fstat(handle.fileno()).st_size
        if offset > size:
            return ReadResult(records, size, stats)
        handle.seek(offset)
        position = offset
        budget = max_bytes if max_bytes is not None else size - offset
        pending = b""
        skipping = False  # inside an oversize line, discarding until its newline
        while budget > 0:
            chunk = handle.read(min(_CHUNK, budget))
            if not chunk:
                break
            budget -= len(chunk)
            data = pending + chunk
            start = 0
            while True:
                newline = data.find(b"\n", start)
                if newline < 0:
                    break
                line = data[start:newline]
                if skipping:
                    skipping = False
                elif len(line) > max_line_bytes:
                    stats.oversize_lines += 1
                else:
                    _parse_into(line, records, stats)
                start = newline + 1
            consumed = start
            position += consumed - len(pending)
            pending = data[start:]
            if len(pending) > max_line_bytes:
                # Too long to ever return: count it once, drop what we hold,
                # and discard the rest of the line as it arrives.
                if not skipping:
                    stats.oversize_lines += 1
                skipping = True
                position += len(pending)
                pending = b""
        stats.bytes_read = position - offset
        stats.records = len(records)
        return ReadResult(records, position, stats)


def _parse_into(line: bytes, records: list[dict[str, Any]], stats: ReadStats) -> None:
    line = line.strip()
    if not line:
        return
    try:
        value = json.loads(line.decode("utf-8", errors="replace"))
    except ValueError:
        stats.invalid_lines += 1
        return
    if isinstance(value, dict):
        records.append(value)
    else:
        stats.invalid_lines += 1


def iter_records(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """Every complete record of a transcript, in file order (one-shot read)."""
    yield from read_records(path).records


def subagent_transcripts(session_transcript: str | os.PathLike[str]) -> list[Path]:
    """The subagent streams that belong to a session transcript, sorted by name.

    Current CLIs write ``<dir>/<session>/subagents/agent-<id>.jsonl``; older ones
    wrote ``agent-<id>.jsonl`` beside the session file (those are matched by the
    ``sessionId`` of their first record).
    """
    main = Path(session_transcript)
    session_id = main.stem
    found: list[Path] = []
    nested = main.parent / session_id / "subagents"
    if nested.is_dir():
        found.extend(sorted(nested.glob("agent-*.jsonl")))
    for candidate in sorted(main.parent.glob("agent-*.jsonl")):
        first = read_records(candidate, max_bytes=_CHUNK).records[:1]
        if first and first[0].get("sessionId") == session_id:
            found.append(candidate)
    return found
