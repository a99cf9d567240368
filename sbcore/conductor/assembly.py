"""The one place an observer is put together: from a configuration, its parts, a pass engine, a pipeline.

Every driver builds through here: the live worker, replay, golden cases, one-off passes and the benches.
:class:`Parts` is what a configuration makes of the installed packs (the effective catalogue, the detectors
that can run, their triggers and templates, their tools); :func:`engine` and :func:`policy` add the
configuration's engine and pacing settings, and :func:`pipeline` the gate and the mailbox. So the drivers
run the same parts wired the same way, and what differs between them is what these take: the clock, the
data directory the gate's history and the mailbox live under, the provider, and (for a bench) a synthetic
catalogue with settings of its own (:func:`pass_engine`). ``PassEngine(`` and ``Pipeline(`` are called
here and nowhere else outside tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sbcore.conductor.pipeline import Pipeline
from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.gate import Gate
from sbcore.gate.settings import GateSettings
from sbcore.pace.clock import Clock
from sbcore.pace.machine import MachinePace
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


@dataclass
class Parts:
    """What a configuration makes of the installed packs, before a session runs anything.

    Built once per configuration (:meth:`load`); the live worker builds it again when the configuration
    changes. ``catalogue`` is the effective catalogue, errors included; the rest is read from it and from
    ``manager`` (the packs' triggers, templates and tools).
    """

    config: EffectiveConfig
    manager: PackManager
    catalogue: EffectiveCatalogue
    _environment: SandboxedEnvironment | None = field(default=None, init=False, repr=False)

    @classmethod
    def load(
        cls, config: EffectiveConfig, manager: PackManager | None = None, *, workspace: Path | None = None
    ) -> Parts:
        """The parts ``config`` describes, with ``manager``'s packs (default: the installed ones), for
        ``workspace`` (default: the configuration's)."""
        from sbcore.packs.catalogue import assemble_catalogue
        from sbcore.packs.manager import get_plugin_manager

        manager = manager or get_plugin_manager()
        where = workspace if workspace is not None else config.workspace
        return cls(config, manager, assemble_catalogue(manager, workspace=where, config=config))

    @cached_property
    def definitions(self) -> list[DetectorDef]:
        """The catalogue's detectors that can run, enabled or not (the gate needs to know which are off)."""
        return [item.definition for item in self.catalogue.detectors if item.available]

    @property
    def enabled(self) -> list[DetectorDef]:
        return [definition for definition in self.definitions if definition.enabled]

    @cached_property
    def log_only(self) -> dict[str, str]:
        """The detectors an untrusted workspace shaped, by id, with why: their verdicts are only logged."""
        return {item.id: item.log_only for item in self.catalogue.detectors if item.log_only}

    @property
    def problems(self) -> list[str]:
        """What went wrong building the catalogue, one line each."""
        return [str(chain) for chain in self.catalogue.errors]

    @property
    def triggers(self) -> Mapping[str, TriggerSpec]:
        return self.manager.registry.triggers

    @property
    def environment(self) -> SandboxedEnvironment:
        """The packs' template environment (one per parts: templates compile into it once)."""
        if self._environment is None:
            self._environment = self.manager.template_environment()
        return self._environment

    def toolbox(
        self,
        root: Path,
        *,
        remote: RemoteToolSource | None = None,
        recall: RecallReader | None = None,
        answers: CallAnswers | None = None,
    ) -> Toolbox:
        """The detectors' tools over the project at ``root`` (:func:`toolbox`)."""
        return toolbox(self.manager, self.config, root, remote=remote, recall=recall, answers=answers)

    def mcp_servers(self, detectors: Sequence[DetectorDef]) -> dict[str, dict[str, Any]]:
        """The MCP servers some detector of ``detectors`` is granted (:func:`mcp_servers`)."""
        return mcp_servers(self.manager, self.config, detectors)


def engine(
    config: EffectiveConfig,
    detectors: Sequence[DetectorDef],
    provider: Provider,
    *,
    triggers: Mapping[str, TriggerSpec],
    environment: SandboxedEnvironment | None,
    toolbox: Toolbox | None = None,
    clock: Clock | None = None,
    workspace: str | None = None,
    cwd: str | None = None,
    session: str | None = None,
    debug: DebugCapture | None = None,
    recall: RecallWindow | None = None,
) -> PassEngine:
    """The engine running ``detectors`` on ``provider`` with ``config``'s engine settings, and the triggers
    and templates the driver hands it (a :class:`Parts`' own, or a replay's or a test's)."""
    return pass_engine(
        detectors,
        provider,
        settings=EngineSettings.from_config(config),
        triggers=triggers,
        toolbox=toolbox,
        environment=environment,
        clock=clock,
        workspace=workspace,
        cwd=cwd,
        session=session,
        debug=debug,
        recall=recall,
    )


def policy(
    config: EffectiveConfig,
    clock: Clock,
    *,
    task_used: int = 0,
    machine: MachinePace | None = None,
    muted: bool | None = None,
) -> Pacer:
    """The pacer ``config`` describes (``loop``, ``window``, ``budget``, ``mute``) on ``clock``.

    ``task_used`` seeds a resumed task's total and ``machine`` the limits shared machine-wide (live);
    ``muted`` overrides ``mute.all`` (a replay asks what would have been said, muted or not)."""
    pacer = Pacer.from_config(config, clock, task_used=task_used, machine=machine)
    if muted is not None:
        pacer.muted = muted
    return pacer


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
