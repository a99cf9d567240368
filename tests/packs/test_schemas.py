"""The published schemas are valid draft 2020-12, documented, and accept/reject what they should."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from sbcore.schemas import available_schemas, load_schema, schema_path

HERE = Path(__file__).parent
MINE = ("detector", "feedback_v1")


def _subschemas(schema: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every (sub)schema, following the keywords that hold schemas; ``if`` conditions are skipped."""
    if not isinstance(schema, dict):
        return
    yield where, schema
    for keyword in ("properties", "patternProperties", "dependentSchemas"):
        for key, sub in schema.get(keyword, {}).items():
            yield from _subschemas(sub, f"{where}/{keyword}/{key}")
    for keyword in ("items", "additionalProperties", "then", "else", "not"):
        if keyword in schema:
            yield from _subschemas(schema[keyword], f"{where}/{keyword}")
    for keyword in ("allOf", "anyOf", "oneOf", "prefixItems"):
        for index, sub in enumerate(schema.get(keyword, [])):
            yield from _subschemas(sub, f"{where}/{keyword}/{index}")


@pytest.mark.parametrize("name", MINE)
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_ids_are_distinct() -> None:
    ids = [load_schema(name)["$id"] for name in MINE]
    assert len(set(ids)) == len(ids)


def test_walker_sees_nested_schemas() -> None:
    found = dict(_subschemas(load_schema("detector")))
    assert "#/properties/tools/items/oneOf/1/properties/run/items" in found
    assert "#/properties/schema/oneOf/1/properties/properties/additionalProperties" in found


@pytest.mark.parametrize("name", MINE)
def test_items_is_never_a_tuple(name: str) -> None:
    """semgrep-rules' mistake: a list under `items` checks only the first element (that is prefixItems)."""
    for where, node in _subschemas(load_schema(name)):
        if "items" in node:
            assert isinstance(node["items"], dict | bool), where


@pytest.mark.parametrize("name", MINE)
def test_every_property_is_described(name: str) -> None:
    """Editors show descriptions on hover, so every key an author can write has one."""
    for where, node in _subschemas(load_schema(name)):
        for key, subschema in node.get("properties", {}).items():
            assert subschema.get("description"), f"{where}/properties/{key} has no description"


def test_load_schema_returns_a_fresh_copy() -> None:
    first = load_schema("detector")
    first["properties"].clear()
    assert load_schema("detector")["properties"]


def test_unknown_schema_name() -> None:
    with pytest.raises(KeyError, match="no schema named 'nope'"):
        load_schema("nope")


def test_schema_path_is_the_shipped_file() -> None:
    assert set(MINE) <= set(available_schemas())
    path = schema_path("detector")
    assert path.name == "detector.schema.json"
    assert json.loads(path.read_text()) == load_schema("detector")


# -- detector.schema.json --------------------------------------------------------

MINIMAL = {"schema_version": 1, "id": "ok", "description": "d", "prompt": "p"}

GOOD_DETECTORS: dict[str, dict[str, Any]] = {
    "minimal": {},
    "prompt-file": {"prompt": None, "prompt_file": "prompts/x.j2"},
    "x-keys": {"x-owner": "me", "x-anything": {"nested": [1]}},
    "every-nth": {"cadence": {"every_nth": 2}},
    "on-trigger": {"cadence": "on_trigger", "trigger": {"name": "repeat_failure", "params": {"n": 3}}},
    "tools": {"tools": ["Read", {"run": ["git log"]}, "mcp:s/t", "mcp:s/*", "pack-tool"]},
    "extended-schema": {"schema": {"extends": "feedback_v1", "properties": {"a": {}}, "required": ["a"]}},
    "floors-at-bounds": {"confidence_floor": 0, "finish_gate_floor": 1},
    "fallback": {
        "trigger": {"name": "t"},
        "fallback": {"headline": "h", "body": "b", "confidence": 0.5, "dedup_key": "k", "finish_gate": True},
    },
    "trailing-newline-description": {"description": "One line.\n"},
    "declarative-selector-list": {
        "cadence": "turn_end",
        "trigger": {
            "match": {
                "calls": [
                    {"tool": "Write", "path": ["*.py"], "not_path": "tests/**"},
                    {"tool": ["Edit", "MultiEdit"], "path": "*.py", "text": "def "},
                ],
                "absent": {"tool": "Bash", "command": "^mypy"},
                "within": {"since": "prompt"},
            }
        },
    },
}

