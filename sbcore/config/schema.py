"""The configuration schema as the rest of the package sees it.

``config.schema.json`` is the single source of every knob: its type, range,
default and description. This module derives from it the defaults document,
the list of knobs, how a dotted key such as ``detectors.repeat-failure.enabled``
or ``enable.workspaces./home/me/repo`` maps onto a path in the document, and
validation messages a person can act on.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from sbcore import safeyaml
from sbcore.problems import SbcoreError
from sbcore.schemas import json_type, load_schema

Path_ = tuple[str, ...]
Schema = Mapping[str, Any]


class UnknownKeyError(SbcoreError, KeyError):
    """A dotted key that names nothing in the schema."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class BadValueError(SbcoreError, ValueError):
    """A value given on the command line that cannot be read or does not fit its key."""


@cache
def config_schema() -> Schema:
    """The parsed schema, shared and read-only (use ``load_schema("config")`` for a private copy)."""
    return load_schema("config")


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(config_schema())


def is_map(schema: Schema | None) -> bool:
    """A mapping whose keys are chosen by the user (detector ids, server names, paths)."""
    return schema is not None and isinstance(schema.get("additionalProperties"), Mapping)


def is_record(schema: Schema | None) -> bool:
    """A mapping with a fixed set of named keys (a group, a detector's overrides, a server)."""
    return schema is not None and "properties" in schema


def is_free_form(schema: Schema | None) -> bool:
    """A mapping the schema does not describe further (a detector's own ``config``)."""
    return (
        schema is not None and schema.get("type") == "object" and not is_record(schema) and not is_map(schema)
    )


def replaces_whole(schema: Schema | None) -> bool:
    """Whether a higher layer replaces this mapping instead of merging into it (``x-merge: replace``)."""
    return schema is not None and schema.get("x-merge") == "replace"


def child_schema(schema: Schema | None, key: str) -> Schema | None:
    """The schema of ``key`` inside a mapping described by ``schema``; None when undescribed."""
    if schema is None:
        return None
    properties = schema.get("properties", {})
    if key in properties:
        sub: Schema = properties[key]
        return sub
    extra = schema.get("additionalProperties")
    return extra if isinstance(extra, Mapping) else None


@dataclass(frozen=True)
class Knob:
    """One configurable key of a group, as the documentation and ``config show`` list it."""

    group: str
    name: str
    schema: Schema

    @property
    def key(self) -> str:
        return f"{self.group}.{self.name}"

    @property
    def path(self) -> Path_:
        return (self.group, self.name)

    @property
    def default(self) -> Any:
        return self.schema.get("default")

    @property
    def description(self) -> str:
        text: str = self.schema.get("description", "")
        return text

    @property
    def warning(self) -> str | None:
        text: str | None = self.schema.get("x-warning")
        return text


@dataclass(frozen=True)
class Group:
    """A top-level section of the configuration."""

    name: str
    schema: Schema

    @property
    def title(self) -> str:
        text: str = self.schema.get("title", self.name)
        return text

    @property
    def description(self) -> str:
        text: str = self.schema.get("description", "")
        return text

    @property
    def knobs(self) -> tuple[Knob, ...]:
        return tuple(Knob(self.name, name, sub) for name, sub in self.schema.get("properties", {}).items())

    @property
    def entry_schema(self) -> Schema | None:
        """For a group keyed by the user (``detectors``): the schema of one entry."""
        extra = self.schema.get("additionalProperties")
        return extra if isinstance(extra, Mapping) else None


def groups() -> tuple[Group, ...]:
    """Every group, in schema order (which is the order the documentation uses)."""
    return tuple(Group(name, sub) for name, sub in config_schema()["properties"].items())


def knobs() -> tuple[Knob, ...]:
    """Every named knob of every group (entries of user-keyed maps are not knobs)."""
    return tuple(knob for group in groups() for knob in group.knobs)


def knob(key: str) -> Knob | None:
    """The knob called ``key`` (``gate.rate_per_hour``), or None."""
    group, _, name = key.partition(".")
    for candidate in knobs():
        if candidate.group == group and candidate.name == name:
            return candidate
    return None


