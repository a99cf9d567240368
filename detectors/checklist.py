"""What standard-questions reads in a session besides edits: invocations, evidence, moot prompts.

The checklist speaks only where the session shows a question can be answered, so it needs
three readings of the observation stream that are not about edits:

* **invocations**: the top-level steps of each command, with environment prefixes and
  wrappers (``uv run``, ``npx``) removed, and without the steps that only install, print or
  commit (``pip install pytest-asyncio``, ``git commit -m "run pytest"``): a runner's name
  inside those is not a run;
* **evidence**: the paths the session touched or named (tool arguments, locators, command
  words) and the content of edits, which tell whether the project has tests or a build at all;
* **comment-only edits**: an edit whose changed lines are all comments or docstring text
  changes no behaviour, so it raises no code question.
"""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Generic, TypeVar

from sbcore.api import is_test_path
from sbcore.observe.edit_reading import code_lines, defined_names, same_code
from sbcore.observe.model import Observation

from .identity import ASKS_ABOUT_ITSELF, INTERPRETERS, strip_prefixes
from .shell import split_segments

T = TypeVar("T")

# Steps that name a runner without running it: installing, printing, searching, committing, handling files.
_NOT_RUNS: dict[str, frozenset[str] | None] = {
    "pip": None,
    "pip3": None,
    "pipx": None,
    "conda": None,
    "brew": None,
    "apt": None,
    "apt-get": None,
    "git": None,
    "gh": None,
    "echo": None,
    "printf": None,
    "cat": None,
    "grep": None,
    "rg": None,
    "ls": None,
    "find": None,
    "which": None,
    "man": None,
    "uv": frozenset({"pip", "add", "remove", "sync", "lock", "tool"}),
    "poetry": frozenset({"add", "remove", "install", "lock"}),
    "npm": frozenset({"install", "i", "ci", "add", "uninstall", "view", "info"}),
    "pnpm": frozenset({"install", "i", "add", "remove"}),
    "yarn": frozenset({"install", "add", "remove"}),
    "bun": frozenset({"install", "add", "remove"}),
    "cargo": frozenset({"add", "install", "search"}),
    "go": frozenset({"get", "install", "mod", "doc"}),
    # programs that show, move, edit or package files: a runner or a test path they are handed is not run
    **dict.fromkeys(
        (
            "cp",
            "mv",
            "rm",
            "mkdir",
            "touch",
            "chmod",
            "chown",
            "ln",
            "sed",
            "awk",
            "wc",
            "diff",
            "less",
            "more",
        ),
    ),
    **dict.fromkeys(("head", "tail", "tree", "stat", "file", "du", "tar", "zip", "unzip", "rsync", "scp")),
    **dict.fromkeys(("vim", "vi", "nano", "code", "open", "xdg-open", "sort", "uniq", "cut", "tee")),
    **dict.fromkeys(("readlink", "realpath", "basename", "dirname")),
}
# Subcommands that fetch or manage dependencies, whatever the tool (`composer require`, `mix deps.get`,
# `dotnet add package`, `flutter pub get`, `opam install`): installing a test framework is not running it.
_MANAGES_DEPENDENCIES = frozenset(
    {"install", "i", "add", "ci", "get", "require", "restore", "fetch", "sync", "lock", "remove", "uninstall"}
    | {"update", "upgrade", "deps.get", "deps.update", "pub", "pkg", "deps"}
)
# A task whose name says it formats or lints (`make fmt`, `just lint`, `npm run format:check`, `mix format`):
# it neither runs the tests nor builds, whatever runner it goes through.
# a task or a plugin's goal named for it (`fmt`, `lint:fix`, `checkstyle:check`, `ktlintCheck`)
_FORMAT_OR_LINT = re.compile(r"(?:^|[:/+])\w*(?:fmt|format|lint|prettier|style|tidy)(?:[:_-][\w-]*|Check)?$")
_RUNS_TASK = frozenset({"run", "run-script", "task"})
_LINT_OPTIONS = frozenset({"--lint", "--fix", "--check", "--format", "--fmt"})
_SHELLS = frozenset({"sh", "bash", "zsh", "dash"})
_POWERSHELLS = frozenset({"pwsh", "powershell"})
_CODE_OPTIONS = frozenset({"-e", "-c", "--eval", "--exec", "-r", "-x", "--command"})
# Programs whose commands are quoted to pass a task its arguments (`sbt "testOnly app.CartSpec -- -oF"`, `sbt
# "runMain app.Emit"`): each quoted word is commands, not a message.
_QUOTED_TASKS = frozenset({"sbt", "sbtn"})
_PATH_KEYS = ("file_path", "notebook_path", "path", "pattern")
_CONTENT_KEYS = ("new_string", "content", "new_source")


