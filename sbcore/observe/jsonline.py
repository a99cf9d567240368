"""One transcript line to its record: orjson when it gives the standard library's answer, else the stdlib.

Parsing is the largest single cost of a projection pass (a third of a transcript's bytes are lines the
projector keeps and parses), and orjson parses those bytes in about half the time the standard library
takes to decode them to text and parse that (three quarters, with the screens below). The projection
must not change with the parser, so orjson's answer is used only where it is certainly the one
:func:`stdlib_record` would give; everywhere else the line goes through :func:`stdlib_record`, which is
the projector's original path, unchanged:

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

A lone surrogate escape (``"\\ud83d"`` with no partner, as a truncating writer leaves one) has no UTF-8
form: every later consumer that encodes the text (a fingerprint, a spool, a request body) would trip on it.
The stdlib path, the only one that accepts it, replaces each lone surrogate with U+FFFD, as invalid UTF-8
already is.

Both screens are one ``bytes.translate`` and one C-level search over the line, which cost about as much as
parsing it. Most lines need neither: a line orjson writes back byte for byte (:func:`_written_back`; the
transcript writer's compact JSON is what orjson writes) holds neither a read-differently integer nor deep
nesting, and writing it costs half of screening it. This module is not on the hook path (the hooks import
only the standard library; an import-linter contract forbids ``orjson`` there).
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

DIGIT_RUN = 19
"""Digits in a row from which an integer may lie beyond 64 bits (where orjson reads it as a float)."""
MAX_OPENERS = 500
"""``[`` and ``{`` in a line from which the stdlib decides (it may run out of stack on such nesting)."""

_DECODER = json.JSONDecoder()
# Each digit becomes "0", every other byte a space; "[" and "{" are deleted (and counted by the shortfall).
_DIGIT_SCREEN = bytes(ord("0") if byte in b"0123456789" else ord(" ") for byte in range(256))
_DIGITS = b"0" * DIGIT_RUN
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def parse_record(line: bytes) -> dict[str, Any] | None:
    """The JSON object ``line`` holds, or ``None`` when it holds none (what :func:`stdlib_record` says)."""
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return stdlib_record(line)
    if type(value) is not dict or not (_written_back(value, line) or _plain(line)):
        return stdlib_record(line)
    return value


def _written_back(value: dict[str, Any], line: bytes) -> bool:
    """Whether orjson writes ``value`` (its reading of ``line``) back as exactly ``line``.

    Then the stdlib reads ``line`` alike. An integer beyond 64 bits, read as a float, would be written with
    a point or an exponent, never as the digits the line holds; and orjson writes no more than 254 levels
    of nesting (deeper, it raises), far below where the stdlib runs out of stack (:data:`MAX_OPENERS`).
    """
    try:
        return orjson.dumps(value) == line
    except orjson.JSONEncodeError:
        return False


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
    if _SURROGATE_ESCAPE.search(text) is None:
        return value
    try:
        cleaned: dict[str, Any] = _without_lone_surrogates(value)
    except RecursionError:
        return None
    return cleaned


def _without_lone_surrogates(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (keys included) replaced by U+FFFD."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_without_lone_surrogates(key): _without_lone_surrogates(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_without_lone_surrogates(item) for item in value]
    return value


def stdlib_object(data: bytes, start: int, end: int) -> Any:
    """``raw_decode`` of the text of ``data[start:end]``: the value it opens with, what follows ignored
    (``ValueError`` if none, ``RecursionError`` if nested too deeply).

    The projector's fast path reads a thinking-only record's usage this way. orjson is not used there:
    it reads whole documents only, and the few hundred records a pass that count their usage there
    gained nothing measurable from cutting the usage out for it."""
    value, _ = _DECODER.raw_decode(data[start:end].decode("utf-8", errors="replace"))
    return value