def defaults() -> dict[str, Any]:
    """The document every layer is merged onto: each knob's default, each user-keyed group empty."""
    document: dict[str, Any] = {}
    for group in groups():
        if is_record(group.schema):
            document[group.name] = {k.name: json.loads(json.dumps(k.default)) for k in group.knobs}
        else:
            document[group.name] = json.loads(json.dumps(group.schema.get("default", {})))
    return document


@dataclass(frozen=True)
class KeyRef:
    """Where a dotted key points: its path in the document and the schema found there."""

    key: str
    path: Path_
    schema: Schema | None  # None inside a free-form mapping, where anything goes

    @property
    def is_group(self) -> bool:
        """A whole top-level group (``gate``, ``detectors``), not a single value in it."""
        return len(self.path) == 1


def _key_names() -> list[str]:
    names = [group.name for group in groups()]
    names += [knob.key for knob in knobs()]
    return names


def did_you_mean(word: str, choices: list[str]) -> str | None:
    """A "did you mean" hint from close spellings, or None when nothing is close."""
    close = difflib.get_close_matches(word, choices, n=3, cutoff=0.6)
    if not close:
        return None
    return "did you mean " + " or ".join(repr(c) for c in close) + "?"


def resolve_key(key: str) -> KeyRef:
    """Map a dotted key onto the document, guided by the schema.

    A segment names a property, or a user-chosen key of a map. When a map's
    values are plain (``enable.workspaces`` holds booleans), the whole rest of
    the key is the map key, so a path with dots in it still works.
    """
    if not key or key.startswith(".") or key.endswith("."):
        raise UnknownKeyError(f"{key!r} is not a configuration key")
    schema: Schema | None = config_schema()
    path: list[str] = []
    rest = key
    while rest:
        if schema is None or is_free_form(schema):
            segment, _, rest = rest.partition(".")
            if not segment:
                raise UnknownKeyError(f"{key!r} is not a configuration key (empty segment)")
            path.append(segment)
            schema = None
            continue
        segment, _, remainder = rest.partition(".")
        properties = schema.get("properties", {})
        if segment in properties:
            path.append(segment)
            schema = properties[segment]
            rest = remainder
            continue
        extra = schema.get("additionalProperties")
        if isinstance(extra, Mapping):
            if not (is_record(extra) or is_map(extra) or is_free_form(extra)):
                segment, remainder = rest, ""
            _check_map_key(schema, segment, path)
            path.append(segment)
            schema = extra
            rest = remainder
            continue
        where = ".".join([*path, segment])
        choices = [".".join([*path, name]) for name in properties] if path else _key_names()
        hint = did_you_mean(where, choices) or did_you_mean(key, _key_names())
        message = f"unknown configuration key {where!r}"
        raise UnknownKeyError(message + (f"; {hint}" if hint else ""))
    return KeyRef(key, tuple(path), schema)


def _check_map_key(schema: Schema, name: str, path: list[str]) -> None:
    names = schema.get("propertyNames")
    if not isinstance(names, Mapping) or "pattern" not in names:
        return
    if re.search(names["pattern"], name) is None:
        why = names.get("errorMessage", f"keys must match {names['pattern']}")
        raise UnknownKeyError(f"{'.'.join([*path, name])!r}: {name!r} is not allowed here: {why}")


def _fits(schema: Schema | None, value: Any) -> bool:
    return schema is None or not any(Draft202012Validator(schema).iter_errors(value))


