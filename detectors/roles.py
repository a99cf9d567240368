"""The tools the built-in pack reads by the role they play, and a command call's command.

Several detectors read the same roles (an edit, a command, a delegation to a subagent), each of them as a
default a catalogue's parameters may widen; they are named once here so that the detectors agree.
"""

from __future__ import annotations

from sbcore.api import Observation

EDIT_TOOLS: tuple[str, ...] = ("Edit", "MultiEdit", "Write", "NotebookEdit")
COMMAND_TOOLS: tuple[str, ...] = ("Bash",)
DELEGATE_TOOLS: tuple[str, ...] = ("Agent", "Task")


def command_in(obs: Observation) -> str | None:
    command = obs.args.get("command")
    return command if isinstance(command, str) and command.strip() else None
