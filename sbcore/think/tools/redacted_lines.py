"""A file's lines after redacting the file as a whole, still numbered as in the file.

Redacting line by line misses every secret that spans lines: of a PEM private key only the ``BEGIN`` line
looks like a key, and the base64 body lines are ordinary text; a JSON credentials file spreads a key over a
quoted multi-line value. So the file tools redact the whole text once, and only then cut it into lines.

A redaction that swallowed line breaks leaves fewer lines than the file has, while Read and Grep must keep
printing the file's own line numbers (the model pages with ``offset``, and quotes ``path:line``). So the
redacted text is realigned with the original in one linear pass: the marker stays on the line where the
secret began, and each line break the secret swallowed comes back as a line reading :data:`CONTINUED`.
Every line shown therefore comes from the redacted text: reading with an ``offset`` that lands in the
middle of a key block, or grepping for part of its body, finds the marker, never the body.
"""

from __future__ import annotations

import re

from sbcore.observe.redact import redact

CONTINUED = "[… continues the redacted secret above]"
"""What a line inside a redacted multi-line secret reads."""

_MARKER = re.compile(r"(\[REDACTED:[a-z0-9-]*\])")
_PEM_END = re.compile(r"-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_BEGIN = re.compile(r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")


def redact_fragment(text: str) -> str:
    """``redact`` for a piece cut out of a longer output (the tail Run keeps): a piece that starts inside a
    private-key block has the block's ``END`` but not its ``BEGIN``, so the redactor cannot see a key; the
    body up to that ``END`` is replaced too."""
    end = _PEM_END.search(text)
    if end is not None and _PEM_BEGIN.search(text, 0, end.start()) is None:
        text = "[REDACTED:private-key]" + text[end.end() :]
    return redact(text)


def split_lines(text: str) -> list[str]:
    """``text`` cut at ``\\n`` (a final newline ends the last line, it does not start another), with
    Windows ``\\r`` line ends removed."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def redacted_lines(text: str) -> list[str]:
    """The lines of ``redact(text)``, one for each line of ``text``."""
    original = split_lines(text)
    cleaned = redact(text)
    lines = split_lines(cleaned)
    if len(lines) == len(original):
        # Markers hold no line break, so equal counts mean no redaction crossed a line: lines pair 1:1.
        return lines
    realigned = split_lines(_realign(text, cleaned))
    if len(realigned) == len(original):
        return realigned
    # Not expected (redaction only replaces spans with markers); never show original text to recover.
    return lines + [CONTINUED] * (len(original) - len(lines))


def _realign(text: str, cleaned: str) -> str:
    """``cleaned`` with, after each marker, one ``CONTINUED`` line for every line break the secret swallowed.

    ``cleaned`` is ``text`` with spans replaced by markers, so it alternates literal pieces of ``text`` and
    markers. Walking both in one pass: a piece is where ``text`` continues, a run of markers stands for the
    original text up to where the next piece resumes (its first occurrence: a secret rarely contains the text
    that follows it, and when it does only the numbering inside the run shifts, never the content shown).
    """
    parts = _MARKER.split(cleaned)
    pieces, markers = parts[0::2], parts[1::2]
    if not text.startswith(pieces[0]):
        return cleaned
    out = [pieces[0]]
    position = len(pieces[0])
    run: list[str] = []
    for index, marker in enumerate(markers):
        piece = pieces[index + 1]
        run.append(marker)
        if not piece and index + 1 < len(markers):
            continue  # adjacent markers: one run
        end = text.find(piece, position + 1) if piece else len(text)
        if end < 0:
            return cleaned
        swallowed = text.count("\n", position, end)
        out.append("".join(run) + ("\n" + CONTINUED) * swallowed + piece)
        position, run = end + len(piece), []
    return "".join(out)