def _manages_dependencies(words: Sequence[str]) -> bool:
    """Whether a step fetches or manages dependencies: its subcommand says so, or the subcommand of the tool
    it names first (`dotnet paket add FsCheck --project tests/…`, `dotnet tool install`)."""
    if words[1] in _MANAGES_DEPENDENCIES:
        return True
    return len(words) > 2 and words[1][:1].isalpha() and words[2] in _MANAGES_DEPENDENCIES


def invocations(command: str) -> list[str]:
    """The steps of ``command`` that run something, each as ``program args…`` (wrappers removed)."""
    return list(_invocations(command))


def _option(word: str) -> bool:
    """Whether ``word`` is an option other than ``-m`` (which names the module a launcher runs)."""
    return word.startswith("-") and word != "-m"


@lru_cache(maxsize=8192)
def _invocations(command: str, tasks: bool = False) -> tuple[str, ...]:
    """Cached: a pass looks back over the whole session, and a session repeats its commands.

    ``tasks``: keep the steps that only format or lint too (what a command shows of the project: ``make
    lint`` builds nothing, and still shows there is a Makefile)."""
    try:
        segments, _ = split_segments(command)
    except ValueError:
        return (command,)
    steps: list[str] = []
    for segment in _each_target(segments):
        words = strip_prefixes(_without_keyword(segment))
        if not words or words[0] in ("cd", "pushd", "export", "source", ".", "sleep", "for", "done", "fi"):
            continue
        program = words[0].rsplit("/", 1)[-1]
        if program in _SHELLS and "-c" in words[1:-1]:
            steps.extend(_invocations(words[words.index("-c") + 1], tasks))  # `bash -c 'npm test'`
            continue
        remote = _remote_command(words) if program in _REMOTE_SHELLS else None
        if remote is not None:  # `ssh root@target ptest-runner app`: the command runs on the other machine
            steps.extend(_invocations(remote, tasks))
            continue
        script = _powershell_script(words) if program in _POWERSHELLS else None
        if script is not None:  # `pwsh -NoProfile -Command 'Invoke-Pester -CI'`
            steps.extend(_invocations(script, tasks))
            continue
        if program in _NOT_RUNS:
            subcommands = _NOT_RUNS[program]
            if subcommands is None or (len(words) > 1 and words[1] in subcommands):
                continue
        if len(words) > 1 and (_manages_dependencies(words) or (not tasks and _formats_or_lints(words))):
            continue
        if (
            len(words) > 1
            and words[-1] in ASKS_ABOUT_ITSELF
            and not any(_option(word) for word in words[1:-1])
        ):
            # `<runner> --version`, `python -m pytest --version`, `npx zrun --help`: the program says what it
            # is (or how to use it), and runs nothing
            continue
        if any(word in _LISTS_ONLY for word in words[1:]):
            continue  # `jest --listTests`, `pytest --collect-only`: the runner lists what it would run
        if not tasks and _NAMED_FOR_LINTING.search(program):
            continue  # `eslint src tests`: a linter given the test folder runs no test (a script's body too)
        # A word with a space or a line break in it was quoted text (a message, a body, a note): it names
        # commands without running them, unless it is code handed to an interpreter (`-e`, `-c`, `--eval`).
        kept = (
            [part for word in words[1:] for part in word.split()]
            if program in _QUOTED_TASKS
            else [
                word
                for before, word in itertools.pairwise(words)
                if before in _CODE_OPTIONS or not any(space in word for space in (" ", "\n", "\t"))
            ]
        )
        steps.append(" ".join([program if program.endswith(".py") else words[0], *kept]))
        if INTERPRETERS.match(program) and len(kept) > 0 and _SCRIPT_PATH.match(kept[0]):
            steps.append(" ".join(kept))  # `php bin/phpunit`: the script runs, as `bin/phpunit` alone does
        for inner in _run_inside(words):
            steps.extend(_invocations(inner, tasks))
    return tuple(steps)


