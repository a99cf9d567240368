"""A successful command result whose only failure mark is its own ``"is_error"`` key.

The projector's fast path parses a successful command result only when its bytes hold a failure mark
(:data:`sbcore.observe.outcome.FAILURE_MARKS`), since only a mark in the result's text can make the
parsed path read it as failed. One mark, ``rror``, is also spelt by the key every result block may
carry, ``"is_error":false``: searched over the record's bytes, it found that key and sent most such
results to the parser for nothing (in the shared corpus, 284 records a pass, which all projected to
nothing).

:func:`marks_only_in_keys` says when every mark in a record is such a key, and the record is certainly
one the parsed path projects to nothing: a single result block, of the one command found waiting for
its outcome, with no ``\\u`` escape (which could spell a mark in the text that its bytes do not show),
and every ``is_error`` plainly false. Anything less certain is left to the parser, as before.
"""

from __future__ import annotations

from sbcore.observe.outcome import FAILURE_MARKS

_OTHER_MARKS = tuple(mark.encode() for mark in FAILURE_MARKS if mark != "rror")
_KEY = b'"is_error"'
_CALL_ID = b'"tool_use_id":"'


def marks_only_in_keys(data: bytes, start: int, end: int, call_id: bytes) -> bool:
    """Whether ``data[start:end]``, a record holding one result of the command ``call_id``, holds no
    failure mark but in ``"is_error":false`` keys (and nothing that could hide one).

    ``call_id`` must be the only waiting command the record names (the caller checks): a record let go
    unparsed ends the wait of every command it names, where the parsed path ends only its own block's.
    """
    find = data.find
    if data.count(b'"tool_use_id"', start, end) != 1:
        return False  # more than one result block (or none named): the parser decides
    at = find(_CALL_ID, start, end)
    if at < 0 or not data.startswith(call_id + b'"', at + len(_CALL_ID)):
        return False  # the one block is not the waiting command's
    if find(b"\\u", start, end) >= 0 or any(find(mark, start, end) >= 0 for mark in _OTHER_MARKS):
        return False
    at = find(b"rror", start, end)
    while at >= 0:
        # Where ``"is_error"`` opens, if this is that key. Its closing quote is unescaped: it ends a
        # string, which ``:false`` then makes a key (its opening quote may be escaped inside a longer
        # key), and a key is never a result's text.
        key = at - 5
        value = data[key + len(_KEY) : key + len(_KEY) + 8].lstrip(b" :")
        if key < start or not data.startswith(_KEY, key, end) or not value.startswith(b"false"):
            return False
        at = find(b"rror", at + 4, end)
    return True
