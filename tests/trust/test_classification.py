"""Every knob declares what it can do (``x-trust`` in the schemas), and the classes are the ones intended."""

from __future__ import annotations

import pytest

from sbcore.config.schema import knobs
from sbcore.config.trustclass import (
    capability_grants,
    config_class,
    detector_key_class,
    unclassified,
    value_class,
)


def test_every_schema_property_is_classified() -> None:
    """A new knob, detector override field or detector key fails here until it says what it can do."""
    assert unclassified() == []


@pytest.mark.parametrize(
    "key",
    [
        "model.provider",
        "model.name",
        "model.base_url",
        "model.api_key_env",
        "model.cache_ttl",
        "tools.mcp_servers",
        "headless.observe",
        "catalogue.file",
        "debug.enabled",
        "debug.path",
    ],
)
def test_what_runs_connects_or_chooses_where_data_goes_is_a_capability(key: str) -> None:
    assert config_class(tuple(key.split("."))) == "capability"


def test_what_makes_the_observer_deliver_is_voice() -> None:
    assert {knob.key for knob in knobs() if config_class(knob.path) == "voice"} == {
        f"finish_gate.{name}"
        for name in ("enabled", "min_interval_s", "per_task_cap", "confidence_floor", "background_settle_s")
    }
    assert config_class(("detectors", "any-id", "prompt")) == "voice"
    assert config_class(("detectors", "any-id", "finish_gate_floor")) == "voice"
    for key in ("prompt", "prompt_file", "fallback", "finish_gate_floor", "mode"):
        assert detector_key_class(key) == "voice"


def test_soak_is_the_safe_value_of_the_mode_voice_knob() -> None:
    """Promoting a detector to advise makes the observer speak; sending it back to soak only narrows."""
    assert config_class(("detectors", "any-id", "mode")) == "voice"
    assert value_class(("detectors", "any-id", "mode"), "advise") == "voice"
    assert value_class(("detectors", "any-id", "mode"), "soak") == "safe"
    # a checklist's words reach the agent through the fallback: a voice, not a switch
    assert config_class(("detectors", "standard-questions", "config")) == "voice"


@pytest.mark.parametrize(
    "path",
    [
        ("gate", "confidence_floor"),
        ("gate", "rate_per_hour"),
        ("loop", "min_interval_s"),
        ("projection", "bash_cap"),
        ("detectors", "x", "enabled"),
        ("detectors", "x", "confidence_floor"),
    ],
)
def test_switches_floors_rates_caps_and_checklists_are_safe(path: tuple[str, ...]) -> None:
    assert config_class(path) == "safe"


def test_a_tool_grant_is_a_capability_unless_it_stays_in_the_repository() -> None:
    tools = ("detectors", "x", "tools")
    assert config_class(tools) == "capability"
    assert value_class(tools, ["Read", "Grep", "Glob"]) == "safe"
    assert value_class(tools, ["Read", {"run": ["git status"]}]) == "capability"
    assert value_class(tools, ["mcp:search/*"]) == "capability"
    assert value_class(tools, ["acme.lookup"]) == "capability", "a pack tool can do whatever its pack does"
    assert capability_grants(["Read", {"run": ["a", "b"]}, "mcp:s/t"]) == ["run: a", "run: b", "mcp:s/t"]
    assert detector_key_class("tools") == "capability"


def test_a_whole_group_is_as_strict_as_its_strictest_knob() -> None:
    assert config_class(("model",)) == "capability"
    assert config_class(("tools",)) == "capability"
    assert config_class(("gate",)) == "safe"
    assert config_class(("tools", "mcp_servers", "name", "command")) == "capability"


def test_switching_a_capability_off_is_safe() -> None:
    assert value_class(("model", "provider"), "offline") == "safe"
    assert value_class(("model", "provider"), "openai") == "capability"
    assert value_class(("headless", "observe"), False) == "safe"
    assert value_class(("headless", "observe"), True) == "capability"
    assert value_class(("debug", "enabled"), False) == "safe"
    assert value_class(("debug", "enabled"), 0) == "capability", "only the exact value, not one equal to it"


def test_a_repository_may_opt_out_or_mute_but_not_opt_itself_in() -> None:
    """Whether the session is observed at all is the user's consent: only the narrowing value is safe."""
    assert {knob.key for knob in knobs() if config_class(knob.path) == "consent"} == {
        "enable.default",
        "enable.workspaces",
        "index.enabled",
        "mute.all",
    }
    assert value_class(("index", "enabled"), False) == "safe"
    assert value_class(("index", "enabled"), True) == "consent"
    assert value_class(("enable", "default"), False) == "safe"
    assert value_class(("enable", "default"), True) == "consent"
    assert value_class(("enable", "workspaces"), {"/a": False, "/b": False}) == "safe"
    assert value_class(("enable", "workspaces"), {"/a": False, "/b": True}) == "consent"
    assert value_class(("mute", "all"), True) == "safe"
    assert value_class(("mute", "all"), False) == "consent"
