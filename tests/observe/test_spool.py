"""The spool, the offset store and the Tail that ties them to a transcript."""

from __future__ import annotations

import json
import os
import stat
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbcore import paths
from sbcore.observe.model import Observation
from sbcore.observe.offsets import CorruptOffset, OffsetStore, StoredOffset
from sbcore.observe.reader import FileId, read_records, subagent_transcripts
from sbcore.observe.spool import Spool, Tail

SESSION = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record).encode() + b"\n"


def _append(path: Path, data: bytes) -> None:
    with open(path, "ab") as handle:
        handle.write(data)


def _numbered(start: int, stop: int) -> bytes:
    return b"".join(_line({"type": "user", "n": n}) for n in range(start, stop))


def project(records: list[dict[str, Any]]) -> list[Observation]:
    """A stand-in projector: one text observation per record that has an ``n``."""
    return [Observation(kind="text", text=str(r["n"]), uuid=f"u{r['n']}") for r in records if "n" in r]


def _spooled(data: Path) -> list[int]:
    return [int(o.text) for o in Spool(SESSION, data).read().observations]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    path = tmp_path / "projects" / f"{SESSION}.jsonl"
    path.parent.mkdir()
    path.touch()
    return path


# --- the spool ----------------------------------------------------------------


def test_observations_round_trip_through_the_spool(data: Path) -> None:
    spool = Spool(SESSION, data)
    batch = [
        Observation(kind="prompt", text="fix the build ✓", timestamp="2026-01-01T00:00:00Z", uuid="a"),
        Observation(
            kind="tool",
            text="Bash: make",
            tool="Bash",
            tool_use_id="toolu_1",
            args={"command": "make"},
            locators=("Makefile", "src/x.c:12"),
        ),
        Observation(kind="error", text="lone \ud83d surrogate kept", tool="Bash"),
    ]
    written = spool.append(batch)
    assert written == spool.path.stat().st_size
    assert spool.path == data / "spool" / f"{SESSION}.jsonl"
    assert spool.path.read_bytes().count(b"\n") == 3

    result = spool.read()
    assert result.observations == batch
    assert result.offset == written
    assert Spool(SESSION, data).read(result.offset).observations == []


def test_an_empty_batch_writes_nothing(data: Path) -> None:
    spool = Spool(SESSION, data)
    assert spool.append([]) == 0
    assert not spool.path.exists()


