"""The configuration schema: well-formed, complete, and in agreement with the code that reads it."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sbcore.config import schema as cs
from sbcore.observe.config import ProjectionConfig
from sbcore.schemas import load_schema

# The groups and knobs the design's Configuration table (and the brief) name.
EXPECTED = {
    "projection": {
        "bash_cap", "edit_new", "edit_old", "write_head", "agent_prompt", "default_cap",
        "heredoc_head", "error_head", "report_cap", "harvest_max", "include_sidechain",
    },
    "loop": {
        "min_interval_s", "trigger_chars", "max_interval_s", "salience_triggers", "salience_per_hour",
        "turn_end_report", "backoff_on_budget", "fork_deadline_s", "fork_grace_s", "max_parallel_forks",
        "demote_stride", "demote_retry_s",
        "max_concurrent_passes", "pressure_backoff_min_s", "pressure_backoff_max_s",
    },
    "window": {"budget_chars", "compaction_threshold", "compaction_floor"},
    "ledger": {
        "ttl_days", "max_per_workspace", "max_bytes", "sweep_interval_s", "recent_chars", "files_ttl_days",
        "data_max_bytes", "new_goal", "new_goal_similarity",
    },
    "index": {"enabled", "ttl_s", "compact_interval_s", "max_regions_per_task"},
    "recall": {
        "enabled", "sources", "extra_sources", "advisories", "refresh_s", "max_files", "max_file_bytes",
        "offered_window",
    },
    "gate": {
        "confidence_floor", "human_floor", "rate_per_hour", "cooldown_s", "body_cap", "dedup_threshold",
        "advice_ttl_s", "queue_timeout_s",
    },
    "finish_gate": {"enabled", "min_interval_s", "per_task_cap", "confidence_floor", "background_settle_s"},
    "enable": {"default", "workspaces"},
    "mute": {"all"},
    "debug": {"enabled", "path"},
    "adjudication": {"window_observations", "window_seconds"},
    "calibration": {"enabled", "min_outcomes", "max_uptake", "floor_step"},
    "budget": {"tokens_per_task", "tokens_per_hour", "machine_tokens_per_hour"},
    "topic": {
        "embedding", "drift_similarity", "drift_work_similarity", "drift_turns", "min_turns", "stall_turns",
        "stall_similarity",
    },
    "catalogue": {"file"},
    "model": {"provider", "name", "base_url", "cache_ttl", "api_key_env", "claude_code"},
    "headless": {"observe"},
    "tools": {"mcp_servers"},
}  # fmt: skip

DETECTOR_FIELDS = {
    "enabled", "mode", "prompt", "tools", "cadence", "deadline_s", "max_iterations", "confidence_floor",
    "finish_gate_floor", "config", "trigger",
}  # fmt: skip


def test_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(load_schema("config"))


def test_every_group_and_knob_of_the_design_is_present() -> None:
    actual = {group.name: {knob.name for knob in group.knobs} for group in cs.groups()}
    assert actual.pop("detectors") == set()
    assert actual == EXPECTED
    detectors = next(group for group in cs.groups() if group.name == "detectors")
    assert detectors.entry_schema is not None
    assert set(detectors.entry_schema["properties"]) == DETECTOR_FIELDS


@pytest.mark.parametrize("knob", cs.knobs(), ids=lambda knob: knob.key)
def test_every_knob_has_a_default_a_type_and_a_description(knob: cs.Knob) -> None:
    assert "default" in knob.schema
    assert "type" in knob.schema or "enum" in knob.schema
    assert len(knob.description) > 40, "say what the knob trades, not just its name"
    Draft202012Validator(knob.schema).validate(knob.default)


@pytest.mark.parametrize("knob", [k for k in cs.knobs() if k.schema.get("type") in ("integer", "number")])
def test_numbers_are_bounded(knob: cs.Knob) -> None:
    assert "maximum" in knob.schema
    assert "minimum" in knob.schema or "exclusiveMinimum" in knob.schema


def test_groups_are_closed_and_described() -> None:
    for group in cs.groups():
        assert group.description
        assert group.schema.get("additionalProperties") is False or cs.is_map(group.schema)


def test_defaults_validate_as_a_layer() -> None:
    assert cs.schema_issues(cs.defaults()) == []


def test_exactly_the_three_loud_knobs_carry_a_warning() -> None:
    loud = {knob.key for knob in cs.knobs() if knob.warning}
    assert loud == {"gate.rate_per_hour", "finish_gate.min_interval_s", "loop.min_interval_s"}


def test_projection_defaults_equal_projection_config() -> None:
    expected = {field.name: field.default for field in dataclasses.fields(ProjectionConfig)}
    assert cs.defaults()["projection"] == expected
    assert ProjectionConfig.from_mapping(cs.defaults()["projection"]) == ProjectionConfig()


def _validation_keywords(schema: Any) -> Any:
    """A schema without its annotations, for comparing rules written in two places."""
    if isinstance(schema, dict):
        skip = {"description", "default", "examples", "errorMessage", "title", "$comment"}
        return {key: _validation_keywords(value) for key, value in schema.items() if key not in skip}
    if isinstance(schema, list):
        return [_validation_keywords(item) for item in schema]
    return schema


@pytest.mark.parametrize(
    "field",
    ["enabled", "mode", "prompt", "tools", "cadence", "deadline_s", "max_iterations", "confidence_floor",
     "finish_gate_floor", "config"],
)  # fmt: skip
def test_detector_override_fields_check_what_the_detector_schema_checks(field: str) -> None:
    detector = load_schema("detector")["properties"][field]
    override = load_schema("config")["properties"]["detectors"]["additionalProperties"]["properties"][field]
    assert _validation_keywords(override) == _validation_keywords(detector)


def test_trigger_override_holds_params_or_a_whole_match() -> None:
    trigger = load_schema("config")["properties"]["detectors"]["additionalProperties"]["properties"][
        "trigger"
    ]
    assert (
        cs.schema_issues({"detectors": {"repeat-failure": {"trigger": {"params": {"min_failures": 4}}}}})
        == []
    )
    assert cs.schema_issues({"detectors": {"static-analysis": {"trigger": {"match": {"calls": {}}}}}}) == []
    assert set(trigger["properties"]) == {"params", "match"}
    assert trigger["properties"]["match"]["x-merge"] == "replace"  # a check is restated, never patched
    both = {"detectors": {"x": {"trigger": {"params": {}, "match": {}}}}}
    assert any("one key" in issue.message for issue in cs.schema_issues(both))


@pytest.mark.parametrize(
    ("document", "path", "fragment"),
    [
        ({"gate": {"rate_per_hour": 100}}, ("gate", "rate_per_hour"), "greater than the maximum of 60"),
        ({"gate": {"rate_per_hour": "2"}}, ("gate", "rate_per_hour"), 'expected integer, got string "2"'),
        ({"gate": {"rate_per_hr": 2}}, ("gate", "rate_per_hr"), "unknown key 'rate_per_hr'"),
        ({"gaet": {}}, ("gaet",), "unknown key 'gaet'"),
        ({"model": {"provider": "Anthropic API"}}, ("model", "provider"), "a pack's provider name"),
        ({"loop": {"salience_triggers": ["error", "error"]}}, ("loop", "salience_triggers"), "non-unique"),
        ({"loop": {"salience_triggers": ["tool"]}}, ("loop", "salience_triggers", 0), "is not one of"),
        (
            {"detectors": {"Repeat_Failure": {"enabled": True}}},
            ("detectors", "Repeat_Failure"),
            "detector ids",
        ),
        ({"detectors": {"x1": {"enabled": "yes"}}}, ("detectors", "x1", "enabled"), "expected boolean"),
        (
            {"detectors": {"x1": {"cadence": "hourly"}}},
            ("detectors", "x1", "cadence"),
            "cadence is every_pass",
        ),
        ({"detectors": {"x1": {"system": "hi"}}}, ("detectors", "x1", "system"), "unknown key 'system'"),
        ({"detectors": {"x1": {"tools": [{"run": []}]}}}, ("detectors", "x1", "tools", 0), "a tool grant is"),
        (
            {"tools": {"mcp_servers": {"s": {"command": "x", "url": "http://h"}}}},
            ("tools", "mcp_servers", "s"),
            "either command",
        ),
        ({"tools": {"mcp_servers": {"s": {}}}}, ("tools", "mcp_servers", "s"), "either command"),
        (
            {"enable": {"workspaces": {"relative/path": False}}},
            ("enable", "workspaces", "relative/path"),
            "absolute",
        ),
        ({"model": {"base_url": "localhost:8080"}}, ("model", "base_url"), "http:// or https://"),
        ({"model": {"api_key_env": "sk-abc123"}}, ("model", "api_key_env"), "not the key itself"),
        ({"window": {"compaction_threshold": 1.5}}, ("window", "compaction_threshold"), "maximum of 0.99"),
    ],
)
def test_bad_layers_are_rejected_at_the_right_key(
    document: dict[str, Any], path: tuple[Any, ...], fragment: str
) -> None:
    issues = cs.schema_issues(document)
    assert [issue.path for issue in issues] == [path], issues
    assert fragment in issues[0].message


def test_unknown_key_gets_a_spelling_hint() -> None:
    (issue,) = cs.schema_issues({"gate": {"rate_per_hr": 2}})
    assert issue.hint == "did you mean 'rate_per_hour'?"


def test_good_entries_of_user_keyed_maps_validate() -> None:
    document = {
        "detectors": {
            "git-log": {
                "enabled": True,
                "cadence": {"every_nth": 3},
                "tools": ["Read", {"run": ["git log"]}],
            },
            "standard-questions": {"config": {"questions": []}},
        },
        "tools": {
            "mcp_servers": {
                "search": {"command": "search-server", "args": ["--stdio"], "env": {"A": "b"}},
                "remote": {"url": "https://example.invalid/mcp"},
            }
        },
        "enable": {"workspaces": {"/home/me/repo": False, "~/other": True}},
    }
    assert cs.schema_issues(document) == []


@pytest.mark.parametrize(
    ("key", "path"),
    [
        ("gate.rate_per_hour", ("gate", "rate_per_hour")),
        ("gate", ("gate",)),
        ("detectors.repeat-failure.enabled", ("detectors", "repeat-failure", "enabled")),
        ("detectors.repeat-failure", ("detectors", "repeat-failure")),
        (
            "detectors.standard-questions.config.questions",
            ("detectors", "standard-questions", "config", "questions"),
        ),
        (
            "detectors.git-log.trigger.params.min_failures",
            ("detectors", "git-log", "trigger", "params", "min_failures"),
        ),
        ("enable.workspaces./home/me/my.repo", ("enable", "workspaces", "/home/me/my.repo")),
        ("tools.mcp_servers.search.command", ("tools", "mcp_servers", "search", "command")),
    ],
)
def test_dotted_keys_resolve_along_the_schema(key: str, path: tuple[str, ...]) -> None:
    assert cs.resolve_key(key).path == path


@pytest.mark.parametrize(
    ("key", "fragment"),
    [
        ("gate.rate_per_hr", "did you mean 'gate.rate_per_hour'?"),
        ("gaet.rate_per_hour", "unknown configuration key 'gaet'"),
        ("detectors.Bad_Id.enabled", "detector ids are"),
        ("detectors.git-log.sytem", "unknown configuration key 'detectors.git-log.sytem'"),
        ("gate.", "is not a configuration key"),
        ("", "is not a configuration key"),
        ("gate.rate_per_hour.deeper", "unknown configuration key"),
    ],
)
def test_unknown_keys_are_refused_with_a_reason(key: str, fragment: str) -> None:
    with pytest.raises(cs.UnknownKeyError) as caught:
        cs.resolve_key(key)
    assert fragment in str(caught.value)


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [
        ("gate.rate_per_hour", "2", 2),
        ("mute.all", "true", True),
        ("model.name", "3.5", "3.5"),
        ("model.name", "null", None),
        ("model.name", "claude-haiku-4-5", "claude-haiku-4-5"),
        ("debug.path", "2024-01-01", "2024-01-01"),
        ("loop.salience_triggers", "[error, report]", ["error", "report"]),
        ("loop.salience_triggers", '["prompt"]', ["prompt"]),
        ("tools.mcp_servers.s", '{"url": "https://x.invalid"}', {"url": "https://x.invalid"}),
        ("window.compaction_floor", "0.5", 0.5),
    ],
)
def test_command_line_values_are_read_as_yaml_with_text_fallback(key: str, text: str, value: Any) -> None:
    assert cs.parse_value(text, cs.resolve_key(key).schema) == value


def test_unparseable_value_for_a_non_string_key_is_refused() -> None:
    with pytest.raises(cs.BadValueError):
        cs.parse_value("[unclosed", cs.resolve_key("loop.salience_triggers").schema)


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("gate.rate_per_hour", "0 – 60"),
        ("loop.fork_deadline_s", "> 0, ≤ 600"),
        (
            "model.provider",
            '"auto" | "anthropic" | "openai" | "claude-code" | "offline" | a pack\'s provider name',
        ),
        ("mute.all", "true | false"),
        ("catalogue.file", "text, or empty (null)"),
        ("loop.salience_triggers", 'list of "error" | "prompt" | "report"'),
    ],
)
def test_ranges_read_well(key: str, text: str) -> None:
    assert cs.describe_range(cs.resolve_key(key).schema or {}) == text
