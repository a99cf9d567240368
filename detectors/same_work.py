"""Two spellings of one piece of work that only the session itself can tie together.

:func:`~sbcore.detectors.identity.work_identity` reads one command alone. Two kinds of spelling
need what the rest of the session shows:

- **The project's own absolute paths.** ``pytest /home/dev/site/tests/test_links.py`` and
  ``pytest tests/test_links.py`` run one file when the session runs in ``/home/dev/site``. The
  harness records where each command ran (its ``cwd``, which follows a ``cd`` the shell kept), and
  the projection keeps it beside the command; a session read without it (an older spool) can still
  show its root by naming one file both ways (an absolute path ending in ``/`` plus a relative path
  of at least two parts it also names). :class:`RootEvidence` finds the root, :func:`relative_to`
  spells commands without it, and :func:`place` says where each ran, relative to it.
- **A project script and the tool it runs.** ``npm run lint`` runs ``eslint src/`` and ``make
  typecheck`` runs ``mypy src/``, but only the project's files say so, and the observer never
  reads them. It sees what the commands printed: when a script run and a direct tool run fail
  with the same, specific error line and nothing was edited between them, the two are the same
  work, and :class:`ScriptAliases` remembers that for the rest of the session. The same error from
  two direct tools, or from two scripts, proves nothing of the kind (two test files can fail on one
  missing module) and keeps them apart.
- **The step of a chain that failed.** ``npm ci && npm test`` is its two steps; when its result
  shows tests failing (the outcome counts them) and only one step runs tests, that step is what
  failed, and when the error names the task that failed (mise's ``[lint] ERROR task failed``,
  npm's ``Lifecycle script `lint` failed``, make's ``*** [Makefile:9: lint] Error 1``) and one step
  runs that task, that step is; the attempt is then that step's (:func:`failed_step`).
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from .failures import located, same_failure
from .identity import Work
from .shell import split_segments

# Runners that run a project's named script, whose body only the project's files show.
SCRIPT_RUNNERS = frozenset(
    {"js-script", "make", "mise", "just", "task", "composer", "rake", "tox", "nox", "poe", "invoke"}
)
# An error line shorter than this (folded) says too little to tie two commands together.
MIN_SIGNATURE = 16
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
# Runners that run tests by name; other programs do when their subcommand is `test` (`go test`).
TEST_RUNNERS = frozenset({"pytest", "js-test", "rspec", "phpunit", "unittest", "nose2", "tox", "nox"})
_TEST_TASK = re.compile(r"^test(?:[:_-][\w:-]+)?$")  # `test`, `test:e2e`, `test-unit`
# A script runner saying which of its tasks failed (each group named for the runners it speaks for).
_TASK_FAILED = re.compile(
    r"^(?:\[error\][^:\n]*:\s*)?(?:\[(?P<mise>[\w:.-]+)\] ERROR task failed"
    r"|make(?:\[\d+\])?: \*\*\* \[(?:[^\]\n]*?:\s*)?(?P<make>[\w:.-]+)\] Error)"
    r"|Lifecycle script `(?P<npm>[\w:.-]+)` failed",
    re.M,
)
_TASK_RUNNERS = {
    "mise": frozenset({"mise"}),
    "make": frozenset({"make"}),
    "npm": frozenset({"js-script", "js-test"}),
}


@lru_cache(maxsize=4096)
def path_words(command: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The absolute and the relative file paths ``command`` names (relative ones with a ``/``)."""
    try:
        segments, _ = split_segments(command)
    except ValueError:
        return (), ()
    absolute: list[str] = []
    relative: list[str] = []
    for segment in segments:
        for word in segment:
            value = word.partition("=")[2] if word.startswith("-") else word
            if not value or _URL.match(value) or "$" in value:
                continue
            if value.startswith("/") and value.count("/") >= 2:
                absolute.append(value.rstrip("/"))
            elif "/" in value.strip("/") and not value.startswith(("~", "-")):
                relative.append(value.removeprefix("./").rstrip("/"))
    return tuple(absolute), tuple(relative)


def edited_path(path: str) -> tuple[str, ...]:
    """What a file the session edited shows of the root: itself when it is absolute."""
    return (path.rstrip("/"),) if path.startswith("/") else ()


