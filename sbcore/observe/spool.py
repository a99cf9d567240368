"""The per-session spool of projected observations, and the tail that feeds it.

The spool is ``<data>/spool/<session>.jsonl``: one ``Observation.to_json()``
object per line, appended by whoever tails the transcript (the feed hook, the
worker) and read back by the worker from its own offset. Each batch is one
``O_APPEND`` write, so concurrent appenders never interleave inside a line,
and the reader's complete-lines rule (``sbcore.observe.reader``) hides a batch
that is still being written.

:class:`Tail` is the one place that moves data from a transcript stream into
the spool; its docstring explains why its steps happen in the order they do.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from sbcore import paths
from sbcore.observe.model import Observation, ObservationKind
from sbcore.observe.offsets import CorruptOffset, OffsetStore, StoredOffset
from sbcore.observe.reader import DEFAULT_MAX_LINE_BYTES, FileId, ReadStats, Record, end_of, read_records

DEFAULT_BATCH_BYTES = 4 * 1024 * 1024
_KINDS = frozenset(get_args(ObservationKind))
_OPTIONAL_TEXT = ("timestamp", "uuid", "tool", "tool_use_id")

Projection = Callable[[list[Record]], Sequence[Observation]]
"""Turns a batch of transcript records into observations (the projector)."""


@dataclass(slots=True)
class SpoolRead:
    """Observations read back from the spool, and the offset to resume from.

    ``stats`` are the reader's; a line that is valid JSON but not an
    observation is counted in ``stats.invalid_lines`` and skipped.
    """

    observations: list[Observation]
    offset: int
    stats: ReadStats = field(default_factory=ReadStats)
    file_id: FileId | None = None


class Spool:
    """One session's spool file (0600, in a 0700 directory)."""

    def __init__(self, session_id: str, data: Path | None = None) -> None:
        self.path = (data or paths.data_dir()) / "spool" / f"{paths.safe_name(session_id)}.jsonl"

    def append(self, observations: Sequence[Observation]) -> int:
        """Append ``observations`` as one write; returns the number of bytes written."""
        payload = encode(observations)
        self._write(payload)
        return len(payload)

    def _write(self, payload: bytes) -> None:
        if payload:
            paths.append_private(self.path, payload, line_start=True)

    def read(
        self,
        offset: int = 0,
        *,
        max_bytes: int | None = None,
        expect: FileId | None = None,
    ) -> SpoolRead:
        """Observations from byte ``offset``: complete lines only, same rules as the transcript reader."""
        result = read_records(self.path, offset, max_bytes=max_bytes, expect=expect)
        observations: list[Observation] = []
        for record in result.records:
            observation = _observation(record)
            if observation is None:
                result.stats.invalid_lines += 1
            else:
                observations.append(observation)
        result.stats.records = len(observations)
        return SpoolRead(observations, result.offset, result.stats, result.file_id)


def encode(observations: Sequence[Observation]) -> bytes:
    """The spool lines for ``observations`` (UTF-8 JSON, one object per line)."""
    return b"".join(_line(observation.to_json()) for observation in observations)


def _line(body: dict[str, Any]) -> bytes:
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode() + b"\n"
    except UnicodeEncodeError:
        # A lone surrogate (from a ``\\ud83d`` escape in the transcript) has no
        # UTF-8 form; ASCII escapes keep it, losslessly.
        return json.dumps(body, separators=(",", ":")).encode() + b"\n"


def _observation(record: Record) -> Observation | None:
    """``record`` as an Observation, or ``None`` if it is not one."""
    if record.get("kind") not in _KINDS or not isinstance(record.get("text"), str):
        return None
    if any(record.get(name) is not None and not isinstance(record[name], str) for name in _OPTIONAL_TEXT):
        return None
    if not isinstance(record.get("args", {}), dict):
        return None
    locators = record.get("locators", [])
    if not (isinstance(locators, list) and all(isinstance(item, str) for item in locators)):
        return None
    return Observation.from_json(record)


@dataclass(frozen=True, slots=True)
class TailStep:
    """What one :meth:`Tail.step` did.

    ``observations`` were appended to the spool; ``offset`` is the stream's
    new durable offset; ``gap`` is set when part of the transcript was
    skipped (offset missing or corrupt, transcript truncated or replaced) and
    says why, for the caller's log.
    """

    stream: str
    observations: list[Observation]
    offset: int
    stats: ReadStats
    gap: str | None = None