def _remote_command(words: Sequence[str]) -> str | None:
    """The command a remote shell is handed (``ssh -p 2222 root@host 'cd /srv && make test'``): its words
    after the host, the options before it and their values skipped; None when it is handed none (a login)."""
    index = 1
    while index < len(words) and words[index].startswith("-"):
        index += 2 if words[index] in _REMOTE_VALUE_OPTIONS else 1
    rest = words[index + 1 :]
    return " ".join(rest) if rest else None


# Options that make a runner list what it would run instead of running it.
_LISTS_ONLY = frozenset({"--listTests", "--list-tests", "--collect-only", "--co", "--list-files"})
_SCRIPT_PATH = re.compile(r"^\.{0,2}/?[\w.-]+/[\w./-]*\w$")
_REMOTE_SHELLS = frozenset({"ssh", "dbclient"})
_REMOTE_VALUE_OPTIONS = frozenset(
    {"-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p", "-Q", "-R"}
    | {"-S", "-W", "-w", "-B"}
)


def _without_keyword(segment: Sequence[str]) -> Sequence[str]:
    """A segment without the shell keyword opening it: ``do make test`` in a loop runs ``make test``, as
    ``if make check`` and ``while ./probe`` run theirs."""
    while segment and segment[0] in _SHELL_KEYWORDS:
        segment = segment[1:]
    return segment


_SHELL_KEYWORDS = frozenset({"do", "then", "else", "elif", "if", "while", "until", "!", "{", "("})


def _each_target(segments: Sequence[Sequence[str]]) -> Iterator[Sequence[str]]:
    """Each segment, a ``make`` told several targets split into one run per target (``make lint test`` runs
    ``lint``, then ``test``), each with the options and settings given to all."""
    for segment in segments:
        if not segment or segment[0].rsplit("/", 1)[-1] != "make":
            yield segment
            continue
        shared: list[str] = [segment[0]]
        targets: list[str] = []
        words = iter(segment[1:])
        for word in words:
            if word.startswith("-") or "=" in word:
                shared.append(word)
                if word in _MAKE_VALUE_OPTIONS:
                    shared.append(next(words, ""))
                elif word in ("-j", "-l") and (following := next(words, "")):  # `-j 4`, or `-j` alone
                    (shared if following.isdigit() else targets).append(following)
            else:
                targets.append(word)
        if len(targets) < 2:
            yield segment
            continue
        for target in targets:
            yield [*shared, target]


_MAKE_VALUE_OPTIONS = frozenset({"-C", "-f", "-I", "-o", "-W", "--directory", "--file"})


def _run_inside(words: list[str]) -> Iterator[str]:
    """What a step may have run inside something it names (``docker compose run --rm worker npm test``,
    ``kubectl exec deploy/api -- pytest``, ``podman run -v src:/w img cargo test``, ``firebase
    emulators:exec --only firestore 'npm test'``): its words after each
    of the first few names past a ``run`` or ``exec`` subcommand, each a candidate command (the options
    before the container's or service's name, and which of them take a value, differ from tool to tool).
    A candidate that is not a command names no runner, so it answers nothing."""
    at = next((index for index in (1, 2) if index < len(words) and _runs_inside(words[index])), 0)
    if not at:
        return
    names = 0
    for index in range(at + 1, len(words) - 1):
        if words[index].startswith("-"):
            continue
        rest = words[index + 1 :]
        if rest[:1] == ["--"]:
            rest = rest[1:]
        if rest and not rest[0].startswith("-"):
            yield shlex.join(rest)  # quoted again: `sh -c 'bin/rails test'` stays one argument
        names += 1
        if names == _NAMES_BEFORE_COMMAND:
            return


def _runs_inside(word: str) -> bool:
    """Whether a subcommand runs a command it is given: ``run``, ``exec``, or a scoped one (Firebase's
    ``emulators:exec``, a task runner's ``env:run``)."""
    return word in ("run", "exec") or word.endswith((":exec", ":run"))


_NAMES_BEFORE_COMMAND = 3
"""How many names past ``run``/``exec`` may come before the command run inside: an option's value, the
image or the service, a container's name."""


