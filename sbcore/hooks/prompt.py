"""UserPromptSubmit: tell the worker a prompt arrived, then drain like a tool hook.

The prompt is recorded from the payload because the transcript may not hold
it yet (in ``claude -p`` the file does not even exist at the first prompt),
and a new prompt is the moment the observer most needs to know about: the
goal may have changed. Prompts that are the plugin's own monitor wake-ups
(``<task-notification>``) are recorded too; the projector drops anything
carrying the advisory sentinel, so the observer never reads itself.
"""

from __future__ import annotations

from typing import Any

from sbcore.hooks import drain
from sbcore.hooks.context import HookContext
from sbcore.hooks.events import record_event


def handle(context: HookContext) -> dict[str, Any] | None:
    """Record the prompt (when this session is observed), then deliver what is waiting."""
    if not context.in_subagent and context.recording:
        record_event(
            context.data,
            context.session_id,
            "prompt",
            context.now,
            context.payload,
            texts=("prompt", "prompt_id"),
        )
    return drain.handle(context)
