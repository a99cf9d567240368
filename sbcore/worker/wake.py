"""The finish gate's deferred half: after a turn-end pass, one line on a monitor's stdout.

Only when stdout is a pipe (a monitor host: the line becomes a model turn that reopens the finished loop),
the task the pass judged is still the current one (not ended by ``/clear`` while the pass ran), and the
gate's finish-gate decision fires for a waiting advisory of that task, which is claimed first so it is
delivered exactly once. The line is the compact wake form (:class:`~sbcore.deliver.channels.WakeLine`):
Claude Code cuts a monitor line at 500 characters. A headless worker's stdout is /dev/null: it never claims
anything it could not deliver.
"""

from __future__ import annotations

import logging
import time

from sbcore.deliver.channels import WakeLine
from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.gate import Gate
from sbcore.hooks.cli_session import CliSession
from sbcore.worker.lifecycle import Channel

log = logging.getLogger("sbcore.worker")


def wake_after_turn(
    channel: Channel,
    gate: Gate | None,
    mailbox: Mailbox,
    *,
    task_id: str,
    background: list[str],
    continued: bool,
    ended: str | None,
) -> str:
    """Wake the session for a waiting finish-gate advisory of ``task_id`` if the finish gate fires.

    ``continued``: the turn was already continued once by the Stop hook; ``ended``: why the task the pass
    judged is over (None: it goes on); ``background``: work still settling. Returns what it decided, in a
    few words, for the pass's status entry.
    """
    if not channel.pipe or gate is None:
        return "none: no monitor channel"
    if continued:
        return "none: the turn was already continued once"
    if ended is not None:
        log.info("finish gate (deferred): no wake, the task of this pass ended: %s", ended)
        return f"none: the task ended ({ended})"
    decision = gate.finish_gate(
        [advice for advice in mailbox.pending() if advice.task_id == task_id],
        task_id=task_id,
        background=background,
        stop_hook_active=False,
    )
    chosen = decision.advice
    if not decision.fire or chosen is None:
        log.info("finish gate (deferred): %s — %s", decision.reason, decision.text)
        return f"none: {decision.reason}"
    line = WakeLine()
    claimed = line.claim(mailbox, time.time(), select=lambda advice: advice.id == chosen.id)
    if claimed and channel.wake(line.render(claimed)):
        log.info("finish gate (deferred): woke the session with %s (%s)", chosen.id, chosen.kind)
        return f"woke: {chosen.id}"
    return f"none: {chosen.id} could not be claimed or written"


def task_ended(
    *, leaving: CliSession | None, boundary: tuple[str, float, str] | None, current: str, judged: str
) -> str | None:
    """Why the task a pass judged is over, so nothing may wake for it (None: it goes on): the CLI moved to
    another session, a boundary waits to begin, or another task has begun since the pass started."""
    if leaving is not None:
        return f"the CLI moved to session {leaving.session_id}"
    if boundary is not None:
        return boundary[0]
    if current != judged:
        return f"task {judged} was followed by {current}"
    return None
