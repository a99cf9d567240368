"""Structural triggers of the built-in pack: checks the worker computes, not judgments.

A structural trigger looks at the projected observations of a task and either
returns a :class:`~sbcore.api.TriggerMatch` or ``None``. The detector
that names it runs only on a match, and the model is handed the match as
evidence, so it cannot invent a finding the check did not see. Both triggers
here are pure functions of the observation sequence (recomputed from scratch on
every pass, so a late-arriving error corrects an earlier reading); ``state`` is
used only to avoid handing the same finding to a fork twice.

How tool outcomes are read: a call is a ``tool`` observation carrying its
``tool_use_id``; a failure is an ``error`` observation with the same id; a call
with no error that is followed by any later observation counted as a success
(the projection drops successful results, so their absence is the signal). The
very last call, with nothing after it, is still in flight and counts as
neither.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sbcore.api import Observation, TriggerMatch

EDIT_TOOLS: tuple[str, ...] = ("Edit", "MultiEdit", "Write", "NotebookEdit")
COMMAND_TOOLS: tuple[str, ...] = ("Bash",)
REPORTED_CAP = 64  # how many reported keys a trigger remembers per task and detector

# --------------------------------------------------------------------------------------------
# Command normalisation (the key of repeat_failure)
# --------------------------------------------------------------------------------------------

# fd duplication and /dev/null sinks change where output goes, not what runs.
_REDIRECTS = re.compile(r"(?<!\S)(?:[12]?>&[12]|[12&]?>>?\s*/dev/null)(?!\S)")
# A shell comment starts at a word boundary and runs to the end of its line.
_COMMENT = re.compile(r"(?m)(?<!\S)#.*$")
_OPERATORS = frozenset({"&&", "||", ";", "|", "|&", "&"})
_PAGERS = frozenset({"tail", "head", "cat", "less", "more"})
_DIR_CHANGES = frozenset({"cd", "pushd"})
_DURATION = re.compile(r"^\d+(?:\.\d+)?[smhd]?$")
_PUNCTUATION = frozenset("();<>|&")


@lru_cache(maxsize=4096)  # every pass re-reads the same history: each command is normalised once
def normalise_command(command: str) -> str:
    """The key under which cosmetic variants of one command count as the same command.

    Folded together: whitespace and quoting (``'a b'`` and ``"a b"``), shell
    comments, ``2>&1`` and ``/dev/null`` redirections, a subshell wrapping the
    whole command, leading ``cd DIR &&`` / ``sleep N &&`` steps, ``time`` and
    ``timeout N`` prefixes, trailing ``| tail``/``| head``/``| cat``/``| less``
    pipes, and the order of adjacent option flags (only within a run of
    flags, never across a positional argument or past ``--``).

    Deliberately kept apart: numbers and other arguments (``get-info 7839``
    and ``get-info 7835`` are different work), environment assignments and
    ``export``/``source`` steps (they change what runs), ``|| true`` and other
    operators that change the exit status. Unparseable input (an unbalanced
    quote) falls back to whitespace folding.
    """
    text = _COMMENT.sub("", _REDIRECTS.sub(" ", command))
    try:
        tokens = _tokenise(text)
    except ValueError:
        return " ".join(command.split())
    tokens = _unwrap_subshell(tokens)
    segments, operators = _split(tokens)
    _drop_leading_steps(segments, operators)
    _drop_trailing_pagers(segments, operators)
    parts: list[str] = []
    for index, segment in enumerate(segments):
        if index:
            parts.append(operators[index - 1])
        parts.extend(_render(_sort_flag_runs(_drop_wrappers(segment))))
    return " ".join(parts)


def _tokenise(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    return [token for token in lexer if token.strip()]


def _unwrap_subshell(tokens: list[str]) -> list[str]:
    while len(tokens) >= 2 and tokens[0] == "(" and tokens[-1] == ")" and _closes_at_end(tokens):
        tokens = tokens[1:-1]
    return tokens


def _closes_at_end(tokens: list[str]) -> bool:
    depth = 0
    for index, token in enumerate(tokens):
        depth += token.count("(") if _is_punctuation(token) else 0
        depth -= token.count(")") if _is_punctuation(token) else 0
        if depth == 0 and index < len(tokens) - 1:
            return False
    return depth == 0


def _split(tokens: list[str]) -> tuple[list[list[str]], list[str]]:
    """Split on top-level operators (parentheses keep ``$(a | b)`` in one segment)."""
    segments: list[list[str]] = [[]]
    operators: list[str] = []
    depth = 0
    for token in tokens:
        if _is_punctuation(token):
            depth += token.count("(") - token.count(")")
        if depth == 0 and token in _OPERATORS:
            if segments[-1]:  # an operator with nothing before it (`; a`) separates nothing
                operators.append(token)
                segments.append([])
        else:
            segments[-1].append(token)
    if not segments[-1] and operators:  # `a &` or `a ;` ends on an operator
        segments.pop()
        operators.pop()
    return segments, operators


def _drop_leading_steps(segments: list[list[str]], operators: list[str]) -> None:
    while len(segments) > 1 and operators[0] in ("&&", ";") and _is_setup_step(segments[0]):
        del segments[0], operators[0]


def _is_setup_step(segment: list[str]) -> bool:
    if segment[0] in _DIR_CHANGES and len(segment) <= 2:
        return True
    return segment[0] == "sleep" and len(segment) == 2 and bool(_DURATION.match(segment[1]))


def _drop_trailing_pagers(segments: list[list[str]], operators: list[str]) -> None:
    while len(segments) > 1 and operators[-1] in ("|", "|&") and segments[-1][0] in _PAGERS:
        del segments[-1], operators[-1]


def _drop_wrappers(segment: list[str]) -> list[str]:
    while segment:
        if segment[0] == "time":
            segment = segment[1:]
        elif segment[0] == "timeout" and len(segment) > 2 and _DURATION.match(segment[1]):
            segment = segment[2:]
        else:
            return segment
    return segment


def _is_flag(token: str) -> bool:
    return token.startswith("-") and token not in ("-", "--") and not _is_punctuation(token)


def _sort_flag_runs(segment: list[str]) -> list[str]:
    out = list(segment[:1])
    index = 1
    while index < len(segment):
        token = segment[index]
        if token == "--":
            out.extend(segment[index:])
            break
        if not _is_flag(token):
            out.append(token)
            index += 1
            continue
        end = index
        while end < len(segment) and _is_flag(segment[end]):
            end += 1
        out.extend(sorted(segment[index:end]))
        index = end
    return out


def _is_punctuation(token: str) -> bool:
    return bool(token) and all(char in _PUNCTUATION for char in token)


def _render(words: list[str]) -> list[str]:
    return [word if _is_punctuation(word) else shlex.quote(word) for word in words]


# --------------------------------------------------------------------------------------------
# Reading tool outcomes out of the observation stream
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Call:
    index: int
    observation: Observation
    error: Observation | None
    settled: bool

    @property
    def failed(self) -> bool:
        return self.error is not None


def _calls(observations: Sequence[Observation], tools: Iterable[str]) -> list[_Call]:
    wanted = frozenset(tools)
    errors = {obs.tool_use_id: obs for obs in observations if obs.kind == "error" and obs.tool_use_id}
    last = len(observations) - 1
    calls = []
    for index, obs in enumerate(observations):
        if obs.kind == "tool" and obs.tool in wanted and obs.tool_use_id:
            error = errors.get(obs.tool_use_id)
            calls.append(_Call(index, obs, error, settled=error is not None or index < last))
    return calls


def _command_of(obs: Observation) -> str | None:
    command = obs.args.get("command")
    return command if isinstance(command, str) and command.strip() else None


_ERROR_WORDS = re.compile(
    r"error|fail|exception|traceback|not found|no such|denied|cannot|can't|unable|invalid|refused|"
    r"timed? ?out|fatal|panic|abort",
    re.IGNORECASE,
)
_NOISE_LINE = re.compile(r"^(?:exit code -?\d+|[=\-_*#~. ]+)$", re.IGNORECASE)
_RENDER_PREFIX = re.compile(r"^\[error\][^:\n]*:\s*")
_EXIT_CODE = re.compile(r"^\s*(?:\[error\][^:\n]*:\s*)?exit code (-?\d+)\s*$", re.IGNORECASE | re.MULTILINE)
EVIDENCE_LINE_CAP = 200


def error_headline(text: str) -> str:
    """The most telling line of an error head, for evidence.

    The first line is often noise (``Exit code 1``, a pytest banner), so the
    first line that reads like an error wins; otherwise the first line that is
    not noise; otherwise the first non-empty line.
    """
    lines = [_RENDER_PREFIX.sub("", line).strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    meaningful = [line for line in lines if not _NOISE_LINE.match(line)]
    for line in meaningful:
        if _ERROR_WORDS.search(line):
            return _cap(line)
    chosen = meaningful[0] if meaningful else (lines[0] if lines else "")
    return _cap(chosen)


def _exit_code(text: str) -> int | None:
    found = _EXIT_CODE.search(text)
    return int(found.group(1)) if found else None


def _cap(line: str) -> str:
    return line if len(line) <= EVIDENCE_LINE_CAP else line[: EVIDENCE_LINE_CAP - 1] + "…"


def _remember(state: dict[str, Any], key: str) -> bool:
    """Record ``key`` as reported; False when it already was."""
    reported: list[str] = state.setdefault("reported", [])
    if key in reported:
        return False
    reported.append(key)
    del reported[:-REPORTED_CAP]
    return True


# --------------------------------------------------------------------------------------------
# repeat_failure
# --------------------------------------------------------------------------------------------

DEFAULT_IGNORED_ERRORS: tuple[str, ...] = (
    # Not the command failing: the user or the permission system stopped it.
    r"The user doesn't want to (?:proceed|take this action)",
    r"requires approval",
    r"was blocked\. For security",
)

REPEAT_FAILURE_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "min_failures": {
            "type": "integer",
            "minimum": 2,
            "maximum": 20,
            "default": 3,
            "description": "Failures of one normalised command, with no success in between, before the "
            "trigger fires. 2 catches loops sooner but also ordinary second attempts.",
        },
        "tools": {
            "type": "array",
            "items": {"type": "string", "minLength": 1},
            "default": list(COMMAND_TOOLS),
            "description": "Tools whose `command` argument is tracked.",
        },
        "ignore_errors": {
            "type": "array",
            "items": {"type": "string", "format": "regex"},
            "default": list(DEFAULT_IGNORED_ERRORS),
            "description": "Regexes over the error text; a matching error (a user rejection, a permission "
            "block) is neither a failure nor a success.",
        },
        "max_evidence": {
            "type": "integer",
            "minimum": 1,
            "maximum": 20,
            "default": 5,
            "description": "How many of the most recent attempts the match quotes.",
        },
    },
}


def repeat_failure(
    observations: Sequence[Observation], params: Mapping[str, Any], state: dict[str, Any]
) -> TriggerMatch | None:
    """Fire when one command (up to cosmetic variation) failed ``min_failures`` times in a row.

    Only a success of the same normalised command resets its streak; other
    commands and edits in between do not (they are counted in
    ``data.edits_between`` so the advisory can tell a blind retry from a fix
    attempt). When several streaks qualify, the one that failed most recently
    wins. A streak is reported once, identified by its first attempt.

    Match data: ``command`` (the latest attempt as typed), ``normalised``,
    ``failures``, ``variants`` (distinct spellings), ``edits_between``,
    ``exit_code`` (of the latest attempt, when the error head states it) and
    ``attempts`` (``timestamp``, ``command``, ``error`` per quoted attempt).
    """
    min_failures = int(params.get("min_failures", 3))
    tools = params.get("tools", COMMAND_TOOLS)
    ignored = [_regex(pattern) for pattern in params.get("ignore_errors", DEFAULT_IGNORED_ERRORS)]
    max_evidence = int(params.get("max_evidence", 5))

    streaks: dict[str, list[_Call]] = {}
    for call in _calls(observations, tools):
        command = _command_of(call.observation)
        if command is None or not call.settled:
            continue
        key = normalise_command(command)
        if call.error is None:
            streaks.pop(key, None)
        elif not any(pattern.search(call.error.text) for pattern in ignored):
            streaks.setdefault(key, []).append(call)

    ready = [(key, attempts) for key, attempts in streaks.items() if len(attempts) >= min_failures]
    for key, attempts in sorted(ready, key=lambda item: item[1][-1].index, reverse=True):
        if _remember(state, f"{key}@{attempts[0].observation.tool_use_id}"):
            return _failure_match(key, attempts, observations, max_evidence)
    return None


def _failure_match(
    key: str, attempts: list[_Call], observations: Sequence[Observation], max_evidence: int
) -> TriggerMatch:
    latest = attempts[-1]
    latest_command = _command_of(latest.observation) or key
    quoted = attempts[-max_evidence:]
    details = [
        {
            "timestamp": call.observation.timestamp,
            "command": _command_of(call.observation),
            "error": error_headline(call.error.text) if call.error else "",
        }
        for call in quoted
    ]
    span = observations[attempts[0].index : latest.index]
    edits = sum(1 for obs in span if obs.kind == "tool" and obs.tool in EDIT_TOOLS)
    return TriggerMatch(
        key=key,
        summary=f"`{_cap(latest_command)}` failed {len(attempts)} times in a row",
        evidence=tuple(f"{item['timestamp'] or 'time unknown'}: {item['error']}" for item in details),
        data={
            "command": latest_command,
            "normalised": key,
            "failures": len(attempts),
            "variants": len({_command_of(call.observation) for call in attempts}),
            "edits_between": edits,
            "exit_code": _exit_code(latest.error.text) if latest.error else None,
            "attempts": details,
        },
    )


# --------------------------------------------------------------------------------------------
# standard_questions
# --------------------------------------------------------------------------------------------

STANDARD_QUESTIONS_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {},
    "description": "No params: the checklist is the detector's `config` (config.questions).",
}

DEFAULT_NON_CODE: tuple[str, ...] = ("*.md", "*.rst", "*.adoc", "docs/**", "LICENSE*")


@dataclass(frozen=True)
class _Edit:
    index: int
    path: str
    timestamp: str | None
    ref: str


def standard_questions(
    observations: Sequence[Observation],
    params: Mapping[str, Any],
    state: dict[str, Any],
    config: Mapping[str, Any],
) -> TriggerMatch | None:
    """Fire when an enabled checklist question applies and nothing observed answers it.

    The checklist is the detector's ``config.questions``. A question applies
    once there has been an edit (``applies_after: edit``) or an edit to a path
    outside ``config.non_code`` (``applies_after: code_edit``); edits to paths
    matching the question's ``ignore_edits`` never make it apply. It is answered
    by a command matching one of ``answered_by.commands`` (regexes, searched in
    the command text, whether the command succeeded or not: the question is
    whether it ran) or an edit to a path matching ``answered_by.edits`` (globs),
    observed within ``answered_within``: ``after_last_edit`` (after the latest
    applicable edit), ``after_first_edit`` or ``anywhere``.

    Without any edit the trigger stays silent. The match key is the sorted
    unanswered ids plus the latest edit, so the same gap is reported once and a
    new edit that leaves it open is a new finding.

    Match data: ``unanswered`` (``id``, ``question``, ``since`` timestamp,
    ``since_path``, ``edits_since``), ``answered`` (ids), ``edits`` (count) and
    ``last_edit`` (``path``, ``timestamp``).
    """
    questions = [q for q in config.get("questions") or () if q.get("enabled", True)]
    edit_tools = frozenset(config.get("edit_tools") or EDIT_TOOLS)
    command_tools = frozenset(config.get("command_tools") or COMMAND_TOOLS)
    non_code = tuple(config.get("non_code", DEFAULT_NON_CODE))

    edits = _edits(observations, edit_tools)
    if not edits or not questions:
        return None
    code_edits = [edit for edit in edits if not _path_matches(edit.path, non_code)]
    commands = [
        (index, command)
        for index, obs in enumerate(observations)
        if obs.kind == "tool" and obs.tool in command_tools and (command := _command_of(obs))
    ]

    unanswered: list[dict[str, Any]] = []
    answered: list[str] = []
    for question in questions:
        relevant = code_edits if question.get("applies_after", "edit") == "code_edit" else edits
        ignore = tuple(question.get("ignore_edits") or ())
        relevant = [edit for edit in relevant if not _path_matches(edit.path, ignore)]
        if not relevant:
            continue
        within = question.get("answered_within", "after_last_edit")
        anchor = {"after_last_edit": relevant[-1], "after_first_edit": relevant[0]}.get(within)
        start = anchor.index if anchor else -1
        if _answered(question, start, commands, edits):
            answered.append(question["id"])
            continue
        since = anchor or relevant[0]
        unanswered.append(
            {
                "id": question["id"],
                "question": question["question"],
                "since": since.timestamp,
                "since_path": since.path,
                "edits_since": sum(1 for edit in relevant if edit.index >= since.index),
            }
        )
    if not unanswered:
        return None
    last = edits[-1]
    key = ",".join(sorted(item["id"] for item in unanswered)) + f"@{last.ref}"
    if not _remember(state, key):
        return None
    return TriggerMatch(
        key=key,
        summary=f"{len(unanswered)} checklist question(s) unanswered since the last edit: "
        + ", ".join(item["id"] for item in unanswered),
        evidence=tuple(
            f"{item['id']}: nothing observed answers it since {item['since_path']}"
            f" ({item['since'] or 'time unknown'}, {item['edits_since']} edit(s))"
            for item in unanswered
        ),
        data={
            "unanswered": unanswered,
            "answered": answered,
            "edits": len(edits),
            "last_edit": {"path": last.path, "timestamp": last.timestamp},
        },
    )


def _edits(observations: Sequence[Observation], edit_tools: frozenset[str]) -> list[_Edit]:
    """Edits that took effect: one whose result is an error (rejected, or the text to replace was not
    found) changed nothing, so it neither makes a question apply nor answers one."""
    failed = {obs.tool_use_id for obs in observations if obs.kind == "error" and obs.tool_use_id}
    edits = []
    for index, obs in enumerate(observations):
        if obs.kind != "tool" or obs.tool not in edit_tools:
            continue
        if obs.tool_use_id and obs.tool_use_id in failed:
            continue
        path = obs.args.get("file_path") or obs.args.get("notebook_path") or obs.args.get("path")
        if isinstance(path, str) and path:
            ref = obs.tool_use_id or obs.uuid or str(index)
            edits.append(_Edit(index, path, obs.timestamp, ref))
    return edits


def _answered(
    question: Mapping[str, Any], start: int, commands: list[tuple[int, str]], edits: list[_Edit]
) -> bool:
    answered_by = question.get("answered_by") or {}
    patterns = [_regex(pattern) for pattern in answered_by.get("commands") or ()]
    globs = tuple(answered_by.get("edits") or ())
    if any(index > start and any(p.search(command) for p in patterns) for index, command in commands):
        return True
    return any(edit.index >= start and _path_matches(edit.path, globs) for edit in edits if globs)


@lru_cache(maxsize=512)
def _regex(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from exc


def _path_matches(path: str, globs: Iterable[str]) -> bool:
    normalised = path.replace("\\", "/")
    return any(_glob(pattern).search(normalised) for pattern in globs)


@lru_cache(maxsize=512)
def _glob(pattern: str) -> re.Pattern[str]:
    """Compile a path glob: ``*`` and ``?`` stay within one path segment, ``**`` crosses them.

    A pattern without a leading ``/`` may match at any directory boundary
    (``docs/**`` matches ``/repo/docs/a.md``), as in ``.gitignore``; the match
    always runs to the end of the path.
    """
    anchored = pattern.startswith("/")
    body = pattern.lstrip("/")
    out = []
    index = 0
    while index < len(body):
        if body.startswith("**/", index):
            out.append("(?:[^/]*/)*")
            index += 3
        elif body.startswith("**", index):
            out.append(".*")
            index += 2
        elif body[index] == "*":
            out.append("[^/]*")
            index += 1
        elif body[index] == "?":
            out.append("[^/]")
            index += 1
        else:
            out.append(re.escape(body[index]))
            index += 1
    prefix = "^/" if anchored else "(?:^|/)"
    return re.compile(prefix + "".join(out) + "$")
