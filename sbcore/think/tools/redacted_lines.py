"""A file's lines after redacting the file as a whole, still numbered as in the file.

Redacting line by line misses every secret that spans lines: of a PEM private key only the ``BEGIN`` line
looks like a key, and the base64 body lines are ordinary text; a JSON credentials file spreads a key over a
quoted multi-line value. So the file tools redact the whole text once, and only then cut it into lines.

A redaction that swallowed line breaks leaves fewer lines than the file has, while Read and Grep must keep
printing the file's own line numbers (the model pages with ``offset``, and quotes ``path:line``). So the
redacted lines are aligned back to the original ones: unchanged lines pair up, and within a changed stretch
the redacted lines fill the first original lines and the remaining ones read :data:`CONTINUED`. Every line
shown therefore comes from the redacted text: reading with an ``offset`` that lands in the middle of a key
block, or grepping for part of its body, finds the marker, never the body.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from sbcore.observe.redact import redact

CONTINUED = "[… continues the redacted secret above]"
"""What a line inside a redacted multi-line secret reads."""

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
    cleaned = split_lines(redact(text))
    if len(cleaned) == len(original):
        # Markers hold no line break, so equal counts mean no redaction crossed a line: lines pair 1:1.
        return cleaned
    return _align(original, cleaned)


def _align(original: list[str], cleaned: list[str]) -> list[str]:
    """Pair ``cleaned`` (fewer lines) with ``original``: common head and tail, then difflib on the rest."""
    head = 0
    limit = min(len(original), len(cleaned))
    while head < limit and original[head] == cleaned[head]:
        head += 1
    tail = 0
    while tail < limit - head and original[-1 - tail] == cleaned[-1 - tail]:
        tail += 1
    middle_a = original[head : len(original) - tail]
    middle_b = cleaned[head : len(cleaned) - tail]
    out = cleaned[:head]
    matcher = SequenceMatcher(None, middle_a, middle_b, autojunk=False)
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend(middle_b[b1:b2])
            continue
        if tag == "insert":
            # Redacted text with no original line of its own: it belongs to the line before.
            if out:
                out[-1] = " ".join([out[-1], *middle_b[b1:b2]])
            else:
                out.append(" ".join(middle_b[b1:b2]))
            continue
        span = a2 - a1
        taken = middle_b[b1:b2][:span]
        if b2 - b1 > span:  # more redacted lines than original ones: fold the excess into the last
            taken[-1] = " ".join(middle_b[b1 + span - 1 : b2])
        out.extend(taken)
        out.extend([CONTINUED] * (span - len(taken)))
    out.extend(cleaned[len(cleaned) - tail :] if tail else [])
    if len(out) > len(original):  # an insert before any line: keep the count, fold into the first
        out = [" ".join(out[: len(out) - len(original) + 1]), *out[len(out) - len(original) + 1 :]]
    return out
