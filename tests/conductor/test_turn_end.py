"""Turn ends as the Stop hook reports them: settled against the transcript, the final message seen once."""

from __future__ import annotations

from sbcore.conductor.turn_end import TurnEnd, TurnEnds, arrived_after, stop_message
from sbcore.observe.config import ProjectionConfig
from sbcore.observe.model import Observation

PROJECTION = ProjectionConfig()
AT = 1_800_000_000.0


def said(text: str, at: float) -> Observation:
    """Assistant text at ``at``, projected as the transcript gives it (the Stop message's own projection)."""
    (observation,) = stop_message(TurnEnd(at, text), PROJECTION)
    return observation


def test_a_turn_end_waits_for_the_transcript_to_show_its_final_message() -> None:
    ends = TurnEnds(settle_s=60.0)
    ends.reported(AT, "All done.", stop_hook_active=False)
    early = ends.take(ends.transcript([said("Working on it.", AT - 5)]), waiting=False, projection=PROJECTION)
    assert early.turn_end is None and ends.pending is not None, "the final message has not arrived yet"
    late = ends.take(ends.transcript([said("All done.", AT)]), waiting=False, projection=PROJECTION)
    assert late.turn_end is not None and ends.pending is None
    assert [obs.text for obs in late.fresh] == [said("All done.", AT).text], "the transcript's copy, once"


def test_a_slow_transcript_gets_the_stop_message_in_its_place_and_its_copy_is_dropped() -> None:
    ends = TurnEnds(settle_s=0.0)  # waited long enough
    ends.reported(AT, "All done.", stop_hook_active=True)
    taken = ends.take([], waiting=False, projection=PROJECTION)
    assert taken.turn_end is not None and ends.stop_hook_active
    assert [obs.text for obs in taken.fresh] == [said("All done.", AT).text]
    assert ends.transcript([said("All done.", AT)]) == [], "the transcript's later copy is not seen twice"


def test_records_of_a_judged_turn_are_context_not_news() -> None:
    ends = TurnEnds(settle_s=0.0)
    ends.reported(AT, None, stop_hook_active=False)
    assert ends.take([], waiting=False, projection=PROJECTION).turn_end is not None
    before, after = said("the turn's last step", AT - 1), said("the next turn", AT + 1)
    taken = ends.take([before, after], waiting=False, projection=PROJECTION)
    assert (taken.judged, taken.fresh, taken.turn_end) == ([before], [after], None)


def test_a_turn_end_waits_while_a_new_task_waits() -> None:
    ends = TurnEnds(settle_s=0.0)
    ends.reported(AT, None, stop_hook_active=False)
    assert ends.take([], waiting=True, projection=PROJECTION).turn_end is None
    assert ends.take([], waiting=False, projection=PROJECTION).turn_end is not None


def test_the_latest_report_stands_and_its_wait_does_not_restart() -> None:
    ends = TurnEnds(settle_s=60.0)
    ends.reported(AT, "first", stop_hook_active=False)
    assert ends.pending is not None
    read_at = ends.pending.read_at
    ends.reported(AT + 3, "second", stop_hook_active=False)
    assert (ends.pending.text, ends.pending.read_at) == ("second", read_at)


def test_an_observation_without_a_time_counts_as_after() -> None:
    assert arrived_after(Observation("text", "[text] no stamp"), AT)
    assert not arrived_after(said("old", AT - 10), AT)


class _Pipeline:
    """What replay's driver asks of a pipeline, recording what it is offered."""

    def __init__(self) -> None:
        from sbcore.pace.clock import SimulatedClock

        self.clock = SimulatedClock(AT)
        self.offered: list[tuple[list[str], bool, bool]] = []
        self.task_id = "s1"

    def drain(self, calls: object) -> None:
        pass

    def offer(self, observations: list[Observation], *, turn_end: bool = False, judged: bool = False) -> None:
        self.offered.append(([obs.text for obs in observations], turn_end, judged))

    async def run_due(self) -> list[object]:
        return []


def test_replay_settles_a_turn_end_by_the_workers_rule() -> None:
    """Replay reports the turn end a transcript line marks to the worker's own ``TurnEnds``: the turn's
    final message is news of that turn, and a record timestamped before the judged turn end that arrives
    after it is that turn's context, as it is live."""
    import asyncio
    from datetime import UTC, datetime
    from typing import Any, cast

    from sbcore.conductor.replay_driver import Driver

    def stamp(at: float) -> str:
        return datetime.fromtimestamp(at, UTC).isoformat().replace("+00:00", "Z")

    def text(body: str, at: float) -> Observation:
        return Observation(kind="text", text=f"[text] {body}", timestamp=stamp(at))

    pipeline = _Pipeline()
    driver = Driver(cast(Any, pipeline))

    async def line(observations: list[Observation], *, turn_end: bool = False, at: str | None = None) -> None:
        driver.read(observations, 0, turn_end=turn_end, at=at)
        await driver.offer()

    async def scenario() -> None:
        await line([text("All done.", AT)], turn_end=True, at=stamp(AT))
        await line([text("a late record of that turn", AT - 5)])
        await line([text("the next turn", AT + 30)])

    asyncio.run(scenario())
    assert pipeline.offered == [
        (["[text] All done."], False, False),
        ([], True, False),  # the turn end, judged with what came before it
        (["[text] a late record of that turn"], False, True),
        (["[text] the next turn"], False, False),
    ]
