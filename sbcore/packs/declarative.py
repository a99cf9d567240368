"""Declarative structural triggers: a detector's ``trigger: {match: ...}``, evaluated without Python.

A team that wants an offline checklist ("edited src/, never ran the tests"; "the same Bash command failed
three times since the last edit") writes the check as data instead of registering a function. The loader
validates the block (schema, then every regex and glob compiled here, each failure a file:line chain) and
turns it into a :class:`~sbcore.packs.model.TriggerRef` naming :data:`DECLARATIVE_TRIGGER`, whose spec the
:class:`~sbcore.packs.registry.Registry` always holds. So the engine, replay and the golden runner evaluate it
exactly like a pack's trigger: through :meth:`TriggerSpec.invoke`, under its wall-time bound, which also
bounds the regexes a repository wrote.

Semantics, in the order they apply (docs/detector-authoring.md has the reader's version):

1. *scope*: the observations the pass looks back over, narrowed by ``within`` (``last`` N observations,
   ``minutes`` before the newest timestamp, ``since`` the last edit or the last prompt);
2. *absence*: with ``absent``, only what follows the last call matching it still counts;
3. *calls*: tool calls in what is left that match the ``calls`` selector (tool names, a ``command`` regex,
   a ``path`` glob, ``not_path`` globs the path must not match, a ``text`` regex, an ``outcome``), or any
   selector of a list of them (a Write of a code file *or* an Edit adding a function: per-tool patterns
   need one selector per tool);
4. the trigger fires when at least ``at_least`` calls match, once per run of calls (the run is named by its
   first call, so the same finding is handed over once and a new run after a reset is new).

How outcomes are read is the built-in pack's convention: a call is a ``tool`` observation; it failed when an
``error`` observation carries its ``tool_use_id`` (or the observation has an ``outcome`` that says it
failed); it succeeded when it did not fail and something was observed after it. The newest call, with
nothing after it, is still running: it matches neither ``failed`` nor ``succeeded``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from sbcore import pathglob
from sbcore.observe.model import Observation
from sbcore.packs.types import TriggerMatch, report_once
from sbcore.problems import SbcoreError

DECLARATIVE_TRIGGER = "sbcore.match"
"""The reserved trigger name a ``trigger: {match: ...}`` block loads as (no pack may register it: pack
trigger names have no dot)."""

EDIT_TOOLS: tuple[str, ...] = ("Edit", "MultiEdit", "Write", "NotebookEdit")
PATH_ARGS: tuple[str, ...] = ("file_path", "notebook_path", "path")
REGEX_KEYS: tuple[str, ...] = ("command", "text")
GLOB_KEYS: tuple[str, ...] = ("path", "not_path")
SELECTOR_KEYS: tuple[str, ...] = ("calls", "absent")
QUOTED_CALLS = 20  # calls listed in match.data.calls (the newest)
EVIDENCE_CALLS = 5
LINE_CAP = 200


class PatternError(SbcoreError, ValueError):
    """A regex or glob of a declarative trigger does not compile; the message says why."""


# --------------------------------------------------------------------------------------------
# Compiling patterns
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def compile_regex(pattern: str) -> re.Pattern[str]:
    """A ``command`` or ``text`` pattern, searched anywhere in the value (as ``re.search``)."""
    try:
        return re.compile(pattern)
    except re.error as exc:
        where = f" at position {exc.pos}" if exc.pos is not None else ""
        raise PatternError(f"invalid regular expression {pattern!r}: {exc.msg}{where}") from exc


def compile_glob(pattern: str) -> re.Pattern[str]:
    """A ``path`` glob (:func:`sbcore.pathglob.compile_glob`), its problem as a :class:`PatternError`."""
    try:
        return pathglob.compile_glob(pattern)
    except pathglob.GlobError as exc:
        raise PatternError(str(exc)) from exc


def selector_list(value: Any) -> list[tuple[tuple[int, ...], Mapping[str, Any]]]:
    """The selectors of a ``calls`` or ``absent`` value, each with its index when the value is a list
    (one selector, or a list of which any one may match)."""
    if isinstance(value, Mapping):
        return [((), value)]
    if isinstance(value, list):
        return [((index,), item) for index, item in enumerate(value) if isinstance(item, Mapping)]
    return []


def pattern_problems(match: Mapping[str, Any]) -> list[tuple[tuple[str | int, ...], str]]:
    """(key path under ``match``, message) for every regex and glob of a schema-valid block that fails."""
    problems: list[tuple[tuple[str | int, ...], str]] = []
    for selector_key in SELECTOR_KEYS:
        for position, selector in selector_list(match.get(selector_key)):
            where: tuple[str | int, ...] = (selector_key, *position)
            for key in REGEX_KEYS:
                if isinstance(selector.get(key), str):
                    _collect(problems, (*where, key), compile_regex, selector[key])
            for key in GLOB_KEYS:
                paths = selector.get(key)
                if isinstance(paths, str):
                    _collect(problems, (*where, key), compile_glob, paths)
                    continue
                for index, glob in enumerate(paths or ()):
                    _collect(problems, (*where, key, index), compile_glob, glob)
    return problems


def _collect(
    problems: list[tuple[tuple[str | int, ...], str]], where: tuple[str | int, ...], compile_: Any, value: str
) -> None:
    try:
        compile_(value)
    except PatternError as exc:
        problems.append((where, str(exc)))


# --------------------------------------------------------------------------------------------
# Reading calls
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One tool call in the scope, with what became of it."""

    index: int
    observation: Observation
    error: Observation | None
    failed: bool | None  # None: still running

    @property
    def command(self) -> str | None:
        value = self.observation.args.get("command")
        return value if isinstance(value, str) else None

    @property
    def path(self) -> str | None:
        for name in PATH_ARGS:
            value = self.observation.args.get(name)
            if isinstance(value, str) and value:
                return value
        return None

    @property
    def ref(self) -> str:
        obs = self.observation
        return obs.tool_use_id or obs.uuid or f"#{self.index}"

    @property
    def outcome(self) -> str:
        return "running" if self.failed is None else "failed" if self.failed else "succeeded"

    def as_data(self) -> dict[str, Any]:
        """What ``match.data.calls`` lists for this call."""
        return {
            "tool": self.observation.tool,
            "command": self.command,
            "path": self.path,
            "outcome": self.outcome,
            "timestamp": self.observation.timestamp,
            "error": _error_line(self.error) if self.error is not None else None,
        }


