"""What a command *does*: one identity for one test or build target, however it is spelled.

repeat-failure asks whether the agent keeps running the same work and getting the same
failure. The same work has many spellings: a runner reached directly or through a module
(``pytest``, ``python -m pytest``, ``python3 -m pytest``), a wrapper (``uv run``, ``poetry
run``, ``npx``), a package manager's script (``npm test``, ``npm run test``, ``yarn test``,
``pnpm test``), the interpreter's name (``python``, ``python3``), environment assignments in
front (``CI=1 FOO=bar``), bare flags, which say how much is printed or where to stop rather
than what runs (``-v``, ``-x``, ``-u``; pytest's ``-p no:cacheprovider``), and arguments moved
across a path. All of these fold together. What stays apart is what changes the work: the
directory a command is run in (``cd a && npm test`` and ``cd b && npm test`` test two
packages), the paths and selections it runs (``-k``, ``-m``, ``--filter``, ``-run X``'s
argument, ``-Dtest=X``-style settings), the values an ``export`` step sets, and other arguments.

A chain of steps (``npm run build && npm test``, ``mise run fmt && mise run lint``) is every one
of its steps, in order: it is not its first step, so ``build && test`` and ``build && lint``
stay apart. Steps that do no work are not part of it (a leading ``cd``, ``source``, ``sleep``,
``echo``, ``|| true``, the exit status echoed), and a pipeline is its first command (``| tail``
only reads its output). Which step of a failed
chain failed is read from its result where it can be (:func:`~.same_work.failed_step`).

Build tools have their own spellings of one program: a project's launcher beside the tool
(``./gradlew`` for ``gradle``, ``./mvnw`` for ``mvn``), a runner installed into a project's bin
directory and reached by path or through its interpreter (``vendor/bin/phpunit``, ``php
vendor/bin/phpunit``, ``bin/rspec``, ``node node_modules/.bin/jest``), a script manager's
aliases (``composer test``, ``composer run-script test``), a flag's value given with ``=`` or as
the next word, and a directory named with or without its trailing slash. A script handed to its
interpreter is the script run (``python manage.py`` is ``./manage.py``), and a runner's own flags
whose value only says how results are shown (``dotnet test -v q``, ``bazel test
--test_output=errors``, ``--reporter dot``) go with their value (:mod:`.reporting`). Spellings
only the rest of the session can tie (a project script and the tool it runs, the project's
absolute paths) are :mod:`.same_work`'s.

:func:`work_identity` also says what kind of work it is: a ``probe`` (``curl`` of a
booting server, ``sleep N && check``) is polling, never a loop.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from .reporting import without_shown
from .shell import normalise_command, split_segments

# Wrappers that run the rest of the command line unchanged (with how many of their own words).
_WRAPPERS: dict[tuple[str, ...], int] = {
    ("uv", "run"): 2,
    ("poetry", "run"): 2,
    ("pipenv", "run"): 2,
    ("pdm", "run"): 2,
    ("hatch", "run"): 2,
    ("rye", "run"): 2,
    ("pnpm", "exec"): 2,
    ("npm", "exec"): 2,
    ("yarn", "exec"): 2,
    ("bundle", "exec"): 2,
    ("npx",): 1,
    ("bunx",): 1,
    ("pnpx",): 1,
    ("command",): 1,
    ("exec",): 1,
    ("direnv", "exec"): 3,  # `direnv exec DIR cmd`
}
# Programs that run the command after their own options, and which of those options take a value: how
# long, how nicely, how buffered or in what environment the work runs, never what it is. `timeout`
# takes its duration after them; `nix develop`/`nix shell` run what follows `-c`/`--command`.
_RUNS_THE_REST: dict[str, frozenset[str]] = {
    "timeout": frozenset({"-k", "--kill-after", "-s", "--signal"}),
    "time": frozenset({"-f", "--format", "-o", "--output"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "ionice": frozenset({"-c", "--class", "-n", "--classdata", "-t"}),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "nohup": frozenset(),
    "unbuffer": frozenset(),
    "chronic": frozenset(),
    "caffeinate": frozenset({"-t", "-w"}),
    "env": frozenset({"-u", "--unset"}),
    # a virtual display for a test run that opens windows (a game engine's, a browser's)
    "xvfb-run": frozenset(
        {"-n", "--server-num", "-s", "--server-args", "-e", "--error-file", "-f", "--auth-file"}
    ),
}
# Shells handed the work as one string (`bash -c '…'`, `sh -ec "…"`, `nix-shell --run '…'`).
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})
# PowerShell hosts: handed their work as one string after `-c` or `-Command` (any case).
_POWERSHELLS = frozenset({"pwsh", "powershell"})
_PYTHON = re.compile(r"^python(?:\d+(?:\.\d+)?)?$")
# A project's launcher for a tool is that tool.
# (`jlpm`: the copy of yarn JupyterLab pins for its extensions)
_LAUNCHERS = {"gradlew": "gradle", "mvnw": "mvn", "bazelisk": "bazel", "jlpm": "yarn"}
# Interpreters handed a script to run: a runner installed into a project's bin directory (`php vendor/bin/x`),
# a script by its path (`node scripts/test.js`, read as the script by the checklist too).
INTERPRETERS = re.compile(r"^(?:php|ruby|node|bash|sh|pwsh|powershell|python(?:\d+(?:\.\d+)?)?)$")
_BIN_DIRS = re.compile(r"(?:^|/)(?:bin|\.bin)/[^/]+$")
# Script managers whose `run`/`run-script` spellings name the same script.
_SCRIPT_MANAGERS = frozenset({"composer"})
# A script file handed to its interpreter (`python tools/r.py`, `bash scripts/ci.sh`), not a flag or code.
_SCRIPT_FILE = re.compile(r"^[^-][^\s=]*\.(?:py|rb|js|mjs|cjs|ts|php|sh|bash|pl|ps1)$")
# Scripts whose own flags the reporting table knows.
_SCRIPTS_WITH_FLAGS = frozenset({"manage.py"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_DURATION = re.compile(r"^\d+(?:\.\d+)?[smhd]?$")
_JS_MANAGERS = frozenset({"npm", "yarn", "pnpm", "bun"})
_JS_RUNNERS = frozenset({"jest", "vitest", "mocha"})
_SETUP = frozenset({"cd", "pushd", "source", ".", "set", "sleep", "true", ":", "mkdir"})
# Steps that only print: never the work of a chain (`pytest || echo failed`).
_PRINTS = frozenset({"echo", "printf"})
# The one argument with which a program only says what it is or how it is used: its success is no run of its
# work, which a streak's failures would see ended.
ASKS_ABOUT_ITSELF = frozenset({"--version", "-V", "version", "--help", "-h", "help"})
# Steps that only show a file, after the work that wrote it.
_VIEWS = frozenset({"cat", "tail", "head", "less", "more", "grep", "wc"})
_PROBES = frozenset(
    {"curl", "wget", "nc", "http", "pg_isready", "ping", "lsof", "ps", "pgrep", "ss", "netstat"}
)
# pytest flags that take a value and change how a run goes, not which tests it runs (the ones that only
# change how results are shown or how the run is paced are the reporting table's: `reporting.py`).
_PYTEST_VALUED = frozenset({"-p", "-W", "-o", "--cov"})
_PYTEST_SELECTORS = frozenset({"-k", "-m"})
# Options whose value is the directory a program works in (any program: a hint, not a list of tools), and
# those whose value is a file in that directory.
# Long names are read with one dash or two (`terraform -chdir=infra`, `--chdir infra`).
_DIRECTORY_OPTIONS = frozenset(
    {"cwd", "dir", "directory", "chdir", "prefix", "workdir", "working-directory", "test-dir", "build-dir"}
    | {"project", "project-dir", "manifest-path", "rootdir", "root-dir", "root", "project-root"}
    | {"working-dir", "work-dir", "basedir", "base-dir"}
)
_FILE_IN_DIRECTORY = frozenset({"manifest-path"})
# Options whose value is where a run puts what it makes, not what it runs (`elm make src/Main.elm
# --output=/dev/null`, `go build -o bin/app`, `tsc --outDir dist`): the same work whatever the destination.
_OUTPUT_OPTIONS = frozenset(
    {"o", "output", "out", "outfile", "out-file", "outdir", "out-dir", "outDir", "output-dir", "output-file"}
    | {"dest", "destination"}
)
# Option values that tune a run rather than select its work, whatever the option (`-j 8`, `--timeout 60s`,
# `--color never`, `--reporter json`): a number, a duration or a mode word.
_TUNING_NUMBER = re.compile(r"^\d+(?:\.\d+)?(?:ms|[smhdx]|[kmgt]i?b?)?$", re.IGNORECASE)  # `-j8`, `60s`, `2G`
_MODE_WORDS = frozenset(
    {"always", "never", "auto", "true", "false", "yes", "no", "on", "off", "none", "json", "text", "plain"}
    | {"short", "long", "full", "line", "dot", "dots", "spec", "tap", "junit", "xml", "html", "github"}
    | {"verbose", "quiet", "silent", "minimal", "normal", "detailed", "diagnostic", "compact", "pretty"}
    | {"summary", "progress", "errors", "human", "default", "native", "debug", "info", "warn", "error"}
    | {"table", "raw", "color", "colour", "nocolor", "ansi", "expanded", "simple", "pretty", "github-actions"}
    | {"console", "events", "bar", "tty", "rawjson"}  # progress displays (`cdk deploy --progress events`)
)
# `--name=value` settings that change how a run goes, not what it runs (`go test -count=1`). Those that count
# or time something often stand alone too (Gradle's `--parallel`): their next word is their value only when it
# is a number or a duration (`--parallel 4`), else it is the work (`--parallel assembleDebug`).
_COUNTED_SETTINGS = frozenset(
    {"count", "timeout", "maxfail", "parallel", "jobs", "j", "workers", "maxWorkers", "retries", "durations"}
)
_RUN_SETTINGS = _COUNTED_SETTINGS | frozenset(
    {"color", "colour", "tb", "reporter", "format", "log-level", "formatter", "console", "warning-mode"}
    | {"loglevel", "output-format", "report"}
)


@dataclass(frozen=True)
class Work:
    """One command's identity: ``body`` is equal for two spellings of the same work.

    ``directory`` is where a leading ``cd`` took it ("" when the command did not say): the
    same body in two named directories is two targets.
    """

    body: str
    runner: str  # "pytest", "js-test", ... or the program name (of a chain: its last step's)
    probe: bool  # polling: checking whether something is ready, not doing the work
    directory: str = ""
    steps: tuple[Work, ...] = ()  # a chain's steps, each alone (with the chain's directory and exports)
    all_or_nothing: bool = False  # a chain joined by `&&` only: its success is every step's

    @property
    def key(self) -> str:
        return f"[{self.directory}] {self.body}" if self.directory else self.body


# Waiting anywhere in a command, however it is wrapped (`until …; do sleep 2; done`, `timeout 60 sh -c '…
# sleep 1 …'`, `watch -n 5 …`): the command polls, when it asks again and again (a loop) or what it does
# after the wait only asks (`sleep 5 && curl …`, `sleep 30; gh run view`, `sleep 10; tail server.log`).
# A pause and then the work itself (`sleep 2; make test`) is the work run again, not a poll.
# An `until` loop waits by what it is (it repeats a check until the check passes), also where the projection
# cut the quoted script short before its `sleep` (`timeout 240 sh -c 'until tool info … | grep -q …`).
_POLLS = re.compile(r"(?:^|[\s;&|(`'\"])(?:sleep\s+[\d$.]|watch\s|until\s)")
_LOOPS = re.compile(r"(?:^|[\s;&|(`'\"])(?:until|while|for|watch)\s")
_WAIT_STEPS = frozenset({"sleep", "wait"})


@lru_cache(maxsize=4096)
def only_waits(command: str) -> bool:
    """Whether ``command`` does nothing but wait (``sleep 10``, ``sleep 5 && echo done``)."""
    try:
        segments, _ = split_segments(command)
    except ValueError:
        return False
    heads = [words[0] for words in map(strip_prefixes, segments) if words]
    return any(head in _WAIT_STEPS for head in heads) and all(
        head in _WAIT_STEPS or head in _PRINTS or head in _SETUP for head in heads
    )


@lru_cache(maxsize=4096)
def waits_first(command: str) -> bool:
    """Whether ``command`` waits before its work (``sleep 20; pip install x==1.2``, ``cd app && sleep 5 &&
    make check``): it is asked again after a pause, for something outside it to have changed (an upload to
    show, a service to come up), as a poll split over calls is."""
    try:
        segments, _ = split_segments(command)
    except ValueError:
        return False
    for words in map(strip_prefixes, segments):
        if words and words[0] in _WAIT_STEPS:
            return True
        if words and words[0] not in ("cd", "pushd") and words[0] not in _SETUP:
            return False
    return False


@lru_cache(maxsize=4096)
def work_identity(command: str, start: str = "") -> Work:
    """The identity of ``command``: the directory it changes to plus the work of its steps. ``start`` is
    where it started when that is not where its project's root is (a folder relative to the root), read as
    a ``cd`` there before it: its relative paths then name files from the root."""
    try:
        segments, operators = split_segments(command)
    except ValueError:
        text = " ".join(command.split())
        polls = _POLLS.search(command) is not None
        return Work(text, text.split(" ", 1)[0] if text else "", probe=polls, directory=start)
    directory = start
    polls = _POLLS.search(command) is not None
    exports: list[str] = []
    steps: list[list[str]] = []
    joins: list[str] = []  # the operator before each step after the first
    for index, segment in enumerate(segments):
        joined = operators[index - 1] if index else ""
        if joined in ("|", "|&"):
            continue  # a pipeline is its first command: the rest read its output
        words = strip_prefixes(segment)
        if not words:
            continue
        head = words[0]
        if head in ("cd", "pushd") and not steps:
            # `cd engines && cd billing` is in engines/billing (a second absolute one replaces the first)
            to = words[1] if len(words) > 1 else "~"
            directory = posixpath.normpath(posixpath.join(directory, to)) if directory else to
            continue
        if head == "sleep":
            polls = True
            continue
        if head == "export":
            # a setting changes the work; where programs are looked up (`PATH=…:$PATH`) does not
            exports.extend(word for word in words[1:] if "=" in word and not word.startswith("PATH="))
            continue
        if head in _SETUP or head in _PRINTS or head == "exit":
            continue  # setup, a message, or the exit status echoed or passed on (`; exit $?`)
        if head in _VIEWS and steps:
            continue  # `make > build.log; tail build.log`: reading what the work wrote
        if not steps:  # `make -C web` is `cd web && make`; after a `cd`, the option's folder is inside it
            words, named = _without_directory_option(words)
            if named:
                directory = posixpath.normpath(posixpath.join(directory, named)) if directory else named
        if steps:
            joins.append(joined)
        steps.append(words)
    if not steps:
        text = normalise_command(command)
        return Work(text, text.split(" ", 1)[0] if text else "", probe=polls)
    directory = _plain(directory) if directory not in (".", "./") else ""
    if directory and not directory.startswith(("/", "~", "$")):
        # `cd tests && csi run.scm` runs `tests/run.scm`: a relative path names one file from either place
        steps = [[words[0], *(_within_directory(directory, word) for word in words[1:])] for words in steps]
    script = _shell_script(steps[0]) if len(steps) == 1 and not exports else None
    if script is not None:  # `bash -c 'cd web && make check'` is the work of its script
        inner = work_identity(script)
        return replace(inner, directory=inner.directory or directory, probe=inner.probe or polls)
    prefix = f"export {' '.join(sorted(exports))} && " if exports else ""
    canonical = [_canonical(words) for words in steps]
    asks = canonical[0][0] in _PROBES or _is_status_check(steps[0]) or _asks_inside(steps[0])
    probe = asks or (polls and (_LOOPS.search(command) is not None or _only_asks(steps[0])))
    if len(canonical) == 1:
        runner, body = canonical[0]
        if len(steps[0]) == 2 and steps[0][1] in ASKS_ABOUT_ITSELF:
            body = f"{body} {steps[0][1]}"  # `<tool> --version` is not a run of the tool's work
        return Work(prefix + body, runner, probe, directory)
    parts = [canonical[0][1]]
    for join, (_, body) in zip(joins, canonical[1:], strict=True):
        parts.append(f"{join} {body}")
    alone = tuple(Work(prefix + body, runner, probe, directory) for runner, body in canonical)
    return Work(
        prefix + " ".join(parts),
        canonical[-1][0],
        probe,
        directory,
        steps=alone,
        all_or_nothing=all(join == "&&" for join in joins),
    )


def _within_directory(directory: str, word: str) -> str:
    """``word`` as seen from the directory a ``cd`` left: a relative path to a file gets the directory, and
    ``.`` (the directory itself, given as the target: ``cd suite && tool run -T .``) is the directory; a path
    climbing out of it names its file from above (``cd build && opt ../test/a.ll`` runs ``test/a.ll``)."""
    if word in (".", "./"):
        return directory.rstrip("/")
    if word.startswith(("-", "/", "~", "$", "'", '"')) or ("/" not in word and "." not in word.strip(".")):
        return word
    if "=" in word or "://" in word or word == "..":
        return word
    if word.startswith("../"):
        return posixpath.normpath(posixpath.join(directory, word))
    return f"{directory.rstrip('/')}/{word.removeprefix('./')}"


def _without_directory_option(words: list[str]) -> tuple[list[str], str]:
    """``words`` without an option naming the directory the program works in, and that directory.

    Many tools take their working directory as an option instead of a ``cd`` (``make -C web``, ``npm
    --prefix web``, ``yarn --cwd web``, ``cargo --manifest-path web/Cargo.toml``, ``uv --directory web``,
    ``git -C web``): the same work either way, so it is read as the directory, whatever the tool.
    """
    for index, word in enumerate(words[1:], start=1):
        name, has_value, value = word.partition("=")
        long_name = name[:1] == "-" and len(name) > 2 and name.lstrip("-") in _DIRECTORY_OPTIONS
        if name != "-C" and not long_name:
            continue
        name = name.lstrip("-")
        if not has_value:
            if index + 1 >= len(words) or _is_flag(words[index + 1]):
                continue
            value, taken = words[index + 1], 2
        else:
            taken = 1
        if _TUNING_NUMBER.match(value):
            continue  # `grep -C 3`: a count, not a directory
        if name in _FILE_IN_DIRECTORY:
            value = value.rpartition("/")[0] if "/" in value else "."
        elif "." in value.rsplit("/", 1)[-1].strip("."):
            continue  # `--project app.csproj`: a file, so a selection, not a directory
        return [*words[:index], *words[index + taken :]], value
    return words, ""


# Runners of a project's named scripts (a script manager, a task runner) and how they are told a name.
_SCRIPT_RUNNERS = frozenset(
    {"make", "just", "task", "mise", "composer", "rake", "poe", "invoke", "pdm", "deno", "mix"}
)


def scripted(work: Work, scripts: Mapping[str, str]) -> Work:
    """``work`` when it runs a project script by its name alone (``npm run check``, ``make lint``) and the
    project's manifest says what that script runs: the identity of that command, in ``work``'s folder."""
    body = script_body(work, scripts)
    if not body:
        return work
    found = work_identity(body)
    return work if found.probe else replace(found, directory=work.directory or found.directory)


def script_body(work: Work, scripts: Mapping[str, str]) -> str | None:
    """What the project's manifest says ``work`` runs, when it runs a script by its name alone (``npm run
    check``, ``make lint``, ``mix ci``); None otherwise."""
    if not scripts or work.steps:
        return None
    words = work.body.split(" ")
    if work.runner == "js-test" and words == ["js-test"]:
        name = "test"
    elif work.runner == "js-script" and len(words) == 2:  # `npm run lint` reads `js-script lint`
        name = words[1]
    elif work.runner in _SCRIPT_RUNNERS and len(words) in (2, 3):
        name = words[-1] if len(words) == 2 or words[1] in ("run", "run-script", "task") else ""
    else:
        name = ""
    if not name and work.runner == "make" and len(words) > 2 and all(word in scripts for word in words[1:]):
        return " && ".join(scripts[word] for word in words[1:])  # `make lint unit`: each target's in turn
    return scripts.get(name) or None


def strip_prefixes(segment: Sequence[str]) -> list[str]:
    """Drop environment assignments and wrappers that run the rest unchanged (with their own options:
    ``timeout -k 10 5m``, ``/usr/bin/time -v``, ``nice -n 10``, ``env -u HOME``, ``nix develop -c``)."""
    words = list(segment)
    changed = True
    while words and changed:
        changed = False
        while words and _ASSIGNMENT.match(words[0]):
            words = words[1:]
            changed = True
        rest = _after_wrapper(words)
        if rest is not None:
            words, changed = rest, True
            continue
        if (
            len(words) > 2
            and INTERPRETERS.match(words[1])
            and not INTERPRETERS.match(words[0].rsplit("/", 1)[-1])
        ):
            # a tool handing a script to the interpreter it names (`symfony php bin/phpunit`: the project's
            # PHP): the script is what runs
            words, changed = words[1:], True
            continue
        for prefix, size in _WRAPPERS.items():
            if tuple(words[: len(prefix)]) == prefix and len(words) > size:
                words = words[size:]
                changed = True
                break
    return words


def _after_wrapper(words: list[str]) -> list[str] | None:
    """The command an option-taking wrapper runs (None: ``words`` is no such wrapper, or runs nothing)."""
    if not words:
        return None
    program = words[0].rsplit("/", 1)[-1]
    if program == "nix" and words[1:2] in (["develop"], ["shell"]):
        for marker in ("-c", "--command"):
            if marker in words:
                at = words.index(marker)
                return words[at + 1 :] or None
        return None
    valued = _RUNS_THE_REST.get(program)
    if valued is None:
        return None
    index = 1
    while index < len(words) and _is_flag(words[index]):
        name = words[index].partition("=")[0]
        index += 2 if name in valued and "=" not in words[index] and len(name) == len(words[index]) else 1
    if program == "timeout":
        if index >= len(words) or not _DURATION.match(words[index]):
            return None
        index += 1
    return words[index:] or None


def _shell_script(words: list[str]) -> str | None:
    """The script of a shell handed the work as one string (``bash -c 'make check'``, ``sh -ec "…"``,
    ``nix-shell --run '…'``, ``pwsh -Command '…'``), or None."""
    program = words[0].rsplit("/", 1)[-1] if words else ""
    if program == "nix-shell" and "--run" in words[:-1]:
        return words[words.index("--run") + 1]
    if program in _POWERSHELLS:  # `pwsh -NoProfile -Command 'Invoke-Pester -CI'`
        for index, word in enumerate(words[1:-1], start=1):
            if word.lower() in ("-c", "-command"):
                return words[index + 1]
            if not word.startswith("-"):
                return None
        return None
    if program not in _SHELLS:
        return None
    for index, word in enumerate(words[1:-1], start=1):
        if word.startswith("-") and not word.startswith("--") and "c" in word:
            return words[index + 1]
        if not word.startswith("-"):
            return None
    return None


def _canonical(words: list[str]) -> tuple[str, str]:
    program = words[0].rsplit("/", 1)[-1]
    program = _LAUNCHERS.get(program, program)
    if _PYTHON.match(program) and len(words) > 2 and words[1] == "-m":
        program, words = words[2], words[2:]
    elif INTERPRETERS.match(program) and len(words) > 1 and _BIN_DIRS.search(words[1]):
        words = words[1:]  # `php vendor/bin/phpunit` is phpunit
        program = words[0].rsplit("/", 1)[-1]
    elif INTERPRETERS.match(program) and (at := _script_at(words)) is not None:
        # `php -d memory_limit=-1 bin/magento` is magento; `python -u manage.py` is `./manage.py`
        words = words[at:] if _BIN_DIRS.search(words[at]) else [_as_run(words[at]), *words[at + 1 :]]
        program = words[0].rsplit("/", 1)[-1]
    if program in ("pytest", "py.test"):
        return "pytest", f"pytest {_pytest_targets(without_shown('pytest', words[1:]))}".strip()
    if program in _JS_MANAGERS:
        script = _js_script(words[1:])
        if script is not None:
            return script
    if program in _JS_RUNNERS:
        return "js-test", f"js-test {_positionals(without_shown('js-test', words[1:]))}".strip()
    if program in _SCRIPT_MANAGERS and len(words) > 2 and words[1] in ("run", "run-script"):
        words = [words[0], *words[2:]]  # `composer run-script test` is `composer test`
    name = _program_name(words[0])
    return name, _generic(words)


def _script_at(words: list[str]) -> int | None:
    """Where the script file an interpreter runs sits, past the interpreter's own switches and the settings
    they take (``bash -x ci.sh``, ``python3 -X dev tools/r.py``, ``php -d memory_limit=-1 bin/console``), or
    None (code given inline, a module, an absolute path)."""
    after_flag = False
    for index, word in enumerate(words[1:], start=1):
        if word in ("-c", "-e", "-m", "-r", "--eval", "--require"):
            return None  # what runs is the next word, not a file
        if _is_flag(word):
            after_flag = True
            continue
        script = _SCRIPT_FILE.match(word) is not None or _BIN_DIRS.search(word) is not None
        if script:
            return index if word[0] != "/" else None
        if not after_flag:
            return None
        after_flag = False  # a switch's value (`python3 -X dev`, `ruby -I lib`): the script may follow
    return None


def _pytest_targets(args: list[str]) -> str:
    """Paths and selections, sorted; every other flag (verbosity, plugins, stop-first) dropped."""
    targets: list[str] = []
    selectors: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg in _PYTEST_SELECTORS and index + 1 < len(args):
            selectors.append(f"{arg} {args[index + 1]}")
            index += 2
            continue
        if arg in _PYTEST_VALUED:
            index += 2
            continue
        if not arg.startswith("-"):
            targets.append(arg.removeprefix("./"))
        index += 1
    return " ".join(sorted(targets) + sorted(selectors)).strip()


def _js_script(args: list[str]) -> tuple[str, str] | None:
    """``npm test``, ``npm run test``, ``yarn test``, ``pnpm --filter X test``: the script and its scope."""
    scope: list[str] = []
    rest = list(args)
    while rest and rest[0].startswith("-"):
        flag = rest.pop(0)
        if flag in ("--filter", "-F", "--workspace", "-w", "--prefix", "-C", "--cwd") and rest:
            scope.append(f"{flag.lstrip('-')[0]}={rest.pop(0)}")
        elif "=" in flag and flag.split("=", 1)[0] in ("--filter", "--workspace", "--prefix", "--cwd"):
            scope.append(f"{flag.lstrip('-')[0]}={flag.split('=', 1)[1]}")
    told = rest[:1] in (["run"], ["run-script"])  # `npm run ci` runs the script `ci`, not npm's own `ci`
    if told:
        rest = rest[1:]
    if rest[:1] in (["exec"], ["x"], ["dlx"]) and len(rest) > 1 and scope:
        # `pnpm --filter api exec vitest run x.test.ts`: the program it runs, in that package
        runner, body = _canonical(rest[1:])
        head, _, tail = body.partition(" ")
        return runner, " ".join(part for part in (head, " ".join(sorted(scope)), tail) if part)
    if not rest:
        return None
    script = rest[0]
    if script in ("test", "t") or script in _JS_RUNNERS:
        name = "js-test"
    elif script in ("install", "i", "add", "ci", "exec", "x") and not told:
        return None
    else:
        name = f"js-script {script}"
    # a long option's value given with "=" or as the next word is one spelling (`--target=linux`); a setting
    # that tunes the run goes with its value (`--timeout=60000`, `--workers 1`)
    passed = [part for word in _untuned(rest[1:]) if word != "--" for part in _option_parts(word)]
    extra = _positionals(without_shown("js-test", passed) if name == "js-test" else passed)
    body = " ".join(part for part in (name, " ".join(sorted(scope)), extra) if part)
    return name.split(" ")[0], body


def _untuned(args: list[str]) -> list[str]:
    """``args`` without the settings that tune a run (:data:`_RUN_SETTINGS`, or a long option whose value
    tunes, :func:`_tunes`), each with its value, given with ``=`` or as the next word (a counted setting's
    only when it is a number or a duration, as :func:`_generic` reads them)."""
    kept: list[str] = []
    setting = ""  # the run setting whose value the next word may be
    for word in args:
        its_value = not _is_flag(word) and (setting not in _COUNTED_SETTINGS or _TUNING_NUMBER.match(word))
        if setting and its_value:
            setting = ""
            continue
        setting = ""
        name, has_value, value = word.partition("=")
        known = name[2:] in _RUN_SETTINGS
        if name.startswith("--") and (known or (has_value and _tunes(value, after_flag=True))):
            setting = name[2:] if known and not has_value else ""
            continue
        kept.append(word)
    return kept


def _option_parts(word: str) -> list[str]:
    return word.split("=", 1) if word.startswith("--") and "=" in word else [word]


def _positionals(args: list[str]) -> str:
    return " ".join(sorted(arg.removeprefix("./") for arg in args if not arg.startswith("-")))


def _generic(words: list[str]) -> str:
    """The program, its arguments and its ``--name=value`` settings, each sorted.

    Bare flags are left out: in an attempt to redo the same work they are how much is printed
    (``-v``, ``--silent``), where to stop (``-x``) or how to report (``-u``, ``--no-audit``), and
    the same flag moves freely across a path. What a run selects is an argument (``go test -run
    TestExpiry``: ``TestExpiry`` stays, in its place) or a setting (``-Dtest=OrderTest``), and
    those are kept, so different work stays apart. A long flag's value reads the same given with
    ``=`` or as the next word (``--filter=X``, ``--filter X``), and the value of a flag that only
    says how the run reports or paces itself (``--format documentation``, ``--count=1``) is left
    out with its flag, and so is the value of a runner's own reporting flag (``dotnet test -v q``,
    ``bazel test --test_output=errors``: :mod:`~sbcore.detectors.reporting`). Arguments after the
    first (the subcommand) are sorted: a flag's value moved with its flag across a path (``-run X
    ./pkg`` and ``./pkg -run X``) changes their order, not the work.
    """
    program = _program_name(words[0])
    settings: list[str] = []
    positionals: list[str] = []
    skip_value = False
    skip_counted = False  # the next word is a counted setting's value only when it is a number or a duration
    after_flag = False
    for word in without_shown(_runner_of(program, words), words[1:]):
        if skip_value:
            skip_value = False
            if not _is_flag(word) and not (skip_counted and not _TUNING_NUMBER.match(word)):
                continue
        if word == "--":
            after_flag = False
            continue
        if not _is_flag(word):
            setting = _SETTING.match(
                word
            )  # `make test V=1`: a variable that tunes, as an option's value does
            if not _tunes(word, after_flag=after_flag) and not (
                setting and _tunes(word[setting.end() :], after_flag=True)
            ):
                positionals.append(_plain(word))
            after_flag = False
            continue
        after_flag = True
        name, has_value, value = word.partition("=")
        if name.lstrip("-") in _OUTPUT_OPTIONS:
            skip_value = not has_value  # where the output goes, with its value: `-o bin/app`, `--output=x`
            continue
        if name.startswith("--") and not has_value and name[2:] in _RUN_SETTINGS:
            skip_value = True  # `--format documentation`: its value goes with it
            skip_counted = name[2:] in _COUNTED_SETTINGS
        elif has_value and _tunes(value, after_flag=True):
            continue
        elif has_value and name.lstrip("-") not in _RUN_SETTINGS:
            if name.startswith("--"):
                positionals.append(_plain(value))  # `--filter=X` reads as `--filter X`
            else:
                settings.append(word)  # `-Dtest=X`
    head = positionals[:1]  # the subcommand stays first: `git push`, `cargo test`
    words = [program, *head, *sorted(positionals[1:]), *sorted(settings)]
    return " ".join(shlex.quote(word) for word in words)


_SETTING = re.compile(r"^[A-Z][A-Z0-9_]*=")


def _tunes(value: str, *, after_flag: bool) -> bool:
    """Whether ``value``, an option's value, tunes a run rather than selects what it runs: a number or a
    duration (a parallelism, a timeout, a seed, a count) or a mode word (a colour, an output format, a
    verbosity). A number standing alone is an argument (``gh pr view 7839``): it selects."""
    return after_flag and (_TUNING_NUMBER.match(value) is not None or value.lower() in _MODE_WORDS)


def _runner_of(program: str, words: list[str]) -> str:
    """Whose flags ``words`` are: a known script's own (``./manage.py test -v 2`` takes Django's
    ``-v``), otherwise the program's."""
    base = words[0].rsplit("/", 1)[-1]
    return base if base in _SCRIPTS_WITH_FLAGS else program


