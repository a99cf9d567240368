"""The mailbox: post, claim exactly once without waiting, supersede in place, expire, sweep, bad files."""

from __future__ import annotations

import fcntl
import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from gate_helpers import make_advice

from sbcore.deliver.mailbox import Mailbox, MailboxBusy
from sbcore.gate.advice import Advice
from sbcore.gate.history import History

NOW = 1_000_000.0


def ids(advices: list[Advice]) -> list[str]:
    return [advice.id for advice in advices]


@contextmanager
def lock_held(mailbox: Mailbox) -> Iterator[None]:
    """Hold the mailbox lock through a separate open file description, as another process would."""
    mailbox.directory.mkdir(parents=True, exist_ok=True)
    fd = os.open(mailbox.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def history_reasons(data: Path, task: str = "t1") -> list[tuple[str, str | None, str | None]]:
    records, _ = History.for_task(task, data).read()
    return [(record["stage"], record["advice_id"], record["reason"]) for record in records]


def test_claim_takes_everything_once_and_stamps_delivery(data: Path) -> None:
    mailbox = Mailbox("s1")
    mailbox.post(make_advice(id="a1", dedup_key="k1"), now=NOW)
    mailbox.post(make_advice(id="a2", dedup_key="k2"), now=NOW + 1)
    claimed = mailbox.claim(NOW + 2)
    assert ids(claimed) == ["a1", "a2"]
    assert [advice.delivered_at for advice in claimed] == [NOW + 2, NOW + 2]
    assert [advice.enqueued_at for advice in claimed] == [NOW, NOW + 1]
    assert mailbox.claim(NOW + 3) == []
    assert not mailbox.path.exists()  # an empty mailbox is no file: the hooks' fast path
    assert history_reasons(data) == [("claim", "a1", "claimed"), ("claim", "a2", "claimed")]


def test_claim_of_a_missing_mailbox_creates_nothing(data: Path) -> None:
    mailbox = Mailbox("never-posted")
    assert mailbox.claim(NOW) == []
    assert mailbox.problem is None
    assert not data.exists()


def test_claim_under_contention_returns_at_once(data: Path) -> None:
    mailbox = Mailbox("s1")
    mailbox.post(make_advice(), now=NOW)
    with lock_held(mailbox):
        # A blocking claim would deadlock here (same process, other open file description).
        assert mailbox.claim(NOW) == []
        assert mailbox.problem is not None and mailbox.problem.startswith("busy")
    assert ids(mailbox.claim(NOW)) == ["a1"]


def test_post_gives_up_after_its_timeout(data: Path) -> None:
    mailbox = Mailbox("s1")
    with lock_held(mailbox), pytest.raises(MailboxBusy):
        mailbox.post(make_advice(), now=NOW, timeout=0.05)


def test_human_only_advice_needs_a_private_user_channel(data: Path) -> None:
    mailbox = Mailbox("s1")
    mailbox.post(make_advice(id="agent", dedup_key="k1"), now=NOW)
    mailbox.post(make_advice(id="human", dedup_key="k2", human_only=True), now=NOW)
    # An async hook or a monitor line: its user-facing text reaches the model, so no human-only advice.
    assert ids(mailbox.claim(NOW, for_agent=True, human_channel=False)) == ["agent"]
    assert ids(mailbox.pending()) == ["human"]
    # A user-only surface takes human-only advice and nothing else.
    mailbox.post(make_advice(id="agent2", dedup_key="k3"), now=NOW)
    assert ids(mailbox.claim(NOW, for_agent=False, human_channel=True)) == ["human"]
    assert ids(mailbox.pending()) == ["agent2"]
    reasons = history_reasons(data)
    assert ("claim", "human", "claimed") in reasons
    records, _ = History.for_task("t1", data).read()
    assert {r["advice_id"]: r["action"] for r in records} == {
        "agent": "deliver_agent",
        "human": "deliver_human_only",
    }


def test_select_claims_only_what_it_accepts(data: Path) -> None:
    mailbox = Mailbox("s1")
    mailbox.post(make_advice(id="plain", dedup_key="k1"), now=NOW)
    mailbox.post(make_advice(id="finish", dedup_key="k2", finish_gate=True), now=NOW)
    assert ids(mailbox.claim(NOW, select=lambda advice: advice.finish_gate)) == ["finish"]
    assert ids(mailbox.pending()) == ["plain"]


def test_recheck_drops_what_is_already_handled(data: Path) -> None:
    mailbox = Mailbox("s1")
    mailbox.post(make_advice(id="done", dedup_key="k1"), now=NOW)
    mailbox.post(make_advice(id="open", dedup_key="k2"), now=NOW)
    claimed = mailbox.claim(NOW, recheck=lambda advice: "pytest ran" if advice.id == "done" else None)
    assert ids(claimed) == ["open"]
    assert mailbox.pending() == []
    assert ("claim", "done", "stale_at_claim") in history_reasons(data)


def test_both_clocks_expire_at_claim_whoever_the_advice_was_for(data: Path) -> None:
    mailbox = Mailbox("s1")
    # validity: generated long before it was queued
    mailbox.post(make_advice(id="old", dedup_key="k1", generated_at=NOW - 800, ttl=900), now=NOW)
    # queue: fresh, but nobody drained it in time
    mailbox.post(
        make_advice(id="waiting", dedup_key="k2", generated_at=NOW, ttl=900, queue_timeout=600), now=NOW
    )
    mailbox.post(make_advice(id="human", dedup_key="k3", human_only=True, generated_at=NOW, ttl=60), now=NOW)
    assert mailbox.claim(NOW + 650, for_agent=True, human_channel=False) == []
    assert mailbox.pending() == []
    assert history_reasons(data) == [
        ("claim", "old", "expired_ttl"),
        ("claim", "waiting", "expired_queue"),
        ("claim", "human", "expired_ttl"),
    ]
    records, _ = History.for_task("t1", data).read()
    assert records[1]["text"] == "queue clock: 600 s since enqueue"


def test_supersede_replaces_in_place(data: Path) -> None:
    mailbox = Mailbox("s1")
    mailbox.post(make_advice(id="a1", dedup_key="k1"), now=NOW)
    mailbox.post(make_advice(id="a2", dedup_key="k2"), now=NOW)
    result = mailbox.post(
        make_advice(id="a3", dedup_key="k1", supersedes="a1", headline="newer"), now=NOW + 5
    )
    assert result.outcome == "superseded"
    assert result.replaced is not None and result.replaced.id == "a1"
    assert ids(mailbox.pending()) == ["a3", "a2"]
    assert mailbox.pending()[0].enqueued_at == NOW + 5


def test_same_detector_and_key_supersedes_even_unasked(data: Path) -> None:
    mailbox = Mailbox("s1")
    mailbox.post(make_advice(id="a1", dedup_key="Tests not run"), now=NOW)
    result = mailbox.post(make_advice(id="a2", dedup_key="tests-not-run"), now=NOW)
    assert result.outcome == "superseded"
    assert result.advice.supersedes == "a1"
    other = mailbox.post(make_advice(id="a3", dedup_key="tests-not-run", kind="default"), now=NOW)
    assert other.outcome == "posted"  # another detector: the gate's dedup decides, not the mailbox
    assert ids(mailbox.pending()) == ["a2", "a3"]


def test_superseding_something_no_longer_waiting_posts_nothing(data: Path) -> None:
    mailbox = Mailbox("s1")
    mailbox.post(make_advice(id="a1"), now=NOW)
    mailbox.claim(NOW)
    result = mailbox.post(make_advice(id="a2", supersedes="a1"), now=NOW)
    assert result.outcome == "target_gone"
    assert mailbox.pending() == []


def test_reposting_the_same_id_replaces_it(data: Path) -> None:
    mailbox = Mailbox("s1")
    mailbox.post(make_advice(id="a1", headline="first"), now=NOW)
    assert mailbox.post(make_advice(id="a1", headline="second"), now=NOW).outcome == "posted"
    assert [advice.headline for advice in mailbox.pending()] == ["second"]


def test_corrupt_mailbox_is_an_empty_result_and_is_kept_aside(data: Path) -> None:
    mailbox = Mailbox("s1")
    mailbox.directory.mkdir(parents=True)
    mailbox.path.write_text("{not json")
    assert mailbox.claim(NOW) == []
    assert mailbox.problem is not None and "not JSON" in mailbox.problem
    aside = list(mailbox.directory.glob("s1.corrupt.*"))
    assert len(aside) == 1 and aside[0].read_text() == "{not json"
    mailbox.post(make_advice(), now=NOW)
    assert ids(mailbox.claim(NOW)) == ["a1"]


@pytest.mark.parametrize("content", ['{"v": 2, "entries": []}', "[]", '{"v": 1, "entries": {}}'])
def test_wrong_shapes_are_corrupt_too(data: Path, content: str) -> None:
    mailbox = Mailbox("s1")
    mailbox.directory.mkdir(parents=True)
    mailbox.path.write_text(content)
    assert mailbox.pending() == []
    assert mailbox.problem is not None
    assert mailbox.claim(NOW) == []
    assert list(mailbox.directory.glob("s1.corrupt.*"))


def test_an_unreadable_entry_is_set_aside_and_the_rest_delivered(data: Path) -> None:
    mailbox = Mailbox("s1")
    mailbox.post(make_advice(id="good"), now=NOW)
    document = json.loads(mailbox.path.read_text())
    document["entries"].insert(0, {"id": "bad", "confidence": "high"})
    mailbox.path.write_text(json.dumps(document))
    assert ids(mailbox.claim(NOW)) == ["good"]
    assert mailbox.problem is not None and "rejected" in mailbox.problem
    kept = [json.loads(line) for line in mailbox.rejected_path.read_text().splitlines()]
    assert kept[0]["entry"] == {"id": "bad", "confidence": "high"}
    assert "unknown key" in kept[0]["problem"] or "must be" in kept[0]["problem"]


def test_sweep_on_start_drops_expired_and_invalidated_and_stray_temp_files(data: Path) -> None:
    mailbox = Mailbox("s1")
    mailbox.post(make_advice(id="handled", dedup_key="k2"), now=NOW)
    mailbox.post(make_advice(id="fine", dedup_key="k3"), now=NOW)
    # queued by a worker whose clock read NOW - 700: its queue clock ran out before NOW
    mailbox.post(make_advice(id="stale-queue", dedup_key="k1", queue_timeout=600), now=NOW - 700)
    stray = mailbox.directory / f".{mailbox.path.name}.abc123.tmp"
    stray.write_text("half a write")
    removed = mailbox.sweep_on_start(NOW, lambda advice: "tests ran" if advice.id == "handled" else None)
    assert [(item.advice.id, item.reason) for item in removed] == [
        ("handled", "revalidated_out"),
        ("stale-queue", "expired_queue"),
    ]
    assert ids(mailbox.pending()) == ["fine"]
    assert not stray.exists()
    assert history_reasons(data) == [
        ("sweep", "handled", "revalidated_out"),
        ("sweep", "stale-queue", "expired_queue"),
    ]


def test_files_are_private_whatever_the_umask(data: Path) -> None:
    previous = os.umask(0)
    try:
        mailbox = Mailbox("s1")
        mailbox.post(make_advice(id="a1", dedup_key="k1"), now=NOW)
        mailbox.post(make_advice(id="a2", dedup_key="k2"), now=NOW)
        mailbox.claim(NOW, select=lambda advice: advice.id == "a1")
        history = History.for_task("t1", data)
    finally:
        os.umask(previous)
    for directory in (mailbox.directory, history.path.parent):
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700, directory
    for file in (mailbox.path, mailbox.lock_path, history.path):
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file


def test_history_read_skips_bad_lines_and_waits_for_a_torn_last_line(data: Path) -> None:
    history = History.for_task("t1", data)
    history.record({"n": 1})
    with open(history.path, "ab") as handle:
        handle.write(b'not json\n{"n": 2')
    records, offset = history.read()
    assert records == [{"n": 1}]
    history.record({"n": 3})  # line_start: the torn fragment becomes a bad line of its own
    more, _ = history.read(offset)
    assert more == [{"n": 3}]