class Tail:
    """Follow one transcript stream of a session into the session's spool.

    One :meth:`step` runs, under an exclusive per-stream lock:

    1. load the stream's durable offset;
    2. read the complete records after it (at most ``batch_bytes``, softly);
    3. project them with the caller's function and encode the spool lines;
    4. persist the new offset (atomic rename);
    5. append the batch to the spool (one ``O_APPEND`` write).

    Why this order: steps 1-3 change nothing on disk, so a crash there simply
    repeats the batch next time. The offset is persisted *before* the append:
    a crash between 4 and 5 loses that one batch (a gap) but can never spool
    it twice, whereas appending first would re-spool the batch after a crash
    between the two writes. A crash during 5 can leave a torn last line; the
    next append starts on a fresh line (``line_start``) and spool readers
    count the fragment as one invalid line. The lock keeps parallel hooks from
    reading the same batch. If the projection raises, nothing is written and
    the offset does not move; the exception propagates to the caller.

    When there is no usable offset, ``if_missing`` decides: ``"end"`` (the
    default) treats it as lost and re-seeks to the transcript's current end,
    a gap but never a duplicate; ``"start"`` reads the stream from its first
    byte, for a stream the caller knows is new (a session it saw start, a
    subagent file it has just discovered). A corrupt offset file always
    re-seeks to the end, and the step's ``gap`` says so.
    """

    def __init__(
        self,
        session_id: str,
        transcript: str | Path,
        project: Projection,
        *,
        stream: str = "main",
        if_missing: Literal["start", "end"] = "end",
        batch_bytes: int | None = DEFAULT_BATCH_BYTES,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        data: Path | None = None,
    ) -> None:
        self.transcript = Path(transcript)
        self.project = project
        self.stream = stream
        self.if_missing = if_missing
        self.batch_bytes = batch_bytes
        self.max_line_bytes = max_line_bytes
        self.offsets = OffsetStore(session_id, data)
        self.spool = Spool(session_id, data)

    def step(self) -> TailStep:
        """Move one batch from the transcript to the spool (see the class docstring)."""
        with self.offsets.lock(self.stream):
            start, on_disk, gap = self._resume()
            result = read_records(
                self.transcript,
                start.offset,
                max_line_bytes=self.max_line_bytes,
                max_bytes=self.batch_bytes,
                expect=start.file_id,
            )
            if result.stats.gap:
                gap = _join(gap, f"transcript {self.transcript} was {result.stats.gap}: re-seeked to its end")
            observations = list(self.project(result.records)) if result.records else []
            payload = encode(observations)
            moved = StoredOffset(result.offset, result.file_id or start.file_id)
            if not on_disk or moved != start:
                self.offsets.save(self.stream, moved)
            self.spool._write(payload)
            return TailStep(self.stream, observations, result.offset, result.stats, gap)

    def catch_up(self) -> list[TailStep]:
        """Step until a step consumes nothing; returns every step taken (the last one is empty)."""
        steps = [self.step()]
        while steps[-1].stats.bytes_read > 0:
            steps.append(self.step())
        return steps

    def _resume(self) -> tuple[StoredOffset, bool, str | None]:
        """Where to read from, whether that came from disk, and why not if it did not."""
        try:
            stored = self.offsets.load(self.stream)
        except CorruptOffset as error:
            end = self._end()
            return end, False, f"offset lost ({error}): re-seeked to byte {end.offset} of {self.transcript}"
        if stored is not None:
            return stored, True, None
        if self.if_missing == "start":
            return StoredOffset(0), False, None
        end = self._end()
        if end.offset == 0:
            return end, False, None  # nothing written yet: starting at the end skips nothing
        reason = f"no stored offset for stream {self.stream!r}: skipped the first {end.offset} bytes"
        return end, False, f"{reason} of {self.transcript}"

    def _end(self) -> StoredOffset:
        return StoredOffset(*end_of(self.transcript))


def _join(first: str | None, second: str) -> str:
    return f"{first}; {second}" if first else second