def _formats_or_lints(words: list[str]) -> bool:
    """Whether a step runs a task whose name says it formats or lints (``make fmt``, ``npm run lint``), or
    is told to by an option (``clj-kondo --lint src test``, ``tool --check``)."""
    if any(word in _LINT_OPTIONS for word in words[1:]):
        return True
    rest = [word for word in words[1:] if not word.startswith("-")]
    if rest[:1] and rest[0] in _RUNS_TASK:
        rest = rest[1:]
    return bool(rest) and _FORMAT_OR_LINT.search(rest[0]) is not None


# What a delegation prompt asks its subagent to run: an inline code span, a line of a fenced block, or a
# shell-prompt line ("$ pytest -x").
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_FENCE = re.compile(r"^```[^\n]*\n(.*?)(?:^```|\Z)", re.M | re.S)
_PROMPT_LINE = re.compile(r"^\s*\$ +(\S.*)$", re.M)


@lru_cache(maxsize=4096)
def delegated_commands(prompt: str) -> tuple[str, ...]:
    """The commands a subagent's prompt spells out for it to run, in order.

    An agent often hands a test or build run to a subagent ("Run `uv run pytest tests/unit` and report
    the results"), in the background too, where the outcome comes back through another tool's result
    the observer never reads. The command written in the prompt is the invocation: only spelt-out
    commands count (code spans, fenced lines, ``$`` lines), never prose such as "run the tests".
    """
    found: list[str] = []
    for block in _FENCE.finditer(prompt):
        found.extend(line.strip() for line in block.group(1).splitlines() if line.strip())
    outside = _FENCE.sub("", prompt)
    found.extend(span.strip() for span in _CODE_SPAN.findall(outside))
    found.extend(line.strip() for line in _PROMPT_LINE.findall(outside))
    return tuple(dict.fromkeys(command.removeprefix("$ ") for command in found if command))


def runs_any(command: str, patterns: Sequence[re.Pattern[str]]) -> bool:
    """Whether one of ``command``'s invocations matches a pattern."""
    return _runs_any(command, tuple(patterns))


@lru_cache(maxsize=65_536)
def _runs_any(command: str, patterns: tuple[re.Pattern[str], ...], tasks: bool = False) -> bool:
    """Cached: every pass asks it again of the session's earlier commands."""
    return any(p.search(step) for step in _invocations(command, tasks) for p in patterns)


def shows_any(command: str, patterns: Sequence[re.Pattern[str]]) -> bool:
    """Whether one of ``command``'s steps, a format or lint task included, matches a pattern: what the
    command shows the project has (``make lint``: a Makefile), though it answers no question."""
    return _runs_any(command, tuple(patterns), True)


class PerObservation(Generic[T]):
    """A bounded memo of a function of one observation.

    A trigger looks back over the whole history at every pass, and the history holds the same
    observation objects pass after pass: what it derives from each one is computed once. Entries are
    keyed by the object's identity and checked against a fingerprint of its content (record uuid, call
    id, kind, text), so an identity reused by a later observation is never mistaken for the old one —
    and no observation is kept alive by the memo.
    """

    def __init__(self, function: Callable[[Observation], T], size: int = 16_384) -> None:
        self._function = function
        self._size = size
        self._memo: dict[int, tuple[tuple[object, ...], T]] = {}

    def __call__(self, obs: Observation) -> T:
        mark = (obs.uuid, obs.tool_use_id, obs.kind, hash(obs.text))
        found = self._memo.get(id(obs))
        if found is not None and found[0] == mark:
            return found[1]
        value = self._function(obs)
        self._memo[id(obs)] = (mark, value)
        if len(self._memo) > self._size:
            del self._memo[next(iter(self._memo))]
        return value


def _paths_of(obs: Observation) -> tuple[str, ...]:
    paths = [locator.split(":", 1)[0] for locator in obs.locators]
    if obs.kind != "tool":
        return tuple(paths)
    named = [value.rstrip("/") for key in _PATH_KEYS if isinstance(value := obs.args.get(key), str) and value]
    command = obs.args.get("command")
    words = command.split() if isinstance(command, str) else []
    return (*named, *paths, *(word.rstrip("/") for word in words if _looks_like_path(word)))


paths_of = PerObservation(_paths_of)
"""Every path one observation touched or named (memoised: see :class:`PerObservation`)."""


