"""The sweep and the ledger store: TTLs, caps, live sessions spared, forks copied, forget reported."""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from worker_helpers import World, drive, make_session, until

from sbcore.bench.gc import directory_size, run_gc_bench, write_session
from sbcore.gate.memory import TaskMemory
from sbcore.observe.model import Observation
from sbcore.observe.spool import Spool
from sbcore.state import db
from sbcore.state import ledger as store
from sbcore.think.feedback import FeedbackResult
from sbcore.think.window import Window
from sbcore.worker import forget
from sbcore.worker.ledger_link import LedgerLink, recent_observations
from sbcore.worker.retention import Limits, inventory, sweep

DAY = 86400.0


def _limits(
    cap: int = 1 << 40, *, files_days: float = 14, ledger_days: float = 7, per_workspace: int = 50
) -> Limits:
    return Limits(
        files_ttl_s=files_days * DAY,
        data_max_bytes=cap,
        ledger=store.SweepLimits(ttl_s=ledger_days * DAY, max_per_workspace=per_workspace, max_bytes=1 << 30),
    )


def _session(data: Path, key: str, at: float, workspace: str = "/w") -> None:
    with db.opened(db.db_path(data)) as conn:
        write_session(data, store.prepare(conn), key, at, spool_bytes=2000, workspace=workspace)


def test_the_sweep_keeps_the_data_directory_under_its_cap_across_many_sessions(tmp_path: Path) -> None:
    cap = 600_000
    figures = run_gc_bench(tmp_path, 300, _limits(cap), every=25, spool_bytes=4000)
    assert figures.written_bytes > 3 * cap
    assert figures.over_cap_after_sweep == 0
    assert directory_size(tmp_path) <= cap
    kept = inventory(tmp_path)
    assert kept and "sim-000299" in kept and "sim-000000" not in kept, "the least recently touched go first"


def test_old_sessions_go_by_age_but_a_live_one_never_does(tmp_path: Path) -> None:
    now = time.time()
    _session(tmp_path, "old", now - 20 * DAY)
    _session(tmp_path, "held", now - 20 * DAY)
    _session(tmp_path, "fresh", now - DAY)
    lock = tmp_path / "workers" / "held.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        report = sweep(tmp_path, _limits(), now=now)
    finally:
        os.close(fd)
    assert [key for key, _ in report.removed_sessions] == ["old"]
    assert "files_ttl_days" in report.removed_sessions[0][1]
    assert set(inventory(tmp_path)) == {"held", "fresh"}
    with db.opened(db.db_path(tmp_path)) as conn:
        left = {row[0] for row in conn.execute("SELECT task_id FROM ledger_task")}
    assert left == {"held", "fresh"}, "a swept session takes its ledger with it; a live one keeps its own"


def test_ledgers_expire_by_ttl_and_per_workspace_count_least_recently_touched_first(tmp_path: Path) -> None:
    now = time.time()
    with db.opened(db.db_path(tmp_path)) as conn:
        store.prepare(conn)
        store.save(conn, store.Ledger("stale", "s0", "/a", goal="g"), now - 8 * DAY)
        for number in range(4):
            store.save(conn, store.Ledger(f"t{number}", f"s{number}", "/b", goal="g"), now - number * 60)
        removed = store.sweep(conn, now, _limits(per_workspace=2).ledger, active={"s3"})
        gone = {r.task_id: r.why for r in removed}
        assert set(gone) == {"stale", "t2"}
        assert "ttl_days" in gone["stale"] and "max_per_workspace" in gone["t2"]
        assert store.load(conn, "t3") is not None, "an active task is never swept"


def test_a_ledger_round_trips_within_its_caps_and_a_fork_copies_it(tmp_path: Path) -> None:
    now = time.time()
    advice = [store.AdviceNote(f"k{n}", "d", "open", "h", now + n) for n in range(store.MAX_ADVICE + 5)]
    advice.append(store.AdviceNote("rf:pytest", "gate", "suppressed", "rejected (advisory x)", now))
    ledger = store.Ledger(
        "t", "s", "/w", goal="ship it", facts=[f"fact {n}" for n in range(70)], advice=advice
    )
    with db.opened(db.db_path(tmp_path)) as conn:
        store.prepare(conn)
        store.save(conn, ledger, now)
        back = store.load(conn, "t")
        assert back is not None and back.goal == "ship it"
        assert back.facts == [f"fact {n}" for n in range(10, 70)]
        assert len(back.advice) == store.MAX_ADVICE
        assert store.fork(conn, "t", "t~1", "s", now)
        copy = store.load(conn, "t~1")
        assert copy is not None and copy.forked_from == "t" and copy.facts == back.facts
    assert oct(os.stat(db.db_path(tmp_path)).st_mode & 0o777) == "0o600"


