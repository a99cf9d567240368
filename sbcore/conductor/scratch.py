"""A pipeline of its own for drivers that are not a live session: benches, one-off passes, test kits.

Such a driver must never touch a user's live state, so everything the pipeline writes — the gate's
history, the mailbox — goes under a scratch directory the caller owns (a temporary directory), and its
pacer has no budget to run out of unless the caller gives one.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sbcore.conductor import assembly
from sbcore.conductor.pipeline import PassReport, Pipeline
from sbcore.config.effective import EffectiveConfig, merge
from sbcore.gate.settings import GateSettings
from sbcore.observe.model import Observation
from sbcore.pace.budget import Budget, BudgetSettings
from sbcore.pace.clock import Clock, SystemClock
from sbcore.pace.pacer import Pacer, PaceSettings
from sbcore.packs.model import DetectorDef
from sbcore.packs.registry import TriggerSpec
from sbcore.state.recall import RecallWindow
from sbcore.think.feedback import FeedbackResult
from sbcore.think.pass_ import EngineSettings, PassEngine
from sbcore.think.providers.base import Provider
from sbcore.think.providers.offline import OfflineProvider
from sbcore.think.tools.dispatch import Toolbox

if TYPE_CHECKING:
    from jinja2.sandbox import SandboxedEnvironment

UNBOUNDED = BudgetSettings(tokens_per_task=10**15, tokens_per_hour=10**15)
"""A budget no bench or test run reaches."""


def scratch_pipeline(
    engine: PassEngine,
    gate: GateSettings,
    data: Path,
    *,
    session: str = "scratch",
    clock: Clock | None = None,
    budget: BudgetSettings = UNBOUNDED,
) -> Pipeline:
    """A pipeline around ``engine`` whose gate history and mailbox live under ``data``."""
    clock = clock or SystemClock()
    return assembly.pipeline(
        engine,
        policy=Pacer(PaceSettings(), clock, Budget(budget, clock)),
        gate=gate,
        data=data,
        clock=clock,
        session_id=session,
        task_id=session,
        workspace=str(data),
    )


async def pass_now(
    pipeline: Pipeline, observations: Sequence[Observation], *, turn_end: bool = False
) -> PassReport:
    """One pass over ``observations`` now, as a user's ``second-brain run`` asks for one: past floor and
    volume, through the gate."""
    pipeline.offer(observations, turn_end=turn_end)
    pipeline.policy.manual()
    episode = pipeline.start()
    if episode is None:
        held = pipeline.policy.held
        raise RuntimeError(f"no pass could start: {held.detail if held else 'the policy held it'}")
    started = pipeline.clock.now()
    return pipeline.conclude(episode, await pipeline.think(episode), generated_at=started)


async def detector_case(
    detector: DetectorDef,
    observations: Sequence[Observation],
    provider: Provider | None = None,
    *,
    turn_end: bool = True,
    settings: EngineSettings | None = None,
    triggers: Mapping[str, TriggerSpec] | None = None,
    toolbox: Toolbox | None = None,
    environment: SandboxedEnvironment | None = None,
    workspace: str | Path | None = None,
    recall: RecallWindow | None = None,
) -> FeedbackResult:
    """One detector, one pass over ``observations``, through the pipeline: what a golden case asserts on.

    The detector runs whatever its cadence (its trigger, if it names one, must still match; when it does
    not, the result is ``untriggered`` with a silent verdict). Its answer goes through a gate with the
    schema's defaults in a scratch directory, as every pass does. ``triggers`` and ``environment`` default
    to the installed packs'; ``provider`` to the offline one.
    """
    if triggers is None or environment is None:
        from sbcore.packs.manager import get_plugin_manager

        manager = get_plugin_manager()
        triggers = manager.registry.triggers if triggers is None else triggers
        environment = manager.template_environment() if environment is None else environment
    engine = assembly.pass_engine(
        [detector],
        provider or OfflineProvider(),
        settings=settings,
        triggers=triggers,
        toolbox=toolbox,
        environment=environment,
        workspace=str(workspace) if workspace is not None else None,
        always_run=[detector.id],
        recall=recall,
    )
    gate = GateSettings.from_config(EffectiveConfig(None, [], merge([])), [detector])
    with tempfile.TemporaryDirectory(prefix="sbcore-case-") as scratch:
        report = await pass_now(
            scratch_pipeline(engine, gate, Path(scratch)), observations, turn_end=turn_end
        )
    assert report.result is not None
    found = report.result.result(detector.id)
    if found is not None:
        return found
    why = next((reason for name, reason in report.result.skipped if name == detector.id), "not run")
    return FeedbackResult(detector.id, "untriggered", feedback={"verdict": "silent"}, error=why)
