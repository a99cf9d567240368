"""The ``cross_task_collision`` trigger: another live task is editing what this one is editing.

The one finding that crosses tasks (design, "The one thing that crosses tasks"). The host hands the trigger
the other live tasks of this workspace from the cross-task index (``peers``: each one's goal line, the paths
and symbols its prompts name, and the file regions its edits touched, all younger than ``index.ttl_s``), and
the trigger compares them with this task's own edits and prompts. It fires on:

- ``region``: this task edited lines of a file within ``near_lines`` of lines another task edited (an edit
  that could not be placed in its file counts as the whole file);
- ``named_by_other``: this task edited a file, or a symbol, that another task's goal names — a file only
  while the other task has not edited it at placed lines (its edits then say where its work is, and edits
  far apart are two pieces of work);
- ``names_mine``: another task edited a file this task's goal names, likewise only while this task has not
  edited it at placed lines.

Structural, so it cannot invent a collision: the model is only asked to write the advisory. Each collision
is reported once per other task and file (two sessions deliberately working one area would otherwise hear
it at every edit), a region overlap even if the same file was reported before as named by a goal.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sbcore.api import IndexedRegion, IndexedTask, Observation, Peers, TriggerMatch, report_once
from sbcore.observe.touched import (
    edit_regions,
    edit_texts,
    is_path,
    mentions,
    names_path,
    names_symbol,
    relative_to,
)

CROSS_TASK_COLLISION_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "near_lines": {
            "type": "integer",
            "minimum": 0,
            "maximum": 10000,
            "default": 10,
            "description": "Two edited regions of one file this many lines apart or closer count as one "
            "area. 0 fires only on overlapping lines; larger also catches edits to the same function.",
        },
        "goal_mentions": {
            "type": "boolean",
            "default": True,
            "description": "Also fire when this task edits a file or symbol another task's goal names, or "
            "another task edits a file this task's goal names.",
        },
        "max_evidence": {
            "type": "integer",
            "minimum": 1,
            "maximum": 20,
            "default": 5,
            "description": "How many lines of evidence the match quotes.",
        },
    },
}

_KIND_ORDER = {"region": 0, "named_by_other": 1, "names_mine": 2}
SUMMARY_CAP = 150
"""The summary is a fallback headline's tail (feedback headlines are at most 200 characters)."""
GOAL_CAP = 60


@dataclass(frozen=True)
class _Edit:
    index: int
    path: str
    first: int | None
    last: int | None
    observation: Observation

    def describe(self) -> str:
        return IndexedRegion(self.path, self.first, self.last, 0.0).describe()


@dataclass(frozen=True)
class _Finding:
    kind: str
    peer: IndexedTask
    path: str
    recency: int  # index of this task's observation it rests on (-1: none of ours)
    mine: _Edit | None = None
    theirs: IndexedRegion | None = None
    named: str = ""

    @property
    def key(self) -> str:
        suffix = "" if self.kind == "region" else ":goal"
        return f"{self.peer.task}:{self.path}{suffix}"


def cross_task_collision(
    observations: Sequence[Observation], params: Mapping[str, Any], state: dict[str, Any], peers: Peers
) -> TriggerMatch | None:
    """Fire when another live task of this workspace edits the same region, or what a goal names.

    See the module docstring for what counts. Match data: ``kind`` (``region``, ``named_by_other``,
    ``names_mine``), ``path`` (relative to the workspace), ``region`` (this task's lines, or None),
    ``other_region`` (the other task's lines, or None), ``named`` (the mention a goal matched),
    ``topology`` (``same_checkout``: two agents writing the same files now; ``worktree``: another
    worktree of the repository, a merge conflict forming), ``other_task``, ``other_session``,
    ``other_goal``, ``other_workspace`` and ``minutes_ago`` (since the other task's edit, or its last
    sign of life).
    """
    if not peers.tasks:
        return None
    near = int(params.get("near_lines", 10))
    goals = bool(params.get("goal_mentions", True))
    max_evidence = int(params.get("max_evidence", 5))
    edits = _edits(observations, peers.workspace)
    named_here = _named(observations, peers.workspace) if goals else []
    findings: list[_Finding] = []
    for peer in peers.tasks:
        findings += _regions(edits, peer, near)
        if goals:
            findings += _named_by(edits, peer)
            findings += _names(named_here, peer, edits)
    findings.sort(key=lambda f: (_KIND_ORDER[f.kind], -f.recency, -f.peer.seen_at, f.peer.task, f.path))
    for finding in findings:
        if report_once(state, finding.key):
            return _match(finding, peers, max_evidence)
    return None


def _edits(observations: Sequence[Observation], workspace: str) -> list[_Edit]:
    """This task's edits that took effect (a call whose result is an error changed nothing)."""
    failed = {obs.tool_use_id for obs in observations if obs.kind == "error" and obs.tool_use_id}
    edits = []
    for index, obs in enumerate(observations):
        for touch in edit_regions(obs):
            if touch.ref and touch.ref in failed:
                continue
            edits.append(_Edit(index, relative_to(touch.path, workspace), touch.first, touch.last, obs))
    return edits