def test_the_spool_defaults_to_the_data_dir(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCORE_DATA_DIR", str(data))
    assert Spool("a/b c").path == data / "spool" / "a-b-c.jsonl"


def test_reading_the_spool_resumes_and_waits_for_complete_lines(data: Path) -> None:
    spool = Spool(SESSION, data)
    spool.append([Observation(kind="text", text="one")])
    first = spool.read()
    # A writer caught mid-line: the half line is not returned, and not lost.
    line = json.dumps(Observation(kind="text", text="two").to_json()).encode() + b"\n"
    _append(spool.path, line[:7])
    assert spool.read(first.offset).observations == []
    assert spool.read(first.offset).offset == first.offset
    _append(spool.path, line[7:])
    assert [o.text for o in spool.read(first.offset).observations] == ["two"]


def test_a_torn_spool_line_costs_only_itself(data: Path) -> None:
    spool = Spool(SESSION, data)
    spool.append([Observation(kind="text", text="before")])
    _append(spool.path, b'{"kind":"text","te')  # a crash in the middle of an append
    spool.append([Observation(kind="text", text="after")])
    result = spool.read()
    assert [o.text for o in result.observations] == ["before", "after"]
    assert result.stats.invalid_lines == 1


def test_spool_lines_that_are_not_observations_are_counted(data: Path) -> None:
    spool = Spool(SESSION, data)
    paths.append_private(
        spool.path,
        b'{"kind":"text","text":"good"}\n'
        b'{"kind":"gossip","text":"unknown kind"}\n'
        b'{"kind":"text"}\n'
        b'{"kind":"text","text":"x","args":[1]}\n'
        b'{"kind":"text","text":"x","locators":[1]}\n'
        b'{"kind":"text","text":"x","tool":5}\n'
        b"[]\n",
    )
    result = spool.read()
    assert [o.text for o in result.observations] == ["good"]
    assert result.stats.records == 1
    assert result.stats.invalid_lines == 6


def test_a_replaced_spool_is_noticed(data: Path) -> None:
    spool = Spool(SESSION, data)
    spool.append([Observation(kind="text", text="old")])
    first = spool.read()
    spool.path.unlink()
    spool.append([Observation(kind="text", text="new " * 20)])
    result = spool.read(first.offset, expect=first.file_id)
    assert result.stats.gap == "replaced"
    assert result.observations == []


# --- offsets --------------------------------------------------------------------


def test_offsets_round_trip_per_stream(data: Path) -> None:
    store = OffsetStore(SESSION, data)
    assert store.load("main") is None
    store.save("main", StoredOffset(120, FileId(1, 2, 3, 4)))
    store.save("agent-a1", StoredOffset(7))
    assert store.load("main") == StoredOffset(120, FileId(1, 2, 3, 4))
    assert store.load("agent-a1") == StoredOffset(7)
    assert store.path("main") == data / "offsets" / SESSION / "main.json"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"", "not JSON"),
        (b"{trunc", "not JSON"),
        (b"[]", "expected an object, got list"),
        (
            b'{"v": 9, "offset": 1}',
            r"key 'v': unsupported version 9 \(expected 1\): a newer sbcore wrote it; upgrade sbcore "
            r"\(then `second-brain install`\), or run `second-brain forget --all` to start over",
        ),
        (b'{"v": 1, "offset": -4}', "key 'offset': expected a non-negative integer, got -4"),
        (b'{"v": 1, "offset": "12"}', "key 'offset': expected a non-negative integer, got '12'"),
        (b'{"v": 1, "offset": true}', "key 'offset': expected a non-negative integer, got True"),
        (
            b'{"v": 1, "offset": 3, "file": [1]}',
            r"key 'file': expected \['dev', 'ino', 'head_len', 'head_crc'\]",
        ),
        (b'{"v": 1, "offset": 3, "file": [1, 2, 3, "x"]}', "key 'file': expected non-negative integers"),
    ],
)
def test_a_corrupt_offset_file_is_an_error_naming_file_and_key(data: Path, body: bytes, message: str) -> None:
    store = OffsetStore(SESSION, data)
    paths.write_private(store.path("main"), body)
    with pytest.raises(CorruptOffset, match=message) as caught:
        store.load("main")
    assert str(store.path("main")) in str(caught.value)


# --- the tail -----------------------------------------------------------------------


def test_tail_moves_new_records_into_the_spool_once(data: Path, transcript: Path) -> None:
    tail = Tail(SESSION, transcript, project, if_missing="start", data=data)
    _append(transcript, _numbered(0, 3) + b'{"type":"user","n":3')  # the last line is still being written
    step = tail.step()
    assert [o.text for o in step.observations] == ["0", "1", "2"]
    assert step.gap is None
    assert OffsetStore(SESSION, data).load("main") == StoredOffset(
        step.offset, read_records(transcript).file_id
    )

    assert tail.step().observations == []  # nothing new: nothing spooled again
    _append(transcript, b"}\n" + _numbered(4, 6))
    assert [o.text for o in tail.step().observations] == ["3", "4", "5"]
    assert _spooled(data) == [0, 1, 2, 3, 4, 5]


def test_a_fresh_tail_resumes_from_the_stored_offset(data: Path, transcript: Path) -> None:
    _append(transcript, _numbered(0, 2))
    Tail(SESSION, transcript, project, if_missing="start", data=data).step()
    _append(transcript, _numbered(2, 4))
    # A new process (the next hook): same session, no memory but the files.
    step = Tail(SESSION, transcript, project, data=data).step()
    assert [o.text for o in step.observations] == ["2", "3"]
    assert _spooled(data) == [0, 1, 2, 3]


def test_catch_up_takes_as_many_batches_as_needed(data: Path, transcript: Path) -> None:
    _append(transcript, _numbered(0, 50))
    tail = Tail(SESSION, transcript, project, if_missing="start", batch_bytes=100, data=data)
    steps = tail.catch_up()
    assert len(steps) > 10
    assert steps[-1].stats.bytes_read == 0
    assert [int(o.text) for s in steps for o in s.observations] == list(range(50))
    assert _spooled(data) == list(range(50))


def test_missing_offset_reseeks_to_the_end_and_says_so(data: Path, transcript: Path) -> None:
    _append(transcript, _numbered(0, 3))
    tail = Tail(SESSION, transcript, project, data=data)  # if_missing="end"
    step = tail.step()
    assert step.observations == []
    assert step.offset == transcript.stat().st_size
    assert step.gap is not None
    assert "no stored offset for stream 'main'" in step.gap and str(transcript) in step.gap
    _append(transcript, _numbered(3, 4))
    assert [o.text for o in tail.step().observations] == ["3"]


