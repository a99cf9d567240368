"""The session's observer (catalogue, provider, engine) over its life: built, rebuilt, closed.

It is built when the worker becomes active; rebuilt, carrying its window over, when the configuration
changes at a pass boundary; built afresh when a task begins or the session is forgotten. A replaced
observer's provider is closed in the background, so a rebuild never holds up the tick. MCP servers a
detector names are started once for the session (a later configuration that names others needs a
restart), and stopped when the worker exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from sbcore.config import EffectiveConfig
from sbcore.config.hot import write_hot_snapshot
from sbcore.think.tools.base import RemoteToolSource
from sbcore.worker.engine import Observer, ObserverFactory

log = logging.getLogger("sbcore.worker")


class ObserverHost:
    """Holds the current :class:`~sbcore.worker.engine.Observer` and what it needs to be rebuilt."""

    def __init__(self, maker: Callable[[], ObserverFactory]) -> None:
        self._maker = maker
        self._factory: ObserverFactory | None = None
        self.observer: Observer | None = None
        self._remote: RemoteToolSource | None = None
        self._stack = contextlib.AsyncExitStack()
        self._closing: set[asyncio.Task[None]] = set()

    async def start(self, config: EffectiveConfig, workspace: Path) -> Observer:
        """The first observer, with the MCP servers its detectors name started."""
        self._factory = self._maker()
        observer = self._factory.build(config)
        servers = self._factory.mcp_servers(config, observer)
        if servers:
            from sbcore.think.tools.mcp_adapter import McpHub  # the mcp SDK, only when a detector needs it

            hub = await self._stack.enter_async_context(McpHub(servers, cwd=workspace))
            self._remote = cast("RemoteToolSource", hub)  # McpHub.tools() lists McpTool, a RemoteTool
            log.info("MCP servers for detector tools: %s", ", ".join(sorted(servers)))
            observer = self._factory.build(config, observer, remote=self._remote)
        self.observer = observer
        return observer

    def rebuild(self, config: EffectiveConfig, *, keep: bool) -> Observer | None:
        """A new observer for ``config`` (None before :meth:`start`). ``keep`` carries the window over (a
        configuration change); otherwise it starts empty (a new task, a forgotten session)."""
        previous = self.observer
        if self._factory is None or previous is None:
            return None
        if keep:
            self.observer = self._factory.build(config, previous, remote=self._remote)
        else:
            self.observer = self._factory.build(config, remote=self._remote)
        if not keep or previous.provider is not self.observer.provider:
            self._close_later(previous)
        return self.observer

    def definitions(self) -> list[Any]:
        """The effective detector definitions (none before :meth:`start`)."""
        return self.observer.definitions if self.observer is not None else []

    def write_hot(self, workspace: Path, data: Path) -> None:
        """Refresh the hooks' snapshot of the hot keys (enrolment, mute, floors) for ``workspace``."""
        detectors = self.observer.definitions if self.observer is not None else None
        try:
            write_hot_snapshot(workspace, detectors=detectors, data=data)
        except OSError as error:
            log.warning("hot configuration snapshot not written: %s", error)

    async def aclose(self) -> None:
        """Close the provider and stop the MCP servers (bounded: the worker is exiting)."""
        if self.observer is not None:
            try:
                await asyncio.wait_for(self.observer.aclose(), 2.0)
            except Exception as error:  # closing a provider on the way out must not mask the exit
                log.warning("closing the provider: %s", error)
        try:
            await asyncio.wait_for(self._stack.aclose(), 5.0)
        except Exception as error:  # MCP servers that will not stop are the kernel's problem now
            log.warning("stopping MCP servers: %s", error)

    def _close_later(self, observer: Observer) -> None:
        """Close a replaced observer's provider without holding up the tick."""
        closing = asyncio.get_running_loop().create_task(observer.aclose())
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)