def seen_paths(observations: Iterable[Observation]) -> list[str]:
    """Every path the session touched or named: tool arguments, locators and command words."""
    return [path for obs in observations for path in paths_of(obs)]


def edit_contents(observations: Iterable[Observation], edit_tools: frozenset[str]) -> list[str]:
    """The (projected, capped) new text of every edit, for content evidence such as inline tests."""
    return [
        text
        for obs in observations
        if obs.kind == "tool" and obs.tool in edit_tools
        for text in _new_texts(obs)
    ]


def adds_definitions(obs: Observation) -> bool:
    """Whether an Edit/MultiEdit adds a definition (a function, method, class, type, test) that the text
    it replaced did not have: new code paths, as much as a whole file written is."""
    return _adds_definitions(obs)


def _edit_adds_definitions(obs: Observation) -> bool:
    """The projection lists the names an edit adds (``defines``, read from its whole text, which the
    projected text may cut); an observation without that list is read from the text it shows."""
    if obs.args.get("defines") or any(
        isinstance(item, dict) and item.get("defines") for item in obs.args.get("edits") or ()
    ):
        return True
    return any(defined_names(new) - defined_names(old) for new, old in _replacements(obs))


def _replacements(obs: Observation) -> list[tuple[str, str]]:
    """An Edit's or MultiEdit's (new text, old text) pairs, as projected."""
    pairs: list[tuple[str, str]] = []
    if obs.tool == "Edit":
        pairs.append((str(obs.args.get("new_string", "")), str(obs.args.get("old_string", ""))))
    elif obs.tool == "MultiEdit":
        for item in obs.args.get("edits") or ():
            if isinstance(item, dict):
                pairs.append((str(item.get("new_string", "")), str(item.get("old_string", ""))))
    return pairs


def comment_only(obs: Observation) -> bool:
    """Whether an Edit/MultiEdit changed only comment or docstring lines (both sides, fully shown)."""
    return _comment_only(obs)


def _edit_is_comments(obs: Observation) -> bool:
    """Whether every replacement of an edit left its code lines as they were: only comment, docstring
    and blank lines added, removed or changed (a doc comment written above a class, a configuration
    file's comments rewritten around the same settings). The projection says so of an edit it cut
    (``comments_only``, from the whole text); a text it cut and did not answer for might hide code."""
    if obs.args.get("comments_only"):
        return True
    items = [item for item in obs.args.get("edits") or () if isinstance(item, dict)]
    if items and all(item.get("comments_only") for item in items):
        return True
    pairs = _replacements(obs)
    if not any((new + old).strip() for new, old in pairs):
        return False  # nothing shown: unknown, so code
    return all("…" not in new + old and same_code(code_lines(new), code_lines(old)) for new, old in pairs)


def describes_only(obs: Observation) -> bool:
    """Whether an Edit/MultiEdit of a manifest changed only what describes the package (its description,
    keywords, classifiers, links, authors, license): the projection reads it from the whole text
    (``metadata_only``, :mod:`sbcore.observe.manifest_reading`)."""
    if obs.args.get("metadata_only"):
        return True
    items = [item for item in obs.args.get("edits") or () if isinstance(item, dict)]
    return bool(items) and all(item.get("metadata_only") for item in items)


def renders_template(obs: Observation) -> bool:
    """Whether an edit's new text holds template directives (``{{ … }}``, ``{% … %}``): a settings or
    markup file written as a template (a chart's manifests, a role's configuration) is a program that
    renders them, with conditions, loops and values computed from inputs, so changing it changes
    behaviour the way code does. Not a CI system's ``${{ … }}`` expression, which substitutes a value
    where the file is read and computes nothing of its own."""
    return _renders_template(obs)


def _holds_directives(obs: Observation) -> bool:
    return any(
        ("{{" in text or "{%" in text) and _TEMPLATE_DIRECTIVE.search(text) for text in _new_texts(obs)
    )


_TEMPLATE_DIRECTIVE = re.compile(r"(?<!\$)\{\{-?\s*[^\s}]|\{%-?\s*\w")


def _new_texts(obs: Observation) -> list[str]:
    """The new text of one edit: its own, or each of a MultiEdit's replacements."""
    texts = [str(obs.args[key]) for key in _CONTENT_KEYS if obs.args.get(key)]
    texts.extend(
        str(item["new_string"])
        for item in obs.args.get("edits") or ()
        if isinstance(item, dict) and item.get("new_string")
    )
    return texts