def test_missing_offset_on_an_empty_transcript_is_no_gap(data: Path, transcript: Path) -> None:
    step = Tail(SESSION, transcript, project, data=data).step()
    assert step.gap is None
    assert OffsetStore(SESSION, data).load("main") == StoredOffset(0, read_records(transcript).file_id)


def test_a_transcript_that_does_not_exist_yet_is_followed_once_it_does(data: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "later.jsonl"
    tail = Tail(SESSION, transcript, project, data=data)
    assert tail.step().gap is None
    _append(transcript, _numbered(0, 2))
    assert [o.text for o in tail.step().observations] == ["0", "1"]


def test_corrupt_offset_reseeks_to_the_end_and_names_the_file(data: Path, transcript: Path) -> None:
    tail = Tail(SESSION, transcript, project, if_missing="start", data=data)
    _append(transcript, _numbered(0, 2))
    tail.step()
    _append(transcript, _numbered(2, 4))
    paths.write_private(tail.offsets.path("main"), b"\x00garbage")
    step = tail.step()
    assert step.observations == []
    assert step.gap is not None and "offset lost" in step.gap and str(tail.offsets.path("main")) in step.gap
    _append(transcript, _numbered(4, 5))
    assert [o.text for o in tail.step().observations] == ["4"]
    assert _spooled(data) == [0, 1, 4]  # a gap, never a duplicate


def test_a_truncated_or_replaced_transcript_is_a_gap(data: Path, transcript: Path) -> None:
    tail = Tail(SESSION, transcript, project, if_missing="start", data=data)
    _append(transcript, _numbered(0, 3))
    tail.step()

    replacement = transcript.with_suffix(".new")
    _append(replacement, _numbered(100, 110))
    os.replace(replacement, transcript)
    step = tail.step()
    assert step.gap is not None and "was replaced" in step.gap
    assert step.observations == []

    transcript.write_bytes(b"")  # same file, truncated
    step = tail.step()
    assert step.gap is not None and "was truncated" in step.gap
    _append(transcript, _numbered(200, 201))
    assert [o.text for o in tail.step().observations] == ["200"]
    assert _spooled(data) == [0, 1, 2, 200]


def test_a_failing_projection_changes_nothing(data: Path, transcript: Path) -> None:
    _append(transcript, _numbered(0, 2))

    def broken(records: list[dict[str, Any]]) -> list[Observation]:
        raise RuntimeError("projector bug")

    with pytest.raises(RuntimeError, match="projector bug"):
        Tail(SESSION, transcript, broken, if_missing="start", data=data).step()
    assert OffsetStore(SESSION, data).load("main") is None
    assert not Spool(SESSION, data).path.exists()
    assert [
        o.text for o in Tail(SESSION, transcript, project, if_missing="start", data=data).step().observations
    ] == [
        "0",
        "1",
    ]


def test_a_crash_between_offset_and_append_loses_the_batch_never_duplicates(
    data: Path, transcript: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tail = Tail(SESSION, transcript, project, if_missing="start", data=data)
    _append(transcript, _numbered(0, 2))
    tail.step()
    _append(transcript, _numbered(2, 4))

    def crash(path: Path, payload: bytes, *, line_start: bool = False) -> None:
        raise KeyboardInterrupt("killed mid-step")

    monkeypatch.setattr(paths, "append_private", crash)
    with pytest.raises(KeyboardInterrupt):
        tail.step()
    monkeypatch.undo()

    _append(transcript, _numbered(4, 5))
    tail.step()
    assert _spooled(data) == [0, 1, 4]


def test_subagent_streams_keep_offsets_of_their_own(data: Path, transcript: Path) -> None:
    _append(transcript, _numbered(0, 2))
    nested = transcript.parent / SESSION / "subagents"
    nested.mkdir(parents=True)
    agent = nested / "agent-a7.jsonl"
    _append(agent, b"".join(_line({"type": "user", "sessionId": SESSION, "n": n}) for n in (100, 101)))

    tails = [Tail(SESSION, transcript, project, if_missing="start", data=data)]
    tails += [
        Tail(SESSION, path, project, stream=path.stem, if_missing="start", data=data)
        for path in subagent_transcripts(transcript)
    ]
    for tail in tails:
        tail.step()
    _append(agent, _line({"type": "user", "n": 102}))
    for tail in tails:
        tail.step()

    assert sorted(_spooled(data)) == [0, 1, 100, 101, 102]
    store = OffsetStore(SESSION, data)
    assert store.load("main") is not None and store.load("agent-a7") == StoredOffset(
        agent.stat().st_size, read_records(agent).file_id
    )


def test_parallel_tails_never_spool_a_batch_twice(data: Path, transcript: Path) -> None:
    def slow(records: list[dict[str, Any]]) -> Sequence[Observation]:
        time.sleep(0.005)  # widen the read-to-save window a racing reader would hit
        return project(records)

    stop = threading.Event()

    def writer() -> None:
        for start in range(0, 200, 5):
            _append(transcript, _numbered(start, start + 5))
            time.sleep(0.001)
        stop.set()

    def hook() -> None:
        while not stop.is_set():
            Tail(SESSION, transcript, slow, if_missing="start", data=data).step()

    threads = [threading.Thread(target=writer)] + [threading.Thread(target=hook) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    Tail(SESSION, transcript, project, data=data).catch_up()
    assert _spooled(data) == list(range(200))


# --- property: a lost offset is a gap, never a duplicate ------------------------------


@settings(max_examples=60, deadline=None)
@given(
    batches=st.lists(st.integers(0, 6), min_size=1, max_size=12),
    loss=st.integers(0, 11),
    how=st.sampled_from(["delete", "corrupt", "empty"]),
    steps_between=st.lists(st.booleans(), min_size=12, max_size=12),
)
def test_a_lost_offset_is_a_gap_never_a_duplicate(
    batches: list[int], loss: int, how: str, steps_between: list[bool]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        transcript = Path(tmp) / f"{SESSION}.jsonl"
        tail = Tail(SESSION, transcript, project, if_missing="start", data=data)
        written = 0
        read_before_loss: set[int] = set()
        written_at_recovery = None
        for index, size in enumerate(batches):
            _append(transcript, _numbered(written, written + size))
            written += size
            if index == loss:
                offset_file = tail.offsets.path("main")
                if how == "delete":
                    offset_file.unlink(missing_ok=True)
                else:
                    paths.write_private(offset_file, b"" if how == "empty" else b"{not json")
                tail = Tail(SESSION, transcript, project, data=data)  # a new process finds it gone
                step = tail.step()
                assert step.observations == []
                assert step.gap is not None or (how == "delete" and written == 0)
                written_at_recovery = written
            elif steps_between[index]:
                tail.step()
                if written_at_recovery is None:
                    read_before_loss = set(range(written))
        tail.catch_up()
        spooled = _spooled(data)

    assert len(spooled) == len(set(spooled)), "an observation was spooled twice"
    assert spooled == sorted(spooled), "observations out of order"
    assert read_before_loss <= set(spooled)
    if written_at_recovery is not None:
        # Everything written after the re-seek is observed; the gap is only what came before it.
        assert set(range(written_at_recovery, written)) <= set(spooled)
        assert not set(spooled) & (set(range(written_at_recovery)) - read_before_loss)
    else:
        assert spooled == list(range(written))


# --- permissions ------------------------------------------------------------------------


@pytest.fixture
def open_umask() -> Iterator[None]:
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def test_everything_created_is_private_even_under_umask_0(open_umask: None, tmp_path: Path) -> None:
    data = tmp_path / "deep" / "data"
    transcript = tmp_path / f"{SESSION}.jsonl"
    _append(transcript, _numbered(0, 3))
    tail = Tail(SESSION, transcript, project, if_missing="start", data=data)
    tail.step()
    agent = Tail(SESSION, transcript, project, stream="agent-x", data=data)
    agent.step()
    Spool("another-session", data).append([Observation(kind="text", text="t")])

    created = [tmp_path / "deep", *sorted(tmp_path.joinpath("deep").rglob("*"))]
    files = [p for p in created if p.is_file()]
    dirs = [p for p in created if p.is_dir()]
    assert {p.name for p in files} >= {"main.json", "main.lock", "agent-x.json", f"{SESSION}.jsonl"}
    assert {p.name for p in dirs} >= {"data", "spool", "offsets", SESSION}
    assert {str(p.relative_to(tmp_path)): oct(stat.S_IMODE(p.stat().st_mode)) for p in files} == {
        str(p.relative_to(tmp_path)): "0o600" for p in files
    }
    assert {str(p.relative_to(tmp_path)): oct(stat.S_IMODE(p.stat().st_mode)) for p in dirs} == {
        str(p.relative_to(tmp_path)): "0o700" for p in dirs
    }
