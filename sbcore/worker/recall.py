"""The worker's side of recall: refresh the workspace's index off the hot path, between passes.

The refresh (:func:`sbcore.conductor.recall_index.refresh_workspace`) runs on a worker thread, started from
the loop only while no pass is running and at most every ``recall.refresh_s``, so neither a hook nor a pass
ever waits for it; a pass that starts while it runs reads the index as it was (SQLite's WAL lets a
read-only reader and the one writer work side by side). A refresh that fails is logged and tried again at
the next interval: recall is never worth a worker.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path

from sbcore.conductor.recall_index import RecallSettings, Refreshed, refresh_workspace
from sbcore.config import EffectiveConfig

log = logging.getLogger("sbcore.worker")

CLOSE_WAIT_S = 5.0


class RecallRefresher:
    """Keeps one workspace's recall index in step with its notes, from the worker loop."""

    def __init__(
        self,
        workspace: Path,
        data: Path,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        current_task: Callable[[], str | None] = lambda: None,
    ) -> None:
        self.workspace = workspace
        self.data = data
        self.current_task = current_task
        """The task the session serves now: its own ledger is never indexed (recall is about the past)."""
        self.monotonic = monotonic
        self.last: Refreshed | None = None
        self._started: float | None = None
        self._task: asyncio.Task[Refreshed] | None = None

    @property
    def busy(self) -> bool:
        """Whether a refresh is running on its thread now (it may be reading ledgers a forget deletes)."""
        return self._task is not None and not self._task.done()

    def poll(self, config: EffectiveConfig, *, pass_running: bool) -> None:
        """Start a refresh when one is due, recall is on and no pass (nor another refresh) is running."""
        if pass_running or (self._task is not None and not self._task.done()):
            return
        settings = RecallSettings.from_config(config)
        now = self.monotonic()
        if not settings.enabled or (self._started is not None and now - self._started < settings.refresh_s):
            return
        self._started = now
        self._task = asyncio.get_running_loop().create_task(self._run(settings))

    async def refresh_now(self, config: EffectiveConfig) -> None:
        """One refresh, waited for (``second-brain run``: its one pass should see the notes as they are)."""
        settings = RecallSettings.from_config(config)
        if settings.enabled:
            self._started = self.monotonic()
            await self._run(settings)

    async def _run(self, settings: RecallSettings) -> Refreshed:
        try:
            done = await asyncio.to_thread(
                refresh_workspace, self.workspace, settings, data=self.data, current_task=self.current_task()
            )
        except Exception as error:  # a broken index must not take the worker down
            log.warning("recall index refresh failed: %s: %s", type(error).__name__, error)
            return Refreshed(problems=[f"{type(error).__name__}: {error}"])
        self.last = done
        if done.indexed or done.removed or done.problems:
            log.info("%s", done.summary())
        for problem in done.problems[:10]:
            log.info("recall: %s", problem)
        return done

    async def aclose(self) -> None:
        """Let a running refresh finish (a thread cannot be cancelled; it is bounded by its file caps)."""
        if self._task is not None and not self._task.done():
            await asyncio.wait({self._task}, timeout=CLOSE_WAIT_S)
