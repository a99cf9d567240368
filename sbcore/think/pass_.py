"""A pass: the episode goes into the window, the detectors due fork off it, their feedback comes back.

One :class:`PassEngine` per task. Each :meth:`PassEngine.run_pass`:

1. selects the detectors due in this pass: cadence (``every_pass``, ``every_nth``, ``turn_end``,
   ``on_trigger``), the demotion ladder, and, for a detector naming a structural trigger, a match of that
   trigger over the task's observations so far (a triggered detector only ever runs on a match);
2. appends the episode to the window (before the snapshot, so the cacheable prefix is the whole window),
   with ``[note]`` lines for coalescing and for the checks that matched;
3. compacts the window if it has passed its threshold (the one prefix rebuild);
4. offline (no model): each selected detector with a fallback answers with it, the rest report
   ``skipped: no model``. With a model: the snapshot (tools = the pass's union, sorted; system; messages)
   is shared by every fork; a pilot fork runs alone first to write the provider's prefix cache, then the
   rest fan out, at most ``loop.max_parallel_forks`` at a time, each cancelled at its deadline + grace;
5. merges one line per detector into the window, in detector-name order (never completion order: the same
   session replayed gives the same window), and moves the demotion ladder.

A pass never raises for a detector's sake: provider faults, bad feedback, broken templates and timeouts
become that detector's result, and the next pass runs as usual.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from jinja2.sandbox import SandboxedEnvironment

from sbcore.observe.history import ObservationHistory
from sbcore.observe.model import Observation
from sbcore.observe.project_facts import UNKNOWN, ProjectFacts
from sbcore.pace.clock import Clock, SystemClock
from sbcore.packs.model import DetectorDef
from sbcore.packs.registry import TriggerSpec
from sbcore.packs.templates import render
from sbcore.packs.types import TriggerMatch
from sbcore.state.recall import RecallWindow
from sbcore.state.taskindex import Peers
from sbcore.think.cli_fork import CliFork
from sbcore.think.compaction import Compaction, compact
from sbcore.think.debug import DebugCapture
from sbcore.think.demotion import DemotionLadder, Step
from sbcore.think.feedback import FeedbackResult, feedback_tool, merge_line, usage_json
from sbcore.think.fork import DEFAULT_MAX_TOKENS, Fork, ForkPlan, render_tail
from sbcore.think.prompts import render_prompt
from sbcore.think.providers.base import Provider, ToolSpec, Usage
from sbcore.think.providers.claude_code import ClaudeCodeProvider
from sbcore.think.providers.offline import OfflineProvider
from sbcore.think.tools.dispatch import Grant, Toolbox
from sbcore.think.window import Snapshot, Window

if TYPE_CHECKING:
    from sbcore.config import EffectiveConfig

log = logging.getLogger("sbcore.think.pass")

DECLARED_PILOT = "repeat-failure"
"""First choice of pilot: tool-less and triggered, so the cheapest and most predictable fork there is."""
OPEN_ADVISORIES_KEPT = 10
_CLOSING_OUTCOMES = frozenset({"adopted", "partially_adopted", "rejected", "already_handled", "contradicted"})


TOPIC_TRIGGERS: tuple[str, ...] = ("drift", "stall")
"""The structural triggers whose parameters default to the ``topic.*`` knobs."""


@dataclass(frozen=True)
class EngineSettings:
    """The knobs a pass reads (``loop.*``, ``window.*``, ``gate.body_cap``, ``topic.*``)."""

    fork_deadline_s: float = 8.0
    fork_grace_s: float = 4.0
    max_parallel_forks: int = 8
    demote_stride: int = 3
    demote_retry_s: float = 1800.0
    budget_chars: int = 400_000
    compaction_threshold: float = 0.85
    compaction_floor: float = 0.60
    body_cap: int = 600
    max_tokens: int = DEFAULT_MAX_TOKENS
    trigger_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Parameters per trigger name from the configuration, under each detector's own ``trigger.params``."""

    def __post_init__(self) -> None:
        if self.max_parallel_forks < 1:
            raise ValueError(f"loop.max_parallel_forks must be at least 1 (got {self.max_parallel_forks})")
        if self.fork_deadline_s <= 0 or self.fork_grace_s < 0:
            raise ValueError("loop.fork_deadline_s must be positive and loop.fork_grace_s not negative")

    @classmethod
    def from_config(cls, config: EffectiveConfig) -> EngineSettings:
        loop, window = config.group("loop"), config.group("window")
        return cls(
            fork_deadline_s=float(loop["fork_deadline_s"]),
            fork_grace_s=float(loop["fork_grace_s"]),
            max_parallel_forks=int(loop["max_parallel_forks"]),
            demote_stride=int(loop["demote_stride"]),
            demote_retry_s=float(loop["demote_retry_s"]),
            budget_chars=int(window["budget_chars"]),
            compaction_threshold=float(window["compaction_threshold"]),
            compaction_floor=float(window["compaction_floor"]),
            body_cap=int(config.get("gate.body_cap")),
            trigger_params={name: dict(config.group("topic")) for name in TOPIC_TRIGGERS},
        )


