"""One transcript line to its record: orjson when it gives the standard library's answer, else the stdlib.

Parsing is the largest single cost of a projection pass (a third of a transcript's bytes are lines the
projector keeps and parses), and orjson parses those bytes in about two thirds of the time the standard
library takes to decode them to text and parse that. The projection must not change with the parser, so
orjson's answer is used only where it is certainly the one :func:`stdlib_record` would give; everywhere
else the line goes through :func:`stdlib_record`, which is the projector's original path, unchanged:

* orjson refuses what RFC 8259 refuses and the stdlib path accepts (invalid UTF-8, which the stdlib path
  replaces; lone surrogate escapes; ``NaN``/``Infinity`` and numbers beyond a double; a byte order mark;
  leading or trailing whitespace that is not JSON's, such as a form feed; nesting deeper than 1024): its
  ``JSONDecodeError`` sends the line to the stdlib.
* orjson reads an integer beyond 64 bits as a float where the stdlib keeps an ``int``: a line holding
  a run of :data:`DIGIT_RUN` digits (anywhere, strings included) goes to the stdlib.
* the stdlib refuses (``RecursionError``) nesting deeper than the interpreter's recursion limit less the
  caller's stack, below orjson's 1024: a line holding :data:`MAX_OPENERS` or more ``[``/``{`` goes to the
  stdlib. That bound is exact while the caller's stack is shallower than the recursion limit less
  ``MAX_OPENERS`` (500 frames by default), which the projector's callers are by far.
* a value that is not an object goes to the stdlib, so a bad line is judged in one place.

Both screens are one ``bytes.translate`` and one C-level search over the line. This module is not on the
hook path (the hooks import only the standard library; an import-linter contract forbids ``orjson``
there).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

DIGIT_RUN = 19
"""Digits in a row that may make an integer orjson reads as a float (64-bit integers have up to 19 or 20)."""
MAX_OPENERS = 500
"""``[`` and ``{`` in a line from which the stdlib decides (it may run out of stack on such nesting)."""
LEADING_BRACES = 64
"""Closing braces :func:`leading_object` looks through (a message's usage holds a handful)."""

_DECODER = json.JSONDecoder()
# Each digit becomes "0", every other byte a space; "[" and "{" are deleted (and counted by the shortfall).
_DIGIT_SCREEN = bytes(ord("0") if byte in b"0123456789" else ord(" ") for byte in range(256))
_DIGITS = b"0" * DIGIT_RUN


def parse_record(line: bytes) -> dict[str, Any] | None:
    """The JSON object ``line`` holds, or ``None`` when it holds none (what :func:`stdlib_record` says)."""
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return stdlib_record(line)
    if type(value) is not dict or not _plain(line):
        return stdlib_record(line)
    return value


def leading_object(data: bytes, start: int, end: int) -> Any:
    """The JSON object opening at ``data[start]``, as ``raw_decode`` of the text of ``data[start:end]``
    reads it (what follows the object is ignored); ``ValueError`` when none can be read there.

    The object ends at the first ``}`` where the braces from ``start`` balance. Braces inside strings
    can only mislead that count into a slice that is not one whole object, which orjson refuses; a
    slice orjson reads whole and the screens pass is exactly the object the stdlib would read. Anything
    else, and an object with more than :data:`LEADING_BRACES` closing braces, is left to
    :func:`stdlib_object`.
    """
    opened = closed = 0
    position = start
    close = data.find(b"}", start, end) if data.startswith(b"{", start) else -1
    while close >= 0 and closed < LEADING_BRACES:
        opened += data.count(b"{", position, close)
        closed += 1
        if opened == closed:
            piece = data[start : close + 1]
            try:
                value = orjson.loads(piece)
            except orjson.JSONDecodeError:
                break
            if _plain(piece):
                return value
            break
        position = close + 1
        close = data.find(b"}", position, end)
    return stdlib_object(data, start, end)


def stdlib_object(data: bytes, start: int, end: int) -> Any:
    """``raw_decode`` of the text of ``data[start:end]``: the value it opens with (``ValueError`` if none)."""
    value, _ = _DECODER.raw_decode(data[start:end].decode("utf-8", errors="replace"))
    return value


def _plain(piece: bytes) -> bool:
    """Whether ``piece`` (which orjson read) holds no long digit run and too few brackets to nest deep.

    One ``translate`` does both: digits to ``0``, the rest to spaces, brackets deleted. A deleted bracket
    may join two digit runs into one; that only sends a line to the stdlib that did not need to go.
    """
    screen = piece.translate(_DIGIT_SCREEN, b"[{")
    return len(piece) - len(screen) < MAX_OPENERS and screen.find(_DIGITS) < 0


def stdlib_record(line: bytes) -> dict[str, Any] | None:
    """The standard library's reading: invalid UTF-8 replaced, whitespace around the object allowed (any
    Unicode whitespace), ``NaN``, big integers and deep nesting up to the stack's limit accepted."""
    text = line.decode("utf-8", errors="replace")
    if text[:1].isspace():
        text = text.lstrip()
    try:
        value, stop = _DECODER.raw_decode(text)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser's stack
        return None
    if not isinstance(value, dict) or (stop != len(text) and not text[stop:].isspace()):
        return None
    return value