class RootEvidence:
    """The paths a session has named, counted, and the directory its relative paths are relative to.

    A root is shown when an absolute path (a command's, or a file the session edited) is some directory
    plus a relative path of two parts or more that a command names; when several directories are shown
    so, the one shown most wins. Paths are counted so that what leaves the session's history can be taken
    out again; the root is worked out again only when the paths have changed.
    """

    def __init__(self) -> None:
        self._absolute: Counter[str] = Counter()
        self._relative: Counter[str] = Counter()
        self._ran_in: Counter[str] = Counter()
        self._root: str | None = None  # None: to be worked out again

    def add(self, absolute: Iterable[str], relative: Iterable[str], ran_in: Iterable[str] = ()) -> None:
        self._absolute.update(absolute)
        self._relative.update(relative)
        self._ran_in.update(ran_in)
        self._root = None

    def remove(self, absolute: Iterable[str], relative: Iterable[str], ran_in: Iterable[str] = ()) -> None:
        for counts, paths in ((self._absolute, absolute), (self._relative, relative), (self._ran_in, ran_in)):
            for path in paths:
                counts[path] -= 1
                if not counts[path]:
                    del counts[path]
        self._root = None

    def root(self) -> str:
        """The root: the uppermost directory the commands ran in (the harness says where; a ``cd`` only
        goes down into the project, most often), else the one the paths show, else ""."""
        if self._root is None:
            self._root = self._uppermost() or self._shown()
        return self._root

    def _uppermost(self) -> str:
        if not self._ran_in:
            return ""
        return min(self._ran_in.items(), key=lambda item: (len(item[0]), -item[1], item[0]))[0]

    def _shown(self) -> str:
        roots: Counter[str] = Counter()
        for path in self._absolute:
            parts = path.split("/")
            for start in range(2, len(parts) - 1):
                if "/".join(parts[start:]) in self._relative:
                    roots["/".join(parts[:start])] += 1
                    break
        if not roots:
            return ""
        return max(roots.items(), key=lambda item: (item[1], -len(item[0])))[0]


def relative_to(command: str, root: str) -> str:
    """``command`` with the project's own absolute paths spelt relative to ``root`` (``root`` itself as
    ``.``)."""
    if not root or root not in command:
        return command
    return _root_word(root).sub(".", command.replace(root + "/", ""))


@lru_cache(maxsize=64)
def _root_word(root: str) -> re.Pattern[str]:
    """The pattern of ``root`` standing alone as a word (``-S /home/dev/app``)."""
    return re.compile(r"(?<![^\s=\"'])" + re.escape(root) + r"/?(?![^\s;&|)\"'])")


def place(ran_in: str, directory: str, root: str) -> str:
    """Where a command ran, relative to ``root`` ("" for the root itself): the directory it ran in
    (``ran_in``, "" when unknown: then the root) with the one its own ``cd`` or option named."""
    if not ran_in and not directory.startswith("/"):
        return posixpath.normpath(directory) if directory else ""
    where = posixpath.normpath(posixpath.join(ran_in or root, directory))
    if where == root:
        return ""
    if root and where.startswith(root + "/"):
        return where[len(root) + 1 :]
    return where


def is_script(work: Work) -> bool:
    return work.runner in SCRIPT_RUNNERS


