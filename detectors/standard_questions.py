"""The standard-questions trigger: after code changed, the questions a careful reviewer would ask (tests run?
tests added? build checked?) that the session has not answered yet.

It reads the edits and commands folded into the task's history (:mod:`sbcore.observe.history`), what the
project has (:class:`~sbcore.api.ProjectFacts`: test folders, build files, the scripts a manifest defines),
and the prompts and reports that answer or decline a question. Shared readings of the observation stream (a
call's command, the tool names) come from :mod:`detectors.triggers`.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sbcore.api import UNKNOWN, Observation, ProjectFacts, TriggerMatch, is_build_path, report_once
from sbcore.observe.history import Matches, ObservationHistory, history_of
from sbcore.pathglob import glob_source

from .checklist import (
    adds_definitions,
    comment_only,
    delegated_commands,
    describes_only,
    edit_contents,
    paths_of,
    regex,
    renders_template,
    runs_any,
    runs_test_path,
    shows_any,
)
from .identity import script_body, work_identity
from .roles import COMMAND_TOOLS, DELEGATE_TOOLS, EDIT_TOOLS, command_in

__all__ = ["STANDARD_QUESTIONS_PARAMS", "standard_questions"]

STANDARD_QUESTIONS_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {},
    "description": "No params: the checklist is the detector's `config` (config.questions).",
}

DEFAULT_NON_CODE: tuple[str, ...] = (
    "*.md",
    "*.rst",
    "*.adoc",
    "*.txt",
    "docs/**",
    "LICENSE*",
    ".github/**",
    ".gitlab-ci.yml",
    ".circleci/**",
    "*.yml",
    "*.yaml",
    "*.lock",
    "*.ini",
    "*.cfg",
    ".gitignore",
    "*.example",
    "*.sample",
    ".env*",
    ".claude/**",
    ".vscode/**",
    ".idea/**",
    *("*.org", "*.pod", "*.rdoc", "*.textile", "*.texi", "*.markdown", "*.asciidoc", "*.wiki"),
    *("CHANGELOG*", "CHANGES*", "NEWS*", "HISTORY*", "README*", "AUTHORS*", "CONTRIBUTING*", "NOTICE*"),
    *(".*rc", "*.psd1", ".*ignore"),
)


@dataclass(frozen=True)
class _Edit:
    index: int
    path: str
    timestamp: str | None
    ref: str
    new_code: bool = False  # a file written whole, or an edit that adds a definition
    cosmetic: bool = False  # only comments or docstrings changed, or a manifest's metadata
    template: bool = False  # the new text holds template directives: a settings file that computes


def standard_questions(
    observations: Sequence[Observation],
    params: Mapping[str, Any],
    state: dict[str, Any],
    config: Mapping[str, Any],
    project: ProjectFacts = UNKNOWN,
) -> TriggerMatch | None:
    """Fire when an enabled checklist question applies, can be answered here, and nothing answers it.

    The checklist is the detector's ``config.questions``. A question applies once there has been
    an edit (``applies_after: edit``), an edit to a path outside ``config.non_code`` that changed
    more than comments or docstrings, or more than a manifest's metadata (``code_edit``), or a whole file
    of code written
    (``code_write``: new code — a file written whole, or an edit adding a definition such as a function,
    method, class or type, as opposed to changes inside existing code); edits to paths matching
    the question's ``ignore_edits`` never make it apply.

    Precision first: a question with ``applies_when`` is asked only where the project can answer it:
    a path seen in the session or found in the checkout (``project``, the read-only reading of it)
    matching ``applies_when.paths``, a command run matching ``applies_when.commands``, or an edit whose
    new text matches ``applies_when.content`` (the project evidently has tests, or a build). A user
    prompt matching ``moot_when.prompts`` ("do not run the tests") makes it moot for the rest of the
    session.

    It is answered by an invocation matching one of ``answered_by.commands`` (regexes over each
    step of a command, with wrappers and environment removed, never over an install, a print or
    a commit message; whether the command succeeded or not: the question is whether it ran) — a
    command tool's (``config.command_tools``) or one a subagent was told to run, spelt out in the
    prompt of a ``config.delegate_tools`` call (:func:`~.checklist.delegated_commands`) — a
    subagent report matching ``answered_by.reports``, or an edit to a path matching
    ``answered_by.edits`` (globs), observed within ``answered_within``: ``after_last_edit``,
    ``after_first_edit`` (of the applicable edits) or ``anywhere``.

    Without any edit the trigger stays silent. The match key is the sorted unanswered ids plus
    the latest edit, so the same gap is reported once and a new edit that leaves it open is a new
    finding.

    Match data: ``unanswered`` (``id``, ``question``, ``since`` timestamp, ``since_path``: the
    code edit the question is about, ``edits_since``), ``answered`` (ids), ``edits`` (count) and
    ``last_edit`` (``path``, ``timestamp``).
    """
    questions = [q for q in config.get("questions") or () if q.get("enabled", True)]
    edit_tools = frozenset(config.get("edit_tools") or EDIT_TOOLS)
    command_tools = frozenset(config.get("command_tools") or COMMAND_TOOLS)
    delegate_tools = frozenset(config.get("delegate_tools", DELEGATE_TOOLS))
    non_code = tuple(config.get("non_code", DEFAULT_NON_CODE))

    history = history_of(observations)
    edits = _edits(history, edit_tools, ("edit", ()))
    if not edits or not questions:
        return None
    session = _SessionReading(history, command_tools, delegate_tools, edit_tools, project)

    unanswered: list[dict[str, Any]] = []
    answered: list[str] = []
    for question in questions:
        relevant = _applicable(history, question, edit_tools, non_code)
        if not relevant or not session.can_answer(question) or session.moot(question):
            continue
        within = question.get("answered_within", "after_last_edit")
        first, latest = relevant.first(), relevant.last()
        anchor = {"after_last_edit": latest, "after_first_edit": first}.get(within)
        start = anchor.index if anchor else -1
        if _answered(history, question, start, session, edit_tools, latest.path):
            answered.append(question["id"])
            continue
        since = anchor or first
        unanswered.append(
            {
                "id": question["id"],
                "question": question["question"],
                "since": since.timestamp,
                "since_path": since.path,
                "edits_since": 1 if since is latest else len(relevant),  # since is the first or the last
            }
        )
    if not unanswered:
        return None
    last = edits.last()
    key = ",".join(sorted(item["id"] for item in unanswered)) + f"@{last.ref}"
    if not report_once(state, key):
        return None
    return TriggerMatch(
        key=key,
        summary=f"{len(unanswered)} checklist question(s) open since the edit to "
        f"{unanswered[0]['since_path']}: " + ", ".join(item["id"] for item in unanswered),
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


def _applicable(
    history: ObservationHistory,
    question: Mapping[str, Any],
    edit_tools: frozenset[str],
    non_code: tuple[str, ...],
) -> _Edits:
    """The edits that make ``question`` apply (its ``applies_after``, minus its ``ignore_edits``)."""
    after = question.get("applies_after", "edit")
    code = () if after not in ("code_edit", "code_write") else non_code
    return _edits(history, edit_tools, (after, code), tuple(question.get("ignore_edits") or ()))


class _SessionReading:
    """What the session shows beyond edits: paths seen, invocations, reports, prompts.

    Each reading is a fold of the history (:class:`~sbcore.observe.history.Matches`) keyed by what it
    looks for, so an observation is read once however many passes ask.
    """

    def __init__(
        self,
        history: ObservationHistory,
        command_tools: frozenset[str],
        delegate_tools: frozenset[str],
        edit_tools: frozenset[str],
        project: ProjectFacts = UNKNOWN,
    ) -> None:
        self.history = history
        self._command_tools = command_tools
        self._delegate_tools = delegate_tools
        self._edit_tools = edit_tools
        self._project = project

    def _commands(self, patterns: Sequence[str], *, shown: bool = False) -> Matches:
        """Commands with an invocation matching one of ``patterns``: those the command tools ran, and
        those a delegation (a subagent's prompt) spelt out for the subagent to run. ``shown``: count a
        format or lint task's step too (:func:`~.checklist.shows_any`), for what the project has."""
        tools, delegates = self._command_tools, self._delegate_tools
        compiled = tuple(regex(pattern) for pattern in patterns)
        scripts = self._project.scripts
        matches = shows_any if shown else runs_any

        def runs(command: str) -> bool:  # the command, or a project script it names (`mix ci`)
            return matches(command, compiled) or any(
                matches(body, compiled) for body in _scripts_run(command, scripts)
            )

        fold = Matches if shown else _Runs  # a run its command line refused still shows what the project has
        return self.history.fold(
            ("commands", tools, delegates, tuple(patterns), id(self._project), shown),
            lambda: fold(lambda obs: _commands_in(obs, tools, delegates), runs),
        )

    def can_answer(self, question: Mapping[str, Any]) -> bool:
        when = question.get("applies_when")
        if not when:
            return True
        globs = tuple(when.get("paths") or ())
        if (
            globs
            and self.history.fold(
                ("paths", globs), lambda: Matches(paths_of, lambda path: _path_matches(path, globs))
            ).any()
        ):
            return True
        if globs and _project_has(self._project, globs):
            return True
        commands = tuple(when.get("commands") or ())
        if commands and self._commands(commands, shown=True).any():
            return True
        skipping = tuple(when.get("skipping") or ())
        if skipping and self._skipping(skipping):
            return True
        content = tuple(when.get("content") or ())
        if not content:
            return False
        compiled = [regex(pattern) for pattern in content]
        tools = self._edit_tools
        return self.history.fold(
            ("content", tools, content),
            lambda: Matches(
                lambda obs: edit_contents((obs,), tools), lambda text: any(p.search(text) for p in compiled)
            ),
        ).any()

    def _skipping(self, patterns: tuple[str, ...]) -> bool:
        """Whether a command the agent ran was told to skip what ``patterns`` name (`-DskipTests`): the
        project has it to skip."""
        compiled = tuple(regex(pattern) for pattern in patterns)
        tools = self._command_tools
        return self.history.fold(
            ("skipping", tools, patterns),
            lambda: Matches(
                lambda obs: _commands_in(obs, tools, frozenset()), lambda c: _searches(c, compiled)
            ),
        ).any()

    def moot(self, question: Mapping[str, Any]) -> bool:
        patterns = tuple((question.get("moot_when") or {}).get("prompts") or ())
        if not patterns:
            return False
        found = tuple(regex(pattern) for pattern in patterns)
        return self.history.fold(
            ("moot", patterns), lambda: Matches(_prompt_text, lambda text: _searches(text, found))
        ).any()

    def commands_after(self, start: int, patterns: Sequence[str]) -> bool:
        """Whether a command matching ``patterns`` ran after absolute position ``start``."""
        return bool(patterns) and self._commands(patterns).after(start)

    def test_paths_after(self, start: int) -> bool:
        """Whether a command run after absolute position ``start`` ran a test folder or file
        (:func:`~.checklist.runs_test_path`), by the agent or as a subagent was told to."""
        tools, delegates = self._command_tools, self._delegate_tools
        scripts = self._project.scripts

        def runs(command: str) -> bool:  # the command, or a project script it names (`make unit`)
            return runs_test_path(command) or any(map(runs_test_path, _scripts_run(command, scripts)))

        return self.history.fold(
            ("test paths", tools, delegates, id(self._project)),
            lambda: _Runs(lambda obs: _commands_in(obs, tools, delegates), runs),
        ).after(start)

    def reports_after(self, start: int, patterns: Sequence[str]) -> bool:
        if not patterns:
            return False
        compiled = [regex(pattern) for pattern in patterns]
        return self.history.fold(
            ("reports", tuple(patterns)),
            lambda: Matches(_report_text, lambda text: any(p.search(text) for p in compiled)),
        ).after(start)

    def narrated_after(self, start: int, patterns: Sequence[str]) -> bool:
        """Whether the agent, after absolute position ``start``, named a command it had run since then (one
        matching ``patterns``) and said on that line how it came out (:class:`_Narrated`)."""
        if not patterns:
            return False
        compiled = tuple(regex(pattern) for pattern in patterns)
        return self.history.fold(
            ("narrated", self._command_tools, patterns), lambda: _Narrated(self._command_tools, compiled)
        ).after(start)


class _Narrated:
    """A fold of the agent's own words reporting how a command it ran came out: a code span naming the command
    (the span, two words at least, within the command, or the command within the span; a run refused at its
    command line is none), then on that line an outcome (`passes`,
    `all passing`, `3 failed`, `green`), not a plan (`should pass`, `needs to pass`). A run whose spelling no
    pattern of a runner knows (a monorepo tool's `affected -t test`, a task runner given several tasks) is
    still the run the agent says it was, when it names it so after running it. Each report is kept with the
    position of the run it names, so an answer counts only when both came after the change."""

    def __init__(self, tools: frozenset[str], patterns: tuple[re.Pattern[str], ...]) -> None:
        self._tools = tools
        self._patterns = patterns
        self._runs: deque[tuple[int, str]] = deque()  # (position, command with its spaces folded)
        self._said: deque[tuple[int, int]] = deque()  # (position of the words, position of the run)
        self._calls: dict[str, int] = {}  # call id -> position, of each run kept

    def add(self, index: int, obs: Observation) -> None:
        if obs.kind == "tool" and obs.tool in self._tools:
            command = command_in(obs)
            if command and any(pattern.search(command) for pattern in self._patterns):
                self._runs.append((index, " ".join(command.split())))
                self._calls[obs.tool_use_id or ""] = index
        elif obs.kind == "error" and obs.tool_use_id in self._calls and _refused(obs):
            refused = self._calls.pop(obs.tool_use_id or "")
            self._runs = deque(run for run in self._runs if run[0] != refused)  # it did none of its work
        elif obs.kind == "text" and self._runs and "`" in obs.text:
            for span in _CODE_SPAN.finditer(obs.text):
                named = " ".join(span.group(1).split())
                line_end = obs.text.find("\n", span.end())
                if (
                    len(named) < _NAMED_LEAST
                    or " " not in named
                    or not _OUTCOME.match(obs.text, span.end(), len(obs.text) if line_end < 0 else line_end)
                ):
                    continue
                run = next(
                    (at for at, command in reversed(self._runs) if named in command or command in named), None
                )
                if run is not None:
                    self._said.append((index, run))

    def forget(self, before: int) -> None:
        while self._runs and self._runs[0][0] < before:
            self._runs.popleft()
        while self._said and min(self._said[0]) < before:
            self._said.popleft()
        self._calls = {call: at for call, at in self._calls.items() if at >= before}

    def after(self, position: int) -> bool:
        return any(said > position and run > position for said, run in self._said)


_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_NAMED_LEAST = 6  # characters of a command a span must hold to name it: a program and a word at least
# How the named run came out, later on its line: an outcome word, not under a word that makes it a plan or a
# doubt (`should pass`, `needs to pass`, `not passing`).
_OUTCOME = re.compile(
    r"(?:(?!\b(?:not|unable|cannot|should|would|will|need|needs|must|please|to|if)\b|n't\b)[^\n]){0,160}?"
    r"\b(?i:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?|fail(?:s|ed|ing)?)\b"
)


def _scripts_run(command: str, scripts: Mapping[str, str]) -> list[str]:
    """What the project's scripts that ``command`` runs by name run, each step's alone (``make -j8 && make
    unit`` runs the ``unit`` recipe, ``make lint unit`` the ``lint`` and ``unit`` recipes)."""
    if not scripts:
        return []
    work = work_identity(command)
    bodies = (script_body(step, scripts) for step in work.steps or (work,))
    return [body for body in bodies if body]


@lru_cache(maxsize=256)
def _project_has(project: ProjectFacts, globs: tuple[str, ...]) -> bool:
    """Whether the checkout holds a path matching ``globs`` (cached: one reading is asked pass after pass)."""
    return any(_path_matches(path, globs) for path in project.paths)


def _commands_in(obs: Observation, tools: frozenset[str], delegates: frozenset[str]) -> tuple[str, ...]:
    if obs.kind != "tool":
        return ()
    if obs.tool in tools:
        command = command_in(obs)
        return (command,) if command else ()
    prompt = obs.args.get("prompt") if obs.tool in delegates else None
    return delegated_commands(prompt) if isinstance(prompt, str) else ()


class _Runs(Matches):
    """:class:`Matches` of the commands that ran: one the program refused at its own command line (an
    option it does not know, a plugin's option with the plugin missing, a program not installed) did none
    of its work, so it answers no question."""

    def __init__(
        self, values: Callable[[Observation], Iterable[str]], accepts: Callable[[str], bool]
    ) -> None:
        super().__init__(values, accepts)
        self._calls: dict[str, int] = {}  # call id -> position, of each accepted call awaiting its result

    def add(self, index: int, obs: Observation) -> None:
        if obs.kind == "error" and obs.tool_use_id in self._calls:
            if _refused(obs):
                self.withdraw(self._calls.pop(obs.tool_use_id or ""))
            return
        before = self.latest
        super().add(index, obs)
        if self.latest != before and obs.tool_use_id:
            self._calls[obs.tool_use_id] = index

    def forget(self, before: int) -> None:
        super().forget(before)
        self._calls = {call: at for call, at in self._calls.items() if at >= before}


def _refused(error: Observation) -> bool:
    """Whether a failed command was refused before it did any work: not found or not runnable (exit 127 or
    126), or told an option or a subcommand its program does not know, which it says first (a test failing
    on such a message says it further down, under the test's name)."""
    if (error.outcome or {}).get("exit_code") in (126, 127):
        return True
    return _REFUSED.search("\n".join(error.text.split("\n", 4)[:4])) is not None


_REFUSED = re.compile(
    r"(?i)\b(?:unrecognized (?:arguments?|options?)|unknown (?:option|flag|argument|(?:sub)?command)s?\b"
    r"|(?:invalid|illegal|no such) option|command not found|is not recognized as (?:an internal|the name))"
)


def _prompt_text(obs: Observation) -> tuple[str, ...]:
    return (obs.text,) if obs.kind == "prompt" else ()


def _report_text(obs: Observation) -> tuple[str, ...]:
    return (obs.text,) if obs.kind == "report" else ()


@lru_cache(maxsize=4096)
def _searches(text: str, patterns: tuple[re.Pattern[str], ...]) -> bool:
    """Whether any of ``patterns`` is found in ``text`` (cached: a session's prompts are asked every pass)."""
    return any(p.search(text) for p in patterns)


class _Edits:
    """A fold of the edits that took effect, among those a rule picks, in order.

    An edit whose result is an error (rejected, or the text to replace was not found) changed nothing,
    so it neither makes a question apply nor answers one. Its error arrives after it, possibly passes
    later: the fold sees the error arrive and takes the edit out then (and puts it back should an error
    that came first leave the history before it).
    """

    def __init__(self, edit_tools: frozenset[str], picks: Callable[[_Edit], bool]) -> None:
        self._edit_tools = edit_tools
        self._picks = picks
        self.kept: dict[int, _Edit] = {}  # position -> edit, in position order
        self._order: deque[tuple[str | None, _Edit]] = deque()  # every picked edit, with its call id
        self._by_call: dict[str, list[_Edit]] = {}
        self._errors: dict[str, int] = {}  # call id -> its errors still in the history
        self._error_order: deque[tuple[int, str]] = deque()

    def __len__(self) -> int:
        return len(self.kept)

    def first(self) -> _Edit:
        return next(iter(self.kept.values()))

    def last(self) -> _Edit:
        return next(reversed(self.kept.values()))

    def add(self, index: int, obs: Observation) -> None:
        call_id = obs.tool_use_id
        if obs.kind == "error" and call_id:
            self._errors[call_id] = self._errors.get(call_id, 0) + 1
            self._error_order.append((index, call_id))
            for failed in self._by_call.get(call_id, ()):
                self.kept.pop(failed.index, None)
            return
        edit = _edit_of(index, obs, self._edit_tools)
        if edit is None or not self._picks(edit):
            return
        self._order.append((call_id, edit))
        if call_id:
            self._by_call.setdefault(call_id, []).append(edit)
        if not (call_id and call_id in self._errors):
            self.kept[index] = edit

    def forget(self, before: int) -> None:
        while self._order and self._order[0][1].index < before:
            call_id, edit = self._order.popleft()
            self.kept.pop(edit.index, None)
            if call_id:
                left = [other for other in self._by_call.get(call_id, ()) if other is not edit]
                if left:
                    self._by_call[call_id] = left
                else:
                    self._by_call.pop(call_id, None)
        while self._error_order and self._error_order[0][0] < before:
            _, call_id = self._error_order.popleft()
            self._errors[call_id] -= 1
            if not self._errors[call_id]:
                del self._errors[call_id]
                back = self._by_call.get(call_id, [])
                if back:  # its error came before it and has left: it counts again
                    self.kept.update((edit.index, edit) for edit in back)
                    self.kept = dict(sorted(self.kept.items()))


def _edit_of(index: int, obs: Observation, edit_tools: frozenset[str]) -> _Edit | None:
    if obs.kind != "tool" or obs.tool not in edit_tools:
        return None
    path = obs.args.get("file_path") or obs.args.get("notebook_path") or obs.args.get("path")
    if not isinstance(path, str) or not path:
        return None
    ref = obs.tool_use_id or obs.uuid or str(index)
    new_code = obs.tool == "Write" or adds_definitions(obs)
    # a notebook's markdown cell is prose, as a comment is
    prose = obs.args.get("cell_type") == "markdown"
    cosmetic = prose or comment_only(obs) or describes_only(obs)
    return _Edit(index, path, obs.timestamp, ref, new_code, cosmetic, renders_template(obs))


def _edits(
    history: ObservationHistory,
    edit_tools: frozenset[str],
    applies: tuple[str, tuple[str, ...]],
    ignore: tuple[str, ...] = (),
    only: tuple[str, ...] = (),
) -> _Edits:
    """The edits that took effect among those of ``edit_tools`` that ``applies`` names: ``("edit", ())``
    every one, ``("code_edit", non_code)`` those changing code, ``("code_write", non_code)`` new code
    of code; minus those matching ``ignore``; only those matching ``only`` when it is given."""
    after, non_code = applies

    def picks(edit: _Edit) -> bool:
        if after in ("code_edit", "code_write") and (
            edit.cosmetic
            or (_path_matches(edit.path, non_code) and not is_build_path(edit.path) and not edit.template)
        ):
            return (
                False  # not code: a comment, a document, settings (a manifest, a build file or a template is)
            )
        if after == "code_write" and not edit.new_code:
            return False
        if ignore and not edit.template and _path_matches(edit.path, ignore):
            return False  # (a template is code in a settings file's name: it is not what `ignore` means)
        return not only or _path_matches(edit.path, only)

    return history.fold(("edits", edit_tools, applies, ignore, only), lambda: _Edits(edit_tools, picks))


def _answered(
    history: ObservationHistory,
    question: Mapping[str, Any],
    start: int,
    session: _SessionReading,
    edit_tools: frozenset[str],
    edited: str,
) -> bool:
    """Whether what ``question``'s ``answered_by`` names happened after absolute position ``start``
    (``edited``: the path of the latest edit the question applies after)."""
    answered_by = question.get("answered_by") or {}
    if session.commands_after(start, tuple(answered_by.get("commands") or ())):
        return True
    if session.reports_after(start, tuple(answered_by.get("reports") or ())):
        return True
    if session.narrated_after(start, tuple(answered_by.get("narrated_runs") or ())):
        return True
    tested = answered_by.get("tested_builds") or {}
    if (
        tested
        and _path_matches(edited, tuple(tested.get("paths") or ()))
        and session.commands_after(start, tuple(tested.get("commands") or ()))
    ):
        return True
    if answered_by.get("test_paths") and session.test_paths_after(start):
        return True
    globs = tuple(answered_by.get("edits") or ())
    if not globs:
        return False
    answers = _edits(history, edit_tools, ("edit", ()), only=globs)
    if answers and answers.last().index >= start:
        return True
    declined = history.fold(("declined", edit_tools, globs), lambda: _Declined(edit_tools, globs))
    return declined.latest is not None and declined.latest >= start


class _Declined:
    """A fold of the edits to answering paths (a test file) that the user turned down: the user was shown
    the answer and chose against it, so asking the question again goes against their choice."""

    def __init__(self, edit_tools: frozenset[str], globs: tuple[str, ...]) -> None:
        self._edit_tools = edit_tools
        self._globs = globs
        self._calls: dict[str, int] = {}  # call id -> position of an edit to an answering path
        self.latest: int | None = None

    def add(self, index: int, obs: Observation) -> None:
        if obs.kind == "tool" and obs.tool in self._edit_tools and obs.tool_use_id:
            edit = _edit_of(index, obs, self._edit_tools)
            if edit is not None and _path_matches(edit.path, self._globs):
                self._calls[obs.tool_use_id] = index
        elif obs.kind == "error" and obs.tool_use_id in self._calls and _USER_DECLINED.search(obs.text):
            at = self._calls.pop(obs.tool_use_id or "")
            self.latest = at if self.latest is None else max(self.latest, at)

    def forget(self, before: int) -> None:
        self._calls = {call: at for call, at in self._calls.items() if at >= before}
        if self.latest is not None and self.latest < before:
            self.latest = None


_USER_DECLINED = re.compile(r"The user doesn't want to (?:proceed|take this action)")


def _path_matches(path: str, globs: Iterable[str]) -> bool:
    """Whether ``path`` matches any of ``globs`` (cached: a session names the same paths pass after pass)."""
    return _matches(path.replace("\\", "/"), tuple(globs))


@lru_cache(maxsize=65_536)
def _matches(path: str, globs: tuple[str, ...]) -> bool:
    return bool(globs) and _union(globs).search(path) is not None


@lru_cache(maxsize=256)
def _union(globs: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for a set of globs: a path matches it exactly when it matches one of them."""
    return re.compile("|".join(f"(?:{glob_source(pattern)})" for pattern in globs))
