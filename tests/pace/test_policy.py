"""The pacer, every rule in simulated time, plus the clock and the coalescer it relies on."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sbcore.config import load_config
from sbcore.observe.model import Observation, ObservationKind
from sbcore.observe.project import project_file
from sbcore.pace import (
    Budget,
    BudgetSettings,
    Decision,
    Episode,
    Hold,
    NotDue,
    Pacer,
    PaceSettings,
    SimulatedClock,
    SystemClock,
    backoff_factor,
    coalesce,
    epoch_seconds,
)

CORPUS = Path(__file__).resolve().parents[2] / "../shared/corpus/transcripts"

SETTINGS = PaceSettings(
    min_interval_s=120,
    trigger_chars=1000,
    max_interval_s=900,
    salience_per_hour=3,
    episode_cap_chars=10_000,
)
UNLIMITED = BudgetSettings(tokens_per_task=10**15, tokens_per_hour=10**15)


def ob(kind: ObservationKind = "tool", size: int = 100, label: str = "") -> Observation:
    """An observation of ``size`` characters; a label (``"c7"``) starts the text, to tell them apart."""
    return Observation(kind=kind, text=(f"{label}:" if label else "").ljust(size, "x"))


def make(
    settings: PaceSettings = SETTINGS, budget: BudgetSettings = UNLIMITED, *, muted: bool = False
) -> tuple[Pacer, SimulatedClock]:
    clock = SimulatedClock()
    return Pacer(settings, clock, Budget(budget, clock), muted=muted), clock


def first_pass(policy: Pacer, tokens: int = 0) -> Episode:
    """Fire and finish one pass at the current time (a manual run), so the floor starts from here."""
    policy.offer([ob()])
    policy.manual()
    episode = policy.start()
    policy.finish(tokens)
    return episode


def expect_hold(policy: Pacer, reason: str) -> Hold:
    result = policy.check()
    assert isinstance(result, Hold), result
    assert result.reason == reason, result
    assert policy.due() is None
    return result


def expect_decision(policy: Pacer, reason: str) -> Decision:
    result = policy.check()
    assert isinstance(result, Decision), result
    assert result.reason == reason, result
    return result


# -- a driver: the worker loop in simulated time ------------------------------------------------


@dataclass
class Run:
    episode: Episode
    start: float
    finish_at: float
    tokens: int
    allowed: bool
    finished: float | None = None


@dataclass
class Sim:
    """Drives a policy as the worker would: offer, check, start, finish after a pass duration.

    ``jump`` steps simulated time straight to each ``Hold.until`` (as replay
    does); without it the driver looks every whole second, which is what the
    hints must agree with.
    """

    policy: Pacer
    clock: SimulatedClock
    durations: Iterator[float] = field(default_factory=lambda: itertools.repeat(1.0))
    tokens: Iterator[int] = field(default_factory=lambda: itertools.repeat(0))
    jump: bool = True
    runs: list[Run] = field(default_factory=list)
    holds: list[Hold] = field(default_factory=list)
    offered: int = 0

    def settle(self, until: float) -> None:
        if self.jump:
            self._run(until)
        else:
            while self.clock.now() < until:
                self._run(self.clock.now())
                self.clock.set(min(until, int(self.clock.now()) + 1))
            self._run(until)
        self.clock.set(until)

    def _run(self, until: float) -> None:
        while True:
            now = self.clock.now()
            if self.policy.running is not None:
                current = self.runs[-1]
                if current.finish_at > until:
                    return
                self.clock.set(max(now, current.finish_at))
                self.policy.finish(current.tokens)
                current.finished = self.clock.now()
                continue
            result = self.policy.check()
            if isinstance(result, Decision):
                allowed = not self.policy.muted and self.policy.budget.allows()
                episode = self.policy.start()
                duration, tokens = next(self.durations), next(self.tokens)
                self.runs.append(Run(episode, now, now + duration, tokens, allowed))
                continue
            self.holds.append(result)
            if not self.jump or result.until is None or result.until > until:
                return
            self.clock.set(result.until)

    def at(
        self,
        t: float,
        observations: Sequence[Observation] = (),
        *,
        turn_end: bool = False,
        manual: bool = False,
    ) -> None:
        self.settle(t)
        self.policy.offer(observations, turn_end=turn_end)
        self.offered += len(observations)
        if manual:
            self.policy.manual()
        self.settle(t)

    def starts(self, reasons: Iterable[str] | None = None) -> list[float]:
        wanted = set(reasons) if reasons is not None else None
        return [r.start for r in self.runs if wanted is None or r.episode.decision.reason in wanted]


def most_in_any_hour(times: Sequence[float]) -> int:
    ordered = sorted(times)
    return max((sum(1 for t in ordered if start <= t < start + 3600) for start in ordered), default=0)


# -- the clock ----------------------------------------------------------------------------------


def test_simulated_clock_moves_only_forward() -> None:
    clock = SimulatedClock(10)
    clock.advance(5)
    clock.set(20)
    assert clock.now() == 20
    with pytest.raises(ValueError, match="cannot go back"):
        clock.set(19)
    with pytest.raises(ValueError, match="negative"):
        clock.advance(-1)


def test_simulated_clock_follows_transcript_timestamps_and_ignores_earlier_ones() -> None:
    first = "2026-01-05T14:03:22.500Z"
    clock = SimulatedClock(epoch_seconds(first))
    assert clock.follow("2026-01-05T14:05:22.500Z") - epoch_seconds(first) == pytest.approx(120)
    assert clock.follow("2026-01-05T14:04:00Z") == epoch_seconds("2026-01-05T14:05:22.500Z")
    assert clock.follow(clock.now() + 1.5) == epoch_seconds("2026-01-05T14:05:24Z")


def test_epoch_seconds_reads_naive_stamps_as_utc_and_names_bad_ones() -> None:
    assert epoch_seconds("1970-01-01T00:01:00") == 60
    assert epoch_seconds("1970-01-01T01:00:00+01:00") == 0
    with pytest.raises(ValueError, match="'yesterday'"):
        epoch_seconds("yesterday")


def test_system_clock_is_monotonic() -> None:
    clock = SystemClock()
    readings = [clock.now() for _ in range(100)]
    assert readings == sorted(readings)
    assert abs(readings[-1] - time.monotonic()) < 60


# -- settings -----------------------------------------------------------------------------------


def test_settings_default_to_the_schema(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))
    loaded = PaceSettings.from_config(load_config(None))
    assert loaded == PaceSettings(
        min_interval_s=120,
        trigger_chars=6000,
        max_interval_s=900,
        salience_triggers=frozenset({"error", "prompt"}),
        salience_per_hour=6,
        backoff_on_budget=True,
        episode_cap_chars=100_000,  # 400,000 x (0.85 - 0.60)
    )
    assert loaded == PaceSettings()


def test_policy_from_config_reads_loop_budget_and_mute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "config").mkdir()
    document = {
        "loop": {"min_interval_s": 60, "salience_triggers": ["report"], "trigger_chars": 500},
        "window": {"budget_chars": 20_000},
        "budget": {"tokens_per_hour": 5},
        "mute": {"all": True},
    }
    (tmp_path / "config" / "config.yaml").write_text(json.dumps(document))
    config = load_config(None)
    policy = Pacer.from_config(config, SimulatedClock(), task_used=7)
    assert policy.settings.min_interval_s == 60
    assert policy.settings.salience_triggers == frozenset({"report"})
    assert policy.settings.episode_cap_chars == 5000  # 20,000 x 0.25
    assert policy.budget.settings.tokens_per_hour == 5
    assert policy.budget.task_used == 7
    assert policy.muted
    policy.muted = False
    policy.apply_config(config)
    assert policy.muted


def test_episode_cap_is_never_below_trigger_chars(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "config").mkdir()
    document = {"loop": {"trigger_chars": 50_000}, "window": {"budget_chars": 20_000}}
    (tmp_path / "config" / "config.yaml").write_text(json.dumps(document))
    assert PaceSettings.from_config(load_config(None)).episode_cap_chars == 50_000


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"min_interval_s": -1}, r"loop\.min_interval_s"),
        ({"max_interval_s": 0}, r"loop\.max_interval_s"),
        ({"trigger_chars": 0}, r"loop\.trigger_chars"),
        ({"salience_per_hour": -1}, r"loop\.salience_per_hour"),
        ({"salience_triggers": frozenset({"error", "warning"})}, r"loop\.salience_triggers.*'warning'"),
        ({"episode_cap_chars": 0}, "episode_cap_chars"),
        ({"backoff_start": 0}, "backoff_start"),
    ],
)
def test_bad_settings_name_the_knob(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        replace(SETTINGS, **change)


# -- clock floor and volume ---------------------------------------------------------------------


def test_floor_binds_under_a_burst() -> None:
    policy, clock = make()
    sim = Sim(policy, clock, durations=itertools.repeat(3.0))
    for t in range(0, 7200, 5):  # 2,000 chars every five seconds: volume is always met
        sim.at(t, [ob(size=2000)])
    starts = sim.starts()
    assert most_in_any_hour(starts) == 3600 // 120
    assert all(later - earlier == 120 for earlier, later in itertools.pairwise(starts))
    assert {run.episode.decision.reason for run in sim.runs} == {"volume"}
    assert {h.reason for h in sim.holds} == {"floor", "empty"}  # empty: just after each pass took everything


def test_volume_within_the_floor_waits_for_the_floor_then_fires() -> None:
    policy, clock = make()
    first_pass(policy)
    clock.set(10)
    policy.offer([ob(size=1500)])
    hold = expect_hold(policy, "floor")
    assert hold.until == 120
    assert "volume reached" in hold.detail
    clock.set(119.5)
    expect_hold(policy, "floor")
    clock.set(120)
    decision = expect_decision(policy, "volume")
    assert decision.pending_chars == 1500
    assert "1,500 chars pending >= trigger_chars 1,000" in decision.detail


def test_volume_fires_as_soon_as_the_threshold_is_crossed_after_the_floor() -> None:
    policy, clock = make()
    first_pass(policy)
    clock.set(200)
    policy.offer([ob(size=600)])
    hold = expect_hold(policy, "waiting")
    assert "600 of 1,000 chars" in hold.detail
    assert hold.until == 200 + 900  # nothing else would change it: the ceiling
    clock.set(250)
    policy.offer([ob(size=400)])
    expect_decision(policy, "volume")


def test_a_quiet_session_does_not_trigger_on_volume() -> None:
    policy, clock = make()
    sim = Sim(policy, clock)
    sim.at(0, [ob(size=10)])
    sim.settle(899)
    assert sim.runs == []


# -- ceiling ------------------------------------------------------------------------------------


def test_ceiling_fires_a_slow_session() -> None:
    policy, clock = make()
    sim = Sim(policy, clock)
    for t in range(0, 3700, 100):  # 50 chars every 100 s never reaches 1,000 between passes
        sim.at(t, [ob(size=50)])
    assert sim.starts() == [900, 1800, 2700, 3600]
    assert {run.episode.decision.reason for run in sim.runs} == {"ceiling"}
    assert [len(run.episode.observations) for run in sim.runs] == [9, 9, 9, 9]


def test_ceiling_still_respects_the_floor() -> None:
    settings = replace(SETTINGS, min_interval_s=600, max_interval_s=600)
    policy, clock = make(settings)
    first_pass(policy)  # t=0
    clock.set(1)
    policy.offer([ob(size=10)])
    clock.set(601)
    expect_decision(policy, "ceiling")
    policy.start()
    policy.finish(0)
    clock.set(602)
    policy.offer([ob(size=10)])
    clock.set(1202)
    assert expect_decision(policy, "ceiling").at == 1202


# -- salience -----------------------------------------------------------------------------------


def test_an_error_fires_early_and_draws_from_the_allowance() -> None:
    policy, clock = make()
    first_pass(policy)
    clock.set(10)
    policy.offer([ob("error", 50)])
    decision = expect_decision(policy, "salience")
    assert "error pending; 3 of 3 early passes left" in decision.detail
    policy.start()
    assert policy.status().salience_left == 2


def test_a_new_prompt_fires_early_but_a_report_does_not_by_default() -> None:
    policy, clock = make()
    first_pass(policy)
    clock.set(10)
    policy.offer([ob("report", 50)])
    expect_hold(policy, "waiting")
    policy.offer([ob("prompt", 50)])
    expect_decision(policy, "salience")


def test_a_judged_turns_late_prompt_and_error_ride_along_but_fire_nothing() -> None:
    policy, clock = make()
    first_pass(policy)
    clock.set(10)
    policy.offer([ob("prompt", 50), ob("error", 50)], judged=True)
    expect_hold(policy, "waiting")
    policy.offer([ob("prompt", 50)])
    expect_decision(policy, "salience")
    episode = policy.start()
    assert [o.kind for o in episode.observations] == ["prompt", "error", "prompt"]


def test_salience_kinds_are_configurable() -> None:
    policy, clock = make(replace(SETTINGS, salience_triggers=frozenset({"report"})))
    first_pass(policy)
    clock.set(10)
    policy.offer([ob("error", 50)])
    expect_hold(policy, "waiting")
    policy.offer([ob("report", 50)])
    expect_decision(policy, "salience")


def test_salience_waits_for_the_running_pass() -> None:
    policy, clock = make()
    policy.offer([ob(size=2000)])
    policy.start()
    clock.set(5)
    policy.offer([ob("error", 50)])
    expect_hold(policy, "in flight")
    clock.set(8)
    policy.finish(0)
    expect_decision(policy, "salience")


def test_a_crashloop_cannot_spin_the_loop() -> None:
    policy, clock = make()
    sim = Sim(policy, clock, durations=itertools.repeat(5.0))
    for t in range(0, 3 * 3600, 2):  # an error every two seconds for three hours
        sim.at(t, [ob("error", 30)])
    salience = sim.starts(["salience"])
    assert most_in_any_hour(salience) == 3
    assert most_in_any_hour(sim.starts()) <= 3600 // 120 + 3
    runs = sim.runs
    for previous, run in itertools.pairwise(runs):
        if run.episode.decision.reason in {"volume", "ceiling"}:
            assert run.start >= previous.start + 120


def test_an_exhausted_allowance_says_when_an_early_pass_comes_back() -> None:
    policy, clock = make(replace(SETTINGS, salience_per_hour=1))
    first_pass(policy)
    clock.set(10)
    policy.offer([ob("error", 50)])
    policy.start()
    policy.finish(0)
    clock.set(20)
    policy.offer([ob("error", 50)])
    hold = expect_hold(policy, "waiting")
    assert "no early pass left this hour" in hold.detail
    assert hold.until == 920  # the ceiling (input waiting since 20) comes before the allowance (3610)
    clock.set(920)
    expect_decision(policy, "ceiling")


def test_the_allowance_returns_an_hour_after_each_draw() -> None:
    policy, clock = make(replace(SETTINGS, salience_per_hour=1, max_interval_s=86_400))
    first_pass(policy)
    clock.set(10)
    policy.offer([ob("error", 50)])
    policy.start()
    policy.finish(0)
    clock.set(20)
    policy.offer([ob("error", 50)])
    assert expect_hold(policy, "waiting").until == 3610
    clock.set(3610)
    expect_decision(policy, "salience")


def test_zero_salience_per_hour_disables_early_passes() -> None:
    policy, clock = make(replace(SETTINGS, salience_per_hour=0))
    first_pass(policy)
    clock.set(10)
    policy.offer([ob("error", 50), ob("prompt", 50)])
    hold = expect_hold(policy, "waiting")
    assert hold.until == 910


# -- turn end -----------------------------------------------------------------------------------


def test_turn_end_ignores_floor_volume_and_the_salience_allowance() -> None:
    policy, clock = make(replace(SETTINGS, salience_per_hour=1))
    first_pass(policy)
    clock.set(5)
    policy.offer([ob("error", 20)])
    policy.start()  # the one early pass of the hour
    policy.finish(0)
    assert policy.status().salience_left == 0
    clock.set(6)
    policy.offer([ob("text", 20)], turn_end=True)  # 20 chars, 1 s after the last start
    decision = expect_decision(policy, "turn_end")
    episode = policy.start()
    assert episode.turn_end
    assert episode.decision == decision
    assert policy.status().salience_left == 0


def test_turn_end_does_not_pass_the_mute() -> None:
    policy, _ = make(muted=True)
    policy.offer([ob("text", 20)], turn_end=True)
    hold = expect_hold(policy, "muted")
    assert hold.dropped == ("turn_end",)
    assert "the turn end goes unjudged" in hold.detail
    policy.muted = False
    expect_hold(policy, "waiting")  # the dropped turn end does not come back
    assert policy.status().refused == {"turn_end": 1}


def test_turn_end_does_not_pass_the_budget() -> None:
    policy, clock = make(budget=BudgetSettings(tokens_per_task=10**9, tokens_per_hour=100))
    first_pass(policy, tokens=100)
    clock.set(1)
    policy.offer([ob("text", 20)], turn_end=True)
    hold = expect_hold(policy, "budget exhausted")
    assert hold.dropped == ("turn_end",)


def test_turn_end_mid_pass_fires_right_after() -> None:
    policy, clock = make()
    policy.offer([ob(size=2000)])
    policy.start()
    clock.set(3)
    policy.offer([ob("text", 20)], turn_end=True)
    hold = expect_hold(policy, "in flight")
    assert hold.dropped == ()
    clock.set(9)
    policy.finish(0)
    expect_decision(policy, "turn_end")
    assert [o.text for o in policy.start().observations] == ["x" * 20]


def test_turn_end_with_nothing_new_since_the_last_turn_end_is_dropped() -> None:
    policy, clock = make()
    policy.offer([ob()], turn_end=True)
    assert expect_decision(policy, "turn_end").reasons == ("turn_end",)
    policy.start()
    policy.finish(0)
    clock.set(200)
    policy.offer([], turn_end=True)
    hold = expect_hold(policy, "empty")
    assert hold.dropped == ("turn_end",)
    policy.offer([ob("prompt", 20)])
    assert expect_decision(policy, "salience").reasons == ("salience",)


def test_turn_end_is_judged_even_when_an_earlier_pass_took_its_last_steps() -> None:
    policy, clock = make()
    first_pass(policy)  # a manual pass takes everything the turn produced
    clock.set(200)
    policy.offer([], turn_end=True)
    decision = expect_decision(policy, "turn_end")
    episode = policy.start()
    assert episode.turn_end and decision.reason == "turn_end"
    assert list(episode.observations) == []
    policy.finish(0)
    clock.set(400)
    policy.offer([], turn_end=True)  # nothing since that turn-end pass: dropped
    assert expect_hold(policy, "empty").dropped == ("turn_end",)


# -- single flight ------------------------------------------------------------------------------


def test_one_pass_at_a_time_and_new_input_waits_for_the_next_episode() -> None:
    policy, clock = make()
    policy.offer([ob(size=2000, label="a")])
    first = policy.start()
    policy.offer([ob(size=2000, label="b")])
    policy.manual()
    with pytest.raises(NotDue, match="in flight") as raised:
        policy.start()
    assert raised.value.hold.reason == "in flight"
    clock.set(4)
    assert policy.finish(10) is first
    second = policy.start()
    assert [o.text[:2] for o in first.observations] == ["a:"]
    assert [o.text[:2] for o in second.observations] == ["b:"]
    assert second.number == 2
    policy.finish(0)
    with pytest.raises(RuntimeError, match="without a running pass"):
        policy.finish(0)


def test_start_without_a_due_pass_raises_with_the_reason() -> None:
    policy, _ = make()
    with pytest.raises(NotDue, match="empty"):
        policy.start()


# -- manual runs --------------------------------------------------------------------------------


def test_manual_ignores_floor_and_volume() -> None:
    policy, clock = make()
    first_pass(policy)
    clock.set(1)
    policy.offer([ob(size=10)])
    policy.manual()
    assert expect_decision(policy, "manual").detail == "a pass was asked for"


def test_manual_runs_even_with_nothing_new() -> None:
    policy, _ = make()
    policy.manual()
    expect_decision(policy, "manual")
    assert policy.start().observations == ()


def test_manual_does_not_pass_mute_or_budget() -> None:
    policy, _ = make(budget=BudgetSettings(tokens_per_task=50, tokens_per_hour=10**9), muted=True)
    policy.manual()
    assert expect_hold(policy, "muted").dropped == ("manual",)
    policy.muted = False
    expect_hold(policy, "empty")
    policy.offer([ob()])
    policy.manual()
    policy.start()
    policy.finish(50)
    policy.manual()
    hold = expect_hold(policy, "budget exhausted")
    assert hold.dropped == ("manual",)
    assert "the requested pass is not run" in hold.detail
    assert hold.until is None  # the task budget never frees up


def test_a_manual_run_over_nothing_new_is_not_a_turn_end_pass() -> None:
    policy, _ = make()
    policy.offer([], turn_end=True)
    policy.manual()
    decision = expect_decision(policy, "manual")
    assert decision.reasons == ("manual",)
    assert not policy.start().turn_end


# -- coalescing ---------------------------------------------------------------------------------


def test_coalesce_keeps_errors_prompts_head_and_tail() -> None:
    stream = [ob("prompt", 100, "p0")]
    for n in range(30):
        stream += [ob("text", 100, f"t{n}"), ob("tool", 100, f"c{n}")]
        if n % 10 == 5:
            stream += [ob("error", 100, f"e{n}"), ob("prompt", 100, f"p{n}")]
    stream.append(ob("text", 100, "last"))
    kept, dropped = coalesce(stream, cap=2000)
    assert sum(len(o.text) for o in kept) <= 2000
    assert sorted(map(id, kept + dropped)) == sorted(map(id, stream))
    assert [o for o in stream if o in kept] == kept  # order preserved
    assert all(o in kept for o in stream if o.kind in {"error", "prompt"})
    assert stream[:5] == kept[:5]  # the head: a quarter of the cap
    assert stream[-5:] == kept[-5:]  # and the tail
    middle = stream[5:-5]
    assert {o.kind for o in dropped} == {"text", "tool"}
    assert all(o in dropped for o in middle if o.kind == "text")  # narration went before any tool call
    kept_tools = [o for o in middle if o.kind == "tool" and o in kept]
    middle_tools = [o for o in middle if o.kind == "tool"]
    assert kept_tools == middle_tools[-len(kept_tools) :]  # the oldest tool calls went first


def test_coalesce_drops_the_oldest_narration_first() -> None:
    stream = [ob("tool", 100, f"c{n}") if n % 2 else ob("text", 100, f"t{n}") for n in range(40)]
    kept, dropped = coalesce(stream, cap=3500)
    assert [o.text[:3] for o in dropped] == ["t8:", "t10", "t12", "t14", "t16"]  # 8 at each end kept
    assert len(kept) == 35


def test_coalesce_leaves_small_episodes_alone() -> None:
    stream = [ob(size=100) for _ in range(5)]
    assert coalesce(stream, cap=500) == (stream, [])


def test_when_errors_alone_overflow_the_oldest_go_but_prompts_never() -> None:
    stream = [ob("prompt", 100, "p0")]
    stream += [ob("error", 100, f"e{n}") for n in range(50)]
    stream += [ob("prompt", 100, "p1"), ob("error", 100, "e-last")]
    kept, dropped = coalesce(stream, cap=1000)
    assert sum(len(o.text) for o in kept) <= 1000
    assert {o.kind for o in dropped} == {"error"}
    assert all(o in kept for o in stream if o.kind == "prompt")
    kept_errors = [o.text.split(":")[0] for o in kept if o.kind == "error"]
    assert kept_errors[-1] == "e-last"
    assert "e0" in kept_errors  # the head
    assert "e1" not in kept_errors  # the oldest middle error went first


def test_the_policy_coalesces_under_backlog_and_notes_what_it_dropped() -> None:
    policy, clock = make(replace(SETTINGS, episode_cap_chars=2000), muted=True)
    offered = []
    for n in range(60):
        batch = [ob("text", 100, f"t{n}"), ob("tool", 100, f"c{n}")]
        if n % 20 == 3:
            batch.append(ob("error", 100, f"e{n}"))
        offered += batch
        policy.offer(batch)
        clock.advance(1)
    assert policy.status().pending_chars == sum(len(o.text) for o in offered)
    policy.muted = False
    episode = policy.start()
    assert episode.decision.reason == "volume"
    assert episode.offered == len(offered)
    assert episode.chars <= 2000
    assert episode.dropped_count + len(episode.observations) == len(offered)
    assert all(o in episode.observations for o in offered if o.kind == "error")
    assert dict(episode.dropped).keys() <= {"text", "tool"}
    assert episode.note is not None
    assert f"{episode.dropped_count} of {len(offered)} observations" in episode.note
    assert "every user prompt and error were kept" in episode.note
    assert policy.status().dropped == episode.dropped_count


def test_an_episode_with_nothing_dropped_has_no_note() -> None:
    policy, _ = make()
    policy.offer([ob(size=2000)])
    assert policy.start().note is None


# -- budget-aware backoff -----------------------------------------------------------------------


def test_backoff_curve() -> None:
    assert backoff_factor(1.0, 0.5) == 1
    assert backoff_factor(0.5, 0.5) == 1
    assert backoff_factor(0.25, 0.5) == 2
    assert backoff_factor(0.1, 0.5) == pytest.approx(5)
    assert backoff_factor(0.0, 0.5) == float("inf")
    factors = [backoff_factor(left / 100, 0.5) for left in range(100, 0, -1)]
    assert factors == sorted(factors)  # it only ever stretches as the budget runs down


def test_backoff_stretches_the_floor_as_the_hourly_budget_depletes() -> None:
    budget = BudgetSettings(tokens_per_task=10**9, tokens_per_hour=1000)
    policy, _ = make(budget=budget)
    assert policy.effective_min_interval() == 120
    policy.budget.charge(400)  # 60 % left
    assert policy.effective_min_interval() == 120
    policy.budget.charge(350)  # 25 % left
    assert policy.effective_min_interval() == 240
    policy.budget.charge(150)  # 10 % left
    assert policy.effective_min_interval() == pytest.approx(600)
    assert policy.status().backoff == pytest.approx(5)
    policy.reconfigure(replace(SETTINGS, backoff_on_budget=False))
    assert policy.effective_min_interval() == 120


def test_a_stretched_floor_holds_volume_back_and_relaxes_as_spend_ages_out() -> None:
    budget = BudgetSettings(tokens_per_task=10**9, tokens_per_hour=1000)
    policy, clock = make(budget=budget)
    first_pass(policy, tokens=750)  # at t=0: 25 % left, floor x2
    clock.set(130)
    policy.offer([ob(size=2000)])
    hold = expect_hold(policy, "floor")
    assert hold.until == 240
    assert "x2.0, budget backoff" in hold.detail
    clock.set(240)
    expect_decision(policy, "volume")
    policy.start()
    policy.finish(0)
    clock.set(300)
    policy.offer([ob(size=2000)])
    assert expect_hold(policy, "floor").until == 480  # still stretched: the 750 is inside the hour


def test_the_hint_includes_the_moment_old_spend_leaves_the_hour() -> None:
    budget = BudgetSettings(tokens_per_task=10**9, tokens_per_hour=1000)
    policy, clock = make(replace(SETTINGS, min_interval_s=3000, max_interval_s=3000), budget)
    first_pass(policy, tokens=900)  # 10 % left: floor x5, 15,000 s
    clock.set(3000)
    policy.offer([ob(size=2000)])
    hold = expect_hold(policy, "floor")
    assert hold.until == 3600  # the 900 leaves the hour then, and the floor drops back to 3,000 s
    clock.set(3600)
    expect_decision(policy, "volume")


# -- budget exhaustion --------------------------------------------------------------------------


def test_budget_exhaustion_silences_and_reports() -> None:
    policy, clock = make(budget=BudgetSettings(tokens_per_task=10**9, tokens_per_hour=1000))
    policy.offer([ob(size=2000)])
    policy.start()
    clock.set(30)
    policy.finish(1200)
    clock.set(200)
    policy.offer([ob("error", 50), ob(size=2000)], turn_end=True)
    hold = expect_hold(policy, "budget exhausted")
    assert hold.reason == "budget exhausted"
    assert "hourly budget spent: 1,200 of 1,000 tokens" in hold.detail
    assert hold.until == 3630
    counted = policy.status().holds["budget exhausted"]
    policy.check()
    assert policy.status().holds["budget exhausted"] == counted + 1


def test_hourly_budget_recovers_after_the_window_slides() -> None:
    policy, clock = make(budget=BudgetSettings(tokens_per_task=10**9, tokens_per_hour=1000))
    sim = Sim(policy, clock, tokens=itertools.repeat(1200))
    for t in range(0, 4000, 60):
        sim.at(t, [ob(size=2000)])
    assert sim.starts() == [0, 3601]  # the first pass's 1,200 tokens (charged at t=1) leave the hour at 3601
    assert any(h.reason == "budget exhausted" for h in sim.holds)
    # the observations that arrived while silent were kept for the pass after it
    assert sim.runs[1].episode.offered == len(range(60, 3660, 60))


def test_task_budget_exhaustion_is_final() -> None:
    policy, clock = make(budget=BudgetSettings(tokens_per_task=1000, tokens_per_hour=10**9))
    first_pass(policy, tokens=1000)
    clock.set(10**6)
    policy.offer([ob(size=5000)])
    hold = expect_hold(policy, "budget exhausted")
    assert "task budget spent" in hold.detail
    assert hold.until is None


# -- mute ---------------------------------------------------------------------------------------


def test_mute_stops_passes_but_not_observation() -> None:
    policy, clock = make(muted=True)
    sim = Sim(policy, clock)
    for t in range(0, 2000, 10):
        sim.at(t, [ob(size=200)])
    assert sim.runs == []
    assert {h.reason for h in sim.holds} == {"muted"}
    policy.reconfigure(SETTINGS, muted=False)
    episode = policy.start()
    assert episode.offered == 200
    assert episode.decision.reasons == ("volume", "ceiling")


# -- reasons and status -------------------------------------------------------------------------


def test_a_decision_lists_every_trigger_that_held() -> None:
    policy, clock = make()
    first_pass(policy)
    clock.set(1000)
    policy.offer([ob("error", 1500)], turn_end=True)
    decision = expect_decision(policy, "turn_end")
    assert decision.reasons == ("turn_end", "volume", "salience")
    assert decision.floor_s == 120
    assert "the turn ended" in decision.detail


def test_status_is_json_ready() -> None:
    policy, _ = make(budget=BudgetSettings(tokens_per_task=10**6, tokens_per_hour=0))
    policy.offer([ob("error", 10)])
    policy.check()
    status = policy.status()
    data = json.loads(json.dumps(status.to_json()))
    assert data["last"]["type"] == "hold"
    assert data["last"]["reason"] == "budget exhausted"
    assert data["backoff"] is None  # unbounded: no headroom at all
    assert data["budget"] == {"task": 10**6, "hour": 0, "hour_fraction": 0.0}
    assert (data["pending"], data["pending_chars"], data["pending_kept"]) == (1, 10, 1)
    assert data["running"] is None


# -- properties ---------------------------------------------------------------------------------

KINDS: list[ObservationKind] = ["prompt", "text", "tool", "error", "report"]

event = st.tuples(
    st.integers(0, 400) | st.integers(400, 4000),  # seconds since the previous event
    st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 2500)), max_size=4),
    st.integers(0, 7).map(lambda n: n == 0),  # turn end
    st.integers(0, 11).map(lambda n: n == 0),  # manual run
    st.sampled_from([None] * 10 + [True, False]),  # mute flips
)


Event = tuple[int, list[tuple[ObservationKind, int]], bool, bool, bool | None]
Scenario = tuple[PaceSettings, BudgetSettings, list[int], list[int], list[Event]]


@st.composite
def scenarios(draw: st.DrawFn, backoff: bool = True) -> Scenario:
    floor = draw(st.integers(10, 400))
    settings = PaceSettings(
        min_interval_s=floor,
        max_interval_s=draw(st.integers(floor, 1500) | st.integers(floor, 6000)),
        trigger_chars=draw(st.integers(200, 6000)),
        salience_per_hour=draw(st.integers(0, 4)),
        salience_triggers=frozenset(draw(st.sets(st.sampled_from(["error", "prompt", "report"])))),
        episode_cap_chars=draw(st.integers(500, 20_000)),
        backoff_on_budget=backoff,
    )
    budget = BudgetSettings(
        tokens_per_task=draw(st.integers(0, 10**6)),
        tokens_per_hour=draw(st.integers(0, 60_000)),
    )
    durations = draw(st.lists(st.integers(0, 300), min_size=1, max_size=8))
    tokens = draw(st.lists(st.integers(0, 15_000), min_size=1, max_size=8))
    events = draw(st.lists(event, max_size=40))
    return settings, budget, durations, tokens, events


def simulate(scenario: Scenario, *, jump: bool = True) -> Sim:
    settings, budget, durations, tokens, events = scenario
    policy, clock = make(settings, budget)
    sim = Sim(policy, clock, itertools.cycle(durations), itertools.cycle(tokens), jump=jump)
    t = 0
    for gap, batch, turn_end, manual, mute in events:
        t += gap
        if mute is not None:
            sim.settle(t)
            policy.muted = mute
        sim.at(t, [ob(kind, size) for kind, size in batch], turn_end=turn_end, manual=manual)
    sim.settle(t + 3 * 3600)
    return sim


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_passes_never_overlap_and_the_floor_always_binds(scenario: Scenario) -> None:
    sim = simulate(scenario)
    settings = scenario[0]
    runs = sim.runs
    for previous, run in itertools.pairwise(runs):
        assert previous.finished is not None and run.start >= previous.finished
        if run.episode.decision.reason in {"volume", "ceiling"}:
            assert run.start >= previous.start + settings.min_interval_s
    assert all(run.allowed for run in runs)  # never while muted or over budget
    assert most_in_any_hour(sim.starts(["salience"])) <= settings.salience_per_hour
    # nothing is lost: every observation was taken by a pass or is still pending
    assert sum(run.episode.offered for run in runs) + sim.policy.status().pending == sim.offered
    cap = settings.episode_cap_chars
    for run in runs:
        episode = run.episode
        kept = episode.observations
        assert episode.dropped_count + len(kept) == episode.offered
        assert "prompt" not in dict(episode.dropped)
        if episode.dropped:  # bounded: past the cap only by its two ends and its prompts
            prompts = sum(len(o.text) for o in kept if o.kind == "prompt")
            assert episode.chars <= max(cap, cap / 2 + len(kept[0].text) + len(kept[-1].text) + prompts)


LATE_ERROR: Scenario = (  # an early pass comes back (t=3600) long before the ceiling (t=9000)
    PaceSettings(
        min_interval_s=60,
        max_interval_s=6000,
        salience_per_hour=1,
        salience_triggers=frozenset({"error"}),
        backoff_on_budget=False,
    ),
    BudgetSettings(tokens_per_task=10**6, tokens_per_hour=60_000),
    [10],
    [0],
    [(0, [("error", 10)], False, False, None), (3000, [("error", 10)], False, False, None)],
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(backoff=False))
@example(LATE_ERROR)
def test_stepping_to_the_hints_starts_the_same_passes_as_watching_every_second(scenario: Scenario) -> None:
    settings, budget, durations, tokens, events = scenario
    short = (settings, budget, durations, tokens, events[:15])
    jumped = simulate(short, jump=True)
    watched = simulate(short, jump=False)
    assert [(r.start, r.episode.decision.reason) for r in jumped.runs] == [
        (r.start, r.episode.decision.reason) for r in watched.runs
    ]


# -- the real corpus, replayed on its own timestamps --------------------------------------------


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not available")
def test_real_sessions_replayed_on_their_timestamps_obey_the_limits() -> None:
    defaults = PaceSettings()
    for path in sorted(CORPUS.glob("*.jsonl")):
        observations = [o for o in project_file(path) if o.timestamp is not None]
        if not observations:
            continue
        assert observations[0].timestamp is not None
        clock = SimulatedClock(epoch_seconds(observations[0].timestamp))
        policy = Pacer(defaults, clock, Budget(BudgetSettings(), clock))
        sim = Sim(policy, clock, durations=itertools.repeat(15.0), tokens=itertools.repeat(60_000))
        batches = [list(group) for _, group in itertools.groupby(observations, key=lambda o: o.timestamp)]
        for batch, following in itertools.zip_longest(batches, batches[1:]):
            stamp = batch[0].timestamp
            assert stamp is not None
            # no Stop hooks in a transcript: a turn ends where the next prompt begins, and at the end
            ends_turn = following is None or following[0].kind == "prompt"
            sim.at(max(clock.now(), epoch_seconds(stamp)), batch, turn_end=ends_turn)
        sim.settle(clock.now() + 3600)
        assert sum(run.episode.offered for run in sim.runs) == len(observations), path.name
        for previous, run in itertools.pairwise(sim.runs):
            assert previous.finished is not None and run.start >= previous.finished
            if run.episode.decision.reason in {"volume", "ceiling"}:
                assert run.start >= previous.start + defaults.min_interval_s, path.name
        assert most_in_any_hour(sim.starts(["salience"])) <= defaults.salience_per_hour


# -- a structural trigger matched on a failure ---------------------------------------------------------


def test_a_trigger_match_starts_a_pass_past_the_floor_and_a_spent_allowance() -> None:
    policy, clock = make(replace(SETTINGS, salience_per_hour=1))
    first_pass(policy)
    clock.set(10)
    policy.offer([ob("error", 50)])
    policy.start()
    policy.finish(0)  # the one early pass of the hour is spent
    clock.set(20)
    policy.offer([ob("error", 50)])
    expect_hold(policy, "waiting")
    policy.matched(["repeat-failure"])
    decision = expect_decision(policy, "trigger")
    assert "repeat-failure matched on a failure" in decision.detail
    policy.start()
    policy.finish(0)
    clock.set(30)
    policy.offer([ob("error", 50)])
    expect_hold(policy, "waiting")  # the match was taken by its pass: it does not fire again


def test_a_trigger_match_does_not_pass_mute_budget_or_a_running_pass() -> None:
    policy, clock = make(budget=BudgetSettings(tokens_per_task=10**9, tokens_per_hour=100), muted=True)
    policy.offer([ob("error", 50)])
    policy.matched(["repeat-failure"])
    assert expect_hold(policy, "muted").dropped == ("trigger",)
    policy.muted = False
    first_pass(policy, tokens=100)  # the hour's budget is spent by a model pass
    clock.set(1)
    policy.offer([ob("error", 50)])
    policy.matched(["repeat-failure"])
    hold = expect_hold(policy, "budget exhausted")
    assert hold.dropped == ("trigger",)
    assert policy.status().refused["trigger"] == 2