class ScriptAliases:
    """Streak keys that the session has shown to be one piece of work (a script and its tool)."""

    def __init__(self) -> None:
        self._to: dict[str, str] = {}

    def resolve(self, key: str) -> str:
        """The key ``key`` was shown to be, followed link by link (a script's echo tied `ember test` to the
        script `test:ember`, a shared failure tied that script to `npm test`): one piece of work all along."""
        seen = {key}
        while (to := self._to.get(key)) is not None and to not in seen:
            seen.add(to)
            key = to
        return key

    def shown(self, shown: str, key: str, streaks: Mapping[str, object]) -> None:
        """A failure of ``key`` showed it ran the command whose work is ``shown`` (a script runner's echo):
        the two are one piece of work, under whichever already has a streak."""
        if shown in self._to or key in self._to:
            return
        if shown in streaks:
            self._to[key] = shown
        else:
            self._to[shown] = key

    def learn(
        self,
        key: str,
        work: Work,
        signature: str,
        open_streaks: Iterable[tuple[str, Sequence[Work], Sequence[str]]],
        summaries: frozenset[str] = frozenset(),
    ) -> str:
        """The key this failure belongs to, given each streak still open (its key, the works it holds and
        the error signatures it holds, the latest first), the most recent first. ``summaries``: the lines
        this failure reported itself with beside its details (a count, a status row), which a streak of the
        same work shown without details holds as its signature.

        It joins the first of them it is tied to: one specific error signature it holds, the same
        directory (or a folder one program was told by a path, :func:`_same_place`), and a work
        :func:`related` to one of the streak's, or another program handed the same file
        (:func:`same_file`). Whatever came between (an edit,
        another command, another failure) left that error as it was, so it changed nothing the spellings
        differ in. A diagnostic at a file's line (:func:`located`) ties any two works: whatever compiled
        that file met the same fault there (``make``, then the compiler on the one file; two modules'
        builds stopped in the code they share), and running something else cannot reach it.

        Failing that, it joins the latest failing streak when it shows the very error that streak last
        showed (:func:`_failed_again`): the work failing again however it was spelt."""
        if key in self._to:
            return self.resolve(key)
        if len(signature.strip()) < MIN_SIGNATURE:
            return key
        streaks = list(open_streaks)
        for earlier_key, works, signatures in streaks:
            if (
                earlier_key != key
                and any(same_failure(signature, earlier) or earlier in summaries for earlier in signatures)
                and (
                    located(signature)
                    or any(
                        (
                            _same_place(work, other)
                            and (related(work, other) or same_snippet_target(work, other, signature))
                        )
                        or (names_the_fault(signature) and _program(work) != _program(other))
                        or (_nested(work, other) and related(work, other) and _quotes_a_name(signature))
                        or (work.directory == other.directory and same_named_target(work, other, signature))
                        or (work.directory == other.directory and same_file(work, other))
                        for other in works
                    )
                )
            ):
                self._to[key] = earlier_key
                return earlier_key
        if streaks and _failed_again(work, signature, streaks[0][1], streaks[0][2]):
            self._to[key] = streaks[0][0]
            return streaks[0][0]
        return key


_NAMED_FAULT = re.compile(
    r"(?:[\w.+-]+: +)?(?:fatal +)?error\b[^'`\"\n]{0,60}['`\"\u2018][\w.:$<>-]{1,80}['`\"\u2019]"
    # a linker's: the symbol no object defines (`wasm-ld: error: a.o: undefined symbol: png_read`, `undefined
    # reference to `f'`, `unresolved external symbol f`)
    r"|.{0,120}?\b(?:undefined (?:symbol|reference to)|unresolved external symbol)\b"
    r":? *['`\u2018\"]?[\w.:$@]{3,}"
)


def _same_place(one: Work, other: Work) -> bool:
    """Whether two spellings work in one folder: the same directory, or one program told by a path it is
    given where the other's ``cd`` went (``docker compose -f deploy/compose.yml up`` and ``cd deploy &&
    docker compose up``; ``swift test --package-path Pkgs/Core`` and ``cd Pkgs/Core && swift test``)."""
    if one.directory == other.directory:
        return True
    if _program(one) != _program(other):
        return False
    return one.directory in _places(other) or other.directory in _places(one)


def _nested(one: Work, other: Work) -> bool:
    """Whether one spelling works in a folder inside the other's (``cargo sqlx prepare --workspace`` from the
    root and ``cd crates/api && cargo sqlx prepare``; ``npm run tauri build`` and ``cd src-tauri && cargo
    build``): the whole takes in the part, so one named fault met by both is met in the part. Two folders
    side by side (``packages/a``, ``packages/b``) are two targets."""
    inner, outer = sorted((one.directory, other.directory), key=len)[::-1]
    if inner == outer or inner.startswith(("/", "~", "$", "..")):
        return False
    return outer == "" or inner.startswith(outer.rstrip("/") + "/")


_QUOTED_NAME = re.compile(r"['`\"\u2018][\w.:$<>/#-]{3,}['`\"\u2019]")


def _quotes_a_name(signature: str) -> bool:
    """Whether an error signature quotes the name of what failed (a relation, a library, a module)."""
    return _QUOTED_NAME.search(signature) is not None


def _places(work: Work) -> set[str]:
    """The folders the paths a spelling names are in (a file's folder, or the folder itself); the folder it
    was started in, when it names that by the shell's variable (``make -C ~/src/linux M=$PWD``, ``docker run
    -v $(pwd):/src``: told to work elsewhere, on this folder's files)."""
    places = set()
    for word in work.body.split(" ")[1:]:
        value = word.split("=", 1)[-1].strip("'\"")
        started = next((name for name in _STARTED_IN if value.startswith(name)), None)
        if started is not None and value[len(started) :][:1] in ("", "/", ":"):
            places.add(value[len(started) :].split(":", 1)[0].strip("/"))  # `$PWD/web:/src`: `web`
        elif "/" in value and not value.startswith(("-", "/")):
            folder, _, name = value.rstrip("/").rpartition("/")
            places.add(folder if "." in name.strip(".") else value.rstrip("/"))
    return places


