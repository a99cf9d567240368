"""The cross-task index: who counts as a neighbour, what expires, what a task keeps, and how it leaves."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest

from sbcore.state import db
from sbcore.state.taskindex import IndexedRegion, TaskIndex, Whereabouts

HOUR = 3600.0
SHOP = Whereabouts("s-shop", "/home/u/shop", "/home/u/shop", "/home/u/shop/.git")
SHOP_TREE = Whereabouts("s-tree", "/home/u/shop-wt", "/home/u/shop-wt", "/home/u/shop/.git")
BLOG = Whereabouts("s-blog", "/home/u/blog", "/home/u/blog", "/home/u/blog/.git")


@pytest.fixture
def index() -> TaskIndex:
    return TaskIndex.private()


def region(
    first: int | None, last: int | None, at: float, ref: str = "t1", path: str = "src/a.py"
) -> IndexedRegion:
    return IndexedRegion(path, first, last, at, ref)


def test_neighbours_are_the_same_checkout_and_the_worktrees_of_one_repository(index: TaskIndex) -> None:
    index.publish("me", SHOP, 100.0, goal="mine")
    index.publish("twin", SHOP, 100.0, goal="same checkout")
    index.publish("tree", SHOP_TREE, 100.0, goal="another worktree")
    index.publish("blog", BLOG, 100.0, goal="another repository")
    peers = index.peers("me", SHOP, 110.0, HOUR)
    assert peers.workspace == SHOP.workspace and peers.now == 110.0
    assert {(t.task, t.same_checkout) for t in peers.tasks} == {("twin", True), ("tree", False)}


def test_a_task_without_a_git_dir_has_only_its_own_checkout_for_neighbours(index: TaskIndex) -> None:
    bare = Whereabouts("s", "/home/u/scratch")
    index.publish("a", bare, 0.0)
    index.publish("b", Whereabouts("t", "/home/u/other"), 0.0)
    index.publish("c", bare, 0.0)
    assert [t.task for t in index.peers("a", bare, 1.0, HOUR).tasks] == ["c"]


def test_silent_tasks_and_old_regions_expire(index: TaskIndex) -> None:
    index.publish("old", SHOP, 0.0, regions=[region(1, 2, 0.0)])
    index.publish("busy", SHOP, 0.0, regions=[region(1, 2, 0.0, "t1")])
    index.publish("busy", SHOP, 1000.0, regions=[region(5, 6, 1000.0, "t2")])
    [busy] = index.peers("me", SHOP, 1900.0, ttl_s=1800.0).tasks
    assert busy.task == "busy"
    assert [(r.first, r.last) for r in busy.regions] == [(5, 6)]
    assert index.sweep(1900.0, 1800.0) == 3  # two regions and one task row went
    assert [t.task for t in index.peers("me", SHOP, 1900.0, HOUR * 10).tasks] == ["busy"]


def test_the_goal_is_set_once_mentions_accumulate_and_regions_are_capped(index: TaskIndex) -> None:
    index.publish("t", SHOP, 1.0, goal="first goal", mentions=["src/a.py"])
    index.publish(
        "t", SHOP, 2.0, goal="a later prompt", mentions=["src/a.py", "parse_amount"], max_mentions=2
    )
    regions = [region(n, n, 3.0 + n, f"t{n}") for n in range(1, 8)]
    index.publish("t", SHOP, 10.0, regions=regions, max_regions=3)
    [task] = index.peers("me", SHOP, 11.0, HOUR).tasks
    assert task.goal == "first goal"
    assert task.mentions == ("src/a.py", "parse_amount")
    assert [r.first for r in task.regions] == [5, 6, 7]
    assert task.seen_at == 10.0


def test_a_failed_edit_is_withdrawn_and_a_task_that_ends_leaves_at_once(index: TaskIndex) -> None:
    index.publish("t", SHOP, 1.0, regions=[region(1, 3, 1.0, "ok"), region(8, 9, 1.0, "bad")])
    index.publish("t", SHOP, 2.0, withdrawn=["bad"])
    [task] = index.peers("me", SHOP, 3.0, HOUR).tasks
    assert [r.ref for r in task.regions] == ["ok"]
    assert task.regions[0].describe() == "lines 1-3"
    assert region(None, None, 0.0).describe() == "lines unknown"
    index.leave("t")
    assert index.peers("me", SHOP, 3.0, HOUR).tasks == ()


def test_the_index_lives_in_the_one_private_database(tmp_path: Path) -> None:
    path = tmp_path / "data" / db.DB_NAME
    index = TaskIndex.open(path)
    index.publish("t", SHOP, 1.0, goal="g", regions=[region(1, 1, 1.0)])
    index.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with db.opened(path, readonly=True) as conn:
        assert conn.execute("SELECT goal FROM xtask_tasks").fetchone()[0] == "g"
        with pytest.raises(sqlite3.OperationalError):
            conn.execute("DELETE FROM xtask_tasks")
