"""The live worker and the user's cross-task index: it publishes its task, hears another, and leaves.

In process, offline, with the data directory under the test's tmp directory: the index is the data
directory's database, the one a second session on the machine would read.
"""

from __future__ import annotations

import sqlite3
import stat
import time
from pathlib import Path

import pytest
from worker_helpers import FAST_CONFIG, World, drive, make_session, until

from sbcore.state.db import db_path
from sbcore.state.taskindex import IndexedRegion, TaskIndex, Whereabouts

LEDGER = "".join(f"line {n}\n" for n in range(1, 40))


@pytest.fixture(autouse=True)
def _private_env(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.apply_env(monkeypatch)


def _rows(data: Path, table: str) -> list[sqlite3.Row]:
    conn = sqlite3.connect(f"{db_path(data).as_uri()}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(f"SELECT * FROM {table}").fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        conn.close()


def _edit_lines_20_to_22(world: World) -> list[dict[str, object]]:
    """An Edit of lines 20-22 of src/ledger.py, as the file on disk shows after it."""
    target = world.project / "src" / "ledger.py"
    target.parent.mkdir(parents=True, exist_ok=True)
    new = "line 20 net\nline 21 net\nline 22 net\n"
    target.write_text(LEDGER.replace("line 20\nline 21\nline 22\n", new))
    call_id, call = world.records.call(
        "Edit", {"file_path": str(target), "old_string": "line 20\nline 21\nline 22\n", "new_string": new}
    )
    return [call, world.records.result(call_id, f"The file {target} has been updated successfully.")]


def test_the_live_worker_publishes_its_task_and_leaves_the_index_when_it_stops(world: World) -> None:
    session = make_session(world)
    workspace = str(session.workspace)

    async def scenario() -> None:
        world.append(world.records.prompt("Net the refunds out of src/ledger.py totals"))
        world.append(*_edit_lines_20_to_22(world))
        await until(lambda: session.record.observed >= 2, what="the prompt and the edit")
        await until(lambda: _rows(world.data, "xtask_regions"), what="the edit in the index")
        [task] = _rows(world.data, "xtask_tasks")
        assert (task["task"], task["session"], task["workspace"]) == (world.session, world.session, workspace)
        assert task["goal"] == "Net the refunds out of src/ledger.py totals"
        assert "src/ledger.py" in task["mentions"]
        [region] = _rows(world.data, "xtask_regions")
        assert (region["path"], region["first_line"], region["last_line"]) == ("src/ledger.py", 20, 22)
        # stamped with wall time, which other workers and the data directory's sweep read (a monotonic
        # stamp looked decades old to the sweep, which then emptied the live index)
        assert abs(task["seen_at"] - time.time()) < 600 and abs(region["at"] - time.time()) < 600

    drive(session, scenario)
    assert stat.S_IMODE(db_path(world.data).stat().st_mode) == 0o600
    assert _rows(world.data, "xtask_tasks") == [] and _rows(world.data, "xtask_regions") == []


def test_the_live_worker_hears_another_live_task_editing_the_same_lines(world: World) -> None:
    world.write_config(
        FAST_CONFIG + "detectors:\n  cross-task-collision:\n    enabled: true\n    mode: advise\n"
    )
    session = make_session(world)
    other = TaskIndex.open(db_path(world.data))
    where = Whereabouts("other-session", str(session.workspace), str(session.workspace))
    other.publish(
        "other-task",
        where,
        time.time(),
        goal="Round the ledger totals to cents",
        regions=[IndexedRegion("src/ledger.py", 18, 21, time.time(), "toolu_other")],
    )
    other.close()

    async def scenario() -> None:
        world.append(world.records.prompt("Net the refunds out of the totals"))
        world.append(*_edit_lines_20_to_22(world))
        await until(lambda: world.mailbox(), what="the collision advisory")

    drive(session, scenario)
    [advice] = world.mailbox()
    assert advice.kind == "cross-task-collision"
    assert advice.headline.startswith("Another task is touching the same files: src/ledger.py lines 20-22:")
    assert "edited lines 18-21" in advice.headline
    assert "Round the ledger totals to cents" in advice.headline
    assert [row["task"] for row in _rows(world.data, "xtask_tasks")] == ["other-task"]


def test_index_enabled_false_keeps_the_session_out_of_the_index(world: World) -> None:
    world.write_config(FAST_CONFIG + "index:\n  enabled: false\n")
    session = make_session(world)

    async def scenario() -> None:
        world.append(world.records.prompt("Net the refunds out of src/ledger.py totals"))
        world.append(*_edit_lines_20_to_22(world))
        await until(
            lambda: session.record.passes >= 1 and session.record.observed >= 2, what="a pass over the edit"
        )

    drive(session, scenario)
    assert session.pipeline.presence is None
    assert not db_path(world.data).exists() or _rows(world.data, "xtask_tasks") == []
