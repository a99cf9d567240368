"""The checks of one detector document, after it parsed as YAML: every problem, each as an error chain.

First the published JSON Schema (``schemas/detector.schema.json``), every error in jsonschema's best-match
order and mapped back to its key's line; then what a schema cannot say: templates compile in the sandbox and
use only declared inputs, a ``prompt_file`` exists inside the jail, granted tools and MCP servers exist, the
trigger is registered and its params validate, a feedback extension adds to ``feedback_v1`` without redefining
it, and ``config`` satisfies ``config_schema``. A key that already failed the schema is not checked again.
:mod:`sbcore.packs.loader` reads the files and hands each document here.
"""

from __future__ import annotations

import copy
import difflib
import logging
import re
import shlex
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jinja2.sandbox import SandboxedEnvironment
from jsonschema import Draft202012Validator, SchemaError, ValidationError
from jsonschema.exceptions import relevance

from sbcore.jail import Jail, JailError, NotFound
from sbcore.packs.declarative import DECLARATIVE_TRIGGER, pattern_problems
from sbcore.packs.errors import ErrorChain, format_key
from sbcore.packs.model import (
    BUILTIN_TOOLS,
    RUN_TOOL,
    Cadence,
    DetectorDef,
    SourceRef,
    ToolGrant,
    TriggerRef,
)
from sbcore.packs.templates import FALLBACK_INPUTS, PROMPT_INPUTS, check_template
from sbcore.schemas import json_type, load_schema, yamlpos
from sbcore.timebound import PatternTimeout, time_bound

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
DEFAULT_MAX_ITERATIONS = 4
FEEDBACK_SCHEMA = "feedback_v1"
DETECTOR_SUFFIXES = (".yaml", ".yml")

# Characters that only mean something to a shell. Run executes commands
# without one (shlex.split + exec), so a pipe would reach git as an argument.
SHELL_METACHARACTERS = frozenset(";|&<>`$()\n\r")
_MCP_GRANT = re.compile(r"^mcp:(?P<server>[A-Za-z0-9][A-Za-z0-9_.-]*)/(?P<tool>\*|[A-Za-z0-9_.-]+)$")
_FALLBACK_TEMPLATES = ("headline", "body", "dedup_key")
MAX_PROMPT_FILE_BYTES = 256 * 1024
SCHEMA_BOUND_S = 1.0
"""Wall-time bound on validating a value against a schema a detector or a pack wrote (its patterns)."""

# Hints keyed by the failing key (list indexes written as [*]).
_KEY_HINTS = {
    "confidence_floor": "confidence floors are probabilities between 0 and 1",
    "finish_gate_floor": "confidence floors are probabilities between 0 and 1",
    "fallback.confidence": "confidence is a probability between 0 and 1",
    "deadline_s": "deadline_s is the fork's soft deadline in seconds: more than 0, at most 600",
    "max_iterations": "max_iterations counts model round trips for tool calls: 1 to 16",
    "id": "ids are lowercase letters, digits and '-', start with a letter, 2-63 characters: 'repeat-failure'",
    "cadence.every_nth": "every_nth: N runs the detector on every N-th pass; N is a whole number, 1 or more",
    "tools[*].run": 'write commands as a list: run: ["git log -n 20 --oneline"]',
}


Warn = Callable[[ErrorChain], None]


@dataclass(frozen=True)
class CheckContext:
    """What a detector may refer to: the installed packs' tools, triggers and servers."""

    pack: str
    known_tools: frozenset[str]
    triggers: Mapping[str, dict[str, Any] | None]
    mcp_servers: frozenset[str] | None
    environment: SandboxedEnvironment
    on_warning: Warn


@cache
def _detector_validator() -> Draft202012Validator:
    return Draft202012Validator(load_schema("detector"))


@cache
def _feedback_schema() -> dict[str, Any]:
    return load_schema(FEEDBACK_SCHEMA)


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _typo_hint(word: Any, choices: Iterable[Any]) -> str | None:
    if not isinstance(word, str):
        return None
    options = sorted(str(choice) for choice in choices)
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return f"Typo? did you mean {close[0]!r}?" if close else None