_STARTED_IN = ("$PWD", "${PWD}", "$(pwd)", "`pwd`")


def names_the_fault(signature: str) -> bool:
    """Whether an error signature is a compiler's error naming the code at fault (``error: symbol 'dt' at
    (#) has no implicit type``) or a linker's naming the symbol nothing defines (``undefined symbol:
    png_read``): like a located one, it is in the code, whatever program compiled or linked it
    (``cmake --build build``, then ``make`` in that folder). Two selections of one program failing on it
    stay apart (two test files can fail on one missing module)."""
    return _NAMED_FAULT.match(signature) is not None


def same_named_target(one: Work, other: Work, signature: str) -> bool:
    """Whether two commands ran one target, whatever programs or spellings ran it: a word selects the
    same thing in both (a test class, a module, a file's stem: ``php artisan test --filter=CartTest`` and
    ``vendor/bin/pest tests/CartTest.php``; ``--tests com.acme.CartTest`` and ``--tests '*CartTest'``) and
    the failure they share names it. Two programs checking one file fail each in its own words; the same
    failure naming what both selected is that target failing again. Two selections that each name
    something the other does not (``--tests CartTest`` and ``--tests UserTest``, in one task whose name
    the failure gives) are two targets, unless the failure names that too (a test method of the class)."""
    low = signature.lower()
    mine, theirs = _selected(one), _selected(other)
    if not any(word in low for word in mine & theirs):
        return False
    return not ({w for w in mine - theirs if w not in low} and {w for w in theirs - mine if w not in low})


def same_file(one: Work, other: Work) -> bool:
    """Whether two programs were handed one file (``latexmk -pdf main.tex`` and ``pdflatex main.tex``,
    ``pytest tests/test_cart.py`` and ``python tests/test_cart.py``): failing on it with one specific error,
    what fails is in that file, whichever program read it. One program's two selections are
    :func:`related`'s to judge."""
    if _program(one) == _program(other):
        return False
    return not _files(one).isdisjoint(_files(other))


def _files(work: Work) -> set[str]:
    return {word for word in work.body.split(" ")[1:] if _FILE.match(word)}


_FILE = re.compile(r"^[\w./+-]*\w\.[A-Za-z]\w{0,9}$")  # a path whose last name has an extension


def _selected(work: Work) -> set[str]:
    """The words of ``work`` that select a target of its own, lower-cased (:func:`_names`)."""
    return {name.lower() for name in _names(work)}


def _names(work: Work) -> set[str]:
    """The words of ``work`` that select a target of its own: each name of at least :data:`MIN_TARGET`
    characters that is not a subcommand, in a file's stem, a dotted or a task path
    (``com.acme.cart.CartTest``, ``:app:testDebugUnitTest``), a quoted pattern or an option's value."""
    words = set()
    for word in work.body.split(" ")[1:]:
        value = word.split("=", 1)[-1].strip("'\"*")
        if "/" in value:
            value = value.rstrip("/").rsplit("/", 1)[-1].split(".", 1)[0]
        for part in _PARTS.split(value):
            if len(part) >= MIN_TARGET and part.isidentifier() and not _SUBCOMMAND.match(part):
                words.add(part)
    return words


_PARTS = re.compile(r"[.:#*]+")


MIN_TARGET = 6


def _program(work: Work) -> str:
    return work.body.split(" ", 1)[0]


