"""A golden case of a range of a recorded transcript (``transcript.records``), judged with its history.

The transcript goes through :meth:`sbcore.conductor.replay.Replayer.replay_file` with ``scored`` set to the
range, the same path as a labelled range of ``second-brain replay --labels``: the records before the range
are replayed first, on the records' clock, so the pacer's allowance, the trigger's history, the window and
the gate's memory are what the live observer's were when the range began, and only the passes that
concluded within the range are judged. Only the detector under test runs, offline, with the schema's
default configuration, so a case means the same on every machine.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sbcore.testing.golden_interleave import answer, offline_replayer

if TYPE_CHECKING:
    from sbcore.packs.manager import PackManager
    from sbcore.packs.model import DetectorDef
    from sbcore.think.feedback import FeedbackResult


@dataclass(frozen=True)
class Ranged:
    """What the detector made of the range: its first advising answer there, else its first triggered one,
    and how many passes concluded within the range."""

    passes: int
    result: FeedbackResult | None


def replay_range(
    definition: DetectorDef, path: Path, first: int, last: int | None, *, manager: PackManager
) -> Ranged:
    """Replay ``path`` up to ``last`` with ``definition`` alone, offline, judging lines ``first..last``."""
    replayer = offline_replayer(definition, manager)
    session = asyncio.run(replayer.replay_file(path, scored=(first, last)))
    return Ranged(len(session.passes), answer([session], definition.id))
