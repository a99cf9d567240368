"""The finish gate: whether the agent's finished turn is continued with a waiting advisory.

:func:`decide_finish_gate` is pure: every condition must hold (enabled, not muted, not right after a
continued turn, no background work outstanding, under the per-task cap and interval, an evidenced and
confident enough finish-gate advisory waiting). The Stop hook decides with it, claims the advisory and
then records with :func:`finish_gate_record`; the worker's deferred wake goes through
:meth:`sbcore.gate.gate.Gate.finish_gate`, which records at once. The Stop hook imports this module and
:mod:`sbcore.gate.settings` only (an import-linter contract keeps it so). Standard library only.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sbcore.gate.advice import Advice
from sbcore.gate.history import make_record
from sbcore.gate.settings import GateSettings


class FinishReason(StrEnum):
    """Why the finish gate fired or held."""

    FIRE = "fire"
    DISABLED = "disabled"  # finish_gate.enabled is false
    MUTED = "muted"  # mute.all is on
    STOP_HOOK_ACTIVE = "stop_hook_active"  # this Stop already follows a block: never twice in a row
    BACKGROUND_WORK = "background_work"  # a background command, subagent or monitor is outstanding
    CAP_REACHED = "cap_reached"  # finish_gate.per_task_cap firings in this task already
    TOO_SOON = "too_soon"  # less than finish_gate.min_interval_s since the last firing in this task
    NO_CANDIDATE = "no_candidate"  # no finish_gate advisory waiting (live, agent-bound, detector enabled)
    NO_EVIDENCE = "no_evidence"  # finish_gate advisories waiting, none citing evidence
    BELOW_FLOOR = "below_floor"  # evidenced ones waiting, none confident enough


@dataclass(frozen=True)
class FinishGateDecision:
    """Whether to continue the turn, why, and with which advisory."""

    fire: bool
    reason: FinishReason
    text: str
    advice: Advice | None = None


def decide_finish_gate(
    waiting: Iterable[Advice],
    *,
    now: float,
    settings: GateSettings,
    background: Sequence[str],
    stop_hook_active: bool,
    firings: Collection[float],
) -> FinishGateDecision:
    """May the agent's finished turn be continued, and with what? All conditions must hold.

    ``waiting`` is what the mailbox holds; ``background`` the background work
    the worker saw launched and never saw finish (any entry means silence);
    ``firings`` the times this task's finish gate already fired. The chosen
    advisory is the most confident eligible one (the earliest generated on a
    tie). Pure: recording is the caller's (:func:`finish_gate_record`).
    """
    finish = settings.finish_gate

    def hold(reason: FinishReason, text: str) -> FinishGateDecision:
        return FinishGateDecision(False, reason, text)

    if not finish.enabled:
        return hold(FinishReason.DISABLED, "finish_gate.enabled is false")
    if settings.mute_all:
        return hold(FinishReason.MUTED, "mute.all is on")
    if stop_hook_active:
        return hold(FinishReason.STOP_HOOK_ACTIVE, "this stop follows a continued turn")
    if background:
        return hold(FinishReason.BACKGROUND_WORK, f"outstanding: {', '.join(background)}")
    if len(firings) >= finish.per_task_cap:
        return hold(
            FinishReason.CAP_REACHED, f"{len(firings)} of finish_gate.per_task_cap {finish.per_task_cap}"
        )
    if firings and now - max(firings) < finish.min_interval_s:
        since = now - max(firings)
        return hold(
            FinishReason.TOO_SOON,
            f"{since:g} s since the last, finish_gate.min_interval_s {finish.min_interval_s:g}",
        )
    candidates = [
        advice
        for advice in waiting
        if advice.finish_gate
        and not advice.human_only
        and advice.expired_by(now) is None
        and advice.kind not in settings.disabled_detectors
    ]
    if not candidates:
        return hold(FinishReason.NO_CANDIDATE, "no finish-gate advisory is waiting")
    evidenced = [advice for advice in candidates if advice.evidence]
    if not evidenced:
        return hold(FinishReason.NO_EVIDENCE, f"{len(candidates)} waiting, none cites evidence")
    eligible = [advice for advice in evidenced if advice.confidence >= finish.floor(advice.kind)]
    if not eligible:
        best = max(evidenced, key=lambda advice: advice.confidence)
        return hold(
            FinishReason.BELOW_FLOOR,
            f"best confidence {best.confidence:g} is below the finish-gate floor {finish.floor(best.kind):g}",
        )
    chosen = min(eligible, key=lambda advice: (-advice.confidence, advice.generated_at))
    return FinishGateDecision(
        True,
        FinishReason.FIRE,
        f"{chosen.kind}: {chosen.headline} (confidence {chosen.confidence:g})",
        chosen,
    )


def finish_gate_record(
    decision: FinishGateDecision, *, at: float, task_id: str, session_id: str
) -> dict[str, Any]:
    """The history record of a finish-gate decision (``action`` is ``fire`` or ``hold``)."""
    advice = decision.advice
    return make_record(
        "finish_gate",
        at=at,
        task_id=task_id,
        session_id=session_id,
        detector=advice.kind if advice is not None else "",
        advice_id=advice.id if advice is not None else None,
        action="fire" if decision.fire else "hold",
        reason=decision.reason,
        text=decision.text,
    )


def finish_gate_firings(records: Iterable[Mapping[str, Any]]) -> list[float]:
    """The times the finish gate fired, from a task's history records."""
    return [
        float(record["at"])
        for record in records
        if record.get("stage") == "finish_gate" and record.get("action") == "fire"
    ]
