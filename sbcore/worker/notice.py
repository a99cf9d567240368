"""The observer's own notices to the user: an untrusted workspace's ignored capabilities, a spent budget,
and a detector demoted for advice that does not land (:func:`demotion_advice`).

The worker (or ``second-brain run``) posts one human-only notice into the
session's mailbox when the workspace layer asks for something it did not get;
the next synchronous hook shows it to the user as a ``systemMessage`` and the
agent is never told (``deliver/framing.py`` frames :data:`NOTICE_KIND` notices
for the user alone). Once per session and approval state: the worker state
remembers the layer digest it told about, so a restart does not repeat it,
and a changed layer is told about again.
"""

from __future__ import annotations

import hashlib
import time
from typing import TYPE_CHECKING

from sbcore.config.trust import WorkspaceTrust
from sbcore.deliver.framing import NOTICE_KIND, slash_command
from sbcore.deliver.notices import NOTICE_TTL_S, user_notice
from sbcore.gate.advice import Advice
from sbcore.gate.calibration import Demotion, demotion_notice
from sbcore.pace.budget import Exhaustion

if TYPE_CHECKING:
    from sbcore.config import EffectiveConfig

LISTED = 8
"""Keys listed by name; the rest are counted."""


def trust_notice(trust: WorkspaceTrust, *, session_id: str, task_id: str, now: float) -> Advice:
    """The notice for an untrusted workspace: what was ignored or only logged, and the command."""
    requests = [*trust.ignored, *trust.log_only]
    named = [f"{request.key} ({request.where})" for request in requests[:LISTED]]
    more = len(requests) - len(named)
    again = " It changed since you trusted it." if trust.recorded else ""
    body = (
        f"Ignored or log-only until you approve this exact content:{again} "
        + "; ".join(named)
        + (f"; and {more} more" if more > 0 else "")
        + f". Review and trust it by running `{trust.command}` yourself in a terminal "
        "(`second-brain trust --show` lists everything it would grant)."
    )
    return Advice(
        id=f"trust-{trust.digest[:16]}",
        task_id=task_id,
        session_id=session_id,
        workspace=str(trust.workspace),
        kind=NOTICE_KIND,
        headline=f"This workspace's .second-brain/ layer is not trusted: {len(requests)} settings held back",
        body=body,
        confidence=1.0,
        dedup_key=f"trust:{trust.digest}",
        generated_at=now,
        ttl=NOTICE_TTL_S,
        queue_timeout=NOTICE_TTL_S,
        human_only=True,
    )


def held_keys_notice(config: EffectiveConfig) -> tuple[str, str, str] | None:
    """``(key, headline, body)`` of the notice that configuration keys are held back; None when none is.

    The key is a digest of what is held, so the user hears once per session about each state of the
    files, and again after an edit that leaves a different problem."""
    lines = [
        f"{line} in the {layer.name} layer ({layer.path})"
        for layer in config.layers
        if layer.held
        for line in layer.held_lines()
    ]
    if not lines:
        return None
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
    shown = lines[:LISTED] + ([f"and {len(lines) - LISTED} more"] if len(lines) > LISTED else [])
    body = (
        "Configuration values that break the schema are held back, and the rest of their files applies: "
        + "; ".join(shown)
        + ". `second-brain config show` lists each problem with its fix."
    )
    return f"config-held:{digest}", f"{len(lines)} configuration key{'s' * (len(lines) != 1)} held back", body


def demotion_advice(demotion: Demotion, *, session_id: str, task_id: str, now: float) -> Advice:
    """The human-only notice of a detector's demotion (:func:`sbcore.gate.calibration.demotion_notice`)."""
    return Advice(
        id=f"demoted-{demotion.detector}-{int(demotion.at)}",
        task_id=task_id,
        session_id=session_id,
        workspace=demotion.workspace,
        kind=NOTICE_KIND,
        headline=f"Detector {demotion.detector} demoted: its advice is not landing",
        body=demotion_notice(demotion),
        confidence=1.0,
        dedup_key=f"demoted:{demotion.detector}:{demotion.at}",
        generated_at=now,
        ttl=NOTICE_TTL_S,
        queue_timeout=NOTICE_TTL_S,
        human_only=True,
    )


def budget_notice(
    exhaustion: Exhaustion, *, session_id: str, task_id: str, workspace: str, now: float
) -> Advice:
    """The notice that the observer went silent because a token budget is spent (once per task, ceiling)."""
    knob = "budget.tokens_per_task" if exhaustion.scope == "task" else "budget.tokens_per_hour"
    if exhaustion.recovers_at is not None:
        until = time.strftime("%H:%M", time.localtime(exhaustion.recovers_at))
        when = f"Passes resume by themselves at about {until}, as older spend leaves the hour."
    else:
        when = "No more passes run for this task; a new task (/clear) starts a fresh budget."
    return user_notice(
        key=f"budget-{exhaustion.scope}:{task_id}",
        headline=f"Second Brain is silent: {exhaustion}",
        body=(
            f"{when} Nothing is observed less, but nothing is judged or advised meanwhile. To allow more, "
            f"raise {knob}: {slash_command('config', f'set {knob} <tokens>')} (terminal: "
            f"second-brain config set {knob} <tokens>)."
        ),
        session_id=session_id,
        task_id=task_id,
        workspace=workspace,
        now=now,
    )
