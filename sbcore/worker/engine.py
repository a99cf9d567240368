"""The observer a worker runs: the effective catalogue, the chosen provider and a pass engine, from config.

Built once when the worker becomes active, and rebuilt at a pass boundary
when the configuration behind it changed (a detector switched off, another
model chosen). A rebuild keeps what the old engine learnt about the task —
the observations its structural triggers look back over, their state, each
detector's open advisories, the demotion ladder, the pass count — and keeps
the window too when its shape did not change, so the provider's prefix cache
stays warm across a configuration edit.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore.conductor import assembly
from sbcore.conductor.recall_index import RecallSettings, recall_window
from sbcore.config import EffectiveConfig
from sbcore.pace.clock import Clock
from sbcore.packs.manager import PackManager, get_plugin_manager
from sbcore.packs.model import DetectorDef
from sbcore.state.recall import RecallWindow
from sbcore.think.debug import DebugCapture
from sbcore.think.pass_ import PassEngine
from sbcore.think.providers import claude_code
from sbcore.think.providers.base import Provider, ProviderConfigError
from sbcore.think.providers.choose import Choice, build, choose, registered_factories
from sbcore.think.providers.offline import OfflineProvider
from sbcore.think.tools.base import RemoteToolSource

log = logging.getLogger("sbcore.worker")


@dataclass
class Observer:
    """What one configuration makes of the observer.

    ``definitions`` are every detector of the effective catalogue (enabled or
    not: the gate needs to know which are off); ``provider_line`` is the
    one-line announcement of the model in use; ``problems`` what went wrong
    building it (catalogue errors, a provider that could not be configured);
    ``log_only`` the detectors an untrusted workspace shaped, by id with the
    reason: their verdicts are logged and never delivered.
    """

    engine: PassEngine
    definitions: list[DetectorDef]
    provider: Provider
    provider_line: str
    problems: list[str] = field(default_factory=list)
    log_only: dict[str, str] = field(default_factory=dict)
    choice: Choice | None = None
    """Which provider was chosen and why (the status file's ``provider_choice``, read by ``stats``)."""

    async def aclose(self) -> None:
        await self.provider.aclose()


class ObserverFactory:
    """Builds :class:`Observer` values for one session; the pack manager is loaded once."""

    def __init__(
        self,
        *,
        session_id: str,
        cwd: Path,
        clock: Clock,
        manager: PackManager | None = None,
        data: Path | None = None,
    ) -> None:
        self.session_id = session_id
        self.cwd = cwd
        self.clock = clock
        self.manager = manager or get_plugin_manager()
        self._cli_status: claude_code.AuthStatus | None = None
        self.data = data
        self.recall: RecallWindow | None = None
        """The session's recall window: one per session, so what it offered outlives a task or a reload."""

    def build(
        self,
        config: EffectiveConfig,
        previous: Observer | None = None,
        *,
        remote: RemoteToolSource | None = None,
    ) -> Observer:
        """The observer ``config`` describes; ``previous`` hands over its task state; ``remote``: MCP."""
        parts = assembly.Parts.load(config, self.manager)
        problems = parts.problems
        provider, choice = self._provider(config, problems)
        root = config.workspace or self.cwd
        self.recall = recall_window(
            Path(root), RecallSettings.from_config(config), data=self.data, previous=self.recall
        )
        engine = assembly.engine(
            config,
            parts.enabled,
            provider,
            triggers=parts.triggers,
            environment=parts.environment,
            toolbox=parts.toolbox(
                Path(root), remote=remote, recall=self.recall.reader if self.recall is not None else None
            ),
            clock=self.clock,
            workspace=str(root),
            cwd=str(self.cwd),
            session=self.session_id,
            debug=_debug_capture(config, self.session_id),
            recall=self.recall,
        )
        if previous is not None:
            carry_over(previous.engine, engine)
        return Observer(
            engine, parts.definitions, provider, choice.describe(), problems, parts.log_only, choice
        )

    def mcp_servers(self, config: EffectiveConfig, observer: Observer) -> dict[str, dict[str, Any]]:
        """Definitions of the MCP servers an enabled detector is granted (none while offline)."""
        if not observer.provider.has_model:
            return {}
        return assembly.mcp_servers(self.manager, config, observer.engine.detectors)

    def _provider(self, config: EffectiveConfig, problems: list[str]) -> tuple[Provider, Choice]:
        """The configured provider; on a configuration it cannot satisfy, offline, and the problem said."""
        try:
            choice = choose(config.group("model"), os.environ, cli_status=self._claude_cli)
            provider = build(choice, registered_factories(self.manager))
        except ProviderConfigError as error:
            problems.append(f"model: {error}")
            choice = Choice("offline", "", None, None, f"the configured provider cannot be used: {error}")
            provider = OfflineProvider()
        log.info("%s", choice.describe())
        return provider, choice

    def _claude_cli(self) -> claude_code.AuthStatus:
        """Whether the claude CLI is logged in, asked once per worker (a rebuild must not wait on it)."""
        if self._cli_status is None:
            self._cli_status = claude_code.auth_status()
        return self._cli_status


def carry_over(old: PassEngine, new: PassEngine) -> None:
    """Move the task's accumulated state from ``old`` into a freshly built ``new`` engine."""
    new.remember(old.history)
    new.passes = old.passes
    new.ladder = old.ladder
    for detector in new.detectors:
        new.trigger_state[detector.id] = old.trigger_state.get(detector.id, {})
        new.open_advisories[detector.id] = old.open_advisories.get(detector.id, [])
    same_shape = (
        old.settings.budget_chars == new.settings.budget_chars
        and old.settings.compaction_threshold == new.settings.compaction_threshold
        and old.settings.compaction_floor == new.settings.compaction_floor
    )
    if same_shape:
        new.window = old.window


def _debug_capture(config: EffectiveConfig, session: str) -> DebugCapture | None:
    """``debug.enabled``: capture each pass's shared prefix and every fork's loop under ``debug.path``."""
    if not config.get("debug.enabled"):
        return None
    return DebugCapture(Path(os.path.expanduser(str(config.get("debug.path")))), session)
