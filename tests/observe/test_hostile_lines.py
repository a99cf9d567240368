"""Deeply nested lines are bad lines, not RecursionErrors; whole files are read in bounded blocks."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sbcore.observe.blocks import LineBlocks
from sbcore.observe.measure import parse_lines
from sbcore.observe.project import Projector
from sbcore.observe.reader import read_records
from sbcore.safefile import NotRegularFile

GOOD = json.dumps(
    {
        "type": "assistant",
        "uuid": "u1",
        "message": {"role": "assistant", "content": [{"type": "text", "text": "hi"}]},
    }
)
TOO_DEEP = '{"type":"assistant","message":{"content":' + "[" * 100_000 + "]" * 100_000 + "}}"
# Parses (just under the parser's limit) but is too deep to walk recursively afterwards.
NEAR_LIMIT = (
    '{"type":"assistant","uuid":"u2","message":{"role":"assistant","content":[{"type":"tool_use","id":"t",'
    '"name":"Bash","input":{"command":"ls","x":' + "[" * 960 + "]" * 960 + "}}]}}"
)


def test_the_reader_counts_a_too_deep_line_as_invalid(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join([GOOD, TOO_DEEP, GOOD.replace("u1", "u3")]) + "\n")
    result = read_records(path)
    assert [record["uuid"] for record in result.records] == ["u1", "u3"]
    assert result.stats.invalid_lines == 1


@pytest.mark.parametrize("line", [TOO_DEEP, NEAR_LIMIT])
def test_the_projector_counts_a_too_deep_line_as_invalid(line: str) -> None:
    projector = Projector()
    observations = projector.feed_bytes("\n".join([GOOD, line, GOOD.replace("u1", "u3")]).encode())
    assert [o.text for o in observations] == ["[text] hi", "[text] hi"]
    assert projector.stats.invalid_lines == 1
    assert projector.stats.invalid_line_numbers == [2]


def test_a_thinking_record_with_a_too_deep_usage_is_a_bad_line() -> None:
    """The fast path reads a thinking-only record's usage alone; nested too deeply, it leaves the record
    to the parsed path, which counts a bad line (it used to raise RecursionError out of the projector)."""
    deep = (
        '{"parentUuid":null,"isSidechain":false,"sessionId":"s","message":{"model":"m","id":"msg_1",'
        '"type":"message","role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"x"}],'
        '"usage":{"input_tokens":1,"deep":' + "[" * 5000 + "]" * 5000 + '}},"type":"assistant","uuid":"u9"}'
    )
    projector = Projector()
    observations = projector.feed_bytes("\n".join([GOOD, deep, GOOD.replace("u1", "u3")]).encode())
    assert [o.text for o in observations] == ["[text] hi", "[text] hi"]
    assert projector.stats.invalid_line_numbers == [2] and projector.usage == {}


def test_measure_parsing_counts_a_too_deep_line_as_invalid() -> None:
    records, invalid = parse_lines("\n".join([GOOD, TOO_DEEP]).encode())
    assert (len(records), invalid) == (1, 1)


def test_blocks_end_at_line_breaks_and_report_an_unterminated_tail(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    lines = [f'{{"n": {i}, "pad": "{"x" * (i % 50)}"}}' for i in range(500)]
    path.write_text("\n".join(lines) + "\n" + '{"half": tr')
    blocks = LineBlocks(path, block_bytes=1000)
    got = list(blocks)
    assert all(block.endswith(b"\n") for block in got[:-1])
    assert got[-1] == b'{"half": tr' and blocks.incomplete_tail
    assert b"".join(got) == path.read_bytes() and blocks.bytes == path.stat().st_size
    assert list(LineBlocks(path, block_bytes=777).lines()) == [
        *(line.encode() for line in lines),
        b'{"half": tr',
    ]


def test_blocks_skip_and_count_a_line_over_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("a\n" + "x" * 5000 + "\nb\n")
    blocks = LineBlocks(path, block_bytes=1024, max_line_bytes=2048)
    assert list(blocks.lines()) == [b"a", b"b"]
    assert blocks.oversize_lines == 1 and not blocks.incomplete_tail


def test_blocks_refuse_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile, match="FIFO"):
        list(LineBlocks(fifo))
