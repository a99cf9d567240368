"""The projector's memory stays bounded over a long session, and what it remembers things for still works.

A worker projects one session for days: the ids it keeps (records seen, messages whose
usage was counted, tool calls and their names) must not grow with the session.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sbcore.bench.synthetic import SyntheticSession
from sbcore.observe import project
from sbcore.observe.project import (
    CALLS_ANSWERED_KEPT,
    MESSAGES_REMEMBERED,
    RECORDS_REMEMBERED,
    Projector,
    RecentIds,
)


def _long_session(records: int) -> list[dict[str, Any]]:
    session = SyntheticSession("s1", "/work/repo")
    out: list[dict[str, Any]] = []
    while len(out) < records:
        out += session.next_turn().records
    return out


def _assistant(block: dict[str, Any], uuid: str, message_id: str | None = None) -> dict[str, Any]:
    return {
        "type": "assistant",
        "uuid": uuid,
        "sessionId": "s1",
        "isSidechain": False,
        "message": {
            "id": message_id or f"msg-{uuid}",
            "role": "assistant",
            "content": [block],
            "usage": {"output_tokens": 7},
        },
    }


def _call(call_id: str, name: str, **tool_input: Any) -> dict[str, Any]:
    return _assistant({"type": "tool_use", "id": call_id, "name": name, "input": tool_input}, f"c-{call_id}")


def _result(call_id: str, content: str, *, error: bool = False) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": call_id, "content": content, "is_error": error}
    return {
        "type": "user",
        "uuid": f"r-{call_id}",
        "sessionId": "s1",
        "isSidechain": False,
        "message": {"role": "user", "content": [block]},
    }


def _jsonl(records: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(record) + "\n" for record in records).encode()


def test_recent_ids_forget_the_oldest_beyond_their_limit() -> None:
    recent = RecentIds(3)
    for key in ("a", "b", "c", "b", "d"):
        recent.add(key)
    assert len(recent) == 3
    assert "a" not in recent
    assert all(key in recent for key in ("b", "c", "d"))
    with pytest.raises(ValueError, match="at least one"):
        RecentIds(0)


@pytest.mark.parametrize("path", ["feed", "feed_bytes"])
def test_a_long_session_leaves_the_projector_memory_within_its_bounds(path: str) -> None:
    records = _long_session(3 * RECORDS_REMEMBERED)
    projector = Projector()
    observations = projector.feed(records) if path == "feed" else projector.feed_bytes(_jsonl(records))
    assert len(observations) > 2 * CALLS_ANSWERED_KEPT

    assert len(projector._seen_uuids) <= RECORDS_REMEMBERED
    assert len(projector._seen_messages) <= MESSAGES_REMEMBERED
    assert len(projector._calls) == 0  # every synthetic call got its result
    assert len(projector._answered) <= CALLS_ANSWERED_KEPT
    assert not projector._pending_reports

    # What the memory is for still holds: usage counted once per message, a rewritten record dropped.
    usage = {r["message"]["id"]: r["message"]["usage"] for r in records if r["type"] == "assistant"}
    assert projector.total_usage()["output_tokens"] == sum(u["output_tokens"] for u in usage.values())
    recent = records[-50:]
    assert projector.feed(recent) == []
    assert projector.stats.duplicates == 50


def test_a_record_rewritten_within_the_window_is_dropped_and_one_long_forgotten_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(project, "RECORDS_REMEMBERED", 8)
    projector = Projector()
    texts = [_assistant({"type": "text", "text": f"step {n}"}, f"u{n}") for n in range(20)]
    assert len(projector.feed(texts)) == 20
    assert len(projector._seen_uuids) == 8
    assert projector.feed([texts[-1]]) == []
    assert [obs.text for obs in projector.feed([texts[0]])] == ["[text] step 0"]


def test_a_split_message_is_counted_once_with_a_bounded_memory_of_message_ids(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(project, "MESSAGES_REMEMBERED", 4)
    projector = Projector()
    records = []
    for n in range(30):
        records.append(_assistant({"type": "text", "text": f"a{n}"}, f"a{n}", message_id=f"m{n}"))
        records.append(_assistant({"type": "text", "text": f"b{n}"}, f"b{n}", message_id=f"m{n}"))
    projector.feed(records)
    assert projector.total_usage()["output_tokens"] == 30 * 7
    assert len(projector._seen_messages) == 4


def test_a_call_waiting_for_its_result_outlives_many_answered_calls() -> None:
    """A subagent that reports after thousands of other calls still gets its report, fast path included."""
    records = [_call("agent-1", "Agent", subagent_type="Explore", prompt="map the storage layer")]
    for n in range(2 * CALLS_ANSWERED_KEPT):
        records += [_call(f"b{n}", "Bash", command=f"echo {n}"), _result(f"b{n}", f"{n}")]
    records.append(_result("agent-1", "The storage layer lives in src/storage.py."))
    projector = Projector()
    observations = projector.feed_bytes(_jsonl(records))
    assert observations[-1].kind == "report"
    assert observations[-1].text == "[report] Agent Explore: The storage layer lives in src/storage.py."
    assert len(projector._answered) == CALLS_ANSWERED_KEPT
    assert not projector._calls and not projector._pending_reports

    # A recently answered call written again (in a record of its own) is still recognised, and a late
    # failure of it still named.
    last = f"b{2 * CALLS_ANSWERED_KEPT - 1}"
    again = _call(last, "Bash", command=f"echo {2 * CALLS_ANSWERED_KEPT - 1}")
    again["uuid"] = "c-again"
    assert projector.feed([again]) == []
    late = _result(last, "Exit code 1", error=True)
    late["uuid"] = "r-late"
    (failure,) = projector.feed([late])
    assert failure.text == "[error] Bash: Exit code 1"


def test_calls_that_never_get_a_result_are_forgotten_oldest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(project, "CALLS_WAITING_KEPT", 8)
    projector = Projector()
    projector.feed([_call(f"a{n}", "Agent", prompt="look around") for n in range(20)])
    assert len(projector._calls) == 8
    assert sorted(projector._pending_reports) == sorted(f"a{n}".encode() for n in range(12, 20))

    (forgotten,) = projector.feed([_result("a0", "interrupted", error=True)])
    (kept,) = projector.feed([_result("a19", "interrupted", error=True)])
    assert forgotten.text == "[error] tool: interrupted"
    assert kept.text == "[error] Agent: interrupted"