def calls_of(observations: Sequence[Observation]) -> list[Call]:
    """Every tool call of ``observations``, paired with its error and its outcome."""
    errors = {obs.tool_use_id: obs for obs in observations if obs.kind == "error" and obs.tool_use_id}
    calls = []
    for index, obs in enumerate(observations):
        if obs.kind != "tool":
            continue
        error = errors.get(obs.tool_use_id) if obs.tool_use_id else None
        failed = _reported_failure(obs)
        if error is not None:
            failed = True
        elif failed is None and index < len(observations) - 1:
            failed = False
        calls.append(Call(index, obs, error, failed))
    return calls


def _reported_failure(obs: Observation) -> bool | None:
    """What the observation's own ``outcome`` says (an observer that records one), or None."""
    outcome = getattr(obs, "outcome", None)
    failed = outcome.get("failed") if isinstance(outcome, Mapping) else getattr(outcome, "failed", None)
    return failed if isinstance(failed, bool) else None


def _error_line(error: Observation) -> str:
    head = re.sub(r"^\[error\] [^:]*: ", "", error.text)
    line = next((line.strip() for line in head.splitlines() if line.strip()), "")
    return line if len(line) <= LINE_CAP else line[: LINE_CAP - 1] + "…"


def selects_any(selectors: Mapping[str, Any] | Sequence[Mapping[str, Any]], call: Call) -> bool:
    """Whether ``call`` matches the selector, or one of the list of selectors, of ``calls``/``absent``."""
    return any(selects(selector, call) for _, selector in selector_list(selectors))


def selects(selector: Mapping[str, Any], call: Call) -> bool:
    """Whether ``call`` matches every key the selector gives."""
    obs = call.observation
    tools = selector.get("tool")
    if tools is not None and obs.tool not in ([tools] if isinstance(tools, str) else tools):
        return False
    outcome = selector.get("outcome")
    if outcome is not None and call.outcome != outcome:
        return False
    if "command" in selector:
        command = call.command
        if command is None or not compile_regex(selector["command"]).search(command):
            return False
    if "path" in selector and not _path_in(call.path, selector["path"]):
        return False
    if "not_path" in selector and _path_in(call.path, selector["not_path"]):
        return False
    if "text" in selector:
        pattern = compile_regex(selector["text"])
        texts = [obs.text] + ([call.error.text] if call.error is not None else [])
        if not any(pattern.search(text) for text in texts):
            return False
    return True