@dataclass(frozen=True)
class PassResult:
    """One pass, as replay prints it and the gate consumes it.

    ``results`` are the detectors that ran (detector-name order); ``skipped`` the ones considered but not
    run, with why. ``wall_s`` is the only wall-clock figure (omitted from deterministic output).
    """

    number: int
    timestamp: str | None
    when: str
    reason: str | None
    observations: int
    chars: int
    results: tuple[FeedbackResult, ...]
    skipped: tuple[tuple[str, str], ...]
    usage: Usage
    steps: tuple[Step, ...] = ()
    compaction: Compaction | None = None
    pilots: tuple[str, ...] = ()
    window_chars: int = 0
    wall_s: float = 0.0
    lines: tuple[str, ...] = field(default=())
    offline_because: str = ""
    """Why a pass with a model provider ran offline (its pace, or a CLI that could not run); else empty."""
    cost_usd: float | None = None
    """What the provider itself reported the pass cost (the claude CLI does); None when it does not say."""

    def result(self, detector: str) -> FeedbackResult | None:
        return next((r for r in self.results if r.detector == detector), None)

    def to_json(self, *, timings: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "pass": self.number,
            "timestamp": self.timestamp,
            "reason": self.reason,
            "observations": self.observations,
            "chars": self.chars,
            "window_chars": self.window_chars,
            "results": [r.to_json() for r in self.results],
            "skipped": [{"detector": d, "why": why} for d, why in self.skipped],
            "usage": usage_json(self.usage),
        }
        if self.pilots:
            out["pilots"] = list(self.pilots)
        if self.steps:
            out["demotion"] = [step.to_json() for step in self.steps]
        if self.compaction is not None:
            out["compaction"] = self.compaction.to_json()
        if self.offline_because:
            out["offline_because"] = self.offline_because
        if self.cost_usd is not None:
            out["cost_usd"] = round(self.cost_usd, 6)
        if timings:
            out["wall_s"] = round(self.wall_s, 3)
        return out


@dataclass
class _Selected:
    detector: DetectorDef
    match: TriggerMatch | None


