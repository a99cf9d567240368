"""A successful command result is not parsed for the ``rror`` of its own ``"is_error":false`` key; every
record the parser could project differently is still parsed."""

from __future__ import annotations

import json
from typing import Any

from sbcore.observe.keymarks import marks_only_in_keys
from sbcore.observe.project import Projector

PIPED = "pytest -q | tail -5"  # a command that can fail quietly, waiting for its outcome
FAILED_TEXT = "FAILED tests/test_x.py::test_y - assert 1 == 2\n1 failed, 3 passed in 0.1s"


def _call(call_id: str, command: str = PIPED) -> bytes:
    record = {
        "type": "assistant",
        "uuid": f"a-{call_id}",
        "message": {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": call_id, "name": "Bash", "input": {"command": command}}],
        },
    }
    return json.dumps(record, separators=(",", ":")).encode()


def _result(call_id: str, text: str, uuid: str = "", raw: str = "", is_error: Any = False) -> bytes:
    """A successful result record, written as the CLI writes it (compact); ``raw`` replaces the JSON
    string of its content (to write escapes the CLI would not)."""
    block = {"tool_use_id": call_id, "type": "tool_result", "content": text, "is_error": is_error}
    record = {"type": "user", "uuid": uuid or f"r-{call_id}", "message": {"role": "user", "content": [block]}}
    line = json.dumps(record, separators=(",", ":"))
    if raw:
        line = line.replace(json.dumps(text), raw)
    return line.encode()


def _project(*lines: bytes) -> tuple[list[str], Projector]:
    projector = Projector()
    observations = projector.feed_bytes(b"\n".join(lines))
    return [obs.text for obs in observations], projector


def test_a_quiet_result_goes_unparsed_despite_its_is_error_key() -> None:
    texts, projector = _project(_call("t1"), _result("t1", "3 passed in 0.1s"))
    assert texts == ["[tool] Bash\npytest -q | tail -5"]
    assert (projector.stats.records, projector.stats.skipped_unparsed) == (1, 1)


def test_a_failing_result_is_still_read() -> None:
    texts, projector = _project(_call("t1"), _result("t1", FAILED_TEXT))
    assert texts[1].startswith("[error] Bash (runner reports failure; result marked successful)")
    assert projector.stats.skipped_unparsed == 0


def test_a_mark_spelt_with_an_escape_is_read() -> None:
    """``E\\u0072ror:`` shows no mark in the bytes but reads as ``Error:``: the parser decides."""
    text = "Error: boom"
    texts, projector = _project(_call("t1"), _result("t1", text, raw='"E\\u0072ror: boom"'))
    assert len(texts) == 2 and "Error: boom" in texts[1]
    assert projector.stats.skipped_unparsed == 0


def test_an_is_error_that_is_not_false_is_read() -> None:
    texts, _ = _project(_call("t1"), _result("t1", "it broke", is_error=1))
    assert texts[1] == "[error] Bash: it broke"


def test_a_result_naming_another_waiting_command_leaves_that_one_waiting() -> None:
    """Letting the record go would forget the other command's wait (every id found is let go with it),
    and its own failing result would then go unread."""
    texts, _ = _project(
        _call("t2"),
        _call("t1"),
        _result("t2", "ran after t1"),
        _result("t1", FAILED_TEXT),
    )
    assert any(text.startswith("[error] Bash (runner reports failure") for text in texts)


def test_marks_only_in_keys() -> None:
    line = _result("t1", "ok")
    assert marks_only_in_keys(line, 0, len(line), b"t1")
    assert not marks_only_in_keys(line, 0, len(line), b"t2")  # the one block is another command's
    for text in ("an error", "FAIL", "Traceback", "x *** y", "npm ERR!"):
        other = _result("t1", text)
        assert not marks_only_in_keys(other, 0, len(other), b"t1"), text
    block = line[line.index(b'{"tool_use_id"') : line.index(b"}") + 1]
    two_blocks = line.replace(block, block + b"," + block)
    assert not marks_only_in_keys(two_blocks, 0, len(two_blocks), b"t1")
    quoted = _result("t1", 'say "is_error":false')  # the key's spelling inside the text is text
    assert not marks_only_in_keys(quoted, 0, len(quoted), b"t1")
    spaced = line.replace(b'"is_error":false', b'"is_error": false')
    assert marks_only_in_keys(spaced, 0, len(spaced), b"t1")
    null = line.replace(b'"is_error":false', b'"is_error":null')
    assert not marks_only_in_keys(null, 0, len(null), b"t1")
