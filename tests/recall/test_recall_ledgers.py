"""Other tasks' ledgers as recall sources: ``task:<id>`` chunks of this workspace's past, never the present.

A finished task's goal, compaction summaries and adjudicated advice are indexed incrementally (an unchanged
ledger is not re-read), redacted again on the way in, and dropped when the ledger goes; the current task's own
ledger and other workspaces' ledgers never enter the index.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from recall_helpers import index_file

from sbcore.conductor.recall_index import RecallSettings, refresh_workspace
from sbcore.config import load_config
from sbcore.paths import data_dir
from sbcore.state import db
from sbcore.state import ledger as store
from sbcore.state.recall import RecallReader
from sbcore.worker.recall import RecallRefresher

AWS_KEY = "AKIAQ3EGRKXB4ZV7TJ5M"
WITH_LEDGERS = RecallSettings(sources=(), advisories=True)


def _save(ledger: store.Ledger, at: float) -> None:
    with db.opened(db.db_path(data_dir())) as conn:
        store.save(store.prepare(conn), ledger, at)


def _past_task(workspace: Path, at: float, *, facts: tuple[str, ...] = ()) -> store.Ledger:
    ledger = store.Ledger(
        "past",
        "s-past",
        str(workspace),
        goal=f"migrate the invoices table to the zorblat schema with key {AWS_KEY}",
        facts=list(facts or ("The zorblat migration failed on a lock timeout; batching fixed it.",)),
        advice=[
            store.AdviceNote(
                "adv-1", "retry-loop", "open", "Stop retrying the zorblat migration blindly", at
            ),
            store.AdviceNote("adv-1", "retry-loop", "adjudicated", "adopted", at),
        ],
    )
    _save(ledger, at)
    return ledger


def _handles(workspace: Path, *words: str) -> list[str]:
    return [hit.handle for hit in RecallReader(index_file(workspace)).search(list(words))]


def test_another_tasks_ledger_is_a_redacted_chunk_and_the_current_one_never_is(workspace: Path) -> None:
    now = time.time()
    _past_task(workspace, now)
    _save(store.Ledger("now", "s-now", str(workspace), goal="zorblat work in progress"), now)
    _save(store.Ledger("elsewhere", "s-x", "/another/repo", goal="zorblat in another repository"), now)

    done = refresh_workspace(workspace, WITH_LEDGERS, current_task="now")

    assert done.indexed == ["ledger:past"]
    assert _handles(workspace, "zorblat") == ["task:past"]
    [hit] = RecallReader(index_file(workspace)).search(["zorblat"])
    assert (hit.region, hit.kind) == ("tasks", "task")
    assert "batching fixed it" in hit.body
    assert "advice adv-1 (retry-loop): adopted: Stop retrying the zorblat migration blindly" in hit.body
    assert AWS_KEY not in hit.heading and AWS_KEY.encode() not in index_file(workspace).read_bytes()


def test_ledgers_are_indexed_incrementally_and_leave_when_they_go_or_become_current(workspace: Path) -> None:
    now = time.time()
    _past_task(workspace, now)
    refresh_workspace(workspace, WITH_LEDGERS, current_task="now")
    again = refresh_workspace(workspace, WITH_LEDGERS, current_task="now")
    assert (again.indexed, again.unchanged) == ([], 1), "an unchanged ledger is not read again"

    _past_task(workspace, now + 5, facts=("A second compaction: the quuxfrob index was rebuilt.",))
    changed = refresh_workspace(workspace, WITH_LEDGERS, current_task="now")
    assert changed.indexed == ["ledger:past"]
    assert _handles(workspace, "quuxfrob") == ["task:past"]

    resumed = refresh_workspace(workspace, WITH_LEDGERS, current_task="past")
    assert resumed.removed == ["ledger:past"], "a task taken up again is the present, not the past"
    refresh_workspace(workspace, WITH_LEDGERS, current_task="now")
    with db.opened(db.db_path(data_dir())) as conn:
        store.delete(store.prepare(conn), ["past"], "forgotten")
    gone = refresh_workspace(workspace, WITH_LEDGERS, current_task="now")
    assert gone.removed == ["ledger:past"] and _handles(workspace, "zorblat") == []


def test_recall_advisories_false_leaves_the_ledgers_out(workspace: Path) -> None:
    _past_task(workspace, time.time())
    refresh_workspace(workspace, RecallSettings(sources=(), advisories=False), current_task="now")
    assert _handles(workspace, "zorblat") == []


def test_the_worker_refresher_never_indexes_the_task_it_serves(workspace: Path) -> None:
    now = time.time()
    _past_task(workspace, now)
    serving = ["past"]
    refresher = RecallRefresher(workspace, data_dir(), current_task=lambda: serving[0])

    async def refresh() -> None:
        await refresher.refresh_now(load_config(workspace))

    asyncio.run(refresh())
    assert "task:past" not in _handles(workspace, "zorblat")
    serving[0] = "next"
    asyncio.run(refresh())
    assert "task:past" in _handles(workspace, "zorblat")