def related(one: Work, other: Work) -> bool:
    """Whether two spellings could be one piece of work, so that one specific error shared by both,
    with nothing changed between them, shows they are.

    - a script run and a direct tool run (``npm run lint`` and ``eslint src/``), a program the project holds
      run by its path among them (``./scripts/deploy.sh`` and ``sqlpackage /Action:Publish``);
    - a chain and one of its steps (``npm run build && npm test`` and ``npm test``);
    - one program whose selections one includes the other's (``cabal test`` and ``cabal test
      --test-show-details=direct``, ``busted`` and ``busted -o gtest spec``, ``prove t`` and ``prove
      t/parse.t``), whatever option spellings or values the tool has: the shared error is the evidence,
      not a table of its options. Disjoint selections (``pytest tests/a.py`` and ``pytest tests/b.py``,
      ``cargo test`` and ``cargo build``) stay apart: two targets can fail on one missing module.
    """
    if is_script(one) != is_script(other) or _project_program(one) != _project_program(other):
        return True
    if any(step.body == other.body for step in one.steps) or any(
        step.body == one.body for step in other.steps
    ):
        return True
    if one.steps or other.steps:
        return any(related(step, other) for step in one.steps) or any(
            related(one, step) for step in other.steps
        )
    mine, theirs = one.body.split(" "), other.body.split(" ")
    if mine[0] != theirs[0]:
        return _same_tests(one, other)
    if not is_script(one) and _subcommand(mine) and _subcommand(theirs) and mine[1] != theirs[1]:
        return True  # `mix test` and `mix deps.compile` failing alike: the failure is under both (a
        # script runner's names are not subcommands: `npm run lint` and `npm run typecheck` are two works)
    if is_script(one) and (_aggregate(mine) or _aggregate(theirs)):
        return True  # `make all` runs `make paper`: failing alike, it is the member failing in it
    mine, theirs = [_unrooted(word) for word in mine[1:]], [_unrooted(word) for word in theirs[1:]]
    return (
        _within(mine, theirs)
        or _within(theirs, mine)
        or _same_stem(mine, theirs)
        or _pattern_names(mine, theirs)
        or _pattern_names(theirs, mine)
    )


def _project_program(work: Work) -> bool:
    """Whether ``work`` runs a program the project holds, by its path (``./scripts/deploy.sh``): a wrapper
    around some tool, as a script runner's task is."""
    return not work.steps and work.body.startswith("./")


def _pattern_names(patterns: list[str], paths: list[str]) -> bool:
    """Whether a selection of one is a pattern the other's file's name holds (``orders.service`` and
    ``src/orders/orders.service.spec.ts``): a runner that takes patterns matches them against its files'
    paths, so the two select that file."""
    names = [path.rsplit("/", 1)[-1] for path in paths if "/" in path]
    return any(
        len(word) >= MIN_TARGET and not word.startswith("-") and "/" not in word and word in name
        for word in patterns
        for name in names
    )


def _same_tests(one: Work, other: Work) -> bool:
    """Two programs' test runs making one selection (``npm test -- --browsers=X`` and ``ng test
    --browsers=X``; ``pnpm test`` and ``vitest run``): the project's test script runs its test tool, and a
    package manager's ``test`` reads as the runner it names, so only the words after each run's test
    subcommand tell the two apart. Disjoint selections stay two targets."""
    if not (runs_tests(one) and runs_tests(other)):
        return False
    return _selection(one) == _selection(other)


def _selection(work: Work) -> list[str]:
    """What a test run's words select, after its program and its test subcommand or task."""
    words = work.body.split(" ")[1:]
    if words[:1] == ["run"]:
        words = words[1:]
    if words[:1] and _TEST_TASK.match(words[0]):
        words = words[1:]
    return sorted(words)


def _aggregate(words: list[str]) -> bool:
    """Whether a script runner's words run its default task or one that conventionally runs the others
    (``make``, ``make all``, ``rake``, ``npm run ci``, ``just check``)."""
    task = words[2:3] if words[1:2] == ["run"] else words[1:2]
    return not task or task[0] in _AGGREGATE_TASKS


_AGGREGATE_TASKS = frozenset(
    {"all", "default", "ci", "check", "verify", "validate", "precommit", "pre-commit"}
)


def _unrooted(word: str) -> str:
    """A selection without the separator that roots it (``:app:assembleDebug`` is ``app:assembleDebug``
    from the root project, ``//pkg:t`` is ``pkg:t`` from the workspace's)."""
    rest = word[2:] if word.startswith("//") else word[1:] if word.startswith(":") else word
    return rest if rest[:1].isalnum() else word


# A program's subcommand: a lower-case word, not a path, a file or a selection (`test`, `deps.compile`).
_SUBCOMMAND = re.compile(r"^[a-z][a-z0-9_:-]*(?:\.[a-z][a-z0-9_-]{4,})*$")
# ... or a build tool's task, named in camel case or by its project's path (`assembleDebug`, `testOnly`,
# `:app:externalNativeBuildDebug`), as the word after the program.
_TASK = re.compile(r"^:?[a-z][a-zA-Z0-9_-]*(?::[a-z][a-zA-Z0-9_-]*)*$")