class PassEngine:
    """Runs the passes of one task against one window.

    :param detectors: the detectors to consider, whatever their ``enabled`` flag (the caller chose them).
    :param provider: a model provider, or the offline one.
    :param triggers: registered structural triggers by name (``registry.triggers``).
    :param toolbox: dispatch for granted tools; None refuses every tool call.
    :param environment: the catalogue's template environment (pack filters included).
    :param clock: drives the demotion retry period (replay passes its simulated clock).
    :param workspace / cwd / session: what the system's workspace block says.
    :param debug: where ``--debug`` captures go, or None.
    :param always_run: detector ids that run every pass whatever their cadence (a golden case, a manual
        run of one detector); their triggers still have to match.
    :param recall: the session's recall window (read-only index, offered chunks), handed to the triggers
        that declare a ``recall`` parameter; None when recall is off.
    """

    def __init__(
        self,
        detectors: Sequence[DetectorDef],
        provider: Provider,
        *,
        settings: EngineSettings | None = None,
        triggers: Mapping[str, TriggerSpec] | None = None,
        toolbox: Toolbox | None = None,
        environment: SandboxedEnvironment | None = None,
        clock: Clock | None = None,
        workspace: str | None = None,
        cwd: str | None = None,
        session: str | None = None,
        debug: DebugCapture | None = None,
        always_run: Sequence[str] = (),
        monotonic: Callable[[], float] = time.monotonic,
        recall: RecallWindow | None = None,
    ) -> None:
        ids = [d.id for d in detectors]
        if len(set(ids)) != len(ids):
            raise ValueError(f"duplicate detector ids: {sorted(ids)}")
        self.detectors = sorted(detectors, key=lambda d: d.id)
        self.provider = provider
        self.settings = settings or EngineSettings()
        self.triggers = dict(triggers or {})
        self.toolbox = toolbox
        self.environment = environment
        self.debug = debug
        self.always_run = frozenset(always_run)
        self.monotonic = monotonic
        self.recall = recall
        self.ladder = DemotionLadder(
            self.settings.demote_stride, self.settings.demote_retry_s, clock or SystemClock()
        )
        root = workspace or cwd or "(unknown)"
        system = (
            render_prompt("observer"),
            render_prompt("workspace", root=root, cwd=cwd or root, session=session),
        )
        self.window = Window(
            system,
            budget_chars=self.settings.budget_chars,
            compaction_threshold=self.settings.compaction_threshold,
            compaction_floor=self.settings.compaction_floor,
        )
        # What structural triggers look back over: the task's observations, bounded by the window's own
        # budget so a long task's worker does not grow without limit (oldest observations leave first).
        self.history = ObservationHistory()
        self.project: ProjectFacts = UNKNOWN
        """What the checkout shows (its files, its scripts), for triggers that declare ``project``; the driver
        keeps it current (:attr:`sbcore.conductor.pipeline.Pipeline.project`)."""
        self._history_chars = 0
        self.trigger_state: dict[str, dict[str, Any]] = {d.id: {} for d in self.detectors}
        self.open_advisories: dict[str, list[dict[str, Any]]] = {d.id: [] for d in self.detectors}
        self.passes = 0

    # -- a pass ---------------------------------------------------------------------------------------

    def remember(self, observations: Sequence[Observation]) -> None:
        """Add an episode to the trigger history, dropping the oldest beyond ``window.budget_chars``."""
        self.history.extend(observations)
        self._history_chars += sum(len(o.text) for o in observations)
        drop = 0
        while self._history_chars > self.settings.budget_chars and drop < len(self.history) - 1:
            self._history_chars -= len(self.history[drop].text)
            drop += 1
        self.history.drop_oldest(drop)

    def probe_triggers(self, peers: Peers | None = None) -> list[str]:
        """The detectors whose structural trigger matches the history now with a finding not yet reported:
        asked at every failure the driver offers, between passes, so a loop is caught as it happens.

        Only detectors that run on their trigger (``on_trigger``) and advise are asked (what a soaking one
        would say is only logged, so it can wait for a paced pass), each against a copy of its
        trigger state (and of the recall window's offers), so the pass that follows reports the finding as
        if nothing had looked (a probe reports and offers nothing itself); a trigger that raises is left to
        that pass to report.
        """
        found: list[str] = []
        recall = self.recall.scratch() if self.recall is not None else None
        for detector in self.detectors:
            if detector.trigger is None or detector.cadence.kind != "on_trigger" or detector.mode == "soak":
                continue  # a soaking detector only logs what it would say: that can wait for a paced pass
            spec = self.triggers.get(detector.trigger.name)
            if spec is None:
                continue
            params = {
                **self.settings.trigger_params.get(detector.trigger.name, {}),
                **detector.trigger.params,
            }
            state = copy.deepcopy(self.trigger_state[detector.id])
            try:
                match = spec.invoke(
                    self.history, params, state, detector.config, peers, recall=recall, project=self.project
                )
            except Exception:  # the pass that follows runs it again and reports the failure
                continue
            if match is not None:
                found.append(detector.id)
        return found

    async def run_pass(
        self,
        observations: Sequence[Observation],
        *,
        remembered: bool = False,
        turn_end: bool = False,
        reason: str | None = None,
        notes: Sequence[str] = (),
        timestamp: str | None = None,
        token_allowance: int | None = None,
        peers: Peers | None = None,
    ) -> PassResult:
        """Run one pass over a new episode.

        :param observations: the episode (what arrived since the last pass, already coalesced).
        :param remembered: the driver already added what arrived to the trigger history (:meth:`remember`,
            as it arrived, so triggers saw it between passes and nothing coalescing left out).
        :param turn_end: the agent's turn ended in this episode (``turn_end`` detectors are due).
        :param reason: why the pass runs (the pacer's reason), shown in the episode header.
        :param notes: extra ``[note]`` lines for the episode (e.g. what coalescing left out).
        :param timestamp: the episode's time (ISO-8601); by default its last observation's.
        :param token_allowance: tokens this pass may spend (the budget's headroom); split among its forks.
        :param peers: the other live tasks of the workspace, from the cross-task index (None: no index).
        """
        started = self.monotonic()
        self.passes += 1
        number = self.passes
        if not remembered:
            self.remember(observations)
        timestamp = timestamp or next((o.timestamp for o in reversed(observations) if o.timestamp), None)
        selected, skipped, steps = self._select(number, turn_end, empty=not observations, peers=peers)
        trigger_notes = [
            f"check {item.detector.trigger.name} matched ({item.detector.id}): {item.match.summary}"
            for item in selected
            if item.detector.trigger is not None and item.match is not None
        ]
        block = self.window.append_episode(
            number, observations, notes=[*notes, *trigger_notes], reason=reason, when=timestamp
        )
        when = block.when
        cli = self.provider if isinstance(self.provider, ClaudeCodeProvider) else None
        # Only a pass with forks to run draws on the provider's pace.
        paced = cli is not None and bool(selected)
        offline_because = (cli.begin_pass(turn_end=turn_end) or "") if paced and cli is not None else ""
        if offline_because:
            log.info("pass %d runs offline: %s", number, offline_because)
        offline = not self.provider.has_model or bool(offline_because)
        tools = () if offline else self._wire_tools([item.detector for item in selected])
        compaction = await compact(
            self.window, number, provider=None if offline else self.provider, timeout_s=self._hard_deadline()
        )
        if compaction is not None and self.debug is not None:
            self.debug.compaction(
                number, {k: v for k, v in compaction.to_json().items() if k != "summary"}, compaction.summary
            )
        pilots: tuple[str, ...] = ()
        if offline:
            results = [self._offline(item) for item in selected]
            if self.debug is not None:
                self.debug.digest(number, self.window.snapshot(()).render())
                for result in results:
                    self.debug.fork(number, result.detector).json("outcome (offline)", result.to_json())
        else:
            snapshot = self.window.snapshot(tools)
            if self.debug is not None:
                self.debug.digest(number, snapshot.render())
            share = token_allowance // max(1, len(selected)) if token_allowance is not None else None
            results, pilots = await self._fan_out(number, snapshot, selected, share)
            if cli is not None and cli.degraded:
                offline_because = cli.degraded
        results.sort(key=lambda r: r.detector)
        lines = tuple(merge_line(number, when, r) for r in results if r.status != "skipped")
        self.window.append_feedback(number, lines)
        for index, result in enumerate(results):
            opened = self._remember_advisories(number, result)
            if opened is not None:
                results[index] = result = replace(result, open_id=opened)
            if result.status in ("skipped", "fallback"):
                continue
            step = self.ladder.record(
                result.detector,
                number,
                timed_out=result.status == "timeout",
                failed=result.status == "failed",
            )
            if step is not None:
                steps.append(step)
        usage = sum((r.usage for r in results), Usage())
        if compaction is not None:
            usage = usage + compaction.usage
        return PassResult(
            number=number,
            timestamp=timestamp,
            when=when,
            reason=reason,
            observations=len(observations),
            chars=sum(len(o.text) for o in observations),
            results=tuple(results),
            skipped=tuple(skipped),
            usage=usage,
            steps=tuple(steps),
            compaction=compaction,
            pilots=pilots,
            window_chars=self.window.chars,
            wall_s=self.monotonic() - started,
            lines=lines,
            offline_because=offline_because,
            cost_usd=cli.pass_cost_usd if cli is not None and not offline else None,
        )

    # -- selection ------------------------------------------------------------------------------------

    def _select(
        self, number: int, turn_end: bool, *, empty: bool = False, peers: Peers | None = None
    ) -> tuple[list[_Selected], list[tuple[str, str]], list[Step]]:
        selected: list[_Selected] = []
        skipped: list[tuple[str, str]] = []
        steps: list[Step] = []
        for detector in self.detectors:
            why = self._cadence_says_no(detector, number, turn_end, empty)
            if why is not None:
                skipped.append((detector.id, why))
                continue
            admitted, step = self.ladder.admits(detector.id, number)
            if not admitted:
                skipped.append((detector.id, self.ladder.skip_reason(detector.id)))
                continue
            match: TriggerMatch | None = None
            if detector.trigger is not None:
                match, problem = self._evaluate_trigger(detector, peers)
                if match is None:
                    skipped.append((detector.id, problem))
                    if step is not None:  # a retry that never ran: keep it pending for the next match
                        self.ladder.health(detector.id).retrying = False
                    continue
            if step is not None:
                self.ladder.announce(step)
                steps.append(step)
            selected.append(_Selected(detector, match))
        return selected, skipped, steps

    def _cadence_says_no(
        self, detector: DetectorDef, number: int, turn_end: bool, empty: bool = False
    ) -> str | None:
        if detector.id in self.always_run:
            return None
        cadence = detector.cadence
        if cadence.kind == "turn_end" and not turn_end:
            return "cadence turn_end: the turn has not ended"
        if empty and turn_end and cadence.kind in ("every_pass", "every_nth"):
            # A turn end whose steps an earlier pass already took: only the turn-end lenses have news.
            return f"cadence {cadence.kind}: nothing new since it last looked"
        if cadence.kind == "every_nth" and cadence.nth and number % cadence.nth:
            return f"cadence every_nth {cadence.nth}: not this pass"
        return None

    def _evaluate_trigger(
        self, detector: DetectorDef, peers: Peers | None = None
    ) -> tuple[TriggerMatch | None, str]:
        assert detector.trigger is not None
        name = detector.trigger.name
        spec = self.triggers.get(name)
        if spec is None:
            return None, f"trigger {name} is not registered by any loaded pack"
        try:
            params = {**self.settings.trigger_params.get(name, {}), **detector.trigger.params}
            match = spec.invoke(
                self.history,
                params,
                self.trigger_state[detector.id],
                detector.config,
                peers,
                recall=self.recall,
                project=self.project,
            )
        except Exception as exc:  # a pack's trigger must not take the pass down
            log.exception("trigger %s of detector %s failed", name, detector.id)
            return None, f"trigger {name} failed: {type(exc).__name__}: {exc}"
        if match is None:
            return None, f"trigger {name}: no match"
        return match, ""

    # -- offline --------------------------------------------------------------------------------------

    def _offline(self, item: _Selected) -> FeedbackResult:
        detector = item.detector
        offline = self.provider if isinstance(self.provider, OfflineProvider) else OfflineProvider()
        match_input = item.match.as_template_input() if item.match is not None else None
        try:
            answer = offline.evaluate(detector, match_input, partial(render, environment=self.environment))
        except Exception as exc:  # a fallback template that fails at render time
            log.warning("detector %s: fallback did not render: %s", detector.id, exc)
            return FeedbackResult(
                detector.id, "failed", error=f"fallback did not render: {exc}", match=item.match
            )
        if isinstance(answer, str):
            return FeedbackResult(detector.id, "skipped", error=answer, match=item.match)
        if answer.get("verdict") == "advise":
            return FeedbackResult(detector.id, "fallback", feedback=answer, match=item.match)
        return FeedbackResult(detector.id, "answered", feedback=answer, match=item.match)

    # -- forks ----------------------------------------------------------------------------------------

    def _wire_tools(self, detectors: Sequence[DetectorDef]) -> tuple[ToolSpec, ...]:
        """The pass's one tools list: the union of the grants' available tools, plus the feedback tool."""
        specs: list[ToolSpec] = []
        if self.toolbox is not None:
            grants = [Grant.parse(d.tools, repo_code_trusted=d.run_trusted) for d in detectors]
            specs = [
                ToolSpec(t["name"], t["description"], t["input_schema"])
                for t in self.toolbox.build_wire_tools(grants)
            ]
        specs.append(feedback_tool(detectors))
        return tuple(sorted(specs, key=lambda spec: spec.name))

    def _hard_deadline(self) -> float:
        return self.settings.fork_deadline_s + self.settings.fork_grace_s

    def _plan(self, item: _Selected, share: int | None) -> ForkPlan | FeedbackResult:
        detector = item.detector
        deadline = detector.deadline_s if detector.deadline_s is not None else self.settings.fork_deadline_s
        grant = Grant.parse(detector.tools, repo_code_trusted=detector.run_trusted)
        names = self.toolbox.granted_names(grant) if self.toolbox is not None else []
        try:
            tail = render_tail(
                detector,
                match=item.match,
                grant_names=names,
                open_advisories=self.open_advisories.get(detector.id, []),
                deadline_s=deadline,
                max_iterations=detector.max_iterations,
                body_cap=self.settings.body_cap,
                environment=self.environment,
            )
        except Exception as exc:  # a template that fails on this input: that fork fails, not the pass
            log.warning("detector %s: prompt did not render: %s", detector.id, exc)
            return FeedbackResult(
                detector.id, "failed", error=f"prompt did not render: {exc}", match=item.match
            )
        return ForkPlan(
            detector=detector,
            tail=tail,
            grant=grant,
            deadline_s=deadline,
            grace_s=self.settings.fork_grace_s,
            max_iterations=detector.max_iterations,
            match=item.match,
            token_budget=share,
        )

    async def _fan_out(
        self, number: int, snapshot: Snapshot, selected: Sequence[_Selected], share: int | None
    ) -> tuple[list[FeedbackResult], tuple[str, ...]]:
        results: list[FeedbackResult] = []
        plans: list[ForkPlan] = []
        for item in selected:
            planned = self._plan(item, share)
            if isinstance(planned, FeedbackResult):
                results.append(planned)
            else:
                plans.append(planned)
        if not plans:
            return results, ()
        cli = self.provider if isinstance(self.provider, ClaudeCodeProvider) else None
        width = self.settings.max_parallel_forks
        if cli is not None:  # each CLI fork is a Node process: the provider's own, smaller fan-out
            width = min(width, cli.max_parallel_forks)
            plans = [replace(plan, grace_s=plan.grace_s + cli.options.start_allowance_s) for plan in plans]
        pilots = choose_pilots(plans)
        rest = [plan for plan in plans if plan not in pilots]
        gate = asyncio.Semaphore(width)

        async def one(plan: ForkPlan, pilot: bool) -> FeedbackResult:
            async with gate:
                debug = self.debug.fork(number, plan.detector.id) if self.debug is not None else None
                fork: Fork | CliFork
                if cli is not None:
                    fork = CliFork(
                        plan,
                        snapshot,
                        cli,
                        toolbox=self.toolbox,
                        max_tokens=self.settings.max_tokens,
                        debug=debug,
                        clock=self.monotonic,
                        pilot=pilot,
                    )
                else:
                    fork = Fork(
                        plan,
                        snapshot,
                        self.provider,
                        toolbox=self.toolbox,
                        max_tokens=self.settings.max_tokens,
                        debug=debug,
                        clock=self.monotonic,
                        pilot=pilot,
                    )
                try:
                    return await asyncio.wait_for(fork.run(), plan.hard_deadline_s)
                except TimeoutError:
                    log.warning("detector %s: cancelled at %g s", plan.detector.id, plan.hard_deadline_s)
                    return fork.timed_out()
                except Exception as exc:  # a bug in a pack tool or here: recorded, the pass goes on
                    log.exception("detector %s: fork crashed", plan.detector.id)
                    return FeedbackResult(
                        plan.detector.id, "failed", error=f"{type(exc).__name__}: {exc}", match=plan.match
                    )

        ran = list(await asyncio.gather(*(one(plan, True) for plan in pilots)))
        if cli is not None and cli.degraded:  # the CLI cannot run: no more processes, this pass is offline
            ran = [self._offline(_Selected(plan.detector, plan.match)) for plan in plans]
        else:
            ran += await asyncio.gather(*(one(plan, False) for plan in rest))
            if cli is not None and cli.degraded:  # it stopped working mid-pass: the failed forks go offline
                failed = {r.detector for r in ran if r.status == "failed"}
                ran = [r for r in ran if r.detector not in failed] + [
                    self._offline(_Selected(plan.detector, plan.match))
                    for plan in plans
                    if plan.detector.id in failed
                ]
        return results + ran, tuple(plan.detector.id for plan in pilots)

    # -- open advisories ------------------------------------------------------------------------------

    def _remember_advisories(self, number: int, result: FeedbackResult) -> str | None:
        """Keep each detector's open advisories for its next tail; outcomes and ``resolved`` close them.

        Returns the id an ``advise`` answer is listed under (the fork's own ``dedup_key``, else
        ``<detector>@<pass>``): the id its later outcomes will name.
        """
        feedback = result.feedback
        if feedback is None:
            return None
        open_items = self.open_advisories.setdefault(result.detector, [])
        closed = {
            str(o.get("advice_id"))
            for o in feedback.get("outcomes") or ()
            if isinstance(o, Mapping) and o.get("verdict") in _CLOSING_OUTCOMES
        }
        key = feedback.get("dedup_key")
        if feedback.get("verdict") == "resolved" and isinstance(key, str):
            closed.add(key)
        open_items[:] = [item for item in open_items if item["advice_id"] not in closed]
        if feedback.get("verdict") == "advise":
            advice_id = key if isinstance(key, str) and key else f"{result.detector}@{number}"
            open_items[:] = [item for item in open_items if item["advice_id"] != advice_id]
            open_items.append({"advice_id": advice_id, "headline": result.headline, "pass": number})
            del open_items[:-OPEN_ADVISORIES_KEPT]
            return advice_id
        return None

    def keep_open(self, detector: str, ids: Collection[str]) -> None:
        """Keep only the open advisories of ``detector`` listed under one of ``ids``.

        The gate knows what became of each advisory: one it never delivered to the agent, or whose
        adjudication window lapsed, is no longer the fork's to judge (:meth:`Pipeline.conclude` asks).
        """
        items = self.open_advisories.get(detector)
        if items:
            items[:] = [item for item in items if item["advice_id"] in ids]


def choose_pilots(plans: Sequence[ForkPlan]) -> list[ForkPlan]:
    """The pilot fork(s): one per distinct first-request cache key, each by the design's fallback chain.

    The chain: the declared pilot (``repeat-failure``) when it runs in this pass, else the first tool-less
    detector by name, else the first by name. Forks whose first request forces the feedback tool (a
    one-iteration detector) and forks whose first request does not differ in ``tool_choice``, which is part of
    the messages tier of the provider's cache key; each such group needs its own warm-up, or its members
    would all race to write the same entry.
    """
    groups: dict[str | None, list[ForkPlan]] = {}
    for plan in sorted(plans, key=lambda p: p.detector.id):
        groups.setdefault(plan.first_force, []).append(plan)
    return sorted((_chain(group) for group in groups.values()), key=lambda p: p.detector.id)


def _chain(plans: Sequence[ForkPlan]) -> ForkPlan:
    for plan in plans:
        if plan.detector.id == DECLARED_PILOT:
            return plan
    for plan in plans:
        if not plan.detector.tools:
            return plan
    return plans[0]
