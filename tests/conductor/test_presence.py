"""A task's seat in the cross-task index: what the pipeline publishes, and that the index is best effort."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sbcore.conductor.presence import IndexSettings, Presence, git_common_dir
from sbcore.observe.model import Observation
from sbcore.state.taskindex import TaskIndex, Whereabouts

ROOT = "/home/u/shop"
WHERE = Whereabouts("s1", ROOT, ROOT)
NEIGHBOUR = Whereabouts("s2", ROOT, ROOT)


def edit(ref: str, anchor: str = "L3-L4") -> Observation:
    args = {"file_path": f"{ROOT}/src/a.py", "anchor": anchor}
    return Observation("tool", "[tool] Edit src/a.py", tool="Edit", tool_use_id=ref, args=args)


def test_a_task_publishes_its_goal_mentions_and_edits_and_withdraws_a_failed_one() -> None:
    index = TaskIndex.private()
    presence = Presence(index, WHERE)
    presence.publish("t1", [Observation("prompt", "[prompt] Fix `apply_coupon` in src/a.py\nthanks")], 10.0)
    presence.publish("t1", [Observation("prompt", "[prompt] also see b.py")], 11.0)
    presence.publish("t1", [edit("ok"), edit("bad", "L9-L9")], 12.0)
    presence.publish(
        "t1", [Observation("error", "[error] Edit: not found", tool="Edit", tool_use_id="bad")], 13.0
    )
    [task] = index.peers("other", NEIGHBOUR, 14.0, 1800.0).tasks
    assert task.goal == "Fix `apply_coupon` in src/a.py"
    assert task.mentions == ("src/a.py", "apply_coupon", "b.py")
    assert [(r.path, r.first, r.last, r.ref) for r in task.regions] == [("src/a.py", 3, 4, "ok")]


def test_with_nothing_new_a_task_renews_itself_only_every_tenth_of_the_ttl() -> None:
    index = TaskIndex.private()
    presence = Presence(index, WHERE, IndexSettings(ttl_s=1000.0))
    talk = [Observation("text", "[text] thinking")]
    presence.publish("t1", talk, 0.0)
    presence.publish("t1", talk, 50.0)
    assert index.peers("other", NEIGHBOUR, 60.0, 1000.0).tasks[0].seen_at == 0.0
    presence.publish("t1", talk, 120.0)
    assert index.peers("other", NEIGHBOUR, 130.0, 1000.0).tasks[0].seen_at == 120.0


def test_an_unusable_index_is_logged_and_passed_over() -> None:
    index = TaskIndex.private()
    presence = Presence(index, WHERE)
    index.close()
    presence.publish("t1", [edit("e1")], 1.0)  # no exception: the pass goes on without the index
    assert presence.peers("t1", 2.0) is None
    presence.leave("t1")


def test_a_publication_that_fails_is_sent_with_the_next_or_before_the_next_pass_reads() -> None:
    """A busy database must delay a task's goal and regions, never lose them (they decide collisions)."""
    index = TaskIndex.private()
    presence = Presence(index, WHERE)
    real, failures = index.publish, [sqlite3.OperationalError("database is locked")]

    def busy_once(*args: Any, **kwargs: Any) -> None:
        if failures:
            raise failures.pop()
        real(*args, **kwargs)

    index.publish = busy_once  # type: ignore[method-assign]
    presence.publish("t1", [Observation("prompt", "[prompt] Fix src/a.py"), edit("e1")], 1.0)
    assert index.peers("other", NEIGHBOUR, 2.0, 1800.0).tasks == ()
    presence.peers("t1", 3.0)  # the pass's reading sends what failed first
    [task] = index.peers("other", NEIGHBOUR, 4.0, 1800.0).tasks
    assert task.goal == "Fix src/a.py"
    assert [(r.path, r.first, r.last, r.ref) for r in task.regions] == [("src/a.py", 3, 4, "e1")]

    failures.append(sqlite3.OperationalError("database is locked"))
    presence.publish("t1", [edit("e2", "L8-L9")], 5.0)
    presence.publish("t1", [edit("e3", "L20-L20")], 6.0)  # the next publication carries the failed one
    [task] = index.peers("other", NEIGHBOUR, 7.0, 1800.0).tasks
    assert [r.ref for r in task.regions] == ["e1", "e2", "e3"]


def test_the_git_common_dir_tells_worktrees_of_one_repository_apart_from_other_checkouts(
    tmp_path: Path,
) -> None:
    main = tmp_path / "shop"
    (main / ".git" / "worktrees" / "wt").mkdir(parents=True)
    tree = tmp_path / "shop-wt"
    tree.mkdir()
    (tree / ".git").write_text(f"gitdir: {main / '.git' / 'worktrees' / 'wt'}\n")
    submodule = tmp_path / "lib"
    submodule.mkdir()
    (submodule / ".git").write_text("gitdir: ../shop/.git/modules/lib\n")
    assert git_common_dir(main) == git_common_dir(tree) == str(main / ".git")
    assert git_common_dir(submodule) == str(main / ".git" / "modules" / "lib")
    assert git_common_dir(tmp_path) is None


def test_a_named_path_inside_the_workspace_is_published_relative_to_it() -> None:
    index = TaskIndex.private()
    Presence(index, WHERE).publish("t1", [Observation("prompt", f"[prompt] see {ROOT}/src/a.py")], 1.0)
    assert index.peers("other", NEIGHBOUR, 2.0, 1800.0).tasks[0].mentions == ("src/a.py",)