BAD_DETECTORS: dict[str, tuple[dict[str, Any], str, list[str | int]]] = {
    "unknown-key": ({"confidence_flor": 0.5}, "additionalProperties", []),
    "version-2": ({"schema_version": 2}, "const", ["schema_version"]),
    "bad-id": ({"id": "Bad_Id"}, "pattern", ["id"]),
    "one-letter-id": ({"id": "a"}, "pattern", ["id"]),
    "multi-line-description": ({"description": "one\ntwo"}, "pattern", ["description"]),
    "no-prompt": ({"prompt": None}, "oneOf", []),
    "both-prompts": ({"prompt_file": "x.j2"}, "oneOf", []),
    "floor-above-1": ({"confidence_floor": 1.5}, "maximum", ["confidence_floor"]),
    "gate-floor-below-0": ({"finish_gate_floor": -0.1}, "minimum", ["finish_gate_floor"]),
    "zero-deadline": ({"deadline_s": 0}, "exclusiveMinimum", ["deadline_s"]),
    "iterations-17": ({"max_iterations": 17}, "maximum", ["max_iterations"]),
    "iterations-float": ({"max_iterations": 2.5}, "type", ["max_iterations"]),
    "status-typo": ({"status": "stabel"}, "enum", ["status"]),
    "enabled-string": ({"enabled": "yes"}, "type", ["enabled"]),
    "cadence-word": ({"cadence": "sometimes"}, "oneOf", ["cadence"]),
    "every-nth-0": ({"cadence": {"every_nth": 0}}, "oneOf", ["cadence"]),
    "run-not-a-list": ({"tools": [{"run": "git log"}]}, "oneOf", ["tools", 0]),
    "run-empty": ({"tools": [{"run": []}]}, "oneOf", ["tools", 0]),
    "second-tool-bad": ({"tools": ["Read", 3]}, "oneOf", ["tools", 1]),
    "schema-other": ({"schema": "feedback_v2"}, "oneOf", ["schema"]),
    "extends-other": ({"schema": {"extends": "feedback_v0"}}, "oneOf", ["schema"]),
    "on-trigger-alone": ({"cadence": "on_trigger"}, "required", []),
    "fallback-alone": ({"fallback": {"headline": "h", "confidence": 0.5}}, "dependentRequired", []),
    "fallback-confidence": (
        {"trigger": {"name": "t"}, "fallback": {"headline": "h", "confidence": 2}},
        "maximum",
        ["fallback", "confidence"],
    ),
    "fallback-unknown-key": (
        {"trigger": {"name": "t"}, "fallback": {"headline": "h", "confidence": 0.5, "title": "t"}},
        "additionalProperties",
        ["fallback"],
    ),
    "trigger-no-name": ({"trigger": {"params": {}}}, "oneOf", ["trigger"]),
    "trigger-name-and-match": (
        {"trigger": {"name": "t", "match": {"calls": {"tool": "Bash"}}}},
        "oneOf",
        ["trigger"],
    ),
    "match-without-calls": ({"trigger": {"match": {"at_least": 2}}}, "required", ["trigger", "match"]),
    # a selector or a list of them: the loader reports the branch written (tests/packs/test_loader.py)
    "match-empty-selector": ({"trigger": {"match": {"calls": {}}}}, "oneOf", ["trigger", "match", "calls"]),
    "match-empty-selector-list": (
        {"trigger": {"match": {"absent": [], "calls": {"tool": "Bash"}}}},
        "oneOf",
        ["trigger", "match", "absent"],
    ),
    "config-not-object": ({"config": [1, 2]}, "type", ["config"]),
}


def _detector(changes: dict[str, Any]) -> dict[str, Any]:
    doc = {**MINIMAL, **changes}
    return {key: value for key, value in doc.items() if value is not None}


@pytest.mark.parametrize("case", sorted(GOOD_DETECTORS))
def test_good_detector_instances(case: str) -> None:
    validator = Draft202012Validator(load_schema("detector"))
    assert list(validator.iter_errors(_detector(GOOD_DETECTORS[case]))) == []


@pytest.mark.parametrize("case", sorted(BAD_DETECTORS))
def test_bad_detector_instances(case: str) -> None:
    changes, keyword, path = BAD_DETECTORS[case]
    validator = Draft202012Validator(load_schema("detector"))
    errors = list(validator.iter_errors(_detector(changes)))
    assert [(e.validator, list(e.absolute_path)) for e in errors] == [(keyword, path)]


