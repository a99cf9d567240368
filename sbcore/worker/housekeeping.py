"""The worker's small standing duties beside the session loop: background launches, the sweep, trust.

Each is a unit the session holds and asks at its tick; none decides anything about the session's work.

* :class:`Launches`: commands, agents and monitors the agent put in the background, written where the Stop
  hook's finish gate reads them (it holds while they settle);
* :class:`Sweeper`: the sweep of old sessions' files and ledgers (:mod:`sbcore.worker.retention`), when the
  worker starts and every ``ledger.sweep_interval_s``, in a thread;
* :class:`TrustAnnouncer`: what an untrusted workspace layer asked for and was refused, in the log once per
  state and to the user once per content;
* :class:`Notices`: one-time notices to the user (a spent budget, a detector auto-muted).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sbcore import paths
from sbcore.conductor.turn_end import arrived_after, epoch_or
from sbcore.config import EffectiveConfig
from sbcore.config.trust import WorkspaceTrust
from sbcore.deliver.mailbox import Mailbox
from sbcore.deliver.notices import post_once, user_notice
from sbcore.gate.advice import Advice, stale_reason
from sbcore.hooks.events import background_path
from sbcore.observe.model import Observation
from sbcore.pace.pacer import Pacer
from sbcore.worker import retention
from sbcore.worker.engine import Observer
from sbcore.worker.notice import budget_notice, trust_notice
from sbcore.worker.recall import RecallRefresher
from sbcore.worker.status import StatusFile
from sbcore.worker.worker_state import WorkerState

log = logging.getLogger("sbcore.worker")

BACKGROUND_TOOLS = {"Bash": "bash", "Agent": "agent", "Task": "agent"}


class Launches:
    """Backgrounded work the worker saw launched and not yet seen settle, as the Stop hook reads it."""

    def __init__(self, data: Path, session_id: str) -> None:
        self.path = background_path(data, session_id)
        self._launches: dict[str, dict[str, Any]] = {}

    def note(self, observations: Sequence[Observation], settle_s: float) -> None:
        """Remember backgrounded commands, agents and monitors; forget those older than ``settle_s``."""
        now = time.time()
        changed = False
        for obs in observations:
            if obs.kind != "tool" or obs.tool_use_id is None:
                continue
            kind = "monitor" if obs.tool == "Monitor" else BACKGROUND_TOOLS.get(obs.tool or "")
            if kind is None or (kind != "monitor" and not obs.args.get("run_in_background")):
                continue
            description = obs.args.get("description") or obs.args.get("command") or ""
            self._launches[obs.tool_use_id] = {
                "id": obs.tool_use_id,
                "kind": kind,
                "launched_at": epoch_or(obs.timestamp, now),
                "description": str(description)[:200],
            }
            changed = True
        for key in [key for key, item in self._launches.items() if now - item["launched_at"] >= settle_s]:
            del self._launches[key]
            changed = True
        if changed:
            body = {"v": 1, "launches": list(self._launches.values())}
            paths.write_private(self.path, json.dumps(body).encode())

    def outstanding(self) -> list[str]:
        """``<kind> <id>`` of each launch still settling (any one keeps the finish gate silent)."""
        return [f"{item['kind']} {item['id']}" for item in self._launches.values()]


class Sweeper:
    """The sweep of old sessions and ledgers, kept from running twice at once and from running too often."""

    def __init__(self, data: Path, session_id: str) -> None:
        self.data = data
        self.session_id = session_id
        self._swept_at: float | None = None
        self._sweeping: asyncio.Task[retention.SweepReport] | None = None

    def poll(self, config: EffectiveConfig) -> None:
        """Report a finished sweep; start the next when ``ledger.sweep_interval_s`` has passed."""
        now = time.monotonic()
        if self._sweeping is not None:
            if not self._sweeping.done():
                return
            try:
                log.info("%s", self._sweeping.result().summary())
            except Exception:  # a sweep that failed is tried again at the next interval
                log.exception("sweep failed")
            self._sweeping = None
        interval = float(config.get("ledger.sweep_interval_s"))
        if self._swept_at is not None and now - self._swept_at < interval:
            return
        self._swept_at = now
        limits = retention.Limits.from_config(config)
        self._sweeping = asyncio.get_running_loop().create_task(
            asyncio.to_thread(retention.sweep, self.data, limits, keep=(self.session_id,))
        )

    async def wait(self, timeout: float) -> None:
        """Let a sweep in progress finish, for at most ``timeout`` seconds (the worker is exiting)."""
        if self._sweeping is not None and not self._sweeping.done():
            await asyncio.wait({self._sweeping}, timeout=timeout)


class TrustAnnouncer:
    """An untrusted layer's held-back keys: in the log once per state, to the user once per content."""

    def __init__(self, session_id: str, mailbox: Mailbox, state: WorkerState) -> None:
        self.session_id = session_id
        self.mailbox = mailbox
        self.state = state
        self._said: str | None = None

    @staticmethod
    def report(trust: WorkspaceTrust | None, observer: Observer | None) -> dict[str, Any] | None:
        """What the workspace layer asked for and what of it is held back: for the status file, ``run``."""
        if trust is None or not trust.needed:
            return None
        report = trust.to_json()
        if observer is not None:
            report["log_only_detectors"] = dict(sorted(observer.log_only.items()))
        return report

    def announce(self, trust: WorkspaceTrust | None, task_id: str) -> None:
        summary = trust.summary() if trust is not None else None
        if trust is None or summary is None:
            self._said = None
            return
        if summary != self._said:
            log.warning("%s", summary)
            for request in [*trust.ignored, *trust.log_only]:
                log.warning("  %s: %s (%s): %s", request.where, request.key, request.klass, request.effect)
            self._said = summary
        if self.state.trust_told != trust.digest:
            self._tell_user(trust, task_id)

    def _tell_user(self, trust: WorkspaceTrust, task_id: str) -> None:
        """Once per layer content: a human-only notice saying what was held back and how to trust it."""
        notice = trust_notice(trust, session_id=self.session_id, task_id=task_id, now=time.time())
        try:
            self.mailbox.post(notice)
        except OSError as error:  # MailboxBusy is one
            log.warning("the untrusted-workspace notice was not queued (next reload tries again): %s", error)
            return
        log.info("queued notice %s for the user: the workspace is not trusted", notice.id)
        self.state.trust_told = trust.digest
        self.state.save()


