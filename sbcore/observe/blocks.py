"""Reading a whole transcript in blocks of complete lines, in bounded memory.

``project``, ``measure`` and ``replay`` read files a user names, and a transcript of a days-long session
runs to hundreds of megabytes. Reading it whole (``read_bytes``) would hold all of it, and every record
parsed from it, at once. :class:`LineBlocks` hands out blocks of about ``block_bytes`` that always end at a
line break (a line longer than a block is carried into the next), so a caller that projects or parses block
by block keeps one block in memory. A line longer than ``max_line_bytes`` is skipped and counted, as the
worker's reader does, so a single giant line cannot make a block grow without bound.

The file is opened with :func:`sbcore.safefile.open_regular`: a FIFO or a device is refused with an
``OSError`` naming what it is, never opened for reading (so it cannot block).

The last block may end without a line break: a transcript being written can end in a half-written line.
``incomplete_tail`` says so after the iteration, so a caller can call it what it is rather than "invalid".
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from sbcore.observe.reader import DEFAULT_MAX_LINE_BYTES
from sbcore.safefile import open_regular

BLOCK_BYTES = 4 * 1024 * 1024


class LineBlocks:
    """The blocks of one file; iterate once. Counters are final once the iteration ends."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        block_bytes: int = BLOCK_BYTES,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    ) -> None:
        self.path = path
        self.block_bytes = block_bytes
        self.max_line_bytes = max_line_bytes
        self.bytes = 0
        self.oversize_lines = 0
        self.incomplete_tail = False

    def __iter__(self) -> Iterator[bytes]:
        with open_regular(self.path) as handle:
            pending = b""
            skipping = False
            while chunk := handle.read(self.block_bytes):
                self.bytes += len(chunk)
                if skipping:  # the rest of an oversize line
                    newline = chunk.find(b"\n")
                    if newline < 0:
                        continue
                    chunk, skipping = chunk[newline + 1 :], False
                data = pending + chunk if pending else chunk
                cut = data.rfind(b"\n")
                if cut >= 0:
                    yield data[: cut + 1]
                    pending = data[cut + 1 :]
                else:
                    pending = data
                if len(pending) > self.max_line_bytes:
                    self.oversize_lines += 1
                    pending, skipping = b"", True
            if pending:
                self.incomplete_tail = True
                yield pending

    def lines(self) -> Iterator[bytes]:
        """Every line (without its line break), in file order."""
        for block in self:
            lines = block.split(b"\n")
            if block.endswith(b"\n"):
                lines.pop()
            yield from lines