@pytest.mark.parametrize("path", sorted((HERE / "good").glob("*.y*ml")), ids=lambda p: p.name)
def test_good_fixtures_satisfy_the_raw_schema(path: Path) -> None:
    """What an editor checks with the modeline agrees with the loader on good files."""
    document = yaml.safe_load(path.read_text())
    assert list(Draft202012Validator(load_schema("detector")).iter_errors(document)) == []


# -- feedback_v1.schema.json ------------------------------------------------------

GOOD_FEEDBACK: dict[str, dict[str, Any]] = {
    "silent": {"verdict": "silent"},
    "advise-everything": {
        "verdict": "advise",
        "headline": "No test run since the first edit",
        "body": "Run the tests before finishing.",
        "evidence": ["edited foo.py at 15:02", "no pytest since"],
        "confidence": 0.72,
        "dedup_key": "tests-not-run:foo",
        "stale_if": ["pytest", "go test"],
        "finish_gate": True,
        "outcomes": [
            {"advice_id": "a1", "verdict": "adopted", "evidence": ["ran pytest"]},
            {"advice_id": "a2", "verdict": "no_evidence"},
        ],
    },
    "resolved": {"verdict": "resolved", "confidence": 1},
    "still-open": {"verdict": "still_open", "confidence": 0},
    "limits": {"verdict": "advise", "headline": "h" * 200, "body": "b" * 2000},
}

BAD_FEEDBACK: dict[str, tuple[dict[str, Any], str, list[str | int]]] = {
    "no-verdict": ({"headline": "h"}, "required", []),
    "bad-verdict": ({"verdict": "maybe"}, "enum", ["verdict"]),
    "confidence-high": ({"verdict": "advise", "confidence": 1.5}, "maximum", ["confidence"]),
    "confidence-string": ({"verdict": "advise", "confidence": "high"}, "type", ["confidence"]),
    "headline-long": ({"verdict": "advise", "headline": "h" * 201}, "maxLength", ["headline"]),
    "body-long": ({"verdict": "advise", "body": "b" * 2001}, "maxLength", ["body"]),
    "extra-key": ({"verdict": "silent", "reason": "x"}, "additionalProperties", []),
    "evidence-not-strings": ({"verdict": "advise", "evidence": ["ok", 3]}, "type", ["evidence", 1]),
    "empty-stale-pattern": ({"verdict": "advise", "stale_if": ["ok", ""]}, "minLength", ["stale_if", 1]),
    "finish-gate-string": ({"verdict": "advise", "finish_gate": "yes"}, "type", ["finish_gate"]),
    "outcome-no-id": (
        {"verdict": "silent", "outcomes": [{"verdict": "adopted"}]},
        "required",
        ["outcomes", 0],
    ),
    "outcome-bad-verdict": (
        {"verdict": "silent", "outcomes": [{"advice_id": "a", "verdict": "ignored"}]},
        "enum",
        ["outcomes", 0, "verdict"],
    ),
    "second-outcome-extra": (
        {
            "verdict": "silent",
            "outcomes": [
                {"advice_id": "a", "verdict": "adopted"},
                {"advice_id": "b", "verdict": "rejected", "why": "x"},
            ],
        },
        "additionalProperties",
        ["outcomes", 1],
    ),
}


@pytest.mark.parametrize("case", sorted(GOOD_FEEDBACK))
def test_good_feedback(case: str) -> None:
    assert list(Draft202012Validator(load_schema("feedback_v1")).iter_errors(GOOD_FEEDBACK[case])) == []


@pytest.mark.parametrize("case", sorted(BAD_FEEDBACK))
def test_bad_feedback(case: str) -> None:
    instance, keyword, path = BAD_FEEDBACK[case]
    errors = list(Draft202012Validator(load_schema("feedback_v1")).iter_errors(instance))
    assert [(e.validator, list(e.absolute_path)) for e in errors] == [(keyword, path)]


def test_documented_example_is_valid() -> None:
    """The complete example in docs/detector-authoring.md satisfies the schema it documents."""
    text = (HERE.parents[1] / "docs" / "detector-authoring.md").read_text()
    example = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    document = yaml.safe_load(example)
    assert document["id"] == "repeat-failure"
    assert list(Draft202012Validator(load_schema("detector")).iter_errors(document)) == []


def test_documented_keys_match_the_schema() -> None:
    """The docs' key table has a row for every key of the schema, and no row for a key it lacks."""
    text = (HERE.parents[1] / "docs" / "detector-authoring.md").read_text()
    table = text.split("## Keys", 1)[1].split("\n### ", 1)[0]
    rows = {line.split("`")[1] for line in table.splitlines() if line.startswith("| `")}
    assert rows - {"x-…"} == set(load_schema("detector")["properties"])
