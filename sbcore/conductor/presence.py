"""A task's seat in the cross-task index: what the pipeline publishes as it observes, and reads before a pass.

The pipeline (:mod:`sbcore.conductor.pipeline`) hands every batch of observations to :meth:`Presence.publish`
and asks :meth:`Presence.peers` for the other live tasks before each pass, which it gives the structural
triggers that declare ``peers`` (``cross_task_collision``). What is published:

- the task's goal: the first line of its first prompt (capped), set once;
- the paths and symbols its prompts name (:func:`~sbcore.observe.touched.mentions`);
- the regions its Edit, MultiEdit, Write and NotebookEdit calls changed, relative to the workspace, withdrawn
  again when the call's result says it failed;
- that it is alive: every publication renews it, and a task silent for ``index.ttl_s`` drops out.

Which index is a driver's choice, never the workspace's: the live worker's is the data directory's database,
replay and the test kit give one in their scratch directory, so nothing but a live session is ever heard by
the user's other sessions. The index is best effort: a database that cannot be reached is logged and the
pass goes on without it.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sbcore.observe.model import Observation
from sbcore.observe.touched import EDIT_TOOLS, edit_regions, is_path, mentions, relative_to
from sbcore.state.taskindex import IndexedRegion, Peers, TaskIndex, Whereabouts

if TYPE_CHECKING:
    from sbcore.config import EffectiveConfig

log = logging.getLogger("sbcore.conductor.presence")

GOAL_CHARS = 160
"""The goal line is for a person reading a warning: one line, this long at most."""
MENTIONS_KEPT = 64
_PROMPT_TAG = "[prompt] "


@dataclass(frozen=True)
class IndexSettings:
    """The ``index.*`` knobs."""

    enabled: bool = True
    ttl_s: float = 1800.0
    compact_interval_s: float = 600.0
    max_regions_per_task: int = 200

    @classmethod
    def from_config(cls, config: EffectiveConfig) -> IndexSettings:
        group = config.group("index")
        return cls(
            enabled=bool(group["enabled"]),
            ttl_s=float(group["ttl_s"]),
            compact_interval_s=float(group["compact_interval_s"]),
            max_regions_per_task=int(group["max_regions_per_task"]),
        )

    @property
    def heartbeat_s(self) -> float:
        """How often a task with nothing new to publish still renews itself while observations arrive."""
        return self.ttl_s / 10


@dataclass(frozen=True)
class _Unsent:
    goal: str
    named: list[str]
    regions: list[IndexedRegion]
    withdrawn: list[str]


class Presence:
    """Publishes one session's tasks into ``index`` and reads their neighbours back.

    ``settings`` may be replaced between passes (a configuration reload). The caller owns ``index`` and
    closes it with :meth:`close`.
    """

    def __init__(self, index: TaskIndex, where: Whereabouts, settings: IndexSettings | None = None) -> None:
        self.index = index
        self.where = where
        self.settings = settings or IndexSettings()
        self._goals: dict[str, str] = {}
        self._renewed: dict[str, float] = {}
        self._swept_at: float | None = None
        self._unsent: dict[str, _Unsent] = {}
        """What a failed publication could not write (a busy database), sent with the next one."""

    @classmethod
    def open(cls, database: Path, where: Whereabouts, settings: IndexSettings | None = None) -> Presence:
        """A presence on the index in the database file ``database``."""
        return cls(TaskIndex.open(database), where, settings)

    def publish(self, task: str, observations: Sequence[Observation], now: float) -> None:
        """Publish what ``observations`` say about ``task`` (its goal, mentions, regions) at ``now``."""
        goal = ""
        named: list[str] = []
        regions: list[IndexedRegion] = []
        withdrawn: list[str] = []
        for obs in observations:
            if obs.kind == "prompt":
                text = obs.text.removeprefix(_PROMPT_TAG)
                if task not in self._goals and not goal:
                    goal = _goal_line(text)
                named += [item for item in self._mentions(text) if item not in named]
            elif obs.kind == "error" and obs.tool_use_id and obs.tool in EDIT_TOOLS:
                withdrawn.append(obs.tool_use_id)
            else:
                regions += [
                    IndexedRegion(relative_to(t.path, self.where.workspace), t.first, t.last, now, t.ref)
                    for t in edit_regions(obs)
                ]
        unsent = self._unsent.pop(task, None)
        if unsent is not None:  # an earlier publication failed: what it carried goes out with this one
            goal = goal or unsent.goal
            named = [*unsent.named, *(item for item in named if item not in unsent.named)]
            regions = [*unsent.regions, *regions]
            withdrawn = [*unsent.withdrawn, *withdrawn]
        news = bool(goal or named or regions or withdrawn)
        if not news and now - self._renewed.get(task, float("-inf")) < self.settings.heartbeat_s:
            return
        try:
            self.index.publish(
                task,
                self.where,
                now,
                goal=goal,
                mentions=named[-MENTIONS_KEPT:],
                regions=regions,
                withdrawn=withdrawn,
                max_regions=self.settings.max_regions_per_task,
                max_mentions=MENTIONS_KEPT,
            )
            self._sweep(now)
        except sqlite3.Error as error:
            log.warning("cross-task index: publishing task %s failed (kept for next time): %s", task, error)
            self._unsent[task] = _Unsent(
                goal, named[-MENTIONS_KEPT:], regions[-self.settings.max_regions_per_task :], withdrawn
            )
            return
        if goal:
            self._goals[task] = goal
        self._renewed[task] = now

    def _mentions(self, text: str) -> list[str]:
        """What ``text`` names, a path relative to the workspace when it lies inside it."""
        return [relative_to(item, self.where.workspace) if is_path(item) else item for item in mentions(text)]

    def peers(self, task: str, now: float) -> Peers | None:
        """The other live tasks of this workspace (None when the index cannot be read).

        A publication that failed is tried again first, so a busy moment delays this task's regions
        by a pass at most instead of losing them.
        """
        if task in self._unsent:
            self.publish(task, (), now)
        try:
            return self.index.peers(task, self.where, now, self.settings.ttl_s)
        except sqlite3.Error as error:
            log.warning("cross-task index: reading the other tasks failed: %s", error)
            return None

    def leave(self, task: str) -> None:
        """``task`` ended: withdraw it from the index now."""
        self._unsent.pop(task, None)
        self._goals.pop(task, None)
        self._renewed.pop(task, None)
        try:
            self.index.leave(task)
        except sqlite3.Error as error:
            log.warning("cross-task index: withdrawing task %s failed: %s", task, error)

    def close(self) -> None:
        self.index.close()

    def _sweep(self, now: float) -> None:
        if self._swept_at is not None and now - self._swept_at < self.settings.compact_interval_s:
            return
        self._swept_at = now
        gone = self.index.sweep(now, self.settings.ttl_s)
        if gone:
            log.info("cross-task index: %d expired entries deleted", gone)


def _goal_line(text: str) -> str:
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= GOAL_CHARS else line[: GOAL_CHARS - 1] + "…"


def git_common_dir(workspace: Path) -> str | None:
    """The git common directory of the repository ``workspace`` is a checkout of, when it has one.

    A main checkout's ``.git`` is that directory; a linked worktree's ``.git`` file names its private git
    directory, ``<common>/worktrees/<name>``, whose grandparent is the common one. Read from the file
    alone (no git process, nothing outside the workspace opened): it only tells two worktrees of one
    repository apart from two unrelated checkouts.
    """
    marker = workspace / ".git"
    try:
        if marker.is_dir():
            return os.path.normpath(marker)
        if not marker.is_file():
            return None
        first = marker.read_text(encoding="utf-8", errors="replace").splitlines()[:1]
    except OSError:
        return None
    if not first or not first[0].startswith("gitdir:"):
        return None
    private = Path(first[0].removeprefix("gitdir:").strip())
    if not private.is_absolute():
        private = workspace / private
    private = Path(os.path.normpath(private))
    return str(private.parent.parent) if private.parent.name == "worktrees" else str(private)
