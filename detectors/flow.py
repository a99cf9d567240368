"""The drift and stall triggers: the agent's work leaving the task's topic, or circling in place.

Both read the task as steps with topic vectors (:class:`~sbcore.observe.steps.SessionTopic`)
and both stay silent unless the evidence is plain, because a wrong "you are drifting" or "you
are stuck" costs the agent more than a missed one.

**drift** compares each complete step of the agent's work with two anchors: the task's goal
(the user's prompt, refined by the prompts that stay on its subject) and the centroid of the
work done under that goal so far. A step far from both (cosine below ``drift_similarity`` to the
goal and below ``drift_work_similarity`` to the work) starts or extends a run; a step close to
either ends the run and joins the centroid. The trigger fires when a run reaches ``drift_turns``
steps, at least ``min_turns`` steps into the goal. Flow repair: a user prompt far from the goal
is the user changing the subject, which sets a new goal (it is never the agent drifting), and a
user prompt inside a run ends it. It fires at most once per goal.

**stall** looks at the last ``stall_turns`` complete steps of one user turn. It fires when they
are all alike (mean pairwise cosine at least ``stall_similarity``, none of the pairs below half
of it) and, after the first of them, no step touched a path the task had not touched before or
edited a file or saw a new outcome (an error not seen before, a subagent's report), and they are
not polling.
Flow repair: the window never spans a user prompt, so a user re-insisting on the same demand
(each prompt a fresh turn) is never read as the agent being stuck. It fires at most once per turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sbcore.api import CallReading, Observation, SessionTopic, TriggerMatch, report_once
from sbcore.api import topic_cosine as cosine
from sbcore.api import topic_mean_pairwise as mean_pairwise

from .checklist import paths_of
from .identity import work_identity
from .roles import EDIT_TOOLS

READING = CallReading(
    paths_of=paths_of, is_probe=lambda command: work_identity(command).probe, edit_tools=EDIT_TOOLS
)
"""How the pack reads a call into a step: every path it names, and its work identity's probe flag."""

_SHARED: dict[str, Any] = {
    "min_step_words": {
        "type": "integer",
        "minimum": 1,
        "maximum": 100,
        "default": 5,
        "description": "Content words a stretch of narration needs to be a step of its own; shorter "
        "narration joins the next.",
    },
    "min_prompt_words": {
        "type": "integer",
        "minimum": 1,
        "maximum": 100,
        "default": 3,
        "description": "Content words a user prompt needs to name a goal ('continue' names none).",
    },
    "refine_similarity": {
        "type": "number",
        "minimum": 0,
        "maximum": 1,
        "default": 0.1,
        "description": "A prompt at least this close to the goal or the work refines the goal; one "
        "further away is the user changing the subject (a new goal).",
    },
    "max_terms": {
        "type": "integer",
        "minimum": 8,
        "maximum": 512,
        "default": 48,
        "description": "Heaviest terms a step's vector keeps.",
    },
}

DRIFT_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        **_SHARED,
        "drift_similarity": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "default": 0.1,
            "description": "Cosine to the task's goal below which a step may be off-topic (it is when its "
            "cosine to the work is below drift_work_similarity too).",
        },
        "drift_work_similarity": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "default": 0.15,
            "description": "Cosine to the centroid of the work done for the goal so far below which a step "
            "may be off-topic.",
        },
        "drift_turns": {
            "type": "integer",
            "minimum": 1,
            "maximum": 10,
            "default": 4,
            "description": "Off-topic steps in a row before the trigger fires.",
        },
        "min_turns": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 6,
            "description": "Steps of work under a goal before drift from it is judged.",
        },
    },
}

STALL_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        **_SHARED,
        "stall_turns": {
            "type": "integer",
            "minimum": 2,
            "maximum": 10,
            "default": 4,
            "description": "Steps of one user turn that must all be alike, with nothing new, before it "
            "fires.",
        },
        "stall_similarity": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "default": 0.5,
            "description": "Mean pairwise cosine of those steps at or above which they count as alike.",
        },
    },
}