def _looks_like_path(word: str) -> bool:
    return "/" in word or "." in word.strip(".") or is_test_path(word)  # a bare test folder: `prove -lr t`


def _powershell_script(words: list[str]) -> str | None:
    """The script a PowerShell host is handed after ``-c`` or ``-Command`` (any case), or None."""
    for index, word in enumerate(words[1:-1], start=1):
        if word.lower() in ("-c", "-command"):
            return words[index + 1]
    return None


def runs_test_path(command: str) -> bool:
    """Whether a step of ``command`` runs a test folder or test file (``prove -lr t``, ``busted spec/``,
    ``perl t/01-trim.t``, ``lua spec/parse_spec.lua``), whatever the program: a test run by what it runs,
    not by the runner's name. Not a step that shows, copies or edits files, nor one whose name or subcommand
    says it lints or formats (``luacheck spec/``, ``perltidy t/x.t``, ``ruff check src tests``), nor a data
    file in a test folder (``-f tests/compose.yml``)."""
    return _runs_test_path(command)


@lru_cache(maxsize=8192)
def _runs_test_path(command: str) -> bool:
    for step in _invocations(command):
        words = step.split()
        program = words[0].rsplit("/", 1)[-1] if words else ""
        if not program or _LINTS.search(program):
            continue  # (a file tool's step, or one told to lint, is no invocation at all: `_invocations`)
        subcommand = next((word for word in words[1:] if not word.startswith("-")), "")
        if _LINT_SUBCOMMAND.match(subcommand) or _BUILD_SUBCOMMAND.match(subcommand):
            continue  # a subcommand that lints, formats or only builds what it is given (`ruff check src
            # tests`, `west build -b sim tests/unit/enc`: the tests compiled, none run)
        for index, word in enumerate(words[1:], 2):
            value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else ""
            if "/" in value and not _ADDRESS.match(value):
                # an option given its test folder (`-gdir=res://test`, `--tests=spec/unit`); a project's
                # resource scheme (`res://`) names a path from its root (a web address names none)
                word = _SCHEME.sub("", value)
                index = len(words)  # a folder named so is a path wherever it stands
            path = word.strip("'\"").removeprefix("./").rstrip("/")
            if word.startswith("-") or not path or path.rsplit(".", 1)[-1] in _DATA_SUFFIXES:
                continue
            if path.startswith(".") and "/" not in path:
                continue  # a query's path (`yq .spec.template`, `jq .tests`) or a hidden file: no test
            # a bare folder name is a path only as the last word (`prove -lr t`), never an option's
            # value or a subcommand's word (`docker build -t test .`)
            bare = "/" not in word and "." not in word
            if is_test_path(path) and (not bare or index == len(words)):
                return True
    return False


_SCHEME = re.compile(r"^['\"]?[a-z]+://")
_ADDRESS = re.compile(r"^['\"]?(?:https?|ftps?|wss?|git|ssh|s3|gs)://")
# A program named for linting or formatting (`luacheck`, `perlcritic`, `perltidy`, `eslint`, `rubocop`,
# `stylua`, `js-beautify`); one named for checking is one too where a test folder is read, not where a build
# is (`cargo-check` builds).
_NAMED_FOR_LINTING = re.compile(r"lint|fmt|format|tidy|critic|cop\b|flake|prettier|black|isort|styl|beautif")
_LINTS = re.compile(r"lint|fmt|format|tidy|critic|check|cop\b|flake|prettier|black|isort")
# ... or a program's subcommand that does (`ruff check`, `ruff format`, `deno lint`, `go vet`, `zig fmt`).
_LINT_SUBCOMMAND = re.compile(r"(?:lint|fmt|format|check|vet|tidy|style)$")
_BUILD_SUBCOMMAND = re.compile(r"(?:build|compile|assemble)$")
_DATA_SUFFIXES = frozenset(
    {"yml", "yaml", "json", "toml", "ini", "cfg", "txt", "md", "xml", "csv", "lock", "env"}
)


@lru_cache(maxsize=512)
def regex(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from exc


_comment_only = PerObservation(_edit_is_comments)
_adds_definitions = PerObservation(_edit_adds_definitions)
_renders_template = PerObservation(_holds_directives)
