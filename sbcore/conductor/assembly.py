"""The one place an observer is put together: a pass engine, and the pipeline that drives it.

Every driver builds through here: the live worker, replay, golden cases, one-off passes and the benches.
So they run the same parts wired the same way, and what differs between them is what these functions take:
the configuration (or, for a bench, settings of its own), the clock, the data directory the gate's history
and the mailbox live under, the provider, and the detectors (a bench's synthetic catalogue among them).
``PassEngine(`` and ``Pipeline(`` are called here and nowhere else outside tests, and the parts a driver
hands them are worked out here too: which of a catalogue's detectors can run (:func:`runnable`), the
detectors' tools (:func:`toolbox`) and the MCP servers they are granted (:func:`mcp_servers`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sbcore.conductor.pipeline import Pipeline
from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.gate import Gate
from sbcore.gate.settings import GateSettings
from sbcore.pace.clock import Clock
from sbcore.pace.pacer import Pacer
from sbcore.packs.model import DetectorDef
from sbcore.packs.registry import TriggerSpec
from sbcore.state.recall import RecallWindow
from sbcore.think.debug import DebugCapture
from sbcore.think.pass_ import EngineSettings, PassEngine
from sbcore.think.providers.base import Provider
from sbcore.think.tools.dispatch import Toolbox

if TYPE_CHECKING:
    from jinja2.sandbox import SandboxedEnvironment

    from sbcore.conductor.journal import Journal
    from sbcore.conductor.presence import Presence
    from sbcore.conductor.soaklog import SoakLog
    from sbcore.config.effective import EffectiveConfig
    from sbcore.packs.catalogue import EffectiveCatalogue
    from sbcore.packs.manager import PackManager
    from sbcore.state.recall import RecallReader
    from sbcore.think.tools.base import CallAnswers, RemoteToolSource


def runnable(catalogue: EffectiveCatalogue) -> tuple[list[DetectorDef], dict[str, str]]:
    """The catalogue's detectors that can run (enabled or not), and why each log-only one only logs."""
    definitions = [item.definition for item in catalogue.detectors if item.available]
    return definitions, {item.id: item.log_only for item in catalogue.detectors if item.log_only}


def toolbox(
    manager: PackManager,
    config: EffectiveConfig,
    root: Path,
    *,
    remote: RemoteToolSource | None = None,
    recall: RecallReader | None = None,
    answers: CallAnswers | None = None,
) -> Toolbox:
    """The detectors' tools over the project at ``root``: the packs' registered tools and ``remote`` (the
    MCP servers'); commands that run the repository's own code only where the user trusted this workspace.
    ``answers`` records what the calls return, or answers them from a recording."""
    return Toolbox(
        root=root,
        registered={name: item.value for name, item in manager.registry.tools.items()},
        remote=remote,
        trusted_workspace=config.trust is not None and config.trust.trusted,
        recall=recall,
        answers=answers,
    )


def mcp_servers(
    manager: PackManager, config: EffectiveConfig, detectors: Sequence[DetectorDef]
) -> dict[str, dict[str, Any]]:
    """The definitions of the MCP servers some detector of ``detectors`` is granted: the packs' and the
    configuration's (``tools.mcp_servers``, which wins on a name both define)."""
    wanted = {
        grant.server
        for detector in detectors
        for grant in detector.tools
        if grant.kind == "mcp" and grant.server
    }
    servers = {name: dict(item.value) for name, item in manager.registry.mcp_servers.items()}
    servers.update(config.get("tools.mcp_servers", {}) or {})
    return {name: spec for name, spec in servers.items() if name in wanted}


def pass_engine(
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
    recall: RecallWindow | None = None,
    always_run: Sequence[str] = (),
) -> PassEngine:
    """The engine that runs ``detectors``' forks on ``provider``: ``settings`` are the configuration's
    (``EngineSettings.from_config``) or a bench's own; the tools, templates and recall are the session's."""
    return PassEngine(
        detectors,
        provider,
        settings=settings,
        triggers=triggers,
        toolbox=toolbox,
        environment=environment,
        clock=clock,
        workspace=workspace,
        cwd=cwd,
        session=session,
        debug=debug,
        always_run=always_run,
        recall=recall,
    )


def pipeline(
    engine: PassEngine,
    *,
    policy: Pacer,
    gate: GateSettings,
    data: Path,
    clock: Clock,
    session_id: str,
    task_id: str,
    workspace: str,
    gate_clock: Callable[[], float] | None = None,
    new_id: Callable[[], str] | None = None,
    mailbox: Mailbox | None = None,
    log_only: Mapping[str, str] | None = None,
    soak_log: SoakLog | None = None,
    journal: Journal | None = None,
    presence: Presence | None = None,
) -> Pipeline:
    """The pipeline around ``engine``: ``policy`` paces it, a gate with ``gate`` settings judges its answers
    and keeps its history under ``data`` (the live data directory, or a scratch one a replay or a bench
    owns), and what passes is queued in ``mailbox`` (by default the session's own under ``data``).

    ``gate_clock`` stamps the gate's history (the wall clock live, the replay's clock in a replay; by default
    ``clock``); ``new_id`` names advisories (a replay's are numbered, so its output is deterministic)."""
    return Pipeline(
        policy=policy,
        engine=engine,
        gate=Gate(
            gate,
            session_id=session_id,
            workspace=workspace,
            clock=gate_clock or clock.now,
            data=data,
            new_id=new_id,
        ),
        mailbox=mailbox if mailbox is not None else Mailbox(session_id, data),
        clock=clock,
        task_id=task_id,
        log_only=log_only,
        soak_log=soak_log,
        journal=journal,
        presence=presence,
    )