def drift(
    observations: Sequence[Observation], params: Mapping[str, Any], state: dict[str, Any]
) -> TriggerMatch | None:
    """Fire when the agent's last ``drift_turns`` steps are far from the goal and from the work so far.

    Match data: ``goal`` (the prompt that set it, capped), ``goal_time``, ``steps`` (the off-topic
    steps' narration, capped), ``since`` (the first one's timestamp), ``goal_similarity`` and
    ``work_similarity`` (the highest cosine of those steps to each anchor), ``turns`` (steps under
    the goal).
    """
    to_goal_floor = float(params.get("drift_similarity", 0.1))
    to_work_floor = float(params.get("drift_work_similarity", 0.15))
    needed = int(params.get("drift_turns", 4))
    min_turns = int(params.get("min_turns", 6))
    topic = SessionTopic(state, params, READING)
    found: TriggerMatch | None = None
    for step in topic.read(observations):
        goal = topic.goal
        run: list[dict[str, Any]] = state.setdefault("run", [])
        if goal is None or (
            run and (run[-1]["goal"] != goal["id"] or run[-1]["step"]["epoch"] != step["epoch"])
        ):
            run.clear()  # a new goal, or the user spoke since the run began: they have seen the work
        if goal is None:
            continue
        to_goal = cosine(step["vec"], goal["vec"])
        to_work = cosine(step["vec"], topic.centroid) if topic.centroid else to_goal
        if to_goal >= to_goal_floor or to_work >= to_work_floor:
            topic.fold([*(item["step"] for item in run), step])
            run.clear()
            continue
        run.append({"goal": goal["id"], "step": step, "to_goal": to_goal, "to_work": to_work})
        if (
            len(run) >= needed
            and topic.steps_since_goal(run[0]["step"]) >= min_turns
            and report_once(state, f"drift@goal{goal['id']}")
        ):
            found = _drift_match(goal, run, topic.steps_since_goal(step))
            topic.fold([item["step"] for item in run])  # the new subject is the work now
            run.clear()
    return found


def _drift_match(goal: Mapping[str, Any], run: list[dict[str, Any]], turns: int) -> TriggerMatch:
    steps = [item["step"] for item in run]
    to_goal = round(max(item["to_goal"] for item in run), 3)
    to_work = round(max(item["to_work"] for item in run), 3)
    return TriggerMatch(
        key=f"goal{goal['id']}@{steps[0]['n']}",
        summary=f"{len(steps)} steps in a row far from the goal ({goal['text'][:80]})",
        evidence=tuple(f"{step['time'] or 'time unknown'}: {step['text']}" for step in steps),
        data={
            "goal": goal["text"],
            "goal_time": goal.get("time"),
            "steps": [step["text"] for step in steps],
            "since": steps[0]["time"],
            "goal_similarity": to_goal,
            "work_similarity": to_work,
            "turns": turns,
        },
    )


def stall(
    observations: Sequence[Observation], params: Mapping[str, Any], state: dict[str, Any]
) -> TriggerMatch | None:
    """Fire when the last ``stall_turns`` steps of one user turn say the same thing and change nothing.

    Match data: ``steps`` (their narration, capped), ``since`` (the first one's timestamp),
    ``similarity`` (mean pairwise cosine), ``turns`` (how many steps).
    """
    needed = int(params.get("stall_turns", 4))
    threshold = float(params.get("stall_similarity", 0.5))
    topic = SessionTopic(state, params, READING)
    found: TriggerMatch | None = None
    for step in topic.read(observations):
        recent = topic.recent
        at = next((i for i, item in enumerate(recent) if item["n"] == step["n"]), -1)
        window = recent[max(0, at - needed + 1) : at + 1]
        if at < 0 or len(window) < needed or len({item["epoch"] for item in window}) > 1:
            continue  # fewer steps, or a user prompt among them: the user is steering
        if any(item["polling"] for item in window):
            continue
        if any(item["new_paths"] or item["new_outcomes"] or item["edits"] for item in window[1:]):
            continue
        mean, least = mean_pairwise(item["vec"] for item in window)
        if mean < threshold or least < threshold / 2:
            continue
        if report_once(state, f"stall@epoch{step['epoch']}"):
            found = TriggerMatch(
                key=f"epoch{step['epoch']}@{window[0]['n']}",
                summary=f"{needed} steps in a row saying much the same, with no new file or result",
                evidence=tuple(f"{item['time'] or 'time unknown'}: {item['text']}" for item in window),
                data={
                    "steps": [item["text"] for item in window],
                    "since": window[0]["time"],
                    "similarity": round(mean, 3),
                    "turns": needed,
                },
            )
    return found