def test_forget_without_a_worker_removes_the_session_and_says_what(tmp_path: Path) -> None:
    now = time.time()
    _session(tmp_path, "gone", now)
    _session(tmp_path, "other", now)
    report = forget.forget(tmp_path, "gone", timeout=1)
    assert report.sessions == ["gone"] and report.tasks == ["gone"] and report.files == 7 and report.bytes > 0
    assert set(inventory(tmp_path)) == {"other"}
    everything = forget.forget_all(tmp_path, timeout=1)
    assert "other" in everything.tasks and inventory(tmp_path) == {}


def test_a_worker_sweeps_old_sessions_when_it_becomes_active(tmp_path: Path) -> None:
    world = World(tmp_path)
    now = time.time()
    _session(world.data, "abandoned", now - 30 * DAY)
    session = make_session(world)

    async def scenario() -> None:
        world.append(world.records.prompt("hello"))
        await until(lambda: "abandoned" not in inventory(world.data), what="the sweep")

    drive(session, scenario)
    with db.opened(db.db_path(world.data)) as conn:
        assert store.load(store.prepare(conn), "abandoned") is None


def test_recent_observations_are_the_spools_tail_before_the_covered_offset(tmp_path: Path) -> None:
    spool = Spool("s", tmp_path)
    spool.append([Observation(kind="text", text=f"line {n:03d} " + "x" * 40) for n in range(100)])
    covered = spool.read(0).offset
    spool.append([Observation(kind="text", text="not covered yet")])
    recent = recent_observations(spool, (covered, None), 500)
    assert [o.text[:8] for o in recent] == [f"line {n:03d}" for n in range(90, 100)]
    assert recent_observations(spool, (0, None), 500) == []


def _engine(window: Window) -> Any:
    """What LedgerLink reads and restores of a pass engine, without building one."""
    engine = SimpleNamespace(window=window, history=[], open_advisories={"repeat-failure": []}, passes=0)
    engine.remember = engine.history.extend
    return engine


def test_the_ledger_keeps_open_adjudicated_and_suppressed_advice_and_a_new_window_gets_it_back(
    tmp_path: Path,
) -> None:
    link = LedgerLink(tmp_path, "s", "/w")
    engine = _engine(Window(["system"]))
    engine.history.append(Observation(kind="prompt", text="[prompt] fix the parser"))
    engine.passes = 4
    engine.open_advisories["repeat-failure"].append(
        {"advice_id": "rf:new", "headline": "Still failing", "pass": 4}
    )
    outcome = {"advice_id": "rf:old", "verdict": "rejected", "evidence": ["said it is flaky"]}
    result = SimpleNamespace(
        results=[
            FeedbackResult(
                "repeat-failure", "answered", feedback={"verdict": "silent", "outcomes": [outcome]}
            )
        ]
    )
    memory = TaskMemory(suppressed={"rf:old": "rejected (advisory a1)"})
    link.save("s", engine, memory, result)

    with db.opened(db.db_path(tmp_path)) as conn:
        saved = store.load(store.prepare(conn), "s")
    assert saved is not None and saved.goal == "fix the parser" and saved.passes == 4
    assert {(a.key, a.state) for a in saved.advice} == {
        ("rf:new", "open"),
        ("rf:old", "adjudicated"),
        ("rf:old", "suppressed"),
    }

    fresh = _engine(Window(["system"]))
    said = LedgerLink(tmp_path, "s", "/w").restore("s", fresh, Spool("s", tmp_path), (0, None))
    assert "window rebuilt from the ledger" in said
    assert fresh.window.goal == "fix the parser" and fresh.passes == 4
    assert fresh.open_advisories["repeat-failure"][0]["advice_id"] == "rf:new"
    assert "fix the parser" in fresh.window.messages[0].content[0].text
