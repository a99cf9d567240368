"""One-time notices to the user: the observer saying something about itself, once, never silently.

Some changes in the observer's behaviour would otherwise look exactly like it having nothing to say: a
spent token budget stops every pass, and a detector demoted for its poor uptake stops speaking. The
user must hear of each once (design, "Budget guard" and "Did it land?"), through the channel that
reaches the user alone: a human-only notice (:data:`~sbcore.deliver.framing.NOTICE_KIND`) posted to
the session's mailbox, which the next synchronous hook shows as a ``systemMessage`` and the agent is
never told.

:func:`post_once` is the seam every such announcement goes through. "Once" is per ``key``: the caller
keeps the keys already told in a set it persists (the worker keeps them in its durable state, so a
restarted worker does not repeat itself) and chooses the key's scope — ``budget-task:<task>`` once
per task, ``auto-mute:<detector>`` once per demotion.
"""

from __future__ import annotations

from collections.abc import MutableSet

from sbcore.deliver.framing import NOTICE_KIND
from sbcore.deliver.mailbox import Mailbox, MailboxBusy
from sbcore.gate.advice import Advice

NOTICE_TTL_S = 86400.0
"""A notice waits up to a day for the user's next interaction: it is about the observer, not a moment."""


def user_notice(
    *, key: str, headline: str, body: str, session_id: str, task_id: str, workspace: str, now: float
) -> Advice:
    """A human-only notice to the user, identified (and deduplicated) by ``key``."""
    return Advice(
        id=f"notice-{key}",
        task_id=task_id,
        session_id=session_id,
        workspace=workspace,
        kind=NOTICE_KIND,
        headline=headline,
        body=body,
        confidence=1.0,
        dedup_key=f"notice:{key}",
        generated_at=now,
        ttl=NOTICE_TTL_S,
        queue_timeout=NOTICE_TTL_S,
        human_only=True,
    )


def post_once(mailbox: Mailbox, notice: Advice, told: MutableSet[str]) -> bool:
    """Queue ``notice`` unless its key was told already; True when it was queued now.

    The key is added to ``told`` only once the notice is in the mailbox, so a busy mailbox or a failing
    disk means a later call tries again rather than the notice being lost.
    """
    key = notice.dedup_key
    if key in told:
        return False
    try:
        mailbox.post(notice)
    except (MailboxBusy, OSError):
        return False
    told.add(key)
    return True
