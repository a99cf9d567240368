"""``forget`` and the sweep reach every room that holds a session's content, not only its files and ledgers.

The cross-task index (goal line, named paths, edited regions), the pass journal (headlines, the gate's
sentences), the outcome records (evidence) and the recall indexes (the chunks taken from a task's advice
history and ledger) all carry what a session was about; forgetting a session or a task must leave none of it,
in the rows or in the database file's free pages, and the sweep must age the same rows and files out.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from pathlib import Path

import pytest
from worker_helpers import World, drive, make_session, until

from sbcore.bench.gc import write_session
from sbcore.conductor import journal
from sbcore.gate import calibration
from sbcore.state import db
from sbcore.state import ledger as store
from sbcore.state.recall import Entry, RecallStore, Stamp, index_path
from sbcore.state.taskindex import IndexedRegion, TaskIndex, Whereabouts
from sbcore.worker import forget
from sbcore.worker.lifecycle import SessionLock
from sbcore.worker.retention import Limits, sweep

DAY = 86400.0
GONE = "5f0c6a1e-0000-4000-8000-00000000dead"
KEPT = "5f0c6a1e-0000-4000-8000-00000000beef"
WORKSPACE = "/w"
SECRET = "refactor the zebra-quokka billing path"


def _secret(task: str) -> str:
    return f"{SECRET} of {task}"


def _populate(data: Path, at: float, *sessions: str) -> None:
    """Each session: its files and ledger, a second task ``<session>~1``, and rows in every room."""
    with db.opened(db.db_path(data)) as conn:
        store.prepare(conn)
        db.ensure(conn, journal.SCHEMA)
        db.ensure(conn, calibration.SCHEMA)
        index = TaskIndex(conn)
        for session in sessions:
            write_session(data, conn, session, at, spool_bytes=100, workspace=WORKSPACE)
            for task in (session, f"{session}~1"):
                index.publish(
                    task,
                    Whereabouts(session, WORKSPACE),
                    at,
                    goal=_secret(task),
                    regions=[IndexedRegion("src/zebra.py", 1, 3, at, f"ref-{task}")],
                )
                conn.execute(
                    "INSERT INTO journal_passes VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (session, task, WORKSPACE, 1, at, "turn_end", 1, 3, "offline", 1, 2, 3, 4, "[]", None),
                )
                conn.execute(
                    "INSERT INTO journal_passes VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        session,
                        task,
                        WORKSPACE,
                        2,
                        at,
                        "salience",
                        0,
                        1,
                        "offline",
                        1,
                        1,
                        1,
                        1,
                        json.dumps([{"detector": "d", "headline": _secret(task)}]),
                        None,
                    ),
                )
                conn.execute(
                    "INSERT INTO uptake_outcomes VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (f"a-{task}", task, session, WORKSPACE, "d", "f", "k", 0.9, at, at, "acted", "adopted",
                     json.dumps([_secret(task)])),
                )  # fmt: skip
        conn.execute(
            "INSERT INTO uptake_demotions VALUES (?,?,?,?,?,?,?,?)",
            (WORKSPACE, "d", at, "muted", "detectors.d.enabled", "false", "1 of its last 10 acted on", None),
        )
        conn.commit()
    with RecallStore(index_path(WORKSPACE, data)) as recall:
        recall.replace("/w/CLAUDE.md", Stamp(1, 1, "n"), [Entry("CLAUDE.md", "(root)", "note", "Notes", "x")])
        for session in sessions:
            for source in (f"history:{session}.jsonl", f"ledger:{session}~1"):
                entry = Entry(f"advice:{source}", "advisories", "advisory", "d: h", _secret(source))
                recall.replace(source, Stamp(1, 1, source), [entry])


def _count(data: Path, table: str, where: str = "1", *args: object) -> int:
    with db.opened(db.db_path(data)) as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table} WHERE {where}", args).fetchone()[0])


def _sources(data: Path) -> set[str]:
    with RecallStore(index_path(WORKSPACE, data)) as recall:
        return set(recall.stamps())


def _bytes_on_disk(data: Path) -> bytes:
    found = b""
    for path in sorted(data.rglob("*")):
        if path.is_file():
            found += path.read_bytes()
    return found


TABLES = ("xtask_tasks", "xtask_regions", "journal_passes", "uptake_outcomes")


def test_forgetting_a_session_drops_its_rows_everywhere_and_leaves_no_trace_of_its_text(
    tmp_path: Path,
) -> None:
    _populate(tmp_path, time.time(), GONE, KEPT)
    report = forget.forget(tmp_path, GONE, timeout=1)
    assert report.problems == []
    for table in TABLES:
        assert _count(tmp_path, table) > 0, f"{table}: the other session's rows stay"
    assert _count(tmp_path, "xtask_tasks", "session = ?", GONE) == 0
    assert _count(tmp_path, "xtask_regions", "task LIKE ?", f"{GONE}%") == 0
    assert _count(tmp_path, "journal_passes", "session_id = ?", GONE) == 0
    assert _count(tmp_path, "uptake_outcomes", "session_id = ?", GONE) == 0
    assert _count(tmp_path, "uptake_demotions") == 1, "a demotion carries no session content: it stays"
    assert report.rows["journal_passes"] == 4 and report.rows["xtask_tasks"] == 2
    assert report.rows["recall_chunks"] == 2
    assert _sources(tmp_path) == {"/w/CLAUDE.md", f"history:{KEPT}.jsonl", f"ledger:{KEPT}~1"}
    on_disk = _bytes_on_disk(tmp_path)
    assert _secret(GONE).encode() not in on_disk, "deleted text must not linger in free pages or a WAL"
    assert _secret(f"history:{GONE}.jsonl").encode() not in on_disk
    assert _secret(KEPT).encode() in on_disk


def test_forgetting_a_task_drops_only_that_tasks_rows_and_chunks(tmp_path: Path) -> None:
    _populate(tmp_path, time.time(), GONE)
    report = forget.forget_task(tmp_path, f"{GONE}~1")
    assert report.problems == []
    for table, column in (
        ("xtask_tasks", "task"),
        ("journal_passes", "task_id"),
        ("uptake_outcomes", "task_id"),
    ):
        assert _count(tmp_path, table, f"{column} = ?", f"{GONE}~1") == 0
        assert _count(tmp_path, table, f"{column} = ?", GONE) > 0, f"{table}: the session's other task stays"
    assert _sources(tmp_path) == {"/w/CLAUDE.md", f"history:{GONE}.jsonl"}


def test_forget_all_empties_every_table_the_recall_indexes_and_the_turn_reports(tmp_path: Path) -> None:
    _populate(tmp_path, time.time(), GONE, KEPT)
    turns = tmp_path / "turns"
    turns.mkdir(mode=0o700)
    for name in (f"{GONE}.json", f"{KEPT}.pending.json"):
        (turns / name).write_text('{"v": 1, "outcome": "' + SECRET + '"}')
    report = forget.forget_all(tmp_path, timeout=1)
    assert report.problems == []
    for table in (*TABLES, "uptake_demotions"):
        assert _count(tmp_path, table) == 0, table
    assert not (tmp_path / "recall").exists()
    assert list(turns.iterdir()) == []
    assert SECRET.encode() not in _bytes_on_disk(tmp_path)


def _limits(*, files_days: float = 14, index_ttl_s: float = 1800) -> Limits:
    return Limits(
        files_ttl_s=files_days * DAY,
        data_max_bytes=1 << 40,
        ledger=store.SweepLimits(ttl_s=7 * DAY, max_per_workspace=50, max_bytes=1 << 30),
        index_ttl_s=index_ttl_s,
    )


def test_the_sweep_takes_a_swept_sessions_rows_ages_journal_outcome_and_index_rows_and_old_recall_indexes(
    tmp_path: Path,
) -> None:
    now = time.time()
    _populate(tmp_path, now - 20 * DAY, GONE)
    _populate(tmp_path, now - 60, KEPT)
    with db.opened(db.db_path(tmp_path)) as conn:  # a journal row older than the files of its session
        conn.execute(
            "UPDATE journal_passes SET at = ? WHERE session_id = ? AND number = 2", (now - 15 * DAY, KEPT)
        )
        conn.commit()
    stale = index_path("/elsewhere", tmp_path)
    with RecallStore(stale) as recall:
        recall.replace(
            "/elsewhere/CLAUDE.md", Stamp(1, 1, "s"), [Entry("CLAUDE.md", "(root)", "note", "h", "b")]
        )
    for suffix in ("", "-wal", "-shm"):
        sidecar = stale.with_name(stale.name + suffix)
        if sidecar.exists():
            os.utime(sidecar, (now - 15 * DAY, now - 15 * DAY))

    report = sweep(tmp_path, _limits(), now=now)

    assert [key for key, _ in report.removed_sessions] == [GONE]
    assert _count(tmp_path, "journal_passes", "session_id = ?", GONE) == 0
    assert _count(tmp_path, "uptake_outcomes", "session_id = ?", GONE) == 0
    assert _count(tmp_path, "journal_passes", "session_id = ?", KEPT) == 2, "only the old row aged out"
    assert _count(tmp_path, "uptake_outcomes", "session_id = ?", KEPT) == 2
    assert _count(tmp_path, "xtask_tasks") == 2 and _count(tmp_path, "xtask_tasks", "session = ?", GONE) == 0
    assert report.removed_rows["journal_passes"] >= 5
    assert not stale.exists() and report.removed_recall == [stale.stem]
    assert index_path(WORKSPACE, tmp_path).exists(), "an index a refresh touched lately stays"

    later = sweep(tmp_path, _limits(index_ttl_s=30), now=now)
    assert _count(tmp_path, "xtask_tasks") == 0 and _count(tmp_path, "xtask_regions") == 0, (
        "index rows past index.ttl_s go even when no worker publishes"
    )
    assert later.removed_rows["xtask"] == 4


@pytest.fixture
def _private_env(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.apply_env(monkeypatch)


@pytest.mark.usefixtures("_private_env")
def test_a_live_worker_drops_its_tasks_index_rows_when_asked_to_forget(world: World) -> None:
    session = make_session(world)
    lock = SessionLock(world.data, world.session)  # what main() takes before it runs a session
    assert lock.try_acquire(host="test")

    def published() -> list[str]:
        try:
            with sqlite3.connect(db.db_path(world.data)) as conn:
                return [row[0] for row in conn.execute("SELECT goal FROM xtask_tasks")]
        except sqlite3.OperationalError:
            return []

    async def scenario() -> None:
        world.append(world.records.prompt(SECRET))
        await until(published, what="the task in the cross-task index")
        report = await asyncio.to_thread(forget.forget, world.data, world.session, timeout=10)
        assert report.by_worker == [world.session], report
        assert published() == []
        world.append(world.records.prompt("now something else entirely"))
        await until(
            lambda: published() == ["now something else entirely"],
            what="the next prompt published afresh, as the task's new goal",
        )

    try:
        drive(session, scenario)
    finally:
        lock.release()
