"""What the drift and stall triggers cost per observation, and that the cost does not grow with the task.

Both triggers are asked again at every pass over the whole history of a task. They read each observation
once (the state remembers where it stopped), so a pass costs what arrived since the last one, not the
length of the task. The benchmark plays a synthetic task (narration, reads of a few hundred files) with a
pass every ``every`` observations and reports microseconds per observation at two task lengths: the two
figures stay close when the cost is linear, and the second would be ten times the first if it were quadratic.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sbcore.observe.model import Observation
from sbcore.packs.manager import get_plugin_manager


@dataclass(frozen=True)
class TopicCost:
    trigger: str
    observations: int
    passes: int
    seconds: float

    @property
    def us_per_observation(self) -> float:
        return self.seconds / self.observations * 1e6


def synthetic_task(count: int) -> list[Observation]:
    """A long task: one goal, then narration and file reads in turn."""
    task = [
        Observation("prompt", "[prompt] Make the storage uploads retry with exponential backoff", uuid="p0")
    ]
    for index in range(count):
        if index % 3 == 0:
            text = f"[text] Working through the upload retry path, part {index}, handler {index % 97}"
            task.append(Observation("text", text, uuid=f"u{index}"))
        else:
            path = f"/work/storage/module_{index % 400}.py"
            task.append(
                Observation(
                    "tool",
                    f"Read {path}",
                    uuid=f"u{index}",
                    tool="Read",
                    tool_use_id=f"t{index}",
                    args={"file_path": path},
                )
            )
    return task


def measure(count: int, every: int = 10) -> list[TopicCost]:
    """Both triggers over a synthetic task of ``count`` observations, a pass every ``every`` of them (the
    triggers as the installed packs register them, called the way a pass calls them)."""
    triggers = get_plugin_manager().registry.triggers
    task = synthetic_task(count)
    costs = []
    for name in ("drift", "stall"):
        state: dict[str, object] = {}
        passes = 0
        started = time.perf_counter()
        for end in range(every, len(task) + every, every):
            triggers[name].invoke(task[:end], {}, state)
            passes += 1
        costs.append(TopicCost(name, len(task), passes, time.perf_counter() - started))
    return costs