def _as_run(script: str) -> str:
    """A script handed to its interpreter, spelt as when run itself (``tools/r.py``: ``./tools/r.py``)."""
    return "./" + script.removeprefix("./")


def _plain(word: str) -> str:
    """A path as written without ``./`` in front or ``/`` behind (``./src/`` is ``src``), the shell's working
    directory spelt one way (``"$(pwd)":/src`` is ``$PWD:/src``), and an image named without the tag a
    registry gives it by default (``ghcr.io/acme/lint:latest`` is ``ghcr.io/acme/lint``)."""
    if word in ("./", "/"):
        return word
    plain = word.removeprefix("./")
    if "pwd" in plain or "PWD" in plain:
        for spelling in _WORKING_DIRECTORY:
            plain = plain.replace(spelling, "$PWD")
    if plain.endswith(":latest") and len(plain) > 7:
        plain = plain[:-7]
    return plain.rstrip("/") if "/" in plain and not plain.startswith(("http:", "https:")) else plain


_WORKING_DIRECTORY = ("$(pwd)", "${PWD}", "`pwd`")


def _program_name(word: str) -> str:
    """The program a word runs: one name for an interpreter's versions, a launcher and its tool.

    A path to a program names the program, except a script run from the working directory
    (``./deploy.sh`` stays itself) unless it sits in a bin directory (``./vendor/bin/phpunit``)
    or is a tool's launcher (``./gradlew``).
    """
    local = word.startswith("./")
    base = word.rsplit("/", 1)[-1]
    if base in _LAUNCHERS:
        return _LAUNCHERS[base]
    if local and not _BIN_DIRS.search(word):
        return word
    if "/" in word and word[0] not in "/~" and _SCRIPT_FILE.match(word) and not _BIN_DIRS.search(word):
        return _as_run(word)  # `uv run scripts/migrate.py` runs the project's script: `./scripts/migrate.py`
    return "python" if _PYTHON.match(base) else base