def _path_in(path: str | None, globs: str | Sequence[str]) -> bool:
    """Whether ``path`` matches the glob, or one of the list of globs."""
    if path is None:
        return False
    path = path.replace("\\", "/")
    return any(compile_glob(glob).search(path) for glob in ([globs] if isinstance(globs, str) else globs))


# --------------------------------------------------------------------------------------------
# The trigger
# --------------------------------------------------------------------------------------------


def match_trigger(
    observations: Sequence[Observation], params: Mapping[str, Any], state: dict[str, Any]
) -> TriggerMatch | None:
    """The trigger function behind :data:`DECLARATIVE_TRIGGER`; ``params`` is the ``match`` block.

    Match data: ``count`` (matching calls), ``calls`` (the newest 20: ``tool``, ``command``, ``path``,
    ``outcome``, ``timestamp``, ``error``), ``first`` and ``last`` (the same for the first and newest call),
    ``tools``, ``commands`` and ``paths`` (distinct values, oldest first), ``failed`` (how many of them
    failed) and ``since`` (the call matching ``absent`` that the count starts after, or None).
    """
    scope_start = _scope_start(observations, params.get("within") or {})
    calls = [call for call in calls_of(observations) if call.index >= scope_start]
    since: Call | None = None
    absent = params.get("absent")
    if absent is not None:
        present = [call for call in calls if selects_any(absent, call)]
        if present:
            since = present[-1]
            calls = [call for call in calls if call.index > since.index]
    matched = [call for call in calls if selects_any(params["calls"], call)]
    if not matched or len(matched) < int(params.get("at_least", 1)):
        return None
    key = f"{matched[0].ref}"
    if not report_once(state, key):
        return None
    return TriggerMatch(
        key=key,
        summary=_summary(matched, absent is not None),
        evidence=tuple(_evidence(call) for call in matched[-EVIDENCE_CALLS:]),
        data={
            "count": len(matched),
            "calls": [call.as_data() for call in matched[-QUOTED_CALLS:]],
            "first": matched[0].as_data(),
            "last": matched[-1].as_data(),
            "tools": _distinct(call.observation.tool for call in matched),
            "commands": _distinct(call.command for call in matched),
            "paths": _distinct(call.path for call in matched),
            "failed": sum(1 for call in matched if call.failed),
            "since": since.as_data() if since is not None else None,
        },
    )


def _scope_start(observations: Sequence[Observation], within: Mapping[str, Any]) -> int:
    """Index of the first observation the check looks at."""
    start = 0
    if "last" in within:
        start = max(start, len(observations) - int(within["last"]))
    if "minutes" in within:
        start = max(start, _minutes_start(observations, float(within["minutes"])))
    since = within.get("since")
    if since is not None:
        wanted = (
            (lambda o: o.kind == "prompt")
            if since == "prompt"
            else (lambda o: o.kind == "tool" and o.tool in EDIT_TOOLS)
        )
        last = max((index for index, obs in enumerate(observations) if wanted(obs)), default=-1)
        start = max(start, last + 1)
    return start


def _minutes_start(observations: Sequence[Observation], minutes: float) -> int:
    """The first observation stamped within ``minutes`` of the newest stamp (unstamped ones before it
    belong to the older side)."""
    stamps = [(index, _parse(obs.timestamp)) for index, obs in enumerate(observations)]
    known = [(index, when) for index, when in stamps if when is not None]
    if not known:
        return 0
    cutoff = known[-1][1] - timedelta(minutes=minutes)
    return next(index for index, when in known if when >= cutoff)


def _parse(stamp: str | None) -> datetime | None:
    if not stamp:
        return None
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _distinct(values: Any) -> list[str]:
    return list(dict.fromkeys(value for value in values if value))


def _described(call: Call) -> str:
    what = call.command or call.path or ""
    what = what if len(what) <= LINE_CAP else what[: LINE_CAP - 1] + "…"
    return f"{call.observation.tool} `{what}`" if what else str(call.observation.tool)


def _summary(matched: list[Call], with_absent: bool) -> str:
    text = f"{len(matched)} matching call(s), the last {_described(matched[-1])} ({matched[-1].outcome})"
    return text + (", and no call matching `absent` after them" if with_absent else "")


def _evidence(call: Call) -> str:
    line = f"{call.observation.timestamp or 'time unknown'}: {_described(call)} {call.outcome}"
    return line + (f": {_error_line(call.error)}" if call.error is not None else "")