class DetectorChecker:
    """Validates one document, collecting chains; ``run`` returns the detector or the chains."""

    def __init__(self, path: Path, located: yamlpos.Located, ctx: CheckContext) -> None:
        self.path = path
        self.located = located
        self.ctx = ctx
        self.data: Any = located.data
        self.chains: list[ErrorChain] = []
        self.failed_paths: set[tuple[str | int, ...]] = set()  # keys with an error already
        self.detector_id: str | None = None
        self.prompt_text = ""  # the prompt file's text, once read and checked

    # -- reporting -----------------------------------------------------------

    def error(
        self,
        path: tuple[str | int, ...],
        problem: str,
        hint: str | None = None,
        *,
        line_path: tuple[str | int, ...] | None = None,
        source: SourceRef | None = None,
        warning: bool = False,
    ) -> None:
        where = source or SourceRef(
            str(self.path), self.located.line_of(path if line_path is None else line_path)
        )
        chain = ErrorChain(
            source=where,
            problem=problem,
            detector=self.detector_id,
            key=format_key(path) or None,
            hint=hint,
        )
        if warning:
            self.ctx.on_warning(chain.as_warning())
            return
        self.chains.append(chain)
        self.failed_paths.add(path)

    def checkable(self, key: str) -> bool:
        """Present, and no schema error at or under it (those values may not have the right shape)."""
        return key in self.data and not any(path[:1] == (key,) for path in self.failed_paths)

    # -- the steps ----------------------------------------------------------------

    def run(self) -> tuple[DetectorDef | None, list[ErrorChain]]:
        data = self.data
        if not isinstance(data, dict):
            got = "an empty document" if data is None else f"a YAML {json_type(data)}"
            self.error(
                (),
                f"expected a mapping of detector keys, got {got}",
                "a detector file is one YAML mapping: schema_version, id, description, prompt, ...",
            )
            return None, self.chains
        if isinstance(data.get("id"), str) and data["id"]:
            self.detector_id = data["id"]
        if not self._version_ok():
            return None, self.chains
        self._check_schema()
        self._check_prompt()
        self._check_fallback()
        grants = self._check_tools()
        feedback_schema = self._check_feedback_schema()
        self._check_trigger()
        self._check_config()
        if self.chains:
            return None, self.chains
        return self._build(grants, feedback_schema), []

    def _version_ok(self) -> bool:
        if "schema_version" not in self.data:
            return True  # reported by the schema as a missing required key
        version = self.data["schema_version"]
        if type(version) is int and version == SCHEMA_VERSION:
            return True
        newer = type(version) is int and version > SCHEMA_VERSION
        self.error(
            ("schema_version",),
            f"schema_version {_short(version)} is not supported "
            f"(this sbcore reads schema_version {SCHEMA_VERSION})",
            "the file was written for a newer sbcore: upgrade with `pip install -U sbcore`"
            if newer
            else f"set schema_version: {SCHEMA_VERSION}",
        )
        return False

    def _check_schema(self) -> None:
        self._report(_detector_validator().iter_errors(self.data))

    def _report(
        self,
        errors: Iterable[ValidationError],
        prefix: tuple[str | int, ...] = (),
        fallback_hint: str | None = None,
    ) -> None:
        """Turn jsonschema errors about the value at ``prefix`` into chains, most relevant first."""
        seen_required: set[tuple[Any, ...]] = set()
        for error in sorted(errors, key=relevance, reverse=True):
            self._explain(error, prefix, fallback_hint, seen_required)

    def _explain(
        self,
        error: ValidationError,
        prefix: tuple[str | int, ...],
        fallback_hint: str | None,
        seen_required: set[tuple[Any, ...]],
    ) -> None:
        path = (*prefix, *error.absolute_path)
        schema = error.schema if isinstance(error.schema, dict) else {}
        if "errorMessage" in schema:
            key = schema.get("x-error-key") if not prefix else None
            target = (key,) if key and key in self.data else path
            self.error(target, schema["errorMessage"], schema.get("x-hint") or fallback_hint)
            return
        if error.validator in ("oneOf", "anyOf") and error.context:
            chosen = _pick_alternative(error)
            if chosen is None:
                expected = " or ".join(dict.fromkeys(_expectation(e) for e in error.context if _mismatch(e)))
                got = f"{json_type(error.instance)} {_short(error.instance)}"
                self.error(path, f"expected {expected}, got {got}", self._hint(error, path) or fallback_hint)
                return
            for sub in chosen:
                self._explain(sub, prefix, fallback_hint, seen_required)
            return
        if error.validator in ("additionalProperties", "unevaluatedProperties"):
            self._explain_unknown_keys(error, path)
            return
        if error.validator == "required":
            marker = (path, tuple(error.schema_path))
            if marker in seen_required:
                return
            seen_required.add(marker)
            properties = schema.get("properties", {})
            for name in error.validator_value:
                if name not in error.instance:
                    described = properties.get(name, {}).get("description") or fallback_hint
                    self.error((*path, name), f"missing required key {name!r}", described, line_path=path)
            return
        self.error(path, self._message(error), self._hint(error, path) or fallback_hint)

    def _explain_unknown_keys(self, error: ValidationError, path: tuple[str | int, ...]) -> None:
        schema = error.schema
        allowed = sorted(schema.get("properties", {}))
        patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
        for key in error.instance:
            if key in allowed or any(p.search(key) for p in patterns):
                continue
            hint = _typo_hint(key, allowed)
            if hint is None:
                hint = "allowed keys: " + ", ".join(allowed) if allowed else "no keys are allowed here"
                if path == ():
                    hint += "; free-form keys must start with 'x-'"
            self.error((*path, key), f"unknown key {key!r}", hint)

    def _message(self, error: ValidationError) -> str:
        if error.validator == "type":
            expected = error.validator_value
            names = " or ".join(expected) if isinstance(expected, list) else expected
            return f"expected {names}, got {json_type(error.instance)} {_short(error.instance)}"
        if error.validator == "const":
            return f"expected {error.validator_value!r}, got {_short(error.instance)}"
        if error.validator == "enum":
            options = ", ".join(repr(v) for v in error.validator_value)
            return f"expected one of {options}, got {_short(error.instance)}"
        message = error.message
        return message if len(message) <= 200 else message[:197] + "..."

    def _hint(self, error: ValidationError, path: tuple[str | int, ...]) -> str | None:
        quoted = _quoted_scalar_hint(error)
        if quoted:
            return quoted
        pattern = re.sub(r"\[\d+\]", "[*]", format_key(path))
        if pattern in _KEY_HINTS:
            return _KEY_HINTS[pattern]
        if error.validator == "enum":
            typo = _typo_hint(error.instance, error.validator_value)
            if typo:
                return typo
        schema = error.schema if isinstance(error.schema, dict) else {}
        description = schema.get("description")
        return str(description) if description else None

    def _check_prompt(self) -> None:
        if self.checkable("prompt"):
            prompt = self.data["prompt"]
            position = self.located.positions.get(("prompt",))
            self._check_template(("prompt",), prompt, PROMPT_INPUTS, position)
        if self.checkable("prompt_file"):
            text = self._read_prompt_file()
            if text is not None:
                self.prompt_text = text
                resolved = self.path.parent / self.data["prompt_file"]
                for problem in check_template(text, PROMPT_INPUTS, self.ctx.environment):
                    self.error(
                        ("prompt_file",),
                        problem.message,
                        problem.hint,
                        source=SourceRef(str(resolved), problem.line),
                    )

    def _read_prompt_file(self) -> str | None:
        """The prompt file's text, read through the tools' no-follow jail rooted at the YAML file's directory:
        a ``..`` path, or a symlink leading out of that directory, is refused like a missing file."""
        name = self.data["prompt_file"]
        if Path(name).is_absolute():
            self.error(
                ("prompt_file",),
                f"prompt_file {name!r} is an absolute path",
                "give the path relative to this YAML file, so the detector works on every machine",
            )
            return None
        resolved = self.path.parent / name
        try:
            _, data = Jail(self.path.parent).read_file(name, max_bytes=MAX_PROMPT_FILE_BYTES)
        except NotFound:
            self.error(
                ("prompt_file",),
                f"prompt file {name!r} not found (looked for {resolved})",
                "prompt_file is relative to the directory of the YAML file",
            )
            return None
        except (JailError, ValueError) as exc:
            self.error(
                ("prompt_file",),
                f"prompt file {name!r} is refused: {_jail_reason(exc)}",
                "a prompt file must be a regular file inside the directory of the YAML file (or below it); "
                "'..' and symbolic links leading out of it are not followed",
            )
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.error(("prompt_file",), f"prompt file {name!r} is not UTF-8 text ({exc.reason})")
            return None

    def _check_template(
        self,
        path: tuple[str | int, ...],
        source: str,
        allowed: frozenset[str],
        position: yamlpos.Position | None,
    ) -> None:
        for problem in check_template(source, allowed, self.ctx.environment):
            if position is not None and position.text_line is not None:
                line = position.text_line + problem.line - 1
            else:
                line = self.located.line_of(path)
            self.error(path, problem.message, problem.hint, source=SourceRef(str(self.path), line))

    def _check_fallback(self) -> None:
        if not self.checkable("fallback"):
            return
        for field in _FALLBACK_TEMPLATES:
            value = self.data["fallback"].get(field)
            if isinstance(value, str):
                position = self.located.positions.get(("fallback", field))
                self._check_template(("fallback", field), value, FALLBACK_INPUTS, position)

    def _check_tools(self) -> tuple[ToolGrant, ...]:
        # Item by item: one malformed entry should not hide an unknown tool beside it.
        tools = self.data.get("tools")
        if not isinstance(tools, list):
            return ()
        failed_items = {path[1] for path in self.failed_paths if len(path) > 1 and path[0] == "tools"}
        grants: list[ToolGrant] = []
        commands: list[str] = []
        run_at: int | None = None
        for index, item in enumerate(tools):
            if index in failed_items:
                continue
            if isinstance(item, dict):
                run_at = len(grants) if run_at is None else run_at
                for position, command in enumerate(item["run"]):
                    if (
                        self._command_ok(("tools", index, "run", position), command)
                        and command not in commands
                    ):
                        commands.append(command)
                continue
            grant = self._named_grant(("tools", index), item)
            if grant is not None and grant not in grants:
                grants.append(grant)
        if run_at is not None:
            grants.insert(run_at, ToolGrant(kind="run", name=RUN_TOOL, commands=tuple(commands)))
        return tuple(grants)

    def _named_grant(self, path: tuple[str | int, ...], name: str) -> ToolGrant | None:
        if name in BUILTIN_TOOLS:
            return ToolGrant(kind="builtin", name=name)
        if name == RUN_TOOL:
            self.error(
                path,
                "'Run' is granted through the commands it may run",
                'write - run: ["git log -n 20 --oneline"] with the exact commands',
            )
            return None
        if name.startswith("mcp:"):
            return self._mcp_grant(path, name)
        if name in self.ctx.known_tools:
            return ToolGrant(kind="pack", name=name)
        hint = _typo_hint(name, [*BUILTIN_TOOLS, *self.ctx.known_tools])
        if hint is None:
            registered = ", ".join(sorted(self.ctx.known_tools)) or "none"
            hint = (
                "tools are Read, Grep, Glob, Recall, {run: [...]}, mcp:<server>/<tool>, or a tool registered "
                f"by an installed pack (registered: {registered})"
            )
        self.error(path, f"unknown tool {name!r}", hint)
        return None

    def _mcp_grant(self, path: tuple[str | int, ...], name: str) -> ToolGrant | None:
        match = _MCP_GRANT.match(name)
        if match is None:
            self.error(
                path,
                f"malformed MCP grant {name!r}",
                "write mcp:<server>/<tool> for one tool or mcp:<server>/* for all of a server's tools",
            )
            return None
        server, tool = match["server"], match["tool"]
        servers = self.ctx.mcp_servers
        if servers is not None and server not in servers:
            hint = _typo_hint(server, servers) or (
                "configured MCP servers: " + (", ".join(sorted(servers)) or "none")
            )
            self.error(path, f"no MCP server named {server!r} is configured", hint)
            return None
        return ToolGrant(kind="mcp", name=name, server=server, tool=tool)

    def _command_ok(self, path: tuple[str | int, ...], command: str) -> bool:
        if not command.strip():
            self.error(path, "empty command", "each run entry is one exact command line")
            return False
        shell = sorted(set(command) & SHELL_METACHARACTERS)
        if shell:
            shown = " ".join(repr(c) for c in shell)
            self.error(
                path,
                f"command {command!r} uses shell syntax ({shown})",
                "commands run without a shell, exactly as written: drop pipes, redirections, "
                "'&&' and '$', and allowlist each command on its own",
            )
            return False
        try:
            shlex.split(command)
        except ValueError as exc:
            self.error(path, f"command {command!r} cannot be split into arguments: {exc}")
            return False
        return True

    def _check_feedback_schema(self) -> dict[str, Any]:
        base = _feedback_schema()
        spec = self.data.get("schema", FEEDBACK_SCHEMA)
        if not isinstance(spec, dict) or not self.checkable("schema"):
            return copy.deepcopy(base)
        own = base["properties"]
        merged = copy.deepcopy(base)
        merged.pop("$id", None)
        merged["title"] = f"feedback of detector {self.detector_id or '?'} (extends feedback_v1)"
        if spec.get("description"):
            merged["description"] = spec["description"]
        for name, subschema in spec.get("properties", {}).items():
            path: tuple[str | int, ...] = ("schema", "properties", name)
            if name in own:
                self.error(
                    path,
                    f"redefines feedback_v1's field {name!r}",
                    "an extension may add fields but not change feedback_v1's own; choose another name",
                )
                continue
            if not self._schema_ok(path, subschema):
                continue
            merged["properties"][name] = subschema
        for index, name in enumerate(spec.get("required", [])):
            if name not in merged["properties"] and name not in spec.get("properties", {}):
                self.error(
                    ("schema", "required", index),
                    f"requires {name!r}, which is neither a feedback_v1 field nor defined under properties",
                    _typo_hint(name, [*merged["properties"], *spec.get("properties", {})]),
                )
            elif name not in merged["required"]:
                merged["required"].append(name)
        return merged

    def _schema_ok(self, path: tuple[str | int, ...], schema: Any) -> bool:
        """Whether ``schema`` is a valid draft 2020-12 schema; reports where it is not."""
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as exc:
            worst: ValidationError = exc
            if exc.context:
                worst = (_pick_alternative(exc) or [exc])[0]
            where = (*path, *worst.absolute_path)
            self.error(where, f"not a valid JSON Schema: {self._message(worst)}", self._hint(worst, where))
            return False
        return True

    def _check_trigger(self) -> None:
        if not self.checkable("trigger"):
            return
        if "match" in self.data["trigger"]:
            self._check_match(self.data["trigger"]["match"])
            return
        name = self.data["trigger"]["name"]
        triggers = {key: value for key, value in self.ctx.triggers.items() if key != DECLARATIVE_TRIGGER}
        if name == DECLARATIVE_TRIGGER:
            self.error(
                ("trigger", "name"),
                f"trigger name {name!r} is reserved for declarative triggers",
                "write the check under 'trigger: {match: {...}}' instead of naming it",
            )
            return
        if name not in triggers:
            enabled = self.data.get("enabled") is True
            hint = _typo_hint(name, triggers) or (
                "registered triggers: " + ", ".join(sorted(triggers))
                if triggers
                else "no installed pack registers any trigger"
            )
            if not enabled:
                hint += "; this detector is disabled, so it loads, but enabling it will fail"
            self.error(
                ("trigger", "name"),
                f"trigger {name!r} is not available: no installed pack registers it",
                hint,
                warning=not enabled,
            )
            return
        params_schema = triggers[name]
        if params_schema is None:
            return
        params = self.data["trigger"].get("params", {})
        errors = Draft202012Validator(params_schema).iter_errors(params)
        self._report_bounded(
            errors, ("trigger", "params"), f"see the documentation of trigger {name!r} for its params"
        )

    def _check_match(self, match: Mapping[str, Any]) -> None:
        """Every regex and glob of a declarative trigger compiles, under a bound (a repo may write them)."""
        try:
            with time_bound(SCHEMA_BOUND_S, "compiling trigger.match"):
                problems = pattern_problems(match)
        except PatternTimeout as exc:
            self.error(("trigger", "match"), str(exc), "simplify the regular expressions of the trigger")
            return
        for where, message in problems:
            hint = (
                "globs use * and ? within a path segment, [abc] for one of a set, and ** as a whole segment"
                if "path" in where
                else "a Python regular expression (re.search); escape literal characters such as ( [ . + "
                "with a backslash, or single-quote the YAML value so backslashes stay as written"
            )
            self.error(("trigger", "match", *where), message, hint)

    def _check_config(self) -> None:
        if not self.checkable("config_schema"):
            return
        config_schema = self.data["config_schema"]
        if not self._schema_ok(("config_schema",), config_schema):
            return
        if not self.checkable("config") and "config" in self.data:
            return
        errors = Draft202012Validator(config_schema).iter_errors(self.data.get("config", {}))
        self._report_bounded(errors, ("config",), "config must satisfy this detector's config_schema")

    def _report_bounded(
        self, errors: Iterable[ValidationError], prefix: tuple[str | int, ...], fallback_hint: str
    ) -> None:
        """:meth:`_report` for a schema the detector or a pack wrote: its patterns run under a time bound."""
        try:
            with time_bound(SCHEMA_BOUND_S, f"validating {format_key(prefix)}"):
                found = list(errors)
        except PatternTimeout as exc:
            self.error(prefix, str(exc), "simplify the regular expressions (pattern) of the schema")
            return
        self._report(found, prefix, fallback_hint)

    # -- the result ---------------------------------------------------------------

    def _build(self, grants: tuple[ToolGrant, ...], feedback_schema: dict[str, Any]) -> DetectorDef:
        data: dict[str, Any] = self.data
        prompt = self.prompt_text if "prompt_file" in data else data["prompt"]
        cadence_raw = data.get("cadence", "every_pass")
        if isinstance(cadence_raw, dict):
            cadence = Cadence(kind="every_nth", nth=cadence_raw["every_nth"])
        else:
            cadence = Cadence(kind=cadence_raw)
        trigger = None
        if "trigger" in data and "match" in data["trigger"]:
            trigger = TriggerRef(name=DECLARATIVE_TRIGGER, params=copy.deepcopy(data["trigger"]["match"]))
        elif "trigger" in data:
            trigger = TriggerRef(name=data["trigger"]["name"], params=dict(data["trigger"].get("params", {})))
        id_position = self.located.positions.get(("id",))
        return DetectorDef(
            id=data["id"],
            pack=self.ctx.pack,
            source=SourceRef(str(self.path), id_position.line if id_position else self.located.start_line),
            description=data["description"].strip(),
            status=data.get("status", "preview"),
            enabled=data.get("enabled", False),
            mode=data.get("mode", "soak"),
            prompt=prompt,
            tools=grants,
            schema=feedback_schema,
            cadence=cadence,
            trigger=trigger,
            deadline_s=_float_or_none(data.get("deadline_s")),
            max_iterations=data.get("max_iterations", DEFAULT_MAX_ITERATIONS),
            confidence_floor=_float_or_none(data.get("confidence_floor")),
            finish_gate_floor=_float_or_none(data.get("finish_gate_floor")),
            config=data.get("config", {}),
            config_schema=data.get("config_schema"),
            fallback=data.get("fallback"),
            extras={key: value for key, value in data.items() if key.startswith("x-")},
            raw=data,
        )


