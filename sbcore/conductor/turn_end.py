"""A turn end as the Stop hook reports it, settled against the transcript so that one pass judges the turn.

The Stop hook's event often reaches the worker before the transcript has caught up with the turn (Claude
Code writes the transcript asynchronously; a worker that starts late, or runs on a loaded machine, may read
a whole turn at once). So a reported turn end is held, and with it every pass, until the transcript shows
the turn's final message, for at most ``settle_s``; then everything pending goes into the turn-end pass.
If the transcript is slower still, the Stop hook's ``last_assistant_message`` is projected like a
transcript record and offered in its place, and the transcript's own copy is dropped when it arrives (the
Stop text rule: the final message is observed once). Records of a judged turn that arrive after its pass
are context for the next pass (``judged``), never a reason for an early pass of their own.

Standard library only, beside the projector.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sbcore.observe.config import ProjectionConfig
from sbcore.observe.model import Observation
from sbcore.observe.project import Projector
from sbcore.pace.clock import epoch_seconds

RECENT_TEXTS = 8
"""Assistant texts remembered to tell a Stop message the transcript already delivered."""


@dataclass
class TurnEnd:
    """One turn end the Stop hook reported: when, its final message, whether the turn was continued."""

    at: float
    text: str | None
    stop_hook_active: bool = False
    read_at: float = field(default_factory=time.monotonic)
    """When it was read (the settle time counts from here, on the monotonic clock)."""


@dataclass
class Take:
    """What a read gives the pipeline: ``judged`` (records of a turn already judged: context only),
    ``fresh`` (new, with the Stop hook's final message when the transcript had not delivered it) and the
    turn end that settled with them, if one did."""

    judged: list[Observation]
    fresh: list[Observation]
    turn_end: TurnEnd | None


class TurnEnds:
    """The turn end waiting to settle, and what tells a final message already seen."""

    def __init__(self, settle_s: float) -> None:
        self.settle_s = settle_s
        self.pending: TurnEnd | None = None
        """A reported turn end the transcript has not caught up with yet: no pass starts meanwhile."""
        self.stop_hook_active = False
        """Whether the last settled turn had already been continued once by the Stop hook."""
        self._judged_through = 0.0  # the moment of the last turn end handed to a pass
        self._stop_texts: deque[str] = deque(maxlen=RECENT_TEXTS)
        self._recent_texts: deque[str] = deque(maxlen=RECENT_TEXTS)

    def reported(self, at: float, text: str | None, stop_hook_active: bool) -> None:
        """The Stop hook reported a turn end. One still settling is replaced by the latest, whose wait
        does not restart."""
        turn_end = TurnEnd(at, text, stop_hook_active)
        if self.pending is not None:
            turn_end.read_at = self.pending.read_at
        self.pending = turn_end

    def transcript(self, observations: Sequence[Observation]) -> list[Observation]:
        """What the transcript brings, less the copy of a final message the Stop hook already handed over."""
        kept: list[Observation] = []
        for obs in observations:
            if obs.kind == "text":
                if obs.text in self._stop_texts:
                    self._stop_texts.remove(obs.text)
                    continue
                self._recent_texts.append(obs.text)
            kept.append(obs)
        return kept

    def take(
        self, observations: Sequence[Observation], *, waiting: bool, projection: ProjectionConfig | None
    ) -> Take:
        """Split a read into judged and fresh, and settle the pending turn end if it may (not while
        ``waiting``: a turn a held new goal began is the new task's, and waits for that task)."""
        judged = [obs for obs in observations if not arrived_after(obs, self._judged_through)]
        fresh = [obs for obs in observations if arrived_after(obs, self._judged_through)]
        turn_end = None if waiting else self._settled(projection)
        if turn_end is not None:
            self.pending = None
            self.stop_hook_active = turn_end.stop_hook_active
            fresh += self._final_text(turn_end, projection)
            self._recent_texts.clear()
            self._judged_through = max(self._judged_through, turn_end.at)
        return Take(judged, fresh, turn_end)

    def forget(self) -> None:
        """The session's files were forgotten: no text seen before counts any more."""
        self._recent_texts.clear()
        self._stop_texts.clear()

    def _settled(self, projection: ProjectionConfig | None) -> TurnEnd | None:
        """The pending turn end once the transcript has caught up with it (or stopped being waited for):
        its final message has arrived; a turn end with no message settles at once; any after ``settle_s``."""
        turn_end = self.pending
        if turn_end is None:
            return None
        if time.monotonic() - turn_end.read_at >= self.settle_s:
            return turn_end
        if all(obs.text in self._recent_texts for obs in stop_message(turn_end, projection)):
            return turn_end
        return None

    def _final_text(self, turn_end: TurnEnd, projection: ProjectionConfig | None) -> list[Observation]:
        """The Stop hook's final message, unless the transcript already delivered it."""
        fresh = [obs for obs in stop_message(turn_end, projection) if obs.text not in self._recent_texts]
        self._stop_texts.extend(obs.text for obs in fresh)
        return fresh


def stop_message(turn_end: TurnEnd, projection: ProjectionConfig | None) -> list[Observation]:
    """The Stop hook's last assistant message, projected as the transcript would have it (nothing without a
    projection to do it with)."""
    if not turn_end.text or projection is None:
        return []
    record = {
        "type": "assistant",
        "uuid": f"sbcore-stop-{turn_end.at!r}",
        "timestamp": datetime.fromtimestamp(turn_end.at, UTC).isoformat().replace("+00:00", "Z"),
        "message": {"role": "assistant", "content": [{"type": "text", "text": turn_end.text}]},
    }
    return Projector(projection).feed([record])


def epoch_or(timestamp: str | None, default: float) -> float:
    """A record's timestamp in epoch seconds, or ``default`` when it has none that reads."""
    if not timestamp:
        return default
    try:
        return epoch_seconds(timestamp)
    except ValueError:
        return default


def arrived_after(observation: Observation, moment: float) -> bool:
    """Whether ``observation`` happened after ``moment`` (one without a usable time counts as after)."""
    return epoch_or(observation.timestamp, float("inf")) > moment
