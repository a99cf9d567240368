"""The acme pack's structural triggers.

Each is a pure function of the task's observations, recomputed on every pass;
``state`` (kept per task and detector) only remembers what was already
reported, so one finding reaches a detector once.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping, Sequence
from typing import Any

from sbcore.api import Observation, TriggerMatch

EDIT_TOOLS = ("Edit", "MultiEdit", "Write", "NotebookEdit")
NOT_RUN = re.compile(r"The user doesn't want to (?:proceed|take this action)|requires approval")

DESTRUCTIVE_COMMAND_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "patterns": {
            "type": "array",
            "minItems": 1,
            "items": {"type": "string", "format": "regex"},
            "default": [
                r"\bgit\s+push\b.*\s(?:--force|-f)(?:\s|$)",
                r"\bgit\s+reset\s+--hard\b",
                r"\bgit\s+clean\s+-[a-zA-Z]*f",
                r"\bgit\s+branch\s+-D\b",
            ],
            "description": "Regexes searched in Bash commands; a command that ran and matches one fires.",
        },
    },
}

GENERATED_EDIT_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "globs": {
            "type": "array",
            "minItems": 1,
            "items": {"type": "string", "minLength": 1},
            "default": ["*_pb2.py", "*_pb2_grpc.py", "*.generated.*", "*/__generated__/*"],
            "description": "fnmatch patterns (`*` crosses `/`) of generated files.",
        },
    },
}


def destructive_command(
    observations: Sequence[Observation], params: Mapping[str, Any], state: dict[str, Any]
) -> TriggerMatch | None:
    """Fire on a Bash command that matches a destructive pattern and actually ran.

    A command the user declined (or the permission system held back) did not
    run, so it does not count. Match data: ``command`` and ``pattern``.
    """
    patterns = [re.compile(pattern) for pattern in params["patterns"]]
    declined = {obs.tool_use_id for obs in observations if obs.kind == "error" and NOT_RUN.search(obs.text)}
    reported: list[str] = state.setdefault("reported", [])
    for obs in reversed(observations):
        command = obs.args.get("command")
        if obs.kind != "tool" or obs.tool != "Bash" or not isinstance(command, str):
            continue
        if obs.tool_use_id in declined or obs.tool_use_id in reported:
            continue
        hit = next((p for p in patterns if p.search(command)), None)
        if hit is None:
            continue
        reported.append(obs.tool_use_id or command)
        return TriggerMatch(
            key=" ".join(command.split()),
            summary=f"destructive command ran: {command}",
            evidence=(f"{obs.timestamp or 'time unknown'}: {command}",),
            data={"command": command, "pattern": hit.pattern},
        )
    return None


def generated_edit(
    observations: Sequence[Observation], params: Mapping[str, Any], state: dict[str, Any]
) -> TriggerMatch | None:
    """Fire when the agent edits a file matching a generated-file glob. Match data: ``path``, ``edits``."""
    globs = list(params["globs"])
    counts: dict[str, int] = {}
    for obs in observations:
        path = obs.args.get("file_path") or obs.args.get("notebook_path")
        if obs.kind != "tool" or obs.tool not in EDIT_TOOLS or not isinstance(path, str):
            continue
        if any(fnmatch.fnmatch(path, glob) for glob in globs):
            counts[path] = counts.get(path, 0) + 1
    reported: list[str] = state.setdefault("reported", [])
    for path, edits in counts.items():
        if path not in reported:
            reported.append(path)
            return TriggerMatch(
                key=path,
                summary=f"{path} is a generated file and was edited by hand ({edits} edit(s))",
                evidence=(path,),
                data={"path": path, "edits": edits},
            )
    return None