def same_snippet_target(one: Work, other: Work, signature: str) -> bool:
    """Whether two runs of one interpreter, code handed to it inline to one of them or both, drive the same
    thing: the failure names something each snippet calls (``racket -e '(queue-drain! q)'`` twice over,
    differently written, failing on ``queue-drain!: undefined``; ``matlab -batch "runtests('tests/
    TestResample.m')"`` beside ``matlab -batch 'buildtool test'``, failing in ``TestResample``), not two
    probes that fail alike."""
    if one.body.split(" ", 1)[0] != other.body.split(" ", 1)[0]:
        return False
    snippets = [work.body.lower() for work in (one, other) if _INLINE_CODE.search(work.body)]
    return bool(snippets) and any(
        all(name in snippet for snippet in snippets) for name in _NAMES.findall(signature)
    )


_NAMES = re.compile(r"[a-z_][\w!?-]{4,}")
# A quoted argument holding code: calls or statements (`racket -e '(require "q.rkt") …'`, `octave-cli --eval
# 'addpath inst; test f'`, `matlab -batch "runtests('t')"`).
_INLINE_CODE = re.compile(r"'[^']*[();][^']*'")


def _subcommand(words: list[str]) -> bool:
    return len(words) > 1 and (_SUBCOMMAND.match(words[1]) is not None or _TASK.match(words[1]) is not None)


def _same_stem(one: list[str], other: list[str]) -> bool:
    """Whether a selection of one names the file a selection of the other runs (``--filter CartTest`` and
    ``tests/CartTest.php``)."""
    stems = {word.rsplit("/", 1)[-1].split(".", 1)[0] for word in one + other if "/" in word or "." in word}
    return any(
        word in stems for word in one + other if "/" not in word and "." not in word and len(word) >= 6
    )


def _within(narrow: list[str], wide: list[str]) -> bool:
    """Whether every word of ``narrow`` selects what a word of ``wide`` selects, or part of it: the same
    word, a path inside it (``t/parse.t`` inside ``t``), or a place in it (``cart_test.exs:42``, a line of
    ``cart_test.exs``; ``cart_test.py::test_total``). No words at all select everything. A word
    both have (``crystal spec``'s subcommand) is matched as itself, never read as a folder holding the
    other's paths (``spec/cart_spec.cr`` and ``spec/user_spec.cr`` stay two selections)."""
    shared = set(narrow)
    holders = tuple(
        outer.rstrip("/") + mark for outer in wide if outer not in shared for mark in ("/", ":", "::")
    )
    return all(word in wide or word.startswith(holders) for word in narrow)


def runs_tests(work: Work) -> bool:
    """Whether ``work`` is a test run: a test runner, or a program's ``test`` subcommand or task (``go
    test``, ``cargo test``, ``make test``, ``./manage.py test``, ``mise run test``, ``npm run test:e2e``)."""
    words = work.body.rsplit(" && ", 1)[-1].split(" ")  # after the exports a chain's step carries
    task = words[2:3] if words[1:2] == ["run"] else words[1:2]
    return work.runner in TEST_RUNNERS or any(_TEST_TASK.match(word) for word in task)


def failed_step(work: Work, outcome: Mapping[str, Any] | None, text: str = "") -> Work:
    """The step of a chain that failed, when its result shows which; otherwise ``work`` itself.

    Tests counted as failing come from a step that runs tests: when exactly one step of the chain
    does, that step failed (``npm ci && npm test`` with 1 of 12 tests failing is ``npm test``
    failing). A script runner that names its failed task in ``text`` (the error's head) names the
    step that runs it (``mise run fmt && mise run lint`` with ``[lint] ERROR task failed``).
    Anything else (a build error, two test steps, no counts, a task no step runs) leaves the
    whole chain.
    """
    if not work.steps:
        return work
    counts = (outcome or {}).get("counts") or {}
    if isinstance(failing := counts.get("failed"), int) and failing > 0:
        chosen = [step for step in work.steps if runs_tests(step)]
    elif (named := _TASK_FAILED.search(text)) is not None:
        runner, task = next((name, value) for name, value in named.groupdict().items() if value)
        chosen = [step for step in work.steps if _runs_task(step, _TASK_RUNNERS[runner], task)]
    else:
        return work
    return chosen[0] if len(chosen) == 1 else work


def _runs_task(step: Work, runners: frozenset[str], task: str) -> bool:
    """Whether ``step`` is one of ``runners`` running ``task`` (npm's ``test`` is ``js-test``)."""
    return step.runner in runners and step.body.split(" ")[-1] == (
        "js-test" if step.runner == "js-test" and task == "test" else task
    )


