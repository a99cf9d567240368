"""The cross_task_collision trigger: this task's edits and goal against the other live tasks'."""

from __future__ import annotations

from typing import Any

from sbcore.detectors.crosstask import cross_task_collision

from sbcore.observe.model import Observation
from sbcore.packs.manager import get_plugin_manager
from sbcore.state.taskindex import IndexedRegion, IndexedTask, Peers

ROOT = "/home/u/shop"
NOW = 10_000.0
PARAMS: dict[str, Any] = {"near_lines": 10, "goal_mentions": True, "max_evidence": 5}


def edit(path: str, anchor: str | None = None, ref: str = "e1", **args: Any) -> Observation:
    projected: dict[str, Any] = {"file_path": f"{ROOT}/{path}", **args}
    if anchor:
        projected["anchor"] = anchor
    return Observation(
        "tool",
        f"[tool] Edit {path}",
        timestamp="2026-01-01T10:00:00Z",
        tool="Edit",
        tool_use_id=ref,
        args=projected,
    )


def prompt(text: str) -> Observation:
    return Observation("prompt", f"[prompt] {text}")


def other(
    *regions: IndexedRegion,
    goal: str = "speed up checkout",
    mentions: tuple[str, ...] = (),
    same: bool = True,
) -> Peers:
    task = IndexedTask(
        "task-b",
        "session-b",
        ROOT if same else "/home/u/shop-wt",
        ROOT,
        "/home/u/shop/.git",
        goal,
        mentions,
        NOW - 60,
        regions,
        same_checkout=same,
    )
    return Peers(ROOT, NOW, (task,))


def lines(
    first: int | None, last: int | None, path: str = "src/cart.py", at: float = NOW - 240
) -> IndexedRegion:
    return IndexedRegion(path, first, last, at, "t9")


def fire(
    observations: list[Observation], peers: Peers, state: dict[str, Any] | None = None, **params: Any
) -> Any:
    return cross_task_collision(observations, {**PARAMS, **params}, {} if state is None else state, peers)


def test_the_trigger_is_registered_by_the_builtin_pack_and_reads_peers() -> None:
    spec = get_plugin_manager().registry.triggers["cross_task_collision"]
    assert spec.wants_peers and not spec.wants_config
    assert spec.invoke([edit("src/cart.py", "L1-L2")], {}, {}) is None  # no index: no other task


def test_overlapping_or_near_lines_fire_and_name_the_other_goal_and_region() -> None:
    match = fire([edit("src/cart.py", "L40-L44")], other(lines(30, 33)))
    assert match is not None
    assert match.key == "task-b:src/cart.py"
    assert match.summary == (
        "src/cart.py lines 40-44: another task edited lines 30-33 4 min ago "
        '(same checkout: "speed up checkout")'
    )
    assert match.data["kind"] == "region" and match.data["topology"] == "same_checkout"
    assert (match.data["region"], match.data["other_region"]) == ([40, 44], [30, 33])
    assert fire([edit("src/cart.py", "L40-L44")], other(lines(30, 33)), near_lines=0) is None


def test_lines_far_apart_or_another_file_stay_silent() -> None:
    assert fire([edit("src/cart.py", "L80-L90")], other(lines(30, 33))) is None
    assert fire([edit("src/pay.py", "L30-L33")], other(lines(30, 33))) is None


def test_an_edit_that_could_not_be_placed_counts_as_the_whole_file() -> None:
    match = fire([edit("src/cart.py")], other(lines(300, 310)))
    assert match is not None and match.summary.startswith("src/cart.py: another task edited lines 300-310")
    match = fire([edit("src/cart.py", "L1-L2")], other(lines(None, None)))
    assert match is not None and "another task edited it 4 min ago" in match.summary


def test_a_failed_edit_changed_nothing() -> None:
    failed = Observation("error", "[error] Edit: String to replace not found", tool="Edit", tool_use_id="e1")
    assert fire([edit("src/cart.py", "L30-L31"), failed], other(lines(30, 33))) is None


def test_another_worktree_is_the_deferred_case() -> None:
    match = fire([edit("src/cart.py", "L30-L31")], other(lines(30, 33), same=False))
    assert match is not None
    assert match.data["topology"] == "worktree"
    assert "worktree shop-wt" in match.summary
    assert (
        match.evidence[-1] == "another worktree of this repository: the two branches will conflict at merge"
    )


def test_editing_what_another_goal_names_fires_by_path_or_by_symbol() -> None:
    by_path = fire(
        [edit("src/cart.py", "L300-L301")], other(goal="fix cart.py totals", mentions=("cart.py",))
    )
    assert (
        by_path is not None
        and by_path.data["kind"] == "named_by_other"
        and by_path.data["named"] == "cart.py"
    )
    assert by_path.key == "task-b:src/cart.py:goal"
    changed = edit(
        "src/cart.py", "L5-L6", new_string="def apply_coupon(cart, code):", old_string="def apply(c):"
    )
    by_symbol = fire([changed], other(mentions=("apply_coupon",)))
    assert by_symbol is not None and by_symbol.data["named"] == "apply_coupon"
    assert fire([edit("src/cart.py", "L5-L6", new_string="x = 1")], other(mentions=("apply_coupon",))) is None
    assert fire([edit("src/cart.py", "L300-L301")], other(mentions=("cart.py",)), goal_mentions=False) is None


def test_another_task_editing_what_this_goal_names_fires() -> None:
    match = fire([prompt("Make `src/cart.py` handle coupons")], other(lines(3, 4)))
    assert match is not None
    assert match.data["kind"] == "names_mine"
    assert match.summary.startswith(
        "src/cart.py, which this task's goal names: another task edited lines 3-4"
    )


def test_each_collision_is_reported_once_and_a_region_outranks_a_goal() -> None:
    state: dict[str, Any] = {}
    observations = [edit("src/cart.py", "L30-L31")]
    peers = other(lines(30, 33), mentions=("src/cart.py",))
    first = fire(observations, peers, state)
    assert first is not None and first.data["kind"] == "region"
    assert fire(observations, peers, state) is None  # its goal naming the file adds nothing to the region
    assert fire([*observations, edit("src/cart.py", "L32-L33", ref="e2")], peers, state) is None


def test_a_goal_naming_a_file_both_tasks_edited_far_apart_is_no_collision() -> None:
    """Issue 22: the goal says where the other task means to work, its edits where it did."""
    far = other(lines(500, 510), goal="fix cart.py totals", mentions=("cart.py",))
    assert fire([edit("src/cart.py", "L10-L12")], far) is None
    assert fire([edit("src/cart.py", "L505-L506")], far) is not None  # near: a region collision
    assert (
        fire([edit("src/cart.py", "L10-L12")], other(goal="fix cart.py", mentions=("cart.py",))) is not None
    )
    mine = [prompt("Rework `src/cart.py` totals"), edit("src/cart.py", "L10-L12")]
    assert fire(mine, other(lines(500, 510))) is None  # and likewise for the file this task's goal names


def test_a_goal_naming_the_file_by_its_absolute_path_names_it_too() -> None:
    match = fire([prompt(f"Rework {ROOT}/src/cart.py")], other(lines(3, 4)))
    assert match is not None and match.data["named"] == "src/cart.py"
