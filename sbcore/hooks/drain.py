"""The drain: hand what is waiting in the mailbox to the agent and the user, in one hook answer.

Runs on PostToolUse, PostToolUseFailure and UserPromptSubmit. The answer is
one JSON object:

* ``hookSpecificOutput.additionalContext`` — the framed advisories for the
  agent (it reaches the model's next request);
* ``systemMessage`` — the same framed text for the user, each advisory
  followed by the detector that raised it and the command that mutes it
  (shown to the user only; the model never sees a synchronous hook's
  systemMessage, which is why these hooks are never ``async``).

Advice below the agent's confidence floor is human-only: it rides in
``systemMessage`` alone, and with nothing for the agent the answer has no
``hookSpecificOutput`` at all.

Nothing is delivered from inside a subagent (its additionalContext would reach
that subagent, not the main loop), in a workspace that is not enrolled, or
while ``mute.all`` holds; advice from a detector that has since been switched
off stays in the mailbox until a clock expires it. The claim never waits: on
lock contention the answer is empty and the next hook call looks again.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sbcore.hooks.context import HookContext
from sbcore.hooks.failures import log_failure

if TYPE_CHECKING:
    from sbcore.deliver.mailbox import Mailbox
    from sbcore.gate.advice import Advice

RECHECK_CAP = 64_000
"""Characters of the current payload the claim-time staleness re-check reads."""

_RECHECK_KEYS = ("tool_input", "tool_response", "error", "prompt")


def handle(context: HookContext) -> dict[str, Any] | None:
    """Claim and render this session's deliverable advice and turn-end report; None when nothing waits."""
    if context.in_subagent:
        return None
    from sbcore.deliver.mailbox import Mailbox
    from sbcore.hooks import turn_report

    mailbox = Mailbox(context.session_id, context.data)
    has_mail = mailbox.path.exists()
    if not has_mail and not turn_report.waiting(context):
        return None
    hot = context.hot
    if not hot.enabled or hot.muted:
        return None
    claimed = _claim(context, mailbox) if has_mail else []
    answer = _render(context, claimed) if claimed else None
    return turn_report.add_report(context, answer, [advice.id for advice in claimed])


def _claim(context: HookContext, mailbox: Mailbox) -> list[Advice]:
    """What the tool-hook channel may deliver now, re-checked against this call's payload."""
    from sbcore.deliver.channels import ToolHook
    from sbcore.gate.advice import recheck_deadline, stale_reason

    hot = context.hot
    seen = observed_texts(context)
    deadline = recheck_deadline()  # one budget for every advisory's re-check: a hook call never stalls
    claimed = ToolHook(context.event).claim(
        mailbox,
        context.now,
        recheck=lambda advice: stale_reason(advice, seen, deadline),
        select=lambda advice: hot.detector_enabled(advice.kind),
    )
    if mailbox.problem and not mailbox.problem.startswith("busy"):
        log_failure(context.data, context.event, f"mailbox {context.session_id}: {mailbox.problem}")
    return claimed


def _render(context: HookContext, claimed: list[Advice]) -> dict[str, Any]:
    from sbcore.deliver.channels import ToolHook

    return ToolHook(context.event).render(claimed)


def observed_texts(context: HookContext) -> list[str]:
    """What this call shows of the session's latest step, for the claim-time ``stale_if`` re-check.

    The tool's input and result (or error), or the prompt: the freshest
    observation there is, which the worker may not have seen yet.
    """
    texts: list[str] = []
    for key in _RECHECK_KEYS:
        value = context.payload.get(key)
        if value is None:
            continue
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
        texts.append(text[:RECHECK_CAP])
    return texts