def _failed_again(work: Work, signature: str, works: Sequence[Work], signatures: Sequence[str]) -> bool:
    """Whether a failure is the latest failing work's again, spelt another way: the very error that work last
    showed (or another runner's rendering of it, :func:`same_failure`: pytest's ``E       AssertionError: …``
    beside unittest's ``AssertionError: …``), in its folder (or one inside it, or around it), with nothing
    telling the two apart as targets.

    The same program failing so straight after, with no success between, is the work failing as it did:
    ``x test --dir=t/unit``, then ``x test t/unit/cart.x``, on one parse error; ``x --ctx deploy up``, then
    ``cd deploy && x up``. Another program is the same work only when the error names what failed (a quoted
    name, a file's place, a dotted or pathed name): `connection refused` or `the build failed` ends many
    unrelated runs; so is code handed inline (two probes of one interpreter can fail alike on different
    calls), unless both call one function of the project's by its long name (:func:`_calls_alike`). Telling
    them apart: :func:`_apart` (two named scripts, two files, two names of their own, an
    unknown root), :func:`_swept` (one spelling with its target swapped: a sweep over issues, jobs or
    packages), or two folders side by side."""
    return same_failure(signature, signatures[0]) and any(
        _one_target(work, other, signature) for other in works
    )


def _one_target(work: Work, other: Work, signature: str) -> bool:
    return (
        (work.directory == other.directory or _nested(work, other))
        and (
            _names_what_failed(signature)
            or (
                _program(work) == _program(other)
                and (not _INLINE_CODE.search(work.body + other.body) or _calls_alike(work, other))
            )
        )
        and not _swept(work, other)
        and not _apart(work, other, signature)
    )


# A call in code handed inline, by a name long enough to be the project's own (`fastconv_mex(x, k)`), not a
# builtin's (`ones(`, `rand(`, `print(`).
_CALLED = re.compile(r"\b([A-Za-z_]\w{7,})\(")


def _calls_alike(one: Work, other: Work) -> bool:
    """Whether two runs of code handed inline to one interpreter call one function by its long name: probes
    of that function with other inputs, failing alike (`zoct --eval 'y = fastconv_mex(x, k)'`, then `zoct
    --eval 'fastconv_mex(ones(1,50), ones(1,80))'`, both crashing)."""
    mine = set(_CALLED.findall(one.body))
    return bool(mine) and not mine.isdisjoint(_CALLED.findall(other.body))


def _names_what_failed(signature: str) -> bool:
    """Whether an error names what failed: a quoted name, a place in a file, a dotted or pathed name (`a.b.c`,
    `crate::module::test`), a file, a call, an id folded away. `connection refused`, `the build failed`,
    `link failed` name nothing: many unrelated runs end so."""
    return _quotes_a_name(signature) or located(signature) or _NAMING.search(signature) is not None


_NAMING = re.compile(
    r"[a-z_]\w*(?:\.[a-z_]\w*){2,}|[a-z_]\w*(?:::[a-z_]\w*)+|[\w.-]+/[\w.-]+|[\w#-]+\.[a-z]{1,5}\b"
    r"|(?<!\S)/[a-z_][\w.-]{2,}"  # a name rooted at a slash (a topic `/heartbeat`, a route, a file)
    r"|\w \(\w|\w\(|(?<![\"'])…(?![\"'])"
)


def _apart(one: Work, other: Work, signature: str) -> bool:
    """Whether the two are told apart as targets:

    - two of the project's named scripts (``just lint``, then ``just docs``: each its own task, which can
      stop alike at a dependency they share), unless the error is one in the code (:func:`_in_the_code`:
      ``pandas.errors.MergeError`` from ``make pipeline`` and ``make transform``);
    - each handed a file the other is not (``test_cart.py``, then ``test_user.py``: two test files can fail
      alike on one missing module);
    - each selecting a name of its own that the error does not name (``--only RoundingSpec``, then ``--only
      TaxBandSpec``), unless one's names are the other's with words left out (:func:`_one_within`);
    - one naming an absolute folder the other does not (with no root known, where each ran is not)."""
    if is_script(one) and is_script(other) and not _in_the_code(signature):
        return True
    mine, theirs = _files(one), _files(other)
    if _own(mine, theirs) and _own(theirs, mine):
        return True
    low = signature.lower()
    mine, theirs = _names(one), _names(other)
    own = {w for w in mine - theirs if w.lower() not in low}
    others = {w for w in theirs - mine if w.lower() not in low}
    if own and others and not _one_within(own, others):
        return True
    return _absolute(one) != _absolute(other)


