"""The observations a task's structural triggers look back over, with what they derive kept up to date.

A trigger is a function of the whole history, asked again on every pass: recomputed from scratch, a pass
costs as much as the history is long, and a day-long replay does that thousands of times. The history
therefore carries *folds*: small aggregates (the calls of some tools, the paths named, the latest prompt
matching a pattern) that see each observation once as it arrives and once as it leaves the bounded
history, so a pass reads only what it needs.

Positions are absolute: an observation keeps its number while older ones leave (``offset`` is the number
of the oldest one kept), so a fold's positions stay valid without being renumbered.

A trigger given a plain sequence (a test, a third-party caller) wraps it with :func:`history_of`; the folds
are then built once from it, through the same code.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Protocol, TypeVar, overload

from sbcore.observe.model import Observation

FOLDS_KEPT = 64
"""Folds kept per history (the least recently asked is forgotten first, and rebuilt if asked again): one
per trigger, parameter set and checklist pattern, so a configuration that changes is not a leak."""


class Fold(Protocol):
    """An aggregate of a history: ``add`` each observation once, in order; ``forget`` everything older
    than an absolute position once it has left the history."""

    def add(self, index: int, obs: Observation) -> None: ...

    def forget(self, before: int) -> None: ...


F = TypeVar("F", bound=Fold)


class ObservationHistory(Sequence[Observation]):
    """An append-only sequence of observations that forgets its oldest, with registered folds.

    Folds are brought up to date when they are asked for, not as observations arrive: the work (which may
    run a pattern a workspace wrote) then happens inside the trigger call and its time bound, and a fold no
    trigger asks for costs nothing.
    """

    def __init__(self, observations: Iterable[Observation] = ()) -> None:
        self._items: list[Observation] = list(observations)
        self.offset = 0
        self._folds: OrderedDict[Hashable, tuple[Fold, int]] = OrderedDict()  # key -> (fold, fed up to)

    @overload
    def __getitem__(self, index: int) -> Observation: ...

    @overload
    def __getitem__(self, index: slice) -> list[Observation]: ...

    def __getitem__(self, index: int | slice) -> Observation | list[Observation]:
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Observation]:
        return iter(self._items)

    @property
    def end(self) -> int:
        """The absolute position the next observation will take."""
        return self.offset + len(self._items)

    def at(self, position: int) -> Observation:
        """The observation at absolute ``position`` (still kept)."""
        return self._items[position - self.offset]

    def extend(self, observations: Iterable[Observation]) -> None:
        self._items.extend(observations)

    def drop_oldest(self, count: int) -> None:
        """Forget the ``count`` oldest observations."""
        count = min(count, len(self._items))
        if count > 0:
            del self._items[:count]
            self.offset += count

    def fold(self, key: Hashable, factory: Callable[[], F]) -> F:
        """The fold registered under ``key`` (made by ``factory`` on first use), fed up to the present."""
        found = self._folds.pop(key, None)
        fold, fed = found if found is not None else (factory(), 0)
        # Taken out while it is fed: a fold left half-fed (a pattern ran out of time) is not put back, so
        # the next use rebuilds it.
        fold.forget(self.offset)
        for index in range(max(fed, self.offset), self.end):
            fold.add(index, self._items[index - self.offset])
        self._folds[key] = (fold, self.end)
        if len(self._folds) > FOLDS_KEPT:
            self._folds.popitem(last=False)
        return fold  # type: ignore[return-value]  # the key names the factory that made it


def history_of(observations: Sequence[Observation]) -> ObservationHistory:
    """``observations`` as a history with folds: itself when it is one, else a copy wrapped once."""
    return observations if isinstance(observations, ObservationHistory) else ObservationHistory(observations)


class Positions:
    """A fold of the positions of the observations a predicate picks, oldest first."""

    def __init__(self, picks: Callable[[Observation], bool]) -> None:
        self._picks = picks
        self.positions: deque[int] = deque()

    def add(self, index: int, obs: Observation) -> None:
        if self._picks(obs):
            self.positions.append(index)

    def forget(self, before: int) -> None:
        while self.positions and self.positions[0] < before:
            self.positions.popleft()

    def any_between(self, start: int, stop: int) -> bool:
        """Whether a picked observation sits strictly between absolute positions ``start`` and ``stop``."""
        return self.count_between(start, stop, inclusive_start=False) > 0

    def last_between(self, start: int, stop: int) -> int | None:
        """The latest picked position strictly between ``start`` and ``stop``, or None."""
        below = bisect_left(self.positions, stop) - 1
        return self.positions[below] if below >= 0 and self.positions[below] > start else None

    def count_between(self, start: int, stop: int, *, inclusive_start: bool = True) -> int:
        """How many picked observations sit at ``start`` (or after it) up to ``stop`` (exclusive)."""
        low = start if inclusive_start else start + 1
        # bisect reads a deque through its index (C all the way); counts of positions below each bound
        return bisect_left(self.positions, stop) - bisect_left(self.positions, low)


class Matches:
    """A fold of the values observations carry (paths, commands, prompts) that a predicate accepts.

    ``values`` derives an observation's values; ``accepts`` judges one. It keeps how many kept values are
    accepted and the position of the latest observation holding one, so "does any match" and "does any
    match after position p" cost nothing per pass.
    """

    def __init__(
        self, values: Callable[[Observation], Iterable[str]], accepts: Callable[[str], bool]
    ) -> None:
        self._values = values
        self._accepts = accepts
        self._counts: deque[tuple[int, int]] = deque()  # (position, accepted values) of each matching one
        self.count = 0
        self.latest = -1

    def add(self, index: int, obs: Observation) -> None:
        accepted = sum(1 for value in self._values(obs) if self._accepts(value))
        if accepted:
            self._counts.append((index, accepted))
            self.count += accepted
            self.latest = index

    def forget(self, before: int) -> None:
        while self._counts and self._counts[0][0] < before:
            self.count -= self._counts.popleft()[1]
        if not self._counts:
            self.latest = -1

    def withdraw(self, position: int) -> None:
        """Take back what the observation at absolute ``position`` was accepted for: a later one showed it
        does not count (a run whose result says it never started)."""
        kept = [(at, accepted) for at, accepted in self._counts if at != position]
        if len(kept) == len(self._counts):
            return
        self._counts = deque(kept)
        self.count = sum(accepted for _, accepted in kept)
        self.latest = kept[-1][0] if kept else -1

    def any(self) -> bool:
        return self.count > 0

    def after(self, position: int) -> bool:
        """Whether an accepted value sits in an observation after absolute ``position``."""
        return self.latest > position


class Errors:
    """A fold of the ``error`` observations by the call id they answer (the latest one per id)."""

    def __init__(self) -> None:
        self.by_call: dict[str, Observation] = {}
        self._order: deque[tuple[int, str, Observation]] = deque()

    def add(self, index: int, obs: Observation) -> None:
        if obs.kind == "error" and obs.tool_use_id:
            self.by_call[obs.tool_use_id] = obs
            self._order.append((index, obs.tool_use_id, obs))

    def forget(self, before: int) -> None:
        while self._order and self._order[0][0] < before:
            _, call_id, obs = self._order.popleft()
            if self.by_call.get(call_id) is obs:
                del self.by_call[call_id]

    def answered_since(self, position: int) -> Iterator[str]:
        """The call ids that errors at absolute ``position`` or later answer, the latest first: what a
        reader that kept what it read up to ``position`` has not seen."""
        for index, call_id, _ in reversed(self._order):
            if index < position:
                return
            yield call_id