def _named(observations: Sequence[Observation], workspace: str) -> list[tuple[int, str]]:
    """The paths this task's prompts name (relative to the workspace), with the index of the first prompt
    naming each."""
    found: dict[str, int] = {}
    for index, obs in enumerate(observations):
        if obs.kind == "prompt":
            for item in mentions(obs.text.removeprefix("[prompt] ")):
                if is_path(item):
                    found.setdefault(relative_to(item, workspace), index)
    return [(index, item) for item, index in found.items()]


def _near(edit: _Edit, region: IndexedRegion, near: int) -> bool:
    if edit.first is None or edit.last is None or region.whole_file:
        return True
    assert region.first is not None and region.last is not None
    return edit.first <= region.last + near and region.first <= edit.last + near


def _regions(edits: list[_Edit], peer: IndexedTask, near: int) -> list[_Finding]:
    found = []
    for edit in reversed(edits):
        theirs = [r for r in peer.regions if r.path == edit.path and _near(edit, r, near)]
        if theirs:
            found.append(_Finding("region", peer, edit.path, edit.index, mine=edit, theirs=theirs[-1]))
    return found


def _placed_in(regions: Sequence[IndexedRegion], path: str) -> bool:
    """Whether ``regions`` hold an edit of ``path`` placed at its lines: then where the edits are decides."""
    return any(region.path == path and not region.whole_file for region in regions)


def _named_by(edits: list[_Edit], peer: IndexedTask) -> list[_Finding]:
    found = []
    for edit in reversed(edits):
        for mention in peer.mentions:
            if is_path(mention):
                # A goal naming the file says where the other task means to work; its placed edits there say
                # where it did. Edits far apart are two pieces of work (near ones are a region collision).
                hit = names_path(mention, edit.path) and not _placed_in(peer.regions, edit.path)
            else:
                hit = names_symbol(mention, [edit_texts(edit.observation)])
            if hit:
                found.append(
                    _Finding("named_by_other", peer, edit.path, edit.index, mine=edit, named=mention)
                )
                break
    return found


def _names(named_here: list[tuple[int, str]], peer: IndexedTask, edits: list[_Edit]) -> list[_Finding]:
    found = []
    placed = {edit.path for edit in edits if edit.first is not None}
    for region in reversed(peer.regions):
        if region.path in placed and not region.whole_file:
            continue  # this task has edited that file too, at placed lines: where the edits are decides
        for index, mention in named_here:
            if names_path(mention, region.path):
                found.append(_Finding("names_mine", peer, region.path, index, theirs=region, named=mention))
                break
    return found


def _edited(region: IndexedRegion) -> str:
    return "edited it" if region.whole_file else f"edited {region.describe()}"


def _cap(text: str, cap: int) -> str:
    return text if len(text) <= cap else text[: cap - 1] + "…"


def _minutes(peers: Peers, at: float) -> int:
    return max(0, round((peers.now - at) / 60))


def _ago(minutes: int) -> str:
    return "just now" if minutes < 1 else f"{minutes} min ago"


def _match(finding: _Finding, peers: Peers, max_evidence: int) -> TriggerMatch:
    peer = finding.peer
    topology = "same_checkout" if peer.same_checkout else "worktree"
    where = (
        "same checkout"
        if peer.same_checkout
        else f"worktree {os.path.basename(peer.workspace) or peer.workspace}"
    )
    goal = peer.goal or "goal unknown"
    short = f'{where}: "{_cap(goal, GOAL_CAP)}"'
    theirs = finding.theirs
    minutes = _minutes(peers, theirs.at if theirs is not None else peer.seen_at)
    mine = finding.mine
    if finding.kind == "region":
        assert mine is not None and theirs is not None
        here = f"{finding.path} {mine.describe()}" if mine.first is not None else finding.path
        summary = f"{here}: another task {_edited(theirs)} {_ago(minutes)} ({short})"
    elif finding.kind == "named_by_other":
        summary = f"{finding.path}: edited here, and another task's goal names `{finding.named}` ({short})"
    else:
        assert theirs is not None
        summary = (
            f"{finding.path}, which this task's goal names: another task {_edited(theirs)} "
            f"{_ago(minutes)} ({short})"
        )
    summary = _cap(summary, SUMMARY_CAP)
    evidence = []
    if mine is not None:
        stamp = mine.observation.timestamp or "time unknown"
        evidence.append(f"this task: {mine.observation.tool} {finding.path} {mine.describe()} ({stamp})")
    if theirs is not None:
        evidence.append(
            f"other task {peer.task}: edited {finding.path} {theirs.describe()} ({_ago(minutes)})"
        )
    evidence.append(f'other task\'s goal: "{goal}"')
    if finding.named:
        evidence.append(f"the goal names `{finding.named}`")
    evidence.append(
        "same checkout: both agents write these files now, and the later write wins"
        if peer.same_checkout
        else "another worktree of this repository: the two branches will conflict at merge"
    )
    return TriggerMatch(
        key=finding.key,
        summary=summary,
        evidence=tuple(evidence[:max_evidence]),
        data={
            "kind": finding.kind,
            "path": finding.path,
            "region": None if mine is None or mine.first is None else [mine.first, mine.last],
            "other_region": None if theirs is None or theirs.first is None else [theirs.first, theirs.last],
            "named": finding.named or None,
            "topology": topology,
            "other_task": peer.task,
            "other_session": peer.session,
            "other_goal": peer.goal,
            "other_workspace": peer.workspace,
            "minutes_ago": minutes,
        },
    )