def _json_safe(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def parse_value(text: str, schema: Schema | None) -> Any:
    """Read a command-line value as YAML (so JSON works too), falling back to the literal text.

    ``set model.name 3.5`` must store the string "3.5", not a float: when the
    parsed value does not fit the key but the raw text does, the text wins.
    """
    try:
        value = safeyaml.safe_load(text)
    except yaml.YAMLError as exc:
        if _fits(schema, text):
            return text
        raise BadValueError(f"cannot read {text!r} as a YAML or JSON value: {exc}") from exc
    if isinstance(value, str) or (_json_safe(value) and _fits(schema, value)):
        return value
    if _fits(schema, text):
        return text
    if not _json_safe(value):
        raise BadValueError(f"{text!r} is read as {type(value).__name__}, which JSON cannot hold; quote it")
    return value


@dataclass(frozen=True)
class SchemaIssue:
    """One way a layer document breaks the schema, anchored at a path."""

    path: tuple[str | int, ...]
    message: str
    hint: str | None = None

    @property
    def key(self) -> str:
        return ".".join(str(part) for part in self.path)


def schema_issues(document: Any) -> list[SchemaIssue]:
    """Everything wrong with ``document`` as a configuration layer, in document order."""
    issues: list[SchemaIssue] = []
    for error in _validator().iter_errors(document):
        issues.extend(_issues_from(error))
    unique = {(issue.path, issue.message): issue for issue in issues}
    return sorted(unique.values(), key=lambda issue: ([str(p) for p in issue.path], issue.message))


def _issues_from(error: ValidationError) -> Iterator[SchemaIssue]:
    path = tuple(error.absolute_path)
    custom = error.schema.get("errorMessage") if isinstance(error.schema, Mapping) else None
    if "propertyNames" in error.relative_schema_path:
        yield SchemaIssue((*path, str(error.instance)), f"{error.instance!r} is not allowed here: {custom}")
        return
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        allowed = list(error.schema.get("properties", {}))
        for name in error.instance:
            if name not in allowed:
                hint = did_you_mean(str(name), allowed) or (
                    "allowed keys: " + ", ".join(allowed) if allowed else None
                )
                yield SchemaIssue((*path, str(name)), f"unknown key {name!r}", hint)
        return
    if custom:
        yield SchemaIssue(path, f"{_short(error.instance)}: {custom}")
        return
    if error.validator == "type":
        wanted = error.validator_value
        wanted_text = " or ".join(wanted) if isinstance(wanted, list) else str(wanted)
        got = f"{json_type(error.instance)} {_short(error.instance)}"
        yield SchemaIssue(path, f"expected {wanted_text}, got {got}")
        return
    if error.validator == "enum":
        choices = [str(choice) for choice in error.validator_value]
        hint = did_you_mean(str(error.instance), choices)
        yield SchemaIssue(path, f"{_short(error.instance)} is not one of: {', '.join(choices)}", hint)
        return
    yield SchemaIssue(path, error.message)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def describe_range(schema: Schema) -> str:
    """The allowed values of a key in a few words (``0 – 60``, ``"auto" | "anthropic"``)."""
    if "enum" in schema:
        return " | ".join(json.dumps(choice) for choice in schema["enum"])
    if "oneOf" in schema:
        return " or ".join(describe_range(choice) for choice in schema["oneOf"])
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "array" in kinds:
        return "list of " + describe_range(schema.get("items", {}))
    if "boolean" in kinds:
        return "true | false"
    if "integer" in kinds or "number" in kinds:
        return _describe_number(schema)
    if "string" in kinds:
        text = "text"
        if "pattern" in schema:
            text = schema.get("errorMessage", f"text matching {schema['pattern']}").removeprefix("must be ")
        return text + (", or empty (null)" if "null" in kinds else "")
    if "object" in kinds and "properties" in schema:
        fields = ", ".join(f"{name}: {describe_range(sub)}" for name, sub in schema["properties"].items())
        return "{" + fields + "}"
    if "object" in kinds:
        return "mapping"
    return "any"


def _describe_number(schema: Schema) -> str:
    high = schema.get("maximum")
    if "exclusiveMinimum" in schema:
        low = f"> {schema['exclusiveMinimum']}"
        return f"{low}, ≤ {high}" if high is not None else low
    low_value = schema.get("minimum")
    if low_value is not None and high is not None:
        return f"{low_value} – {high}"
    if low_value is not None:
        return f"≥ {low_value}"
    return "integer" if schema.get("type") == "integer" else "number"
