"""The session feed's rules for passes: what a pass covers and commits, and when one may start.

The live worker commits its spool and events offsets when a pass ends; the feed says which: the reading
position when the pass started. A new goal read while a pass runs waits for it, and no further pass starts
until the new task has begun with what waited (a pass of the old task in between would commit the waiting
observations unoffered, and a restart would lose them, the new goal's prompt among them).
"""

from __future__ import annotations

import pytest

from sbcore.conductor.new_goal import GoalJudge, GoalSplit, NewGoalSettings
from sbcore.conductor.session_feed import SessionFeed
from sbcore.conductor.turn_end import TurnEnds
from sbcore.observe.model import Observation

WORK = [
    Observation(
        "prompt", "[prompt] Make the storage uploads retry with backoff when the S3 client times out"
    ),
    Observation("text", "[text] Reading the upload client to see where the S3 bucket timeout surfaces"),
    Observation("tool", "[tool] Edit storage/retry.py", tool="Edit", args={"file_path": "storage/retry.py"}),
    Observation("text", "[text] Wiring the backoff into the multipart upload path and its timeout handler"),
    Observation("tool", "[tool] Edit storage/multipart.py", tool="Edit", args={"file_path": "storage/x.py"}),
]
NEW_GOAL = Observation("prompt", "[prompt] Add a CSV export of monthly invoices to the billing dashboard")
AFTER = Observation("text", "[text] Looking at the billing dashboard's invoice queries")


def _feed() -> SessionFeed[int]:
    return SessionFeed(TurnEnds(settle_s=0.0), GoalSplit(GoalJudge(NewGoalSettings())))


def test_a_pass_commits_the_position_it_started_at_and_lists_what_arrived_while_it_ran() -> None:
    feed = _feed()
    assert feed.read(WORK[:3], projection=None).observations == WORK[:3]
    feed.pass_starts(3)
    assert not feed.ready
    assert feed.read(WORK[3:], projection=None).observations == WORK[3:]
    covered = feed.pass_ends()
    assert covered.position == 3 and covered.arrived == WORK[3:]
    assert feed.ready


def test_a_new_goal_read_during_a_pass_waits_and_no_pass_starts_before_its_task_begins() -> None:
    feed = _feed()
    feed.read(WORK, projection=None)
    feed.pass_starts(5)
    step = feed.read([NEW_GOAL, AFTER], projection=None)
    assert step.start is None and step.observations == []  # held for the new task
    covered = feed.pass_ends()
    assert covered.position == 5 and covered.arrived == []  # the pass covered none of them
    assert feed.waiting and not feed.ready  # a pass now would run in the old task and commit them unoffered
    begun = feed.read([], projection=None)
    assert begun.start is not None and begun.observations == [NEW_GOAL, AFTER]
    assert feed.ready


def test_forgetting_drops_a_new_task_waiting_with_what_it_held() -> None:
    feed = _feed()
    feed.read(WORK, projection=None)
    feed.pass_starts(5)
    feed.read([NEW_GOAL, AFTER], projection=None)
    feed.pass_ends()
    feed.forget()
    assert not feed.waiting and feed.ready
    assert feed.read([], projection=None).start is None


def test_without_a_goal_split_the_task_never_changes() -> None:
    feed: SessionFeed[int] = SessionFeed(TurnEnds(settle_s=0.0), None)
    feed.read(WORK, projection=None)
    step = feed.read([NEW_GOAL, AFTER], projection=None)
    assert step.start is None and step.observations == [NEW_GOAL, AFTER]


def test_a_pass_cannot_end_that_did_not_start() -> None:
    with pytest.raises(RuntimeError):
        _feed().pass_ends()