class Notices:
    """One-time notices to the user (a spent budget, a detector auto-muted): each key is told once, and a
    restarted worker remembers which were (the worker state keeps the keys)."""

    def __init__(self, session_id: str, workspace: Path, mailbox: Mailbox, state: WorkerState) -> None:
        self.session_id = session_id
        self.workspace = workspace
        self.mailbox = mailbox
        self.state = state

    def post(self, key: str, headline: str, body: str, *, task_id: str) -> bool:
        """Queue a notice unless ``key`` was told before; True if queued now. The next synchronous hook
        shows it as a ``systemMessage``."""
        notice = user_notice(
            key=key,
            headline=headline,
            body=body,
            session_id=self.session_id,
            task_id=task_id,
            workspace=str(self.workspace),
            now=time.time(),
        )
        if not self.tell(notice):
            return False
        log.info("queued notice %s for the user: %s", notice.id, headline)
        return True

    def budget(self, policy: Pacer, status: StatusFile, *, task_id: str) -> None:
        """A spent budget silences the observer: the statusline says so at once (not at the heartbeat), and
        the user is told once per task and ceiling, never silently."""
        exhaustion = policy.budget.exhausted()
        if exhaustion is None:
            return
        last = (status.document.get("policy") or {}).get("last") or {}
        if last.get("reason") != "budget exhausted":
            status.update(policy=policy.status().to_json(), detail=f"budget exhausted: {exhaustion}")
        notice = budget_notice(
            exhaustion,
            session_id=self.session_id,
            task_id=task_id,
            workspace=str(self.workspace),
            now=time.time(),
        )
        if self.tell(notice):
            log.info("queued notice %s for the user: %s", notice.id, exhaustion)

    def tell(self, notice: Advice) -> bool:
        """Queue ``notice`` unless its key was told before, remembering the key on disk when it was."""
        told = set(self.state.told)
        if not post_once(self.mailbox, notice, told):
            return False
        self.state.told = sorted(told)
        self.state.save()
        return True


def sweep_on_start(mailbox: Mailbox, seen: Sequence[Observation], *, muted: bool) -> None:
    """Drop what an earlier worker left that must not be delivered any more (design, "Lifecycle").

    Entries past either clock go; the rest are re-validated against the observations this worker has read
    since it started (``stale_if``), and all of them go while ``mute.all`` holds.
    """

    def revalidate(advice: Advice) -> str | None:
        if muted:
            return "mute.all is on"
        return stale_reason(advice, [obs for obs in seen if arrived_after(obs, advice.generated_at)])

    try:
        removed = mailbox.sweep_on_start(time.time(), revalidate)
    except OSError as error:  # MailboxBusy is one
        log.warning("mailbox sweep skipped: %s", error)
        return
    for item in removed:
        log.info("mailbox sweep dropped %s (%s): %s", item.advice.id, item.reason, item.text)


@dataclass
class Chores:
    """The session's standing duties, held together: launches, the sweep, trust, notices, the recall index's
    refresh, the heartbeat."""

    launches: Launches
    sweeper: Sweeper
    trust: TrustAnnouncer
    notices: Notices
    recall: RecallRefresher
    heartbeat_at: float = 0.0

    def heartbeat_due(self, every_s: float) -> bool:
        """Whether the status file's heartbeat is due (then it counts as given)."""
        now = time.time()
        if now - self.heartbeat_at < every_s:
            return False
        self.heartbeat_at = now
        return True
