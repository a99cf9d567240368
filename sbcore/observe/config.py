"""Projection knobs (the ``projection.*`` configuration group), standard library only.

The defaults mirror the configuration schema (``sbcore/schemas/config.schema.json``);
a test keeps the two in agreement. The hot path builds this from a plain dict so
it never needs the YAML/JSON-Schema machinery.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class ProjectionConfig:
    """Caps and switches of the observation contract (characters unless noted)."""

    bash_cap: int = 400
    edit_new: int = 200
    edit_old: int = 100
    write_head: int = 200
    agent_prompt: int = 400
    default_cap: int = 400
    heredoc_head: int = 120
    error_head: int = 400
    report_cap: int = 1500
    harvest_max: int = 10
    include_sidechain: bool = False

    @classmethod
    def from_mapping(cls, values: dict[str, Any] | None) -> ProjectionConfig:
        """Build from the ``projection`` group of an effective config; unknown keys are ignored."""
        if not values:
            return cls()
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in values.items() if k in names})