def _quoted_scalar_hint(error: ValidationError) -> str | None:
    """A quoted ``"true"`` or ``"0.6"`` is a string in YAML: say so, it is the usual cause."""
    if error.validator != "type" or not isinstance(error.instance, str):
        return None
    expected = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
    text = error.instance.strip().lower()
    if "boolean" in expected and text in ("true", "false", "yes", "no", "on", "off"):
        return "booleans are written true or false, without quotes"
    if {"number", "integer"} & set(expected) and re.fullmatch(r"[-+]?\d+(\.\d*)?([eE][-+]?\d+)?", text):
        return "numbers are written without quotes"
    return None


def _jail_reason(exc: Exception) -> str:
    """The jail's refusal without its own framing: it speaks of "the workspace root", here the root is the
    detector's directory, and the path is already named by the caller."""
    text = str(exc)
    if "outside the workspace root" in text or "passes through a symbolic link" in text:
        return "it leads outside the directory of the YAML file"
    if "pseudo-filesystem" in text:
        return "it names a kernel pseudo-filesystem (/proc, /dev, /sys)"
    return text.removeprefix("refused: ")


def _float_or_none(value: Any) -> float | None:
    return None if value is None else float(value)


def _pick_alternative(error: ValidationError) -> list[ValidationError] | None:
    """The errors of the oneOf/anyOf branch the value was evidently written for, best first.

    Branches failing on the value's own kind (a string where the branch wants an
    object) are discarded; of the rest, the one whose errors reach deepest into
    the value wins. None when every branch is for another kind of value.
    """
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context or []:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [errs for _, errs in sorted(branches.items()) if not any(_mismatch(e) for e in errs)]
    if not fitting:
        return None
    chosen = max(fitting, key=lambda errs: max(len(e.relative_path) for e in errs))
    return sorted(chosen, key=relevance, reverse=True)


def _mismatch(error: ValidationError) -> bool:
    """Whether a failed alternative is simply for another kind of value (string vs object, ...)."""
    if error.relative_path:
        return False
    if error.validator == "type":
        return True
    if error.validator == "const":
        return json_type(error.validator_value) != json_type(error.instance)
    if error.validator == "enum":
        return all(json_type(v) != json_type(error.instance) for v in error.validator_value)
    return False


def _expectation(error: ValidationError) -> str:
    if error.validator == "type":
        expected = error.validator_value
        names = expected if isinstance(expected, list) else [expected]
        return " or ".join(f"an {n}" if n[0] in "aeiou" else f"a {n}" for n in names)
    if error.validator == "enum":
        return "one of " + ", ".join(repr(v) for v in error.validator_value)
    return repr(error.validator_value)
