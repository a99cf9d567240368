"""Structural triggers of the built-in pack: checks the worker computes, not judgments.

A structural trigger looks at the projected observations of a task and either
returns a :class:`~sbcore.api.TriggerMatch` or ``None``. The detector
that names it runs only on a match, and the model is handed the match as
evidence, so it cannot invent a finding the check did not see. Repeat-failure
here and standard-questions (:mod:`detectors.standard_questions`, which reads
with the helpers of this module) are pure functions of the observation
sequence (judged anew on every pass, so a late-arriving error corrects an
earlier reading); ``state`` is used only to
avoid handing the same finding to a fork twice. What they read of each
observation (a call's command, an edit's path, the paths named, the prompts and
reports matching a pattern) is folded into the history once, as the observation
arrives (:mod:`sbcore.observe.history`): a pass walks the calls and edits still
in the history, never the whole history again, and repeat-failure goes on with
the walk the pass before it kept while nothing it read has changed.

How tool outcomes are read: a call is a ``tool`` observation carrying its
``tool_use_id``; a failure is an ``error`` observation with the same id; a call
with no error that is followed by any later observation counted as a success
(the projection drops successful results, so their absence is the signal). A
command result the harness marked successful but whose outcome shows the work
failing (a piped run, an echoed exit status) arrives as an ``error`` observation
carrying that outcome (``Observation.outcome``), so it counts as a failure. The
very last call, with nothing after it, is still in flight and counts as
neither.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import islice
from typing import Any

from sbcore.api import (
    UNKNOWN,
    Observation,
    ProjectFacts,
    TriggerMatch,
    is_noise,
    is_wrapper_summary,
    report_once,
    without_options,
)
from sbcore.observe.history import Errors, ObservationHistory, history_of

from .checklist import (
    PerObservation,
    regex,
)
from .echoes import echoed, line_works
from .failures import same_failure
from .identity import Work, scripted, work_identity
from .progress import Attempt, Call, edit_calls, recurring, stuck_tail
from .roles import COMMAND_TOOLS, EDIT_TOOLS, command_in
from .same_work import (
    RootEvidence,
    ScriptAliases,
    edited_path,
    failed_step,
    path_words,
    place,
    relative_to,
)
from .shell import normalise_command, status_hidden

__all__ = ["command_in", "normalise_command", "repeat_failure", "work_identity"]

# --------------------------------------------------------------------------------------------
# Reading tool outcomes out of the observation stream
# --------------------------------------------------------------------------------------------


class _Entry:
    """One command call the fold keeps, with what a pass reads of it worked out once: its work identity
    spelt relative to the project root (for the root it was worked out for), the works a success of it
    ends, and the attempt its error makes (for the error it was judged for)."""

    __slots__ = (
        *("_attempt", "_ended", "_relative", "call_id", "command", "index", "obs", "ran_in", "scripts"),
        "work",
    )

    def __init__(self, index: int, obs: Observation, command: str, scripts: Mapping[str, str]) -> None:
        self.index = index
        self.obs = obs
        self.command = command
        self.scripts = scripts
        self.work = scripted(work_identity(command), scripts)
        ran_in = obs.args.get("cwd")
        self.ran_in = ran_in.rstrip("/") if isinstance(ran_in, str) and ran_in.startswith("/") else ""
        self.call_id = obs.tool_use_id or ""
        self._relative: tuple[str, Work] | None = None  # (root, work spelt relative to it)
        self._ended: tuple[Work, tuple[Work, ...]] | None = None  # (work, what its success ends)
        self._attempt: tuple[Observation, Attempt | None] | None = None  # (error, attempt)

    def work_at(self, root: str) -> Work:
        """The work identity, spelt from ``root``: the project's absolute paths relative to it when the
        command named no directory of its own or an absolute one (then where it ran changes nothing), else
        as if a ``cd`` had taken it from the root to where it started (:func:`~sbcore.detectors.same_work.
        place`), so that its relative paths name the same files as they do from there: ``cd build &&
        make``, then ``make`` in the directory the shell kept, are one piece of work, and so are ``cd
        engines/billing && rspec spec/a_spec.rb`` and ``rspec spec/a_spec.rb`` run there."""
        if not root:
            return self.work
        found = self._relative
        if found is None or found[0] != root:
            work = self.work
            own = work.directory
            inside = own == root or own.startswith(root + "/")  # an absolute `cd` into the project
            spelt = relative_to(self.command, root) if not own or inside else self.command
            if spelt != self.command:  # it named its paths from the root: where it ran changes nothing
                work = scripted(work_identity(spelt), self.scripts)
            else:
                start = place(self.ran_in, "", root)
                if start and not start.startswith("/"):
                    work = scripted(work_identity(self.command, start), self.scripts)
                else:
                    where = place(self.ran_in, own, root)
                    if where != own:
                        work = _placed(work, where)
            found = self._relative = (root, work)
        return found[1]

    def ended_by_success(self, work: Work) -> tuple[Work, ...]:
        """The works a success of ``work`` ends: itself, and each step when all of them ran."""
        found = self._ended
        if found is None or found[0] is not work:
            found = self._ended = (work, (work, *(work.steps if work.all_or_nothing else ())))
        return found[1]

    def attempt(self, error: Observation, ignored: Sequence[re.Pattern[str]]) -> Attempt | None:
        """The failed attempt ``error`` makes of this call; None when the error is one to ignore."""
        found = self._attempt
        if found is None or found[0] is not error:
            attempt = None
            if not any(pattern.search(error.text) for pattern in ignored):
                attempt = Attempt(Call(self.index, self.obs, self.command, error), _error_line_of(error))
            found = self._attempt = (error, attempt)
        return found[1]


def _placed(work: Work, where: str) -> Work:
    """``work`` run in ``where`` (its chain's steps with it)."""
    steps = tuple(replace(step, directory=where) for step in work.steps)
    return replace(work, directory=where, steps=steps)


class _Walk:
    """What repeat-failure's walk of the calls found so far (see :func:`_due`), kept in the calls' fold so
    the next pass goes on from where this one stopped instead of walking every call again.

    It stays true while what it read has not changed: the call it began at is still the oldest kept, the
    project root is the same, and no error has since answered a call it already read (as a success, or
    with another error). Anything else starts a new walk.
    """

    def __init__(self, first: _Entry | None, root: str) -> None:
        self.first = first  # the oldest kept call when the walk began
        self.root = root
        self.walked = 0  # how many calls it has read, from the oldest
        self.through = -1  # the history position of the last of them
        self.seen = 0  # the history's end when it last stopped: errors from there on are news to it
        self.streaks: dict[str, list[Attempt]] = {}
        self.targets: dict[str, str] = {}  # work body -> the key of its latest target
        self.named: set[str] = set()  # the targets a command's own `cd` or directory option named
        self.aliases = ScriptAliases()
        self.latest: dict[str, list[Work]] = {}  # each streak's works, the latest streak last

    def holds(self, first: _Entry | None, root: str, calls: _Calls, errors: Errors) -> bool:
        if self.first is not first or self.root != root:
            return False
        for call_id in errors.answered_since(self.seen):
            entry = calls.by_id.get(call_id)
            if entry is not None and entry.index <= self.through:
                return False  # a call it read as a success failed after all, or failed again
        return True


class _Calls:
    """A fold of the command calls of some tools (with an id), probes left out, each with its command and
    work identity read once, and each failure's attempt judged once per error (``ignored`` patterns)."""

    def __init__(
        self, tools: frozenset[str], ignored: Sequence[re.Pattern[str]], scripts: Mapping[str, str]
    ) -> None:
        self._tools = tools
        self.ignored = ignored
        self._scripts = scripts
        self.entries: deque[_Entry] = deque()
        self.by_id: dict[str, _Entry] = {}
        self._walk: _Walk | None = None

    def add(self, index: int, obs: Observation) -> None:
        if obs.kind == "tool" and obs.tool in self._tools and obs.tool_use_id:
            command = command_in(obs)
            if command is not None and not work_identity(command).probe:
                entry = _Entry(index, obs, command, self._scripts)
                self.entries.append(entry)
                self.by_id[entry.call_id] = entry

    def forget(self, before: int) -> None:
        while self.entries and self.entries[0].index < before:
            entry = self.entries.popleft()
            if self.by_id.get(entry.call_id) is entry:
                del self.by_id[entry.call_id]

    def walk(self, root: str, errors: Errors) -> _Walk:
        """The walk to go on with: the kept one while it holds, else a new one from the oldest call."""
        first = self.entries[0] if self.entries else None
        if self._walk is None or not self._walk.holds(first, root, self, errors):
            self._walk = _Walk(first, root)
        return self._walk


class _RootEvidence:
    """A fold of what shows the project's root (:class:`~sbcore.detectors.same_work.RootEvidence`): the
    paths the commands of some tools name and the absolute paths the session edits, so the root is worked
    out again only when what shows it has changed, not on every pass."""

    def __init__(self, tools: frozenset[str]) -> None:
        self._tools = tools
        self._entries: deque[tuple[int, tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = deque()
        self.evidence = RootEvidence()

    def add(self, index: int, obs: Observation) -> None:
        if obs.kind != "tool":
            return
        absolute: tuple[str, ...] = ()
        relative: tuple[str, ...] = ()
        ran_in: tuple[str, ...] = ()
        if obs.tool in self._tools and obs.tool_use_id:
            command = command_in(obs)
            if command is not None and not work_identity(command).probe:
                absolute, relative = path_words(command)
            cwd = obs.args.get("cwd")
            if isinstance(cwd, str) and cwd.startswith("/"):
                ran_in = (cwd.rstrip("/"),)
        path = obs.args.get("file_path") if obs.tool in EDIT_TOOLS else None
        if isinstance(path, str):
            absolute = (*absolute, *edited_path(path))
        if absolute or relative or ran_in:
            self._entries.append((index, absolute, relative, ran_in))
            self.evidence.add(absolute, relative, ran_in)

    def forget(self, before: int) -> None:
        while self._entries and self._entries[0][0] < before:
            _, absolute, relative, ran_in = self._entries.popleft()
            self.evidence.remove(absolute, relative, ran_in)


_ERROR_WORDS = re.compile(
    r"error|fail|exception|traceback|not found|no such|denied|cannot|can't|unable|invalid|refused|"
    r"timed? ?out|fatal|panic|abort|mismatch|undefined|unresolved|not in scope|could not|couldn't",
    re.IGNORECASE,
)
_RENDER_PREFIX = re.compile(r"^\[error\][^:\n]*:\s*")
_EXIT_CODE = re.compile(r"^\s*(?:\[error\][^:\n]*:\s*)?exit code (-?\d+)\s*$", re.IGNORECASE | re.MULTILINE)
EVIDENCE_LINE_CAP = 200


def error_headline(text: str) -> str:
    """The most telling line of an error head, for evidence.

    The first line is often noise (``Exit code 1``, a pytest banner), so the
    first line that reads like an error wins, unless it only reports that
    something under a runner failed (the root error is then quoted); otherwise
    the first line that is not noise; otherwise the first non-empty line.
    """
    lines = [_RENDER_PREFIX.sub("", line).strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    meaningful = [line for line in lines if not is_noise(line)]
    errors = [line for line in meaningful if _ERROR_WORDS.search(without_options(line))]
    for line in errors:
        if not is_wrapper_summary(line):
            return _cap(line)
    if errors:
        return _cap(errors[0])
    chosen = meaningful[0] if meaningful else (lines[0] if lines else "")
    return _cap(chosen)


def _exit_code(text: str) -> int | None:
    found = _EXIT_CODE.search(text)
    return int(found.group(1)) if found else None


def _cap(line: str) -> str:
    return line if len(line) <= EVIDENCE_LINE_CAP else line[: EVIDENCE_LINE_CAP - 1] + "…"


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
            "description": "Attempts at one piece of work (one test or build target, however spelled) "
            "failing with no progress between them (no edit, or the same error after an edit), "
            "before the trigger fires. 2 catches loops sooner but also ordinary second attempts.",
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
    observations: Sequence[Observation],
    params: Mapping[str, Any],
    state: dict[str, Any],
    project: ProjectFacts = UNKNOWN,
) -> TriggerMatch | None:
    """Fire when one piece of work keeps failing the same way: a loop, not progress.

    Attempts are grouped by work identity (:func:`~sbcore.detectors.identity.work_identity`: one
    test or build target across runner spellings, wrappers, environment prefixes and output
    flags; a different directory is a different target; a chain is all its working steps), and
    two spellings the session itself ties are one (:mod:`~sbcore.detectors.same_work`: the
    project's absolute paths beside its relative ones; a project script and the tool it runs, once
    both failed on one specific error line with nothing edited between; a chain whose result
    counts failing tests, and its one test step). A failure is an error result or a
    result the harness marked successful whose outcome shows the work failing (a piped run, an
    echoed exit status). A success of the same work ends its streak (a chain of ``&&``: each
    step's too).

    Within a streak, two consecutive failures are *stuck* unless the later one shows progress:
    after an edit in between, a different error signature (the error line with numbers folded)
    or fewer failing tests; an error that comes back after others is stuck too (fixes going in a
    circle). A user prompt asking to run it again between two attempts is the
    user's retry, not the agent's loop; polling (``sleep N && check``, ``curl`` of a booting
    server, ``gh run view``) is never a loop. The trigger fires when the latest ``min_failures``
    attempts of a streak are linked by stuck steps, or the latest error occurred ``min_failures``
    times in the streak; every streak is judged on every pass, so a
    loop is caught however many unrelated failures came before. Subagent (``[sub]``) calls
    count like the agent's own. A streak is reported once, identified by its first attempt.

    A project script run by its name (``npm run check``, ``make lint``, ``just verify``) is the command
    the checkout's manifest gives it (``project``, the read-only reading of it), so it and that command
    spelt out are one piece of work.

    Match data: ``command`` (the latest attempt as typed), ``normalised`` (the work identity),
    ``failures``, ``variants`` (distinct spellings), ``edits_between``, ``exit_code``,
    ``error`` (the latest error line, quoted) and ``attempts`` (``timestamp``, ``command``,
    ``error`` per quoted attempt).
    """
    min_failures = int(params.get("min_failures", 3))
    tools = params.get("tools", COMMAND_TOOLS)
    ignored = [regex(pattern) for pattern in params.get("ignore_errors", DEFAULT_IGNORED_ERRORS)]
    max_evidence = int(params.get("max_evidence", 5))

    history = history_of(observations)
    wanted = frozenset(tools)
    scripts = project.scripts
    calls = history.fold(
        ("calls", wanted, tuple(ignored), id(project)), lambda: _Calls(wanted, ignored, scripts)
    )
    errors = history.fold("errors", Errors)
    root = history.fold(("project-root", wanted), lambda: _RootEvidence(wanted)).evidence.root()
    due = _due(calls, errors, root, history, min_failures)
    for key, attempts in sorted(due, key=lambda item: item[1][-1].call.index, reverse=True):
        if report_once(state, f"{key}@{attempts[0].call.observation.tool_use_id}"):
            return _failure_match(key, attempts, history, max_evidence)
    return None


def _due(
    calls: _Calls,
    errors: Errors,
    root: str,
    history: ObservationHistory,
    min_failures: int,
) -> list[tuple[str, list[Attempt]]]:
    """The streaks whose latest attempts make a loop, each with those attempts.

    The calls are walked oldest first (each pass going on with the walk the last one kept, see
    :class:`_Walk`); the history's last observation, when it is a call with no result yet, is still in
    flight: it is read on a later pass, once something follows it.
    """
    walk = calls.walk(root, errors)
    streaks, aliases = walk.streaks, walk.aliases
    last = history.end - 1
    for entry in islice(calls.entries, walk.walked, None):
        work = entry.work_at(root)
        error = errors.by_call.get(entry.call_id)
        if error is None:
            if entry.index >= last:
                break  # in flight
            # a success ends its work's streak (a chain's steps'); a filtered run not read as failed was not
            # seen to pass
            if not status_hidden(entry.command):
                for done in entry.ended_by_success(work):
                    streaks.pop(aliases.resolve(_target(done, walk, entry)), None)
        else:
            _read_failure(walk, calls, entry, work, error)
        walk.walked += 1
        walk.through = entry.index
    walk.seen = history.end

    ready: list[tuple[str, list[Attempt]]] = []
    for key, attempts in streaks.items():
        stuck = stuck_tail(attempts, history)
        if stuck >= min_failures:
            ready.append((key, attempts[-stuck:]))
            continue
        same = recurring(attempts, history)
        if len(same) >= min_failures:
            ready.append((key, same))
    return ready


def _read_failure(walk: _Walk, calls: _Calls, entry: _Entry, work: Work, error: Observation) -> None:
    """Add a failed call to its streak (the streak of the step that failed, when the result says)."""
    streaks = walk.streaks
    work = failed_step(work, error.outcome, error.text)
    key = _target(work, walk, entry)
    attempt = entry.attempt(error, calls.ignored)
    if attempt is None:
        return
    for shown in echoed(error.text):  # a runner showed what it ran: that command's work is this one
        if shown != key:
            walk.aliases.shown(shown, key, streaks)
    partner = _echo_partner(walk, key, work, error, attempt.signature)
    if partner is not None:
        walk.aliases.shown(partner, key, streaks)
    open_streaks = [
        (name, walk.latest[name], _signatures(streaks[name]))
        for name in reversed(walk.latest)
        if name in streaks and name != key
    ]
    resolved = walk.aliases.learn(key, work, attempt.signature, open_streaks, attempt.summaries)
    if resolved != key and key in streaks:  # a tool's own failures join its script's, in order
        streaks[resolved] = sorted(
            streaks.get(resolved, []) + streaks.pop(key), key=lambda found: found.call.index
        )
    streaks.setdefault(resolved, []).append(attempt)
    works = walk.latest.pop(resolved, [])
    if work not in works:
        works.append(work)
    walk.latest[resolved] = works  # kept in order: the most recent last


def _signatures(attempts: Sequence[Attempt]) -> tuple[str, ...]:
    """The error signatures a streak holds, the latest first (one runner's two renderings of one failure,
    quiet and verbose, can alternate in it), then the lines its attempts reported their failure with beside
    their details (a count of failures, a status row: what a run showing no details says of it)."""
    shown = [attempt.signature for attempt in reversed(attempts)]
    summaries = [line for attempt in reversed(attempts) for line in sorted(attempt.summaries)]
    return tuple(dict.fromkeys(shown + summaries))


def _target(work: Work, walk: _Walk, entry: _Entry) -> str:
    """The streak key of ``work``: a command that names no directory continues the latest target of
    the same work; one that names a directory adopts a streak that had not named one yet.

    A command the harness placed (it said where the command ran) is keyed where it ran, and continues
    another target only when it ran in the root and the latest target was one a ``cd`` or an option
    named: a transcript whose ``cwd`` did not follow a ``cd`` the shell kept."""
    targets, streaks = walk.targets, walk.streaks
    latest = targets.get(work.body)
    if entry.ran_in:
        named = bool(entry.work.directory)
        key = latest if not named and not work.directory and latest in walk.named else work.key
        targets[work.body] = key
        if named:
            walk.named.add(key)
        return key
    if not work.directory:
        key = latest or work.key
    elif latest == work.body:
        key = work.key
        if latest in streaks:
            streaks[key] = streaks.pop(latest)
    else:
        key = work.key
    targets[work.body] = key
    if work.directory:
        walk.named.add(key)
    return key


def _echo_partner(walk: _Walk, key: str, work: Work, error: Observation, signature: str) -> str | None:
    """An open streak this failure is one work with by a runner's plain echo: a failure of one printed the
    other's command line as it ran it (make echoes each recipe line: ``make test`` printing the ``docker
    compose … up`` the agent runs by hand next, or the other way round), read as the same work, and the two
    failed alike. Unlike a ``> ``-prefixed echo, a plain line may be anything, so the same failure is asked
    too."""
    here = line_works(error.text)
    for name in reversed(walk.latest):
        if name == key or name not in walk.streaks:
            continue
        for earlier in walk.streaks[name]:
            if not same_failure(signature, earlier.signature):
                continue
            theirs = line_works(earlier.call.error.text) if earlier.call.error is not None else frozenset()
            if work.key in theirs or any(other.key in here for other in walk.latest[name]):
                return name
    return None


def _error_line(error: Observation) -> str:
    line = (error.outcome or {}).get("line")
    return line if isinstance(line, str) and line else error_headline(error.text)


_error_line_of = PerObservation(_error_line)


def _failure_match(
    key: str, attempts: list[Attempt], history: ObservationHistory, max_evidence: int
) -> TriggerMatch:
    latest = attempts[-1]
    latest_command = latest.call.command or key
    details = [
        {
            "timestamp": attempt.call.observation.timestamp,
            "command": attempt.call.command,
            "error": _cap(attempt.error),
        }
        for attempt in attempts[-max_evidence:]
    ]
    edits = edit_calls(history).count_between(attempts[0].call.index, latest.call.index)
    error = latest.call.error
    exit_code = (error.outcome or {}).get("exit_code") if error is not None else None
    if exit_code is None and error is not None:
        exit_code = _exit_code(error.text)
    return TriggerMatch(
        key=key,
        summary=f"`{_cap(latest_command)}` failed {len(attempts)} times in a row: {_cap(latest.error)}",
        evidence=tuple(f"{item['timestamp'] or 'time unknown'}: {item['error']}" for item in details),
        data={
            "command": latest_command,
            "normalised": key,
            "failures": len(attempts),
            "variants": len({attempt.call.command for attempt in attempts}),
            "edits_between": edits,
            "exit_code": exit_code,
            "error": _cap(latest.error),
            "attempts": details,
        },
    )