def _is_flag(word: str) -> bool:
    return word.startswith("-") and word not in ("-", "--")


# Subcommands that ask how something stands rather than do anything, in any program's CLI (`gh run list`,
# `fly status`, `systemctl status x`, `pm2 ls`, `aws ecs describe-services`): after a wait, a poll.
_ASKING = frozenset(
    {"list", "ls", "get", "status", "view", "show", "describe", "logs", "log", "ps", "inspect", "info"}
    | {"checks", "watch", "wait", "health", "top", "events", "history"}
)


def _only_asks(words: list[str]) -> bool:
    """Whether a step only asks: a program that shows text (``tail server.log``), or one of its first few
    words a subcommand that asks (:data:`_ASKING`, or an ``aws``-style ``describe-…``, ``list-…``)."""
    if words[0] in _VIEWS:
        return True
    heads = [word for word in words[1:4] if not word.startswith("-")]
    return any(word in _ASKING or word.startswith(("describe-", "list-", "get-")) for word in heads)


def _asks_inside(words: list[str]) -> bool:
    """Whether a step runs a probe inside a container or a pod (``docker compose exec -T db pg_isready``,
    ``kubectl exec api -- curl -sf localhost:8080/health``): the program it has ``exec`` run asks."""
    if "exec" not in words[1:3]:
        return False
    at = words.index("exec", 1)
    inner = [word.rsplit("/", 1)[-1] for word in words[at + 1 : at + 6] if not word.startswith("-")]
    return any(word in _PROBES for word in inner)


def _is_status_check(words: list[str]) -> bool:
    """``gh run view``, ``gh pr checks``, ``docker ps``, ``kubectl get``: asking, not doing."""
    program = words[0].rsplit("/", 1)[-1]
    second = words[1] if len(words) > 1 else ""
    return (
        (
            program == "gh"
            and second in ("run", "pr")
            and len(words) > 2
            and words[2] in ("view", "watch", "checks")
        )
        or (program == "docker" and second in ("ps", "logs", "inspect"))
        or (program == "kubectl" and second in ("get", "describe", "logs", "rollout"))
    )