def _own(files: set[str], others: set[str]) -> set[str]:
    """The files of ``files`` that are not the others' and neither hold one of them nor lie inside one (a
    project's folder named like a file, `src/App.Web`, holds `src/App.Web/App.Web.csproj`: one target)."""
    return {
        path
        for path in files - others
        if not any(other.startswith(path + "/") or path.startswith(other + "/") for other in others)
    }


def _one_within(own: set[str], others: set[str]) -> bool:
    """Whether one side's names are the other's with words left out (``connectedAndroidTest`` within
    ``connectedDebugAndroidTest``: the aggregate task and one of its members), not two of a kind
    (``RoundingSpec`` and ``TaxBandSpec``)."""
    mine, theirs = (_words_of(own), _words_of(others))
    return mine <= theirs or theirs <= mine


def _words_of(names: set[str]) -> set[str]:
    return {word.lower() for name in names for word in _CAMEL_WORD.findall(name)}


_CAMEL_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def _in_the_code(signature: str) -> bool:
    """Whether an error is a fault in the code, wherever it was run from: a diagnostic at a file's place, a
    compiler's or linker's naming what is at fault, or an exception raised by its qualified type
    (``pandas.errors.mergeerror: …``, ``java.lang.illegalstateexception: …``)."""
    return located(signature) or names_the_fault(signature) or _RAISED.match(signature) is not None


_RAISED = re.compile(r"[a-z_]\w*(?:\.[a-z_]\w*)+(?:error|exception)\b:")


def _absolute(work: Work) -> bool:
    """Whether the work names an absolute path (a Windows-style switch with its value, `/Action:Publish`,
    `/p:Configuration=Release`, is none)."""
    return any(word.startswith("/") and _SWITCH.match(word) is None for word in work.body.split(" ")[1:])


_SWITCH = re.compile(r"/[A-Za-z][\w-]*:")


def _swept(one: Work, other: Work) -> bool:
    """Whether two spellings are one command with its target swapped: only numbers changed
    (``get-plan-info 7839``, then ``7835``), or one argument or option value given another (``--filter
    @acme/api``, then ``--filter @acme/worker``): a sweep over issues, jobs or packages, not the same one
    again. A value that extends the other (a test file, then one test in it) narrows the same target, and one
    whose words the other holds is an aggregate beside a member (``connectedAndroidTest``,
    ``:app:connectedDebugAndroidTest``)."""
    mine, theirs = one.body.split(" "), other.body.split(" ")
    if len(mine) != len(theirs) or mine[0] != theirs[0]:
        return False  # another program (`./build.ps1 Test`, then `Invoke-Build Test`) is no sweep of one
    differing = [(a, b) for a, b in zip(mine, theirs, strict=True) if a != b]
    if differing and all(_NUMBER.sub("#", a) == _NUMBER.sub("#", b) for a, b in differing):
        return True
    if len(differing) != 1:  # none (one spelling), or one folder's name swapped in each path
        return len(differing) > 1 and _one_swap(differing)
    ((a, b),) = differing
    if a.lower() == b.lower():
        return False  # one value in another case (`-testPlatform PlayMode`, then `playmode`): the same target
    if is_script(one) and is_script(other) and "=" not in a + b:
        return False  # two of the project's tasks, not one task's scopes: :func:`_apart` judges them
    if a.startswith(b) or b.startswith(a) or _one_within({a}, {b}):
        return False  # narrowed, or an aggregate beside one of its members
    if "=" in a or "=" in b:
        return a.split("=", 1)[0] == b.split("=", 1)[0]  # one option, another value
    return not a.startswith("-") and not b.startswith("-")  # one argument for another


def _one_swap(differing: Sequence[tuple[str, str]]) -> bool:
    """Whether every differing word of two spellings differs by one name put for another (``packages/core/
    docs packages/core/out``, then ``packages/cli/docs packages/cli/out``): one target's paths, swapped."""
    first, second = differing[0]
    head = len(posixpath.commonprefix([first, second]))
    tail = len(posixpath.commonprefix([first[head:][::-1], second[head:][::-1]]))
    mine, theirs = first[head : len(first) - tail], second[head : len(second) - tail]
    return bool(mine and theirs) and all(a.replace(mine, theirs) == b for a, b in differing[1:])


_NUMBER = re.compile(r"\d+")
