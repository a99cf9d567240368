"""Cutting a note into recall chunks: one per heading, each with a ``path#anchor`` handle.

A note is recalled by the section that says something, not by the whole file, so a Markdown note is cut at
its ATX headings (``#`` to ``######``, never inside a fenced code block) and each section keeps the anchor a
renderer would give its heading (lower case, punctuation dropped, spaces to hyphens, ``-1``, ``-2`` for
repeats): ``docs/decisions/0004-cache.md#why-not-redis`` opens where the offer points. Text before the first
heading is a chunk whose handle is the path alone. A file that is not Markdown is one chunk.

Pure functions of the text, standard library only: the indexer calls them, the tests call them directly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CHUNK_CHARS = 4000
"""A section longer than this is cut: recall offers a pointer, and the tail of a long section rarely matters
to a keyword match more than its head does."""
MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SLUG_DROP = re.compile(r"[^\w\- ]", re.UNICODE)


@dataclass(frozen=True)
class Chunk:
    """One section of a note: ``anchor`` is "" for the text before the first heading."""

    anchor: str
    heading: str
    body: str

    def handle(self, path: str) -> str:
        """``path#anchor``, or ``path`` for a chunk with no heading."""
        return f"{path}#{self.anchor}" if self.anchor else path


def slug(heading: str) -> str:
    """The anchor a Markdown renderer gives ``heading`` (GitHub's rule, before de-duplication)."""
    return _SLUG_DROP.sub("", heading.strip().lower()).replace(" ", "-")


def chunk_note(path: str, text: str) -> list[Chunk]:
    """The chunks of the note at ``path`` (Markdown by heading, anything else whole); empty ones dropped."""
    if not path.lower().endswith(MARKDOWN_SUFFIXES):
        body = text.strip()
        return [Chunk("", "", _cap(body))] if body else []
    chunks: list[Chunk] = []
    used: dict[str, int] = {}
    anchor, heading, lines = "", "", []
    fence: str | None = None
    for line in text.splitlines():
        opened = _FENCE.match(line)
        if opened is not None:
            marker = opened.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
            elif marker.startswith(fence):
                fence = None
        found = _HEADING.match(line) if fence is None and opened is None else None
        if found is None:
            lines.append(line)
            continue
        _flush(chunks, anchor, heading, lines)
        heading, lines = found.group(2).strip(), []
        base = slug(heading) or "section"
        count = used.get(base, 0)
        used[base] = count + 1
        anchor = base if count == 0 else f"{base}-{count}"
    _flush(chunks, anchor, heading, lines)
    return chunks


def _flush(chunks: list[Chunk], anchor: str, heading: str, lines: list[str]) -> None:
    body = "\n".join(lines).strip()
    if body or heading:
        chunks.append(Chunk(anchor, heading, _cap(body)))


def _cap(text: str) -> str:
    return text if len(text) <= MAX_CHUNK_CHARS else text[:MAX_CHUNK_CHARS]
