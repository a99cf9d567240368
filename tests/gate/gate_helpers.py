"""Helpers shared by the gate tests (imported by name; conftest.py holds only fixtures)."""

from __future__ import annotations

import copy
from typing import Any

from sbcore.config import defaults
from sbcore.gate.advice import Advice
from sbcore.gate.settings import GateSettings


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


class DictConfig:
    """The configuration's read interface over a plain document (the schema defaults plus overrides)."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document

    def get(self, key: str, default: Any = None) -> Any:
        value: Any = self.document
        for part in key.split("."):
            if not isinstance(value, dict) or part not in value:
                return default
            value = value[part]
        return copy.deepcopy(value)


def make_settings(**overrides: Any) -> GateSettings:
    """Gate settings from the schema defaults; ``gate__rate_per_hour=2`` style overrides (group__knob)."""
    document = defaults()
    for name, value in overrides.items():
        group, _, knob = name.partition("__")
        document.setdefault(group, {})[knob] = value
    return GateSettings.from_config(DictConfig(document))


def make_advice(**fields: Any) -> Advice:
    """An envelope with plausible values, any of them overridable."""
    values: dict[str, Any] = {
        "id": "a1",
        "task_id": "t1",
        "session_id": "s1",
        "workspace": "/work/repo",
        "kind": "standard-questions",
        "headline": "Tests were not run after the last edit",
        "body": "services/foo.py changed at 14:02 and no test command followed.",
        "confidence": 0.9,
        "dedup_key": "tests-not-run:services/foo",
        "generated_at": 1_000_000.0,
        "ttl": 900.0,
        "queue_timeout": 600.0,
    }
    values.update(fields)
    return Advice(**values)
