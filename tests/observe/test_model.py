"""The projector's fast builder of observations makes the same instance the dataclass's own ``__init__``
does."""

from __future__ import annotations

import dataclasses

import pytest

from sbcore.observe.model import Observation, observed


def test_observed_sets_every_field_as_the_constructor_does() -> None:
    values = {
        "kind": "tool",
        "text": "[tool] Bash",
        "timestamp": "2026-01-01T00:00:00Z",
        "uuid": "u-1",
        "tool": "Bash",
        "tool_use_id": "toolu_1",
        "args": {"command": "ls"},
        "locators": ("src/a.py",),
        "outcome": {"failed": True},
    }
    assert set(values) == {field.name for field in dataclasses.fields(Observation)}
    built = observed(**values)  # type: ignore[arg-type]
    expected = Observation(**values)  # type: ignore[arg-type]
    assert built == expected
    assert {field.name: getattr(built, field.name) for field in dataclasses.fields(Observation)} == {
        field.name: getattr(expected, field.name) for field in dataclasses.fields(Observation)
    }
    assert hash(built.text) == hash(expected.text) and repr(built) == repr(expected)


def test_an_observation_built_fast_is_still_frozen() -> None:
    built = observed("text", "hello", None, None, None, None, {}, (), None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.text = "changed"  # type: ignore[misc]
    assert dataclasses.replace(built, text="again").text == "again"
