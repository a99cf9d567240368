"""The projector's line parser gives the standard library's answer for every line, orjson or not.

``parse_record`` parses with orjson and hands the line to ``stdlib_record`` (the projector's original
path) wherever orjson's answer could differ; each edge case below names one such place. Values are
compared by ``repr``, which tells ``1`` from ``1.0``, ``0`` from ``-0.0`` and keeps key order.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sbcore.observe import project
from sbcore.observe.jsonline import DIGIT_RUN, MAX_OPENERS, parse_record, stdlib_record
from sbcore.observe.project import Projector

TRANSCRIPTS = Path(__file__).parent / "transcripts"


def _nested(depth: int) -> bytes:
    return b'{"type":"assistant","deep":' + b"[" * depth + b"]" * depth + b"}"


def _shown(value: Any) -> str:
    try:
        return repr(value)
    except RecursionError:  # a value nested too deeply to show is still told apart from None
        return "<nested too deeply to repr>"


def _same(line: bytes) -> None:
    assert _shown(parse_record(line)) == _shown(stdlib_record(line))


# Lines orjson refuses that the stdlib path reads: the JSONDecodeError must send them to it.
REFUSED_BY_ORJSON = {
    "invalid UTF-8": b'{"a":"caf\xe9"}',
    "UTF-8 of a surrogate": b'{"a":"\xed\xa0\x80"}',
    "lone high surrogate escape": b'{"a":"\\ud800"}',
    "lone low surrogate escape": b'{"a":"x\\udc00"}',
    "NaN": b'{"a":NaN}',
    "Infinity": b'{"a":[Infinity,-Infinity]}',
    "a number beyond a double": b'{"a":1e400}',
    "a form feed after the object": b'{"a":1}\x0c',
    "a no-break space before the object": b'\xc2\xa0{"a":1}',
    "a line separator after the object": b'{"a":1}\xe2\x80\xa8',
    "nested deeper than orjson's 1024": _nested(1100),
}
# Lines orjson reads differently from the stdlib: the screens must send them to it.
READ_DIFFERENTLY = {
    "an integer beyond 64 bits": b'{"a":18446744073709551616}',
    "a negative integer beyond 64 bits": b'{"a":-9223372036854775809}',
    "a huge integer": b'{"usage":{"input_tokens":' + b"9" * 40 + b"}}",
    # the stdlib runs out of stack below orjson's 1024 (at the recursion limit less the caller's frames)
    "nested just below orjson's limit": _nested(1015),
}
# Lines both read alike, or both refuse.
OTHER_EDGES = {
    "leading and trailing JSON whitespace": b' \t{"a":1}\r ',
    "trailing garbage": b'{"a":1} x',
    "two objects": b'{"a":1}{"b":2}',
    "a byte order mark": b'\xef\xbb\xbf{"a":1}',
    "a duplicated key": b'{"b":1,"a":2,"b":3}',
    "an escaped NUL": b'{"a":"\\u0000"}',
    "a raw control character": b'{"a":"\x01"}',
    "an escaped pair": b'{"a":"\\ud83d\\ude00"}',
    "64-bit edges": b'{"a":18446744073709551615,"b":-9223372036854775808,"c":-0,"d":-0.0}',
    "a long mantissa": b'{"a":0.1000000000000000055511151231257827021181583404541015625}',
    "an underflow": b'{"a":1e-400,"b":2.2250738585072011e-308}',
    "a digit run in a string": b'{"a":"' + b"7" * DIGIT_RUN + b'"}',
    "many shallow lists": b'{"a":[' + b",".join([b"[]"] * (MAX_OPENERS + 10)) + b"]}",
    "a list": b'[{"a":1}]',
    "a string": b'"text"',
    "a number": b"12",
    "blank": b"   ",
    "empty": b"",
}


@pytest.mark.parametrize("line", REFUSED_BY_ORJSON.values(), ids=REFUSED_BY_ORJSON.keys())
def test_a_line_orjson_refuses_is_read_by_the_stdlib(line: bytes) -> None:
    with pytest.raises(orjson.JSONDecodeError):
        orjson.loads(line)
    _same(line)


@pytest.mark.parametrize("line", READ_DIFFERENTLY.values(), ids=READ_DIFFERENTLY.keys())
def test_a_line_orjson_reads_differently_is_read_by_the_stdlib(line: bytes) -> None:
    assert _shown(orjson.loads(line)) != _shown(stdlib_record(line))
    _same(line)


@pytest.mark.parametrize("line", OTHER_EDGES.values(), ids=OTHER_EDGES.keys())
def test_other_edges_read_alike(line: bytes) -> None:
    _same(line)


def test_big_integers_stay_integers() -> None:
    record = parse_record(b'{"a":18446744073709551616,"b":-9223372036854775809,"c":18446744073709551615}')
    assert record == {"a": 2**64, "b": -(2**63) - 1, "c": 2**64 - 1}
    assert all(type(value) is int for value in record.values())


def test_stdlib_reading_of_the_edges() -> None:
    """What the original path makes of a few edges (so the comparisons above compare something)."""
    assert stdlib_record(b'{"a":"caf\xe9"}') == {"a": "caf\ufffd"}
    assert stdlib_record(b'{"a":"\\ud800"}') == {"a": "\ufffd"}  # a lone surrogate has no UTF-8 form
    assert math.isnan(stdlib_record(b'{"a":NaN}')["a"])  # type: ignore[index]
    assert stdlib_record(b'{"a":1}\x0c') == {"a": 1}
    assert stdlib_record(b'{"a":1} x') is None
    assert stdlib_record(b'{"a":1e400}') == {"a": math.inf}
    assert stdlib_record(_nested(1015)) is None  # RecursionError: a bad line
    assert stdlib_record(_nested(1100)) is None


def test_a_lone_surrogate_escape_becomes_a_replacement_character_keys_included() -> None:
    line = b'{"a":"x\\ud800y","\\udc00k":["\\ud83d\\ude00", {"b": "\\uDBFF"}],"n":1}'
    assert parse_record(line) == {"a": "x\ufffdy", "\ufffdk": ["\U0001f600", {"b": "\ufffd"}], "n": 1}


def test_a_projected_lone_surrogate_reaches_every_encoder_as_valid_utf8() -> None:
    """A truncating writer's lone surrogate must not break what encodes an observation later (a topic
    fingerprint, the spool, a request body)."""
    from sbcore.observe.spool import encode
    from sbcore.observe.steps import fingerprint

    line = (
        b'{"type":"assistant","uuid":"u1","message":{"id":"m1","role":"assistant","content":'
        b'[{"type":"text","text":"half an emoji \\ud83d then more"}]}}\n'
    )
    [observation] = Projector().feed_bytes(line)
    assert "\ufffd" in observation.text
    observation.text.encode("utf-8")
    assert fingerprint(observation)
    assert encode([observation]).decode("utf-8")


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**65), max_value=2**65)
    | st.floats()
    | st.text(st.characters(codec="utf-8"), max_size=8)
    # surrogates too: written escaped, or (ensure_ascii off) as bytes that are not UTF-8
    | st.text(st.characters(categories=["Cs", "Ll", "Nd", "Zs", "So"]), max_size=8)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)
# JSON's whitespace, the other whitespace ``str.isspace`` knows (which only the stdlib path allows), garbage
_WRAPPERS = st.sampled_from(
    [" ", "\t", "\r", "\n", "", "\x0c", "\x1f", "\x85", "\xa0", "\u2028", "x", "]", "{}"]
)


def _line(value: Any, ascii_only: bool, compact: bool, before: str, after: str) -> bytes:
    separators = (",", ":") if compact else (", ", ": ")
    text = json.dumps({"v": value}, ensure_ascii=ascii_only, separators=separators)
    return (before + text + after).encode("utf-8", "surrogatepass")


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.booleans(), st.booleans(), _WRAPPERS, _WRAPPERS)
@example({"big": 2**64, "neg": -(2**63) - 1}, True, True, "", "")
@example([float("nan"), float("inf")], True, True, "", "")
@example("\ud800", False, True, "", "")
@example("\ud800", True, True, "", "")
def test_parse_record_reads_generated_lines_as_the_stdlib_does(
    value: Any, ascii_only: bool, compact: bool, before: str, after: str
) -> None:
    _same(_line(value, ascii_only, compact, before, after))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40))
@example(b'{"a":1}\xff')
@example(b'{"\xff":1}')
def test_parse_record_reads_any_bytes_as_the_stdlib_does(line: bytes) -> None:
    _same(line)
    _same(b'{"a":' + line + b"}")


def _projection(lines: list[bytes]) -> tuple[list[dict[str, Any]], Any]:
    projector = Projector()
    observations = [obs.to_json() for obs in projector.feed_bytes(b"\n".join(lines))]
    return observations, projector.stats


def test_the_projection_is_the_same_with_either_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Test transcripts with every edge line among their records: observations and stats match the
    stdlib-only projection."""
    lines = [line for path in sorted(TRANSCRIPTS.glob("*.jsonl")) for line in path.read_bytes().split(b"\n")]
    edges = [*REFUSED_BY_ORJSON.values(), *READ_DIFFERENTLY.values(), *OTHER_EDGES.values()]
    assistant = b'{"type":"assistant","uuid":"u%d","message":{"role":"assistant","content":[%s]}}'
    usage_big = b'{"type":"assistant","uuid":"big","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t9","name":"Read","input":{"file_path":"a.py","offset":18446744073709551616}}],"usage":{"input_tokens":18446744073709551617}}}'  # noqa: E501
    mixed = [*lines[:40], *edges, usage_big, *lines[40:]]
    quoted = [b'{"type":"text","text":"' + edge.replace(b'"', b"'") + b'"}' for edge in edges]
    mixed += [assistant % (index, block) for index, block in enumerate(quoted)]
    fast = _projection(mixed)
    monkeypatch.setattr(project, "parse_record", stdlib_record)
    slow = _projection(mixed)
    assert fast == slow
    observations, stats = fast
    assert stats.invalid_lines > 0 and len(observations) > len(edges)
    assert any("offset=18446744073709551616" in obs["text"] for obs in observations)


