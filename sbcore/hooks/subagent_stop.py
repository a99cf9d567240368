"""SubagentStop: keep the subagent's final report for the worker.

The observer does not read a subagent's own transcript (delegated reasoning is
out of its view by design), but the conclusion a subagent hands back is a fact
about the task, and the payload has it before the transcript does. A stop
without ``agent_type`` cannot be attributed to a kind of agent and is dropped.
"""

from __future__ import annotations

from typing import Any

from sbcore.hooks.context import HookContext
from sbcore.hooks.events import record_event


def handle(context: HookContext) -> dict[str, Any] | None:
    """Record the report; a SubagentStop never answers (a block would keep the subagent working)."""
    agent_type = context.text("agent_type")
    if not agent_type or not agent_type.strip() or not context.recording:
        return None
    record_event(
        context.data,
        context.session_id,
        "subagent_report",
        context.now,
        context.payload,
        texts=("agent_id", "agent_type", "last_assistant_message", "agent_transcript_path"),
    )
    return None
