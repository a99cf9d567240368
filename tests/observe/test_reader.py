"""The transcript reader: complete lines only, bad input counted, never a duplicate."""

from __future__ import annotations

import itertools
import json
import os
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbcore.observe import reader
from sbcore.observe.reader import ReadResult, end_of, iter_records, read_records, subagent_transcripts

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
CORPUS = SHARED / "corpus"


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False).encode() + b"\n"


def _write(path: Path, data: bytes) -> None:
    with open(path, "ab") as handle:
        handle.write(data)


def _read_all(
    path: Path, offset: int = 0, **kwargs: Any
) -> tuple[list[dict[str, Any]], int, list[ReadResult]]:
    """Read until a read consumes nothing; returns records, final offset and every result."""
    records: list[dict[str, Any]] = []
    results: list[ReadResult] = []
    while True:
        result = read_records(path, offset, **kwargs)
        results.append(result)
        records.extend(result.records)
        if result.offset == offset:
            return records, offset, results
        offset = result.offset


def test_partial_last_line_waits_for_its_newline(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    first = _line({"type": "user", "n": 1})
    second = _line({"type": "assistant", "n": 2})
    _write(path, first + second[:10])

    result = read_records(path)
    assert [r["n"] for r in result.records] == [1]
    assert result.offset == len(first)  # the start of the incomplete line

    again = read_records(path, result.offset)
    assert again.records == [] and again.offset == len(first)

    _write(path, second[10:])
    done = read_records(path, result.offset)
    assert [r["n"] for r in done.records] == [2]
    assert done.offset == len(first) + len(second)
    assert done.stats.bytes_read == len(second)


def test_invalid_utf8_is_replaced_and_the_record_kept(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    _write(path, b'{"type":"user","text":"caf\xc3\xa9 \xff\xfe end"}\n{"type":"user","text":"ok"}\n')
    result = read_records(path)
    assert [r["text"] for r in result.records] == ["café \ufffd\ufffd end", "ok"]
    assert result.stats.replaced_lines == 1
    assert result.stats.invalid_lines == 0


def test_a_utf8_bom_does_not_lose_the_first_record(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    _write(path, b'\xef\xbb\xbf{"type":"user"}\n{"type":"assistant"}\n')
    result = read_records(path)
    assert [r["type"] for r in result.records] == ["user", "assistant"]
    assert result.stats.invalid_lines == 0


def test_blank_garbage_and_non_object_lines_are_counted_and_skipped(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    _write(path, b'\n   \r\n{"n":1}\nnot json\n[1,2]\n"text"\n42\n{"n":2\n{"n":3}\r\n')
    result = read_records(path)
    assert [r["n"] for r in result.records] == [1, 3]
    assert result.stats.blank_lines == 2
    assert result.stats.invalid_lines == 5
    assert result.stats.records == 2


def test_unknown_types_and_fields_pass_through_untouched(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    record = {"type": "future-kind", "nested": {"x": [1, None, True]}, "weird-field": 1.5}
    _write(path, _line(record))
    assert read_records(path).records == [record]


def test_oversize_lines_are_skipped_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    big = _line({"type": "user", "blob": "x" * 500})
    _write(path, _line({"n": 1}) + big + _line({"n": 2}))
    result = read_records(path, max_line_bytes=100)
    assert [r["n"] for r in result.records] == [1, 2]
    assert result.stats.oversize_lines == 1
    assert result.stats.invalid_lines == 0


def test_an_oversize_line_spanning_slices_is_never_parsed_as_garbage(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    # The blob is itself line-shaped JSON: a reader that resumed inside it would
    # parse its tail as records.
    blob = '{"n": 99}\\n' * 40
    _write(path, _line({"n": 1}) + _line({"blob": blob}) + _line({"n": 2}))
    records, offset, results = _read_all(path, max_line_bytes=100, max_bytes=37)
    assert [r["n"] for r in records] == [1, 2]
    assert offset == path.stat().st_size
    assert sum(r.stats.oversize_lines for r in results) == 1
    assert sum(r.stats.invalid_lines for r in results) == 0


def test_an_oversize_line_still_being_written_is_counted_once(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    _write(path, _line({"n": 1}) + b'{"blob":"' + b"y" * 300)
    first = read_records(path, max_line_bytes=100)
    assert [r["n"] for r in first.records] == [1]
    assert first.stats.oversize_lines == 1
    _write(path, b"y" * 300 + b'"}\n' + _line({"n": 2}))
    second = read_records(path, first.offset, max_line_bytes=100)
    assert [r["n"] for r in second.records] == [2]
    assert second.stats.oversize_lines == 0
    assert second.stats.invalid_lines == 0


def test_max_bytes_slices_and_always_makes_progress(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    lines = [_line({"n": n, "pad": "p" * (n * 7)}) for n in range(30)]
    _write(path, b"".join(lines))
    records, offset, results = _read_all(path, max_bytes=50)
    assert [r["n"] for r in records] == list(range(30))
    assert offset == path.stat().st_size
    # A line longer than the slice is still consumed whole: alone, one call per line.
    assert max(len(line) for line in lines) > 50
    assert all(r.stats.bytes_read <= 50 or len(r.records) == 1 for r in results)
    assert any(r.stats.bytes_read > 50 for r in results)
    assert all(r.stats.bytes_read > 0 for r in results[:-1])


def test_max_bytes_stops_at_a_line_boundary_within_the_bound(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    line = _line({"n": 0})
    _write(path, line * 10)
    result = read_records(path, max_bytes=len(line) * 3 + 2)
    assert len(result.records) == 3
    assert result.offset == len(line) * 3


def test_offset_past_the_end_reseeks_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    _write(path, _line({"n": 1}))
    result = read_records(path, 10_000)
    assert result.records == []
    assert result.offset == path.stat().st_size
    assert result.stats.gap == "truncated"
    _write(path, _line({"n": 2}))
    assert [r["n"] for r in read_records(path, result.offset).records] == [2]


def test_reseek_to_an_end_inside_a_line_skips_the_rest_of_that_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    _write(path, _line({"n": 1}) + b'{"n": 2, "half": "writ')
    result = read_records(path, 10_000)
    assert result.stats.gap == "truncated"
    _write(path, b'ten"}\n' + _line({"n": 3}))
    after = read_records(path, result.offset)
    assert [r["n"] for r in after.records] == [3]
    assert after.stats.invalid_lines == 0


def test_a_replaced_file_is_detected_by_its_identity(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    _write(path, _line({"n": 1}))
    first = read_records(path)
    replacement = tmp_path / "new.jsonl"
    _write(replacement, _line({"n": 10}) * 5)
    os.replace(replacement, path)
    result = read_records(path, first.offset, expect=first.file_id)
    assert result.stats.gap == "replaced"
    assert result.records == []
    assert result.offset == path.stat().st_size
    assert result.file_id != first.file_id


def test_a_recreated_file_is_detected_even_when_its_inode_is_reused(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    _write(path, _line({"n": 1, "session": "first"}))
    first = read_records(path)
    path.unlink()
    _write(path, _line({"n": 2, "session": "second"}) * 3)
    result = read_records(path, first.offset, expect=first.file_id)
    assert result.stats.gap == "replaced"
    assert result.records == []


def test_an_appended_file_keeps_its_identity(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    _write(path, _line({"n": 1}))
    first = read_records(path)
    _write(path, _line({"n": 2, "pad": "p" * 2000}) + _line({"n": 3}))
    second = read_records(path, first.offset, expect=first.file_id)
    assert [r["n"] for r in second.records] == [2, 3]
    assert second.stats.gap is None
    third = read_records(path, second.offset, expect=second.file_id)
    assert third.stats.gap is None
    assert end_of(path) == (path.stat().st_size, third.file_id)
    assert end_of(tmp_path / "absent") == (0, None)


def test_a_missing_file_reads_as_empty_at_the_same_offset(tmp_path: Path) -> None:
    result = read_records(tmp_path / "absent.jsonl", 123)
    assert (result.records, result.offset, result.file_id) == ([], 123, None)


def test_negative_offsets_are_rejected_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"t\.jsonl: negative transcript offset -1"):
        read_records(tmp_path / "t.jsonl", -1)


def test_final_reads_an_unterminated_last_record(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    _write(path, _line({"n": 1}) + b'{"n": 2}')
    assert [r["n"] for r in read_records(path).records] == [1]
    final = read_records(path, final=True)
    assert [r["n"] for r in final.records] == [1, 2]
    assert final.offset == path.stat().st_size
    assert [r["n"] for r in iter_records(path)] == [1, 2]


def test_final_does_not_parse_a_line_cut_by_the_slice(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    _write(path, _line({"n": 1}) + _line({"n": 2}))
    result = read_records(path, max_bytes=len(_line({"n": 1})) + 3, final=True)
    assert [r["n"] for r in result.records] == [1]
    assert result.stats.invalid_lines == 0


# --- subagent streams -------------------------------------------------------

SESSION = "11111111-2222-3333-4444-555555555555"
OTHER = "99999999-8888-7777-6666-555555555555"


def _sub_record(session: str, agent: str, n: int) -> dict[str, Any]:
    return {
        "type": "user" if n == 0 else "assistant",
        "isSidechain": True,
        "agentId": agent,
        "sessionId": session,
        "message": {"role": "user", "content": f"step {n}"},
    }


def test_subagent_transcripts_finds_both_layouts(tmp_path: Path) -> None:
    main = tmp_path / f"{SESSION}.jsonl"
    _write(main, _line({"type": "user", "sessionId": SESSION}))
    nested = tmp_path / SESSION / "subagents"
    nested.mkdir(parents=True)
    for agent in ("b2", "a1"):
        _write(
            nested / f"agent-{agent}.jsonl", b"".join(_line(_sub_record(SESSION, agent, n)) for n in range(3))
        )
    (nested / "agent-a1.meta.json").write_text('{"agentType": "general-purpose"}')
    # Legacy layout: agent files of every session sit beside the session files.
    _write(tmp_path / "agent-old.jsonl", _line(_sub_record(SESSION, "old", 0)))
    _write(tmp_path / "agent-foreign.jsonl", _line(_sub_record(OTHER, "foreign", 0)))
    _write(
        tmp_path / "agent-summary.jsonl",
        _line({"type": "summary", "summary": "s"}) + _line(_sub_record(SESSION, "summary", 0)),
    )
    _write(tmp_path / "agent-empty.jsonl", b"")
    _write(tmp_path / "agent-broken.jsonl", b"not json\n")

    found = subagent_transcripts(main)
    assert found == [
        nested / "agent-a1.jsonl",
        nested / "agent-b2.jsonl",
        tmp_path / "agent-old.jsonl",
        tmp_path / "agent-summary.jsonl",
    ]
    # Each one is a stream of its own, read from its own offset.
    for path in found[:2]:
        result = read_records(path)
        assert [r["message"]["content"] for r in result.records] == ["step 0", "step 1", "step 2"]
        assert {r["agentId"] for r in result.records} == {path.stem.removeprefix("agent-")}


def test_subagent_match_survives_a_long_first_line(tmp_path: Path) -> None:
    main = tmp_path / f"{SESSION}.jsonl"
    _write(main, b"")
    first = _sub_record(SESSION, "big", 0) | {"message": {"role": "user", "content": "z" * 200_000}}
    _write(tmp_path / "agent-big.jsonl", _line(first))
    assert subagent_transcripts(main) == [tmp_path / "agent-big.jsonl"]


def test_no_subagents_is_an_empty_list(tmp_path: Path) -> None:
    main = tmp_path / f"{SESSION}.jsonl"
    _write(main, _line({"type": "user"}))
    assert subagent_transcripts(main) == []


# --- property: incremental reading equals a one-shot read ---------------------

MAX_LINE = 120

_text = st.text(
    alphabet=st.sampled_from(list('ab ✓é中😀"\\\n\t')),
    max_size=12,
)


@st.composite
def _lines(draw: st.DrawFn) -> bytes:
    kind = draw(
        st.sampled_from(["record", "record", "record", "bad-utf8", "oversize", "blank", "garbage", "array"])
    )
    if kind == "record":
        return _line({"type": draw(st.sampled_from(["user", "assistant", "x-new"])), "t": draw(_text)})
    if kind == "bad-utf8":
        text = draw(_text).encode()
        cut = draw(st.integers(0, len(text)))
        return (
            b'{"type":"user","t":"'
            + json.dumps(text[:cut].decode(errors="ignore"))[1:-1].encode()
            + b'\xff"}\n'
        )
    if kind == "oversize":
        return _line(
            {"type": "user", "blob": draw(_text) + "é" * draw(st.integers(MAX_LINE // 2, MAX_LINE * 3))}
        )
    if kind == "blank":
        return draw(st.sampled_from([b"\n", b"  \n", b"\r\n"]))
    if kind == "garbage":
        return draw(st.sampled_from([b"{oops\n", b"nul\n", b'{"a":\n', b"]\n"]))
    return b"[1,2]\n"


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


def _stats(results: list[ReadResult]) -> tuple[int, ...]:
    return tuple(
        sum(getattr(r.stats, name) for r in results)
        for name in ("records", "blank_lines", "invalid_lines", "oversize_lines", "replaced_lines")
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(_lines(), min_size=1, max_size=25),
    cuts=st.lists(st.integers(0, 10_000), max_size=30),
    mid_char=st.lists(st.integers(0, 10_000), max_size=6),
    slices=st.lists(st.one_of(st.none(), st.integers(1, 90)), min_size=1, max_size=5),
    read_chunk=st.sampled_from([5, 16, 64, reader._CHUNK]),
)
def test_incremental_reads_equal_a_one_shot_read(
    lines: list[bytes], cuts: list[int], mid_char: list[int], slices: list[int | None], read_chunk: int
) -> None:
    data = b"".join(lines)
    # Also cut inside multi-byte UTF-8 sequences on purpose.
    continuation = [i for i, byte in enumerate(data) if 0x80 <= byte <= 0xBF]
    if continuation:
        cuts = cuts + [continuation[m % len(continuation)] for m in mid_char]
    # Small read chunks put chunk boundaries inside lines within a single call too.
    with tempfile.TemporaryDirectory() as tmp, mock.patch.object(reader, "_CHUNK", read_chunk):
        whole = Path(tmp) / "whole.jsonl"
        whole.write_bytes(data)
        one_shot = read_records(whole, max_line_bytes=MAX_LINE)

        path = Path(tmp) / "growing.jsonl"
        path.touch()
        offset = 0
        records: list[dict[str, Any]] = []
        results: list[ReadResult] = []
        for index, chunk in enumerate(_split(data, cuts)):
            _write(path, chunk)
            result = read_records(
                path, offset, max_line_bytes=MAX_LINE, max_bytes=slices[index % len(slices)]
            )
            assert result.offset >= offset
            records.extend(result.records)
            results.append(result)
            offset = result.offset
        rest, offset, tail = _read_all(path, offset, max_line_bytes=MAX_LINE, max_bytes=slices[0])
        records.extend(rest)
        results.extend(tail)

    assert records == one_shot.records
    assert offset == len(data)
    assert _stats(results) == _stats([one_shot])
    assert all(r.stats.gap is None for r in results)


# --- the real corpus ----------------------------------------------------------


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted((CORPUS / "transcripts").glob("*.jsonl")) + sorted((CORPUS / "cli-2.1.328").glob("*.jsonl"))


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: p.name)
def test_every_corpus_line_parses(path: Path) -> None:
    data = path.read_bytes()
    naive = [json.loads(line) for line in data.split(b"\n") if line.strip()]

    result = read_records(path, final=True)
    assert result.records == naive
    assert result.offset == len(data)
    assert (result.stats.invalid_lines, result.stats.oversize_lines, result.stats.replaced_lines) == (0, 0, 0)

    # Live rule: an unterminated last line waits; everything before it is read.
    live = read_records(path)
    complete = [json.loads(line) for line in data[: data.rfind(b"\n") + 1].split(b"\n") if line.strip()]
    assert live.records == complete

    sliced, offset, _ = _read_all(path, max_bytes=64 * 1024, final=True)
    assert sliced == naive
    assert offset == len(data)
