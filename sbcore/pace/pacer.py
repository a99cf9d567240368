"""The pacer: when the observer thinks.

A pass per observation would be ruinous, and "a pass every N characters" turns
the agent's busiest minutes into a pass storm. So two limits bind together:

- the clock floor (``loop.min_interval_s``): no volume or ceiling pass starts
  within this many seconds of the previous pass's start, whatever the input
  rate, so such passes never exceed ``3600 / min_interval_s`` an hour;
- volume (``loop.trigger_chars``): inside that band, a pass is due once enough
  projected characters have arrived since the last one.

Around them:

- the clock ceiling (``loop.max_interval_s``) bounds how long input may wait
  unseen: once the oldest pending observation has waited that long, a pass is
  due even below the volume threshold (the floor still applies);
- salience (``loop.salience_triggers``): a pending error or new prompt may start
  a pass early, ignoring floor and volume, but each early pass draws from an
  hourly allowance (``loop.salience_per_hour``) whose draws come back one hour
  after they were made, so at most that many early passes run in any sixty
  minutes and a crash loop cannot spin the observer through the floor;
- the turn end: the agent's turn ending fires a pass past floor, volume and
  the salience allowance, because it is the last moment feedback on the turn is
  useful and turns end too rarely to make a storm;
- ``manual()`` (``/second-brain:run``): a pass now, past floor and volume, even
  with nothing new pending (the user asked);
- ``matched(ids)``: a structural trigger matched anew on a failure just offered
  (the driver probes them at every failure, :meth:`PassEngine.probe_triggers`):
  a pass now, past floor, volume and the salience allowance, because advice
  about a loop is worth most while the loop is going on, and a trigger that
  matches is rare (each finding is reported once).

What binds every trigger, turn ends and manual runs included: the mute, the
budget, single flight (one pass at a time; what arrives meanwhile waits for
the next), and, for every trigger but a manual run, an empty episode — where a
turn end counts as empty only if nothing at all was observed since the previous
turn-end pass (an earlier pass may have taken the turn's last steps). A turn
end or manual run that arrives while a pass is running is remembered and
fires as soon as that pass finishes; one refused by the mute or the budget,
or a turn end with nothing new to judge, is dropped, and the refusal says so.

Budget-aware backoff (``loop.backoff_on_budget``): as the hourly budget runs
down, the floor stretches (:func:`backoff_factor`), so the observer slows
gradually instead of running into the ceiling at full pace.

Machine-wide limits (:mod:`sbcore.pace.machine`): a pass the rules above would start is still held while
the provider's shared backoff runs, while every worker on the machine together has spent the machine's
hourly budget, or while all ``loop.max_concurrent_passes`` slots are held by other workers' passes. The
slot is taken when the decision is made and freed by ``finish()``; nothing offered meanwhile is lost.

Every answer carries its reason. :meth:`Pacer.check` returns either a
:class:`Decision` (start a pass, and why) or a :class:`Hold` (why not, and the
earliest time the answer can change without new input, so a worker can sleep
until then and replay can step simulated time straight to it).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

from sbcore.observe.model import Observation, ObservationKind
from sbcore.pace.budget import HOUR_S, Budget, BudgetSettings, Headroom, RollingWindow
from sbcore.pace.clock import Clock
from sbcore.pace.decision import Decision, Reason
from sbcore.pace.episode import ALWAYS_KEPT, Episode, PendingEpisode
from sbcore.pace.machine import Lease, MachinePace, MachineSettings, Refusal
from sbcore.problems import SbcoreError

if TYPE_CHECKING:
    from sbcore.config import EffectiveConfig

HoldReason = Literal[
    "muted",
    "budget exhausted",
    "in flight",
    "empty",
    "floor",
    "waiting",
    "backoff",
    "machine budget",
    "slots busy",
]
"""Why no pass starts. ``floor``: a trigger holds but the clock floor binds; ``waiting``: none holds;
``backoff``, ``machine budget`` and ``slots busy``: a trigger holds but a machine-wide limit binds."""

Request = Literal["turn_end", "manual", "trigger"]

_KINDS = frozenset(get_args(ObservationKind))


def backoff_factor(hour_fraction_left: float, start: float) -> float:
    """How much the clock floor is stretched when ``hour_fraction_left`` of the hourly budget remains.

    1 while at least ``start`` of the budget is left; below that, ``start /
    hour_fraction_left``: x2 with half of ``start`` left, x5 with a fifth, and
    without bound as the budget nears zero. The pass rate is therefore
    proportional to the headroom left, so at a steady cost per pass the
    headroom decays exponentially instead of hitting zero: the observer slows
    smoothly, and speeds up again as old spend slides out of the hour.
    """
    if hour_fraction_left >= start:
        return 1.0
    if hour_fraction_left <= 0:
        return math.inf
    return start / hour_fraction_left


@dataclass(frozen=True, slots=True)
class PaceSettings:
    """The policy's knobs (``loop.*``), as a plain value so the policy is testable without files.

    ``episode_cap_chars`` and ``backoff_start`` have no knob of their own:
    :meth:`from_config` derives the cap from the window knobs, and the backoff
    begins once half the hourly budget is spent.
    """

    min_interval_s: float = 120.0
    trigger_chars: int = 6000
    max_interval_s: float = 900.0
    salience_triggers: frozenset[str] = frozenset({"error", "prompt"})
    salience_per_hour: int = 6
    backoff_on_budget: bool = True
    episode_cap_chars: int = 100_000
    backoff_start: float = 0.5

    def __post_init__(self) -> None:
        if self.min_interval_s < 0:
            raise ValueError(f"loop.min_interval_s cannot be negative (got {self.min_interval_s})")
        if self.max_interval_s <= 0:
            raise ValueError(f"loop.max_interval_s must be positive (got {self.max_interval_s})")
        if self.trigger_chars <= 0:
            raise ValueError(f"loop.trigger_chars must be positive (got {self.trigger_chars})")
        if self.salience_per_hour < 0:
            raise ValueError(f"loop.salience_per_hour cannot be negative (got {self.salience_per_hour})")
        if self.episode_cap_chars <= 0:
            raise ValueError(f"episode_cap_chars must be positive (got {self.episode_cap_chars})")
        if not 0 < self.backoff_start <= 1:
            raise ValueError(f"backoff_start must be in (0, 1] (got {self.backoff_start})")
        unknown = sorted(set(self.salience_triggers) - _KINDS)
        if unknown:
            raise ValueError(
                f"loop.salience_triggers: unknown observation kind(s) {unknown}; known: {sorted(_KINDS)}"
            )

    @classmethod
    def from_config(cls, config: EffectiveConfig) -> PaceSettings:
        """The ``loop`` group, plus an episode cap derived from the ``window`` group.

        The cap is the window's hysteresis band, ``budget_chars x
        (compaction_threshold - compaction_floor)``: a freshly compacted window
        can take one whole episode without compacting again at once. It is
        never below ``trigger_chars``, so coalescing cannot cut an episode
        below what made it due.
        """
        loop = config.group("loop")
        window = config.group("window")
        band = round(window["budget_chars"] * (window["compaction_threshold"] - window["compaction_floor"]))
        return cls(
            min_interval_s=float(loop["min_interval_s"]),
            trigger_chars=int(loop["trigger_chars"]),
            max_interval_s=float(loop["max_interval_s"]),
            salience_triggers=frozenset(loop["salience_triggers"]),
            salience_per_hour=int(loop["salience_per_hour"]),
            backoff_on_budget=bool(loop["backoff_on_budget"]),
            episode_cap_chars=max(int(loop["trigger_chars"]), band),
        )


@dataclass(frozen=True, slots=True)
class Hold:
    """No pass now.

    reason:
        see :data:`HoldReason`; ``budget exhausted`` is the one to report as silence.
    until:
        the earliest time the answer can change without new input (a floor
        ending, the ceiling, an early pass coming back, the budget freeing up);
        None when only an event can change it (new input, a pass finishing, an
        unmute, a new day's task).
    dropped:
        the turn end and/or manual run this answer refused for good.
    """

    reason: HoldReason
    at: float
    detail: str
    until: float | None = None
    dropped: tuple[Request, ...] = ()


class NotDue(SbcoreError, RuntimeError):
    """``start()`` was called when no pass is due; ``hold`` says why."""

    def __init__(self, hold: Hold) -> None:
        super().__init__(f"no pass is due: {hold.reason} ({hold.detail})")
        self.hold = hold


@dataclass(frozen=True, slots=True)
class PaceStatus:
    """A snapshot for ``/second-brain:stats`` and the statusline.

    ``pending`` and ``pending_chars`` count what arrived since the last pass
    start; ``pending_kept`` is what survives coalescing; ``dropped`` totals
    every observation coalescing has left out so far; ``holds`` counts the
    checks that started nothing, by reason; ``refused`` counts the turn ends
    and manual runs that were dropped unrun.
    """

    at: float
    muted: bool
    running: int | None
    passes: int
    by_reason: dict[str, int]
    pending: int
    pending_chars: int
    pending_kept: int
    dropped: int
    floor_s: float
    backoff: float
    salience_left: int
    budget: Headroom
    task_used: int
    hour_used: int
    last: Decision | Hold | None
    holds: dict[str, int]
    refused: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready (an unbounded stretch reads as null)."""
        data = asdict(self)
        data["last"] = (
            None if self.last is None else {"type": type(self.last).__name__.lower(), **data["last"]}
        )
        return _finite(data)


@dataclass
class _Tally:
    """What the pacer has done so far, for :meth:`Pacer.status`: passes (by reason), the checks that started
    nothing (by reason), the requests refused unrun, the observations coalescing left out of finished
    passes."""

    passes: int = 0
    by_reason: Counter[str] = field(default_factory=Counter)
    holds: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    dropped: int = 0


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


class Pacer:
    """Decides when a pass starts, for one task, against an injected clock and budget.

    The caller's loop: ``offer()`` what it observes (``turn_end=True`` with the
    turn's last observations), then ``check()`` / ``due()``; on a decision,
    ``start()`` takes the episode, the pass runs, and ``finish(tokens)`` charges
    the budget and frees the single flight. New settings take effect through
    ``reconfigure()`` / ``apply_config()``, which the worker calls at a pass
    boundary. Not thread-safe: one task, one loop.
    """

    def __init__(
        self,
        settings: PaceSettings,
        clock: Clock,
        budget: Budget,
        *,
        muted: bool = False,
        machine: MachinePace | None = None,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.budget = budget
        self.muted = muted
        self.machine = machine
        """The limits every worker on the machine shares (None: this pacer is alone, as in replay)."""
        self._lease: Lease | None = None
        self._pending = PendingEpisode()
        self._salience = RollingWindow(HOUR_S)
        self._running: Episode | None = None
        self._last_start: float | None = None
        self._turn_end = False
        self._unjudged = False  # observations arrived since the last turn-end pass started
        self._manual = False
        self._matched: tuple[str, ...] = ()  # detectors whose triggers matched on a failure, awaiting a pass
        self._tally = _Tally()
        self.last: Decision | Hold | None = None

    @classmethod
    def from_config(
        cls, config: EffectiveConfig, clock: Clock, *, task_used: int = 0, machine: MachinePace | None = None
    ) -> Pacer:
        """A policy and its budget from a configuration (``loop``, ``window``, ``budget``, ``mute``).

        ``task_used`` seeds the task total for a resumed task; ``machine`` the limits shared machine-wide.
        """
        budget = Budget(BudgetSettings.from_config(config), clock, task_used=task_used)
        settings = PaceSettings.from_config(config)
        return cls(settings, clock, budget, muted=bool(config.get("mute.all")), machine=machine)

    # -- input ----------------------------------------------------------------------------------

    def offer(
        self, observations: Sequence[Observation], *, turn_end: bool = False, judged: bool = False
    ) -> None:
        """Add observations to the pending episode; ``turn_end`` marks the agent's turn as over.

        Observations keep accumulating (and coalescing) whatever holds passes
        back, the mute included, so a pass after a pause sees what happened
        during it. A turn end counts only if the episode has something in it
        when the turn produced something since the previous turn-end pass, even
        if an earlier pass (a salience pass on its last error, say) already took
        those observations: the turn as a whole has still not been judged.

        ``judged=True`` marks observations of a turn whose turn-end pass has
        already run (a transcript that caught up late): they are context for
        the next pass, but neither fire a salience pass nor make the next turn
        end count, because their turn was judged as a whole.
        """
        self._pending.add(
            observations,
            self.clock.now(),
            self.settings.episode_cap_chars,
            self._keep(),
            salient=not judged,
        )
        if observations and not judged:
            self._unjudged = True
        if turn_end:
            self._turn_end = True

    def manual(self) -> None:
        """Ask for a pass now (``/second-brain:run``): past floor and volume, not past mute or budget."""
        self._manual = True

    def matched(self, detectors: Sequence[str]) -> None:
        """Structural triggers of ``detectors`` matched anew: a pass now, past floor, volume and the
        salience allowance, not past mute, budget or single flight."""
        self._matched = tuple(dict.fromkeys([*self._matched, *detectors]))

    # -- deciding -------------------------------------------------------------------------------

    def due(self) -> Decision | None:
        """The decision to start a pass now, or None (``held`` says why)."""
        result = self.check()
        return result if isinstance(result, Decision) else None

    @property
    def held(self) -> Hold | None:
        """Why the last check started nothing (None if it found a pass due)."""
        return self.last if isinstance(self.last, Hold) else None

    def check(self) -> Decision | Hold:
        """Whether a pass should start now, with the reason either way.

        Side effect: a turn end or manual run this answer refuses for good
        (muted, budget spent, or, for a turn end, nothing to judge) is dropped
        and listed in ``Hold.dropped``. While a pass runs, both wait.
        """
        result = self._evaluate()
        if isinstance(result, Hold):
            if "turn_end" in result.dropped:
                self._turn_end = False
            if "manual" in result.dropped:
                self._manual = False
            if "trigger" in result.dropped:
                self._matched = ()
            self._tally.holds[result.reason] += 1
            self._tally.refused.update(result.dropped)
            if self._running is None and self._lease is not None:
                self._lease.release()  # admitted, then held back by something else: the slot goes back
                self._lease = None
        self.last = result
        return result

    def effective_min_interval(self) -> float:
        """The clock floor in force: ``min_interval_s`` stretched by the budget backoff."""
        return self.settings.min_interval_s * self._backoff()

    def _backoff(self) -> float:
        if not self.settings.backoff_on_budget:
            return 1.0
        return backoff_factor(self.budget.headroom().hour_fraction, self.settings.backoff_start)

    def _keep(self) -> frozenset[str]:
        return ALWAYS_KEPT | self.settings.salience_triggers

    def _salience_left(self, now: float) -> int:
        return max(0, self.settings.salience_per_hour - self._salience.total(now))

    def _requests(self) -> tuple[Request, ...]:
        requests: list[Request] = []
        if self._turn_end:
            requests.append("turn_end")
        if self._manual:
            requests.append("manual")
        if self._matched:
            requests.append("trigger")
        return tuple(requests)

    def _evaluate(self) -> Decision | Hold:
        now = self.clock.now()
        blocked = self._blocked(now)
        if blocked is not None:
            return blocked
        settings, pending = self.settings, self._pending
        floor = self.effective_min_interval()
        floor_end = self._last_start + floor if self._last_start is not None else now
        floor_ok = now >= floor_end
        volume = pending.offered_chars >= settings.trigger_chars
        opened = pending.opened_at if pending.opened_at is not None else now
        ceiling_at = opened + settings.max_interval_s
        ceiling = not pending.empty and now >= ceiling_at
        salient = pending.kinds_present(sorted(settings.salience_triggers))
        salience_left = self._salience_left(now)

        fired: list[tuple[Reason, str]] = []
        if self._turn_end and (self._unjudged or not pending.empty):
            fired.append(("turn_end", "the turn ended"))
        if self._manual:
            fired.append(("manual", "a pass was asked for"))
        if self._matched:
            fired.append(("trigger", f"{', '.join(self._matched)} matched on a failure"))
        if volume and floor_ok:
            chars = f"{pending.offered_chars:,} chars pending >= trigger_chars {settings.trigger_chars:,}"
            fired.append(("volume", chars))
        if ceiling and floor_ok:
            fired.append(("ceiling", f"input waiting {now - opened:,.0f} s"))
        if salient and salience_left > 0:
            left = f"{salience_left} of {settings.salience_per_hour} early passes left"
            fired.append(("salience", f"{'/'.join(salient)} pending; {left}"))
        refusal = self._admit() if fired else None
        if refusal is not None:
            until = None if refusal.until is None else now + max(0.0, refusal.until - time.time())
            return Hold(refusal.reason, now, refusal.detail, until)
        if fired:
            return Decision(
                reason=fired[0][0],
                reasons=tuple(reason for reason, _ in fired),
                at=now,
                detail="; ".join(detail for _, detail in fired),
                pending=pending.offered,
                pending_chars=pending.offered_chars,
                floor_s=floor,
            )

        # Nothing fires: say why, and the earliest moment that can change without new input.
        wakes: list[float] = []
        stretch = ""
        if floor > settings.min_interval_s:
            stretch = f" (x{floor / settings.min_interval_s:.1f}, budget backoff)"
            change = self.budget.next_change()  # old spend leaving the hour shortens the stretch
            if change is not None and not floor_ok:
                wakes.append(change)
        if volume or ceiling:
            what = "volume" if volume else "ceiling"
            detail = f"{what} reached; clock floor {floor:,.0f} s{stretch} ends in {floor_end - now:,.0f} s"
            return Hold("floor", now, detail, min([*wakes, floor_end]))
        wakes.append(max(ceiling_at, floor_end))
        volume_left = f"{pending.offered_chars:,} of {settings.trigger_chars:,} chars"
        detail = f"{volume_left}; ceiling in {ceiling_at - now:,.0f} s"
        if salient:
            detail += f"; {'/'.join(salient)} pending, no early pass left this hour"
            back = self._salience.next_expiry(now)
            if back is not None:
                wakes.append(back)
        return Hold("waiting", now, detail, min(wakes))

    def _admit(self) -> Refusal | None:
        """Take a machine-wide slot for the pass about to be decided (kept until ``finish()``)."""
        if self.machine is None or self._lease is not None:
            return None
        answer = self.machine.admit()
        if isinstance(answer, Refusal):
            return answer
        self._lease = answer
        return None

    def _blocked(self, now: float) -> Hold | None:
        """What stops every trigger: mute, budget, a running pass, nothing pending (a manual run excepted)."""
        if self.muted:
            requests = self._requests()
            detail = "muted (mute.all); input keeps accumulating" + _refused(requests)
            return Hold("muted", now, detail, None, requests)
        exhaustion = self.budget.exhausted()
        if exhaustion is not None:
            requests = self._requests()
            detail = f"budget exhausted: {exhaustion}"
            if exhaustion.recovers_at is not None:
                detail += f"; frees up in {exhaustion.recovers_at - now:,.0f} s"
            return Hold(
                "budget exhausted", now, detail + _refused(requests), exhaustion.recovers_at, requests
            )
        if self._running is not None:
            return Hold("in flight", now, f"pass {self._running.number} is running")
        if self._pending.empty and not self._manual and not (self._turn_end and self._unjudged):
            refused: tuple[Request, ...] = ("turn_end",) if self._turn_end else ()
            return Hold("empty", now, "nothing new to judge" + _refused(refused), None, refused)
        return None

    # -- running --------------------------------------------------------------------------------

    @property
    def running(self) -> Episode | None:
        """The episode of the pass in flight, if any."""
        return self._running

    def start(self) -> Episode:
        """Take the pending episode for a pass starting now; raises :class:`NotDue` unless one is due.

        A salience pass draws one early pass from the hourly allowance. Anything
        offered from now until ``finish()`` lands in the next episode.
        """
        result = self.check()
        if isinstance(result, Hold):
            raise NotDue(result)
        now = result.at
        if result.reason == "salience":
            self._salience.add(now, 1)
        self._matched = ()
        self._tally.passes += 1
        self._tally.by_reason[result.reason] += 1
        episode = Episode.take(
            self._pending,
            number=self._tally.passes,
            decision=result,
            turn_end="turn_end" in result.reasons,
            cap=self.settings.episode_cap_chars,
        )
        self._tally.dropped += episode.dropped_count
        self._pending = PendingEpisode()
        if "turn_end" in result.reasons:
            self._unjudged = False
        self._turn_end = False
        self._manual = False
        self._last_start = now
        self._running = episode
        return episode

    def finish(self, tokens_used: int, *, pressure: bool | None = None) -> Episode:
        """The running pass is over: charge what it used (0 if the caller charged the budget itself).

        ``pressure`` tells the machine-wide backoff what the provider said (see
        :meth:`sbcore.pace.machine.MachinePace.finished`); the pass's slot is freed.
        """
        if self._running is None:
            raise RuntimeError("finish() without a running pass")
        episode, self._running = self._running, None
        self.budget.charge(tokens_used)
        lease, self._lease = self._lease, None
        if self.machine is not None:
            self.machine.finished(lease, tokens_used, pressure=pressure)
        return episode

    def release(self) -> None:
        """Give back a machine-wide slot without a pass finishing (the pacer is being replaced or closed)."""
        if self._lease is not None:
            self._lease.release()
            self._lease = None

    # -- configuration and status ---------------------------------------------------------------

    def reconfigure(self, settings: PaceSettings, *, muted: bool | None = None) -> None:
        """New settings (and optionally a new mute), applied from the next check on."""
        self.settings = settings
        if muted is not None:
            self.muted = muted

    def apply_config(self, config: EffectiveConfig) -> None:
        """Re-read ``loop``, ``window``, ``budget`` and ``mute`` from a (re)loaded configuration."""
        self.budget.reconfigure(BudgetSettings.from_config(config))
        if self.machine is not None:
            self.machine.reconfigure(MachineSettings.from_config(config))
        self.reconfigure(PaceSettings.from_config(config), muted=bool(config.get("mute.all")))

    def status(self) -> PaceStatus:
        """Where the policy stands now."""
        now = self.clock.now()
        backoff = self._backoff()
        return PaceStatus(
            at=now,
            muted=self.muted,
            running=self._running.number if self._running else None,
            passes=self._tally.passes,
            by_reason=dict(self._tally.by_reason),
            pending=self._pending.offered,
            pending_chars=self._pending.offered_chars,
            pending_kept=len(self._pending.observations),
            dropped=self._tally.dropped + sum(self._pending.dropped.values()),
            floor_s=self.settings.min_interval_s * backoff,
            backoff=backoff,
            salience_left=self._salience_left(now),
            budget=self.budget.headroom(),
            task_used=self.budget.task_used,
            hour_used=self.budget.hour_used(),
            last=self.last,
            holds=dict(self._tally.holds),
            refused=dict(self._tally.refused),
        )


def _refused(requests: tuple[Request, ...]) -> str:
    if not requests:
        return ""
    names = {
        "turn_end": "the turn end goes unjudged",
        "manual": "the requested pass is not run",
        "trigger": "the trigger's finding waits for the next pass",
    }
    return "; " + "; ".join(names[request] for request in requests)
