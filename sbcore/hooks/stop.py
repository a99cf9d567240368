"""Stop: mark the turn's end for the worker, then the immediate half of the finish gate.

The turn-end record carries ``last_assistant_message`` from the payload: at
Stop the transcript often does not hold that text yet, and it is what the
worker's turn-end pass most needs.

The finish gate may then continue a turn the agent believes finished — the one
interruption the observer is allowed — with
``{"decision": "block", "reason": <framed advisory>, "systemMessage": ...}``.
It fires only when :func:`sbcore.gate.finish.decide_finish_gate` allows it: a
waiting finish-gate advisory with evidence and enough confidence, nothing in
the background (the payload's ``background_tasks`` — less the plugin's own
worker monitor, which runs all session long — and the launches the worker saw
and never saw reported), within the per-task interval and cap, not muted,
enabled. Never when ``stop_hook_active`` (this stop follows a continued turn),
and in a headless session (``-p``, the SDK) only when the user opted into
headless observation (``headless.observe``): otherwise no worker runs there, and
nobody asked for a turn to be continued. The advisory is claimed before the hook answers, so it is delivered
once whichever channel gets to it first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sbcore.hooks.context import HookContext
from sbcore.hooks.events import BackgroundStateError, outstanding_launches, payload_background, record_event
from sbcore.hooks.failures import log_failure

if TYPE_CHECKING:
    from sbcore.deliver.mailbox import Mailbox
    from sbcore.gate.advice import Advice
    from sbcore.gate.finish import FinishGateDecision
    from sbcore.gate.settings import GateSettings


def handle(context: HookContext) -> dict[str, Any] | None:
    """Record the turn end; answer with a block only when the finish gate fires."""
    if context.in_subagent:
        return None
    if context.recording:
        record_event(
            context.data,
            context.session_id,
            "turn_end",
            context.now,
            context.payload,
            texts=("last_assistant_message",),
            values=("stop_hook_active", "background_tasks"),
        )
    if context.payload.get("stop_hook_active") not in (False, None):
        return None  # anything but a clear "no" means this stop may follow a block
    if not context.hot.enabled or (context.headless and not context.hot.headless_observe):
        return None
    from sbcore.deliver.mailbox import Mailbox

    mailbox = Mailbox(context.session_id, context.data)
    if not mailbox.path.exists():
        return None
    return finish_gate(context, mailbox)


def finish_gate(context: HookContext, mailbox: Mailbox) -> dict[str, Any] | None:
    """Decide, claim the chosen advisory, record the firing, and answer; None when it holds."""
    from sbcore.gate.settings import GateSettings

    waiting = [advice for advice in mailbox.pending() if advice.finish_gate]
    if mailbox.problem:
        log_failure(context.data, context.event, f"mailbox {context.session_id}: {mailbox.problem}")
    if not waiting:
        return None
    settings = GateSettings.from_config(context.hot)
    decision = _decide(context, waiting, settings, _background(context))
    if decision is None or decision.advice is None:
        return None
    chosen = decision.advice
    from sbcore.deliver.channels import StopBlock
    from sbcore.gate.advice import recheck_deadline, stale_reason

    channel = StopBlock()
    final_text = [context.text("last_assistant_message") or ""]
    deadline = recheck_deadline()
    claimed = channel.claim(
        mailbox,
        context.now,
        recheck=lambda advice: stale_reason(advice, final_text, deadline),
        select=lambda advice: advice.id == chosen.id,
    )
    if mailbox.problem and not mailbox.problem.startswith("busy"):
        log_failure(context.data, context.event, f"mailbox {context.session_id}: {mailbox.problem}")
    if not claimed:
        return None
    _record(context, decision, claimed[0].task_id)
    return channel.render(claimed)


def _background(context: HookContext) -> list[str]:
    """Background work still outstanding; an unreadable worker state counts as some (doubt means silence).

    The payload's list less the worker's own monitor (:func:`~sbcore.hooks.events.payload_background`).
    """
    background = payload_background(context.payload.get("background_tasks"))
    settle = float(context.hot.get("finish_gate.background_settle_s"))
    try:
        background += outstanding_launches(context.data, context.session_id, context.now, settle)
    except BackgroundStateError as error:
        log_failure(context.data, context.event, str(error))
        background.append("unknown (the worker's background state is unreadable)")
    return background


def _decide(
    context: HookContext, waiting: Sequence[Advice], settings: GateSettings, background: list[str]
) -> FinishGateDecision | None:
    """The first firing decision over the tasks with finish-gate advice waiting; holds are recorded."""
    from sbcore.gate.finish import decide_finish_gate, finish_gate_firings
    from sbcore.gate.history import History

    by_task: dict[str, list[Advice]] = {}
    for advice in waiting:
        by_task.setdefault(advice.task_id, []).append(advice)
    for task_id, candidates in by_task.items():
        records, _ = History.for_task(task_id, context.data).read()
        decision = decide_finish_gate(
            candidates,
            now=context.now,
            settings=settings,
            background=background,
            stop_hook_active=False,
            firings=finish_gate_firings(records),
        )
        if decision.fire:
            return decision
        _record(context, decision, task_id)
    return None


def _record(context: HookContext, decision: FinishGateDecision, task_id: str) -> None:
    from sbcore.gate.finish import finish_gate_record
    from sbcore.gate.history import History

    record = finish_gate_record(decision, at=context.now, task_id=task_id, session_id=context.session_id)
    try:
        History.for_task(task_id, context.data).record(record)
    except OSError as error:  # the record must not cost the delivery
        log_failure(context.data, context.event, f"history of task {task_id} not written: {error}")
