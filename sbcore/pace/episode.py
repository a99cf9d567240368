"""The episode: what a pass reads that the window has not seen yet, coalesced so it cannot grow without end.

While passes are throttled (the clock floor, a pass in flight, a mute, a spent
budget) observations keep arriving. They are absorbed into the pending episode
rather than queued as more passes, so the next pass sees one larger stretch of
behaviour. The observer may miss detail but must never fall unboundedly
behind, so past a character cap the episode is coalesced:

1. The head and the tail are kept: up to a quarter of the cap at each end
   (at least one observation each). The start of a stretch says what the agent
   set out to do and the end says where it is now; repetition lives in the middle.
2. From the middle, the least salient observations go first: assistant
   narration (which mostly restates the calls it precedes), then tool calls,
   then subagent reports; oldest first within a kind.
3. Errors and user prompts (and any kind that may fire a salience pass) are
   kept. Only if they alone still overflow the cap do the oldest middle errors
   go, since a crash loop's hundredth failure adds little to its first ninety;
   prompts, which a person typed, are never dropped.

What was dropped is counted, and the episode carries a note saying so, so the
observer model knows the stretch it reads has a hole in it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain

from sbcore.observe.model import Observation
from sbcore.pace.decision import Decision

ALWAYS_KEPT = frozenset({"error", "prompt"})
"""Kinds the coalescer keeps from the middle (errors only while they fit; see the module docstring)."""

DROP_ORDER = {"text": 0, "tool": 1, "report": 2, "error": 3}
"""Rank of each droppable kind: lower goes first. ``prompt`` is absent: it is never dropped."""

END_SHARE = 0.25
"""Share of the cap protected at each end of the episode."""


def coalesce(
    observations: Sequence[Observation], cap: int, keep: Iterable[str] = ALWAYS_KEPT
) -> tuple[list[Observation], list[Observation]]:
    """Split ``observations`` into (kept, dropped), both in their original order, kept totalling <= ``cap``.

    ``keep`` names the kinds protected in step 3 (``ALWAYS_KEPT`` is always
    added). The kept part can exceed ``cap`` only by protected ends and
    prompts, never by narration, tool calls or errors.
    """
    sizes = [len(observation.text) for observation in observations]
    total = sum(sizes)
    if total <= cap:
        return list(observations), []
    protected = ALWAYS_KEPT | frozenset(keep)
    share = cap * END_SHARE
    count = len(observations)
    head_end, held = 1, sizes[0]
    while head_end < count and held + sizes[head_end] <= share:
        held += sizes[head_end]
        head_end += 1
    tail_start, held = count - 1, sizes[-1]
    while tail_start - 1 >= head_end and held + sizes[tail_start - 1] <= share:
        tail_start -= 1
        held += sizes[tail_start]
    tail_start = max(tail_start, head_end)
    middle = range(head_end, tail_start)
    ordinary = sorted(
        (i for i in middle if observations[i].kind not in protected),
        key=lambda i: (DROP_ORDER.get(observations[i].kind, 0), i),
    )
    last_resort = [
        i for i in middle if observations[i].kind in protected and observations[i].kind != "prompt"
    ]
    dropped: set[int] = set()
    for index in chain(ordinary, last_resort):
        if total <= cap:
            break
        dropped.add(index)
        total -= sizes[index]
    kept = [o for i, o in enumerate(observations) if i not in dropped]
    return kept, [o for i, o in enumerate(observations) if i in dropped]


class PendingEpisode:
    """The observations waiting for the next pass, coalesced as they arrive."""

    def __init__(self) -> None:
        self.observations: list[Observation] = []
        self.opened_at: float | None = None
        self.offered = 0
        self.offered_chars = 0
        self.dropped: Counter[str] = Counter()
        self.dropped_chars = 0
        self.kept_chars = 0
        self._kinds: Counter[str] = Counter()
        self._quiet: set[int] = set()  # ids of observations that may not fire a salience pass

    @property
    def empty(self) -> bool:
        return not self.observations

    def add(
        self,
        observations: Sequence[Observation],
        now: float,
        cap: int,
        keep: Iterable[str],
        *,
        salient: bool = True,
    ) -> None:
        """Append ``observations`` (arrived at ``now``), then coalesce down to ``cap`` if over it.

        ``salient=False`` adds them as context only: they ride with the next
        pass but never count towards :meth:`kinds_present` (a late copy of a
        turn already judged must not buy an early pass of its own).
        """
        if not observations:
            return
        if self.opened_at is None:
            self.opened_at = now
        self.observations.extend(observations)
        self.offered += len(observations)
        size = sum(len(o.text) for o in observations)
        self.offered_chars += size
        self.kept_chars += size
        if salient:
            self._kinds.update(o.kind for o in observations)
        else:
            self._quiet.update(id(o) for o in observations)
        if self.kept_chars > cap:
            self.observations, gone = coalesce(self.observations, cap, keep)
            for observation in gone:
                if id(observation) in self._quiet:
                    self._quiet.discard(id(observation))
                else:
                    self._kinds[observation.kind] -= 1
                self.dropped[observation.kind] += 1
                self.dropped_chars += len(observation.text)
                self.kept_chars -= len(observation.text)

    def kinds_present(self, kinds: Iterable[str]) -> list[str]:
        """Which of ``kinds`` are waiting as salient input (see :meth:`add`), in the order given."""
        return [kind for kind in kinds if self._kinds[kind] > 0]


@dataclass(frozen=True, slots=True)
class Episode:
    """What one pass reads: the new observations since the previous pass, and why the pass runs.

    number:
        1-based pass count for this policy.
    decision:
        the trigger decision that started the pass (its reason and detail).
    turn_end:
        a turn ended within this episode (the pass's verdicts feed the turn-end report).
    offered / offered_chars:
        everything that arrived, before coalescing.
    dropped:
        ``(kind, count)`` pairs for what coalescing left out, in ``DROP_ORDER``.
    cap:
        the character cap coalescing worked to.
    """

    number: int
    decision: Decision
    observations: tuple[Observation, ...]
    turn_end: bool
    offered: int
    offered_chars: int
    dropped: tuple[tuple[str, int], ...]
    dropped_chars: int
    cap: int

    @property
    def chars(self) -> int:
        """Characters of the kept observations."""
        return sum(len(o.text) for o in self.observations)

    @property
    def dropped_count(self) -> int:
        return sum(count for _, count in self.dropped)

    @property
    def note(self) -> str | None:
        """One line for the observer model when coalescing left something out; None when nothing was."""
        if not self.dropped:
            return None
        what = ", ".join(f"{count} {kind}" for kind, count in self.dropped)
        kept = "its start, its end and every user prompt"
        if not any(kind == "error" for kind, _ in self.dropped):
            kept += " and error"
        return (
            f"[coalesced] {self.dropped_count} of {self.offered} observations in this stretch "
            f"({self.dropped_chars:,} chars: {what}) were left out to keep it under {self.cap:,} chars; "
            f"{kept} were kept."
        )

    @classmethod
    def take(
        cls, pending: PendingEpisode, *, number: int, decision: Decision, turn_end: bool, cap: int
    ) -> Episode:
        """Freeze ``pending`` into an episode (the caller then starts a fresh pending episode)."""
        dropped = tuple(
            sorted(
                ((kind, count) for kind, count in pending.dropped.items() if count),
                key=lambda item: DROP_ORDER.get(item[0], len(DROP_ORDER)),
            )
        )
        return cls(
            number=number,
            decision=decision,
            observations=tuple(pending.observations),
            turn_end=turn_end,
            offered=pending.offered,
            offered_chars=pending.offered_chars,
            dropped=dropped,
            dropped_chars=pending.dropped_chars,
            cap=cap,
        )
