"""The hooks' half of the turn-end report: shown once, to the user alone, at the next interaction.

The worker leaves the report of a turn-end pass waiting (:mod:`sbcore.state.turns`); the first drain
hook after it (a prompt, a tool call) claims it and adds its lines to the answer's ``systemMessage``,
which Claude Code shows the user and never sends to the model. An advisory the same answer already
delivers is not repeated in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sbcore.hooks.context import HookContext
from sbcore.hooks.failures import log_failure


def waiting(context: HookContext) -> bool:
    """Whether a report waits for this session (one ``stat``)."""
    from sbcore.state.turns import pending_path

    return pending_path(context.data, context.session_id).exists()


def add_report(
    context: HookContext, answer: dict[str, Any] | None, shown: Sequence[str]
) -> dict[str, Any] | None:
    """``answer`` with the waiting report claimed into its ``systemMessage`` (a new answer if it was None)."""
    from sbcore.state import document, turns

    try:
        report = turns.claim(context.data, context.session_id)
    except document.DocumentError as error:
        log_failure(context.data, context.event, f"turn-end report: {error}")
        return answer
    if report is None:
        return answer
    text = turns.render(report, shown=shown)
    merged = dict(answer or {})
    previous = merged.get("systemMessage")
    merged["systemMessage"] = f"{text}\n\n{previous}" if previous else text
    return merged