def test_a_line_orjson_writes_back_is_not_screened(monkeypatch: pytest.MonkeyPatch) -> None:
    """A compact line, as the transcript writer writes one, is orjson's reading whatever digit runs and
    brackets it holds: writing it back shows it holds no integer orjson reads differently."""
    from sbcore.observe import jsonline

    def refuse(line: bytes) -> None:
        raise AssertionError("screened or read by the stdlib")

    monkeypatch.setattr(jsonline, "_plain", refuse)
    monkeypatch.setattr(jsonline, "stdlib_record", refuse)
    digits = b'{"id":"' + b"7" * (DIGIT_RUN + 5) + b'","n":1234567890123456789}'
    brackets = b'{"a":[' + b",".join([b"[]"] * (MAX_OPENERS + 10)) + b"]}"
    assert parse_record(digits) == {"id": "7" * (DIGIT_RUN + 5), "n": 1234567890123456789}
    assert parse_record(brackets) == {"a": [[]] * (MAX_OPENERS + 10)}


def test_a_line_orjson_writes_otherwise_is_still_screened() -> None:
    """Whitespace, an escape or a number written another way: the screens judge the line, as before."""
    assert type(parse_record(b'{"a": 18446744073709551616}')["a"]) is int  # type: ignore[index]
    assert type(parse_record(b'{"a":"\\u00e9","b":18446744073709551616}')["b"]) is int  # type: ignore[index]
    assert parse_record(_nested(400)) is not None
    assert parse_record(_nested(1015)) is None
