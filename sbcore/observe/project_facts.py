"""What the project itself shows: its files' names and the scripts its manifests define, read as text.

The structural triggers otherwise know a project only from what the session happened to show: a checklist
that asks "were the tests run?" only where a test file was seen never asks in a project whose test folder
the agent never listed, and ``npm run check`` cannot be tied to the command it runs. This reader answers
those questions from the checkout itself, within bounds that a hostile repository cannot stretch:

- **Read-only, nothing run.** Folders are listed and a few manifest files read as text (JSON with the
  standard library's reader, TOML with ``tomllib``, a Taskfile with the bounded YAML reader, Makefiles,
  justfiles and ``mix.exs`` line by line). Nothing is executed, expanded by a shell, imported or fetched;
  a script's body is kept as the words it says.
- **Jailed.** Every folder and file is reached through :class:`sbcore.jail.Jail`: one component at a time
  from the root with ``O_NOFOLLOW``, so no link is followed (a linked file or folder is neither listed into
  nor read, even one pointing inside), only a regular file is ever opened (never a FIFO, device or socket),
  and nothing outside the root is touched. A root the jail refuses (``/``, a pseudo-filesystem) is not read.
- **Bounded.** At most :data:`MAX_ENTRIES` directory entries seen in all (a folder of a million files costs
  what its first few thousand do), :data:`MAX_DEPTH` folders deep, manifests of at most
  :data:`MAX_FILE_BYTES` each and :data:`MAX_TOTAL_BYTES` in all, and :data:`MAX_SECONDS` of wall time; past
  a bound the reading stops and says which (``truncated``), keeping what it found. A manifest it would not
  read says why in ``passed_over``.
- **Cached.** :class:`ProjectReader` keeps one reading per root and reads again only when a folder it
  listed or a manifest it read has a new modification time, so a pass pays a ``stat`` per folder.

Facts never reach a model's window as such; a trigger that quotes one (a path, a script) passes it through
the redactor like any evidence. The hooks never import this module.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import time
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore.jail import Jail, JailError

MAX_ENTRIES = 4000
MAX_DEPTH = 6
"""Folders deep the listing goes: deep enough for `src/test/java/<package>/` (Maven, Gradle)."""
MAX_FILE_BYTES = 256 * 1024
MAX_TOTAL_BYTES = 1024 * 1024
MAX_SECONDS = 1.0
MAX_SCRIPTS = 200
MANIFEST_DEPTH = 1
"""Manifests are read in the root and one folder down (``.cargo/config.toml``, ``web/package.json``)."""

# Folders that hold what others wrote or what a build made: listing them says nothing about the project.
SKIPPED = frozenset(
    {".git", ".hg", ".svn", "node_modules", "vendor", "target", "dist", "build", "_build", ".venv", "venv"}
    | {
        "__pycache__",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".gradle",
        ".dart_tool",
        "deps",
        "zig-out",
    }
    | {".stack-work", "dist-newstyle", "_opam", ".build", "Pods", ".next", ".cache", "coverage"}
)

# -- what a path says about the project -------------------------------------------------------------------

TEST_FOLDERS = frozenset({"test", "tests", "spec", "specs", "__tests__", "t", "e2e", "integration_tests"})
"""Folder names that hold tests by convention (``t/`` is Perl's)."""
_TEST_FILE = re.compile(
    r"""^(?:
        test_[^/]+\.[A-Za-z0-9]+                    # test_cart.py
      | [^/]+[_-](?:test|spec|tests|unittest|kunit)\.[A-Za-z0-9]+  # cart_test.go, cart_spec.rb, list-test.c
      | [^/]+\.(?:test|spec)\.[A-Za-z0-9]+          # cart.test.ts, cart.spec.js
      | [A-Z][A-Za-z0-9]*(?:Test|Tests|Spec|IT)\.(?:java|kt|kts|scala|groovy|php|cs|fs|swift|dart|m)
      | conftest\.py
      | tests?(?:[-_][A-Za-z0-9]+)?\.[A-Za-z0-9]+   # test.hxml, test-hl.hxml: a build or script of the tests
    )$""",
    re.VERBOSE,
)
# Shop.Tests/ (.NET), ShopTests/ (Swift), a Gradle or Kotlin Multiplatform test source set (commonTest/,
# jvmTest/, integrationTest/)
_TEST_FOLDER_SUFFIXES = (".Tests", ".Test", "Tests", "Test")
BUILD_FILES = frozenset(
    {
        # JS, TS, Deno
        "package.json",
        "tsconfig.json",
        "deno.json",
        "deno.jsonc",
        "jsconfig.json",
        # Python
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "hatch.toml",
        "mypy.ini",
        ".mypy.ini",
        "pyrightconfig.json",
        "tox.ini",
        "noxfile.py",
        # Rust, Go, Zig, Gleam, Swift, Dart, Haskell, OCaml, Nim
        "Cargo.toml",
        "go.mod",
        "build.zig",
        "gleam.toml",
        "Package.swift",
        "pubspec.yaml",
        "stack.yaml",
        "cabal.project",
        "dune-project",
        # JVM
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
        "settings.gradle",
        "settings.gradle.kts",
        "build.sbt",
        "build.xml",
        "deps.edn",
        "project.clj",
        # Elixir, Erlang, PHP, Ruby, R
        "mix.exs",
        "rebar.config",
        "composer.json",
        "phpstan.neon",
        "phpstan.neon.dist",
        "psalm.xml",
        "Gemfile",
        "Rakefile",
        "DESCRIPTION",  # an R package's manifest: its imports beside its title and version
        # C and C++, multi-language builders, task runners
        "CMakeLists.txt",
        "meson.build",
        "configure.ac",
        "SConstruct",
        "BUILD",
        "BUILD.bazel",
        "MODULE.bazel",
        "WORKSPACE",
        "Makefile",
        "makefile",
        "GNUmakefile",
        "justfile",
        "Justfile",
        ".justfile",
        "Taskfile.yml",
        "Taskfile.yaml",
        "taskfile.yml",
        "taskfile.yaml",
    }
)
"""Manifests, build files and type-checker configurations, by exact name."""
_BUILD_SUFFIXES = (".sln", ".cabal", ".nimble", ".gemspec", ".rockspec")
# An MSBuild project of any language or kind (`.csproj`, `.fsproj`, `.sqlproj`, `.vcxproj`, `.wixproj`)
_MSBUILD_PROJECT = re.compile(r"\.\w{0,8}proj$")


def is_test_path(path: str) -> bool:
    """Whether ``path`` (relative, ``/``-separated) is a test folder, a test file or inside a test folder."""
    parts = path.split("/")
    if any(part in TEST_FOLDERS or part.endswith(_TEST_FOLDER_SUFFIXES) for part in parts):
        return True
    return bool(_TEST_FILE.match(parts[-1]))


def is_build_path(path: str) -> bool:
    """Whether ``path`` names a manifest, a build file or a type-checker's configuration."""
    name = path.rsplit("/", 1)[-1]
    return (
        name in BUILD_FILES
        or name.endswith(_BUILD_SUFFIXES)
        or _MSBUILD_PROJECT.search(name) is not None
        or bool(re.match(r"tsconfig\..+\.json$", name))
    )


# -- the reading --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)  # one reading is one object: compared and hashed by identity
class ProjectFacts:
    """A bounded reading of a checkout: the relative paths of what it holds, and its scripts.

    ``paths`` are folders and files, relative to ``root`` with ``/`` separators, in the order read
    (breadth first, each folder's entries by name). ``scripts`` maps a script or task name to the command
    line it runs, by the runner's own name for it (``npm run lint`` → ``lint``, ``hatch run lint:check`` →
    ``lint:check``, ``cargo xtest`` → ``xtest``): a Makefile, justfile or Taskfile recipe gives its first
    command, a list of commands (composer, pdm, hatch, mix) gives them joined with `` && ``. Where two
    manifests define one name, the first read wins (the root's before a folder's, by file name);
    ``sources`` keeps each manifest's own table, by its path.
    """

    root: str
    paths: tuple[str, ...] = ()
    scripts: Mapping[str, str] = field(default_factory=dict)
    truncated: str = ""
    """Which bound stopped the reading, if one did (its findings are then partial)."""
    sources: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    passed_over: tuple[str, ...] = ()
    """Manifests found and not read, each with why (a link, a FIFO, over the size limit, not text)."""

    def script(self, name: str) -> str | None:
        return self.scripts.get(name)

    @property
    def tests(self) -> tuple[str, ...]:
        """The test folders and files found, by the conventions of :func:`is_test_path`."""
        return tuple(path for path in self.paths if is_test_path(path))

    @property
    def builds(self) -> tuple[str, ...]:
        """The manifests, build files and type-checker configurations found (:func:`is_build_path`)."""
        return tuple(path for path in self.paths if is_build_path(path))

    @property
    def has_tests(self) -> bool:
        return any(is_test_path(path) for path in self.paths)

    @property
    def has_build(self) -> bool:
        return any(is_build_path(path) for path in self.paths)


UNKNOWN = ProjectFacts(root="")
"""No checkout to read (a replay without one): the triggers go by what the session shows."""


def read_project(root: Path) -> ProjectFacts:
    """Read ``root`` within the bounds (see the module docstring); never raises for what the tree holds."""
    return _Reading.of(root).facts


class _Reading:
    """One walk of a checkout: the facts, and the folders and manifests whose times say it is stale."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.started = time.monotonic()
        self.visited = 0
        self.bytes = 0
        self.stopped = ""
        self.paths: list[str] = []
        self.watched: list[str] = []
        self.passed_over: list[str] = []
        self.facts = ProjectFacts(root=str(root))

    @classmethod
    def of(cls, root: Path) -> _Reading:
        reading = cls(root)
        try:
            jail = Jail(root)
        except ValueError as exc:  # missing, not a folder, `/`, a pseudo-filesystem
            reading.facts = ProjectFacts(root=str(root), truncated=f"not read: {exc}")
            return reading
        manifests = reading._walk(jail)
        scripts: dict[str, str] = {}
        sources: dict[str, dict[str, str]] = {}
        for path in manifests:
            for name, command in reading._scripts(jail, path):
                if len(scripts) >= MAX_SCRIPTS:
                    reading.stopped = reading.stopped or f"more than {MAX_SCRIPTS} scripts"
                    break
                sources.setdefault(path, {})[name] = command
                scripts.setdefault(name, command)
        reading.facts = ProjectFacts(
            str(root), tuple(reading.paths), scripts, reading.stopped, sources, tuple(reading.passed_over)
        )
        return reading

    def _over(self) -> bool:
        if not self.stopped and time.monotonic() - self.started > MAX_SECONDS:
            self.stopped = f"more than {MAX_SECONDS:g} s"
        return bool(self.stopped)

    def _walk(self, jail: Jail) -> list[str]:
        """List breadth first; the manifests found near the root, in the order found."""
        manifests: list[str] = []
        queue: list[tuple[str, int]] = [(".", 0)]
        while queue and not self._over():
            folder, depth = queue.pop(0)
            self.watched.append(folder)
            prefix = "" if folder == "." else folder + "/"
            for name, is_dir, is_link in self._entries(jail, folder):
                relative = prefix + name
                manifest = depth <= MANIFEST_DEPTH and _parser(relative) is not None
                if is_link:
                    if manifest:
                        self.passed_over.append(f"{relative}: a link, never followed")
                    continue  # a link may lead anywhere: never followed, never read
                if is_dir:
                    if name in SKIPPED:
                        continue
                    self.paths.append(relative)
                    if depth + 1 < MAX_DEPTH:
                        queue.append((relative, depth + 1))
                elif is_dir is None:
                    if manifest:
                        self.passed_over.append(f"{relative}: not a regular file, never opened")
                else:
                    self.paths.append(relative)
                    if manifest:
                        manifests.append(relative)
        return manifests

    def _entries(self, jail: Jail, folder: str) -> list[tuple[str, bool | None, bool]]:
        """A folder's entries as (name, is a folder (None: neither folder nor regular file), is a link),
        sorted by name, at most what the entry bound has left."""
        left = MAX_ENTRIES - self.visited
        try:
            _, fd = jail.open_directory(folder)
        except JailError:
            return []  # swapped for a link or removed since it was listed: nothing more to learn there
        try:
            with os.scandir(fd) as found:
                taken = list(itertools.islice(found, left + 1))
            if len(taken) > left:
                self.stopped = f"more than {MAX_ENTRIES} entries"
                taken = taken[:left]
            self.visited += len(taken)
            entries: list[tuple[str, bool | None, bool]] = []
            for entry in taken:
                with contextlib.suppress(OSError):
                    if entry.is_symlink():
                        entries.append((entry.name, None, True))
                    elif entry.is_dir(follow_symlinks=False):
                        entries.append((entry.name, True, False))
                    else:  # a FIFO, socket or device: neither listed nor opened
                        entries.append(
                            (entry.name, False if entry.is_file(follow_symlinks=False) else None, False)
                        )
            return sorted(entries)
        except OSError:
            return []
        finally:
            os.close(fd)

    def _scripts(self, jail: Jail, path: str) -> Iterator[tuple[str, str]]:
        parse = _parser(path)
        if parse is None or self._over():
            return
        left = MAX_TOTAL_BYTES - self.bytes
        if left <= 0:
            self.stopped = f"more than {MAX_TOTAL_BYTES} bytes of manifests"
            return
        try:
            size = jail.stat(path)[1].st_size
            if left < size <= MAX_FILE_BYTES:  # it would pass the bound in all: stop there, say so
                self.stopped = f"more than {MAX_TOTAL_BYTES} bytes of manifests"
                return
            _, data = jail.read_file(path, max_bytes=min(MAX_FILE_BYTES, left))
        except JailError as exc:
            self.passed_over.append(f"{path}: {exc}")
            return
        self.bytes += len(data)
        self.watched.append(path)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            self.passed_over.append(f"{path}: not UTF-8 text")
            return
        yield from parse(text, path)


# -- the manifests --------------------------------------------------------------------------------------


def _json_table(key: str) -> Any:
    def parse(text: str, path: str) -> Iterator[tuple[str, str]]:
        with contextlib.suppress(ValueError, RecursionError):
            document = json.loads(_without_comments(text) if path.endswith(".jsonc") else text)
            table = document.get(key) if isinstance(document, dict) else None
            if isinstance(table, dict):
                for script, command in table.items():
                    if isinstance(command, dict):  # deno: {"command": ..., "description": ...}
                        command = command.get("command")
                    found = _command(command)
                    if found:
                        yield script, found

    return parse


def _without_comments(text: str) -> str:
    """A ``.jsonc`` body without its whole-line ``//`` comments (enough for deno.jsonc)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def _command(value: object, *, prefix: str = "") -> str:
    """A script's value as one command line: a string as it is, a list of strings joined with ``&&``."""
    if isinstance(value, str):
        return f"{prefix}{value.strip()}" if value.strip() else ""
    if isinstance(value, list):
        steps = [f"{prefix}{item.strip()}" for item in value if isinstance(item, str) and item.strip()]
        return " && ".join(steps)
    return ""


def _toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return {}


def _table(document: object, *keys: str) -> dict[str, Any]:
    for key in keys:
        document = document.get(key) if isinstance(document, dict) else None
    return document if isinstance(document, dict) else {}


def _pyproject(text: str, path: str) -> Iterator[tuple[str, str]]:
    """poe and taskipy tasks, pdm scripts, hatch environments' scripts."""
    document = _toml(text)
    for tool in ("poe", "taskipy"):
        key = "tasks"
        for script, value in _table(document, "tool", tool, key).items():
            if isinstance(value, dict):
                value = value.get("cmd") or value.get("shell")
            if isinstance(value, str) and value.strip():
                yield script, value.strip()
    for script, value in _table(document, "tool", "pdm", "scripts").items():
        if isinstance(value, dict):
            if isinstance(value.get("cmd"), list):
                value = " ".join(str(word) for word in value["cmd"])
            else:
                value = value.get("cmd") or value.get("shell") or value.get("composite")
        found = _command(value)
        if found and script != "_":  # `_` holds pdm's shared options, not a script
            yield script, found
    yield from _hatch(_table(document, "tool", "hatch"))


def _hatch(config: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """``hatch run test`` runs the default environment's ``test``; ``hatch run lint:check`` another's."""
    for env, settings in _table(config, "envs").items():
        for script, value in _table(settings, "scripts").items():
            found = _command(value)
            if found:
                yield (script if env == "default" else f"{env}:{script}"), found


def _hatch_toml(text: str, path: str) -> Iterator[tuple[str, str]]:
    yield from _hatch(_toml(text))


def _cargo_config(text: str, path: str) -> Iterator[tuple[str, str]]:
    """``[alias]`` of ``.cargo/config.toml``: ``cargo xtest`` runs ``cargo`` with the alias's words."""
    for alias, value in _table(_toml(text), "alias").items():
        words = (
            " ".join(value) if isinstance(value, list) and all(isinstance(v, str) for v in value) else value
        )
        found = _command(words, prefix="cargo ")
        if found:
            yield alias, found


def _taskfile(text: str, path: str) -> Iterator[tuple[str, str]]:
    """go-task's ``tasks``: a task's first command (``cmds`` items, or the short string form).

    pyyaml is imported here, when a checkout has a Taskfile: importing this module stays standard library
    only, like the rest of ``observe`` (tests/observe/test_import_cost.py).
    """
    import yaml

    from sbcore.safeyaml import safe_load

    try:
        document = safe_load(text)
    except (yaml.YAMLError, RecursionError):
        return
    for task, body in _table(document, "tasks").items():
        if isinstance(body, dict):
            cmds = body.get("cmds", body.get("cmd"))
            first = cmds[0] if isinstance(cmds, list) and cmds else cmds
            if isinstance(first, dict):
                first = first.get("cmd")
            body = first
        elif isinstance(body, list) and body:
            body = body[0]
        if isinstance(task, str) and isinstance(body, str) and body.strip():
            yield task, body.strip()


_MAKE_TARGET = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_./-]*)\s*:(?![=:])")
_JUST_RECIPE = re.compile(r"^@?([A-Za-z0-9_][A-Za-z0-9_-]*)(?:\s+[^:=]*)?:(?!=)")


def _recipes(header: re.Pattern[str], runner: str, *, tab_only: bool) -> Any:
    def parse(text: str, path: str) -> Iterator[tuple[str, str]]:
        """Make targets and just recipes with what they run: the recipes they depend on first (``ci: lint
        test`` runs ``make lint && make test``), then each line of their own recipe (``@`` and ``-``
        prefixes off, a line continued with ``\\`` read whole), joined with `` && ``. A setup line before
        the work (``@mkdir -p build``) is kept: the work is in a later line, which a first line alone would
        miss."""
        lines = text.splitlines()
        variables = _variables(lines, tab_only=tab_only)
        found = [(index, hit) for index, line in enumerate(lines) if (hit := header.match(line)) is not None]
        names = {hit.group(1) for _, hit in found}
        for index, hit in found:
            name = hit.group(1)
            if name.startswith(".") or "%" in name:
                continue
            before = [f"{runner} {dep}" for dep in _prerequisites(lines[index][hit.end() :]) if dep in names]
            own = [
                _expanded(command, variables, tab_only=tab_only) for command in _body(lines, index, tab_only)
            ]
            if before or own:
                yield name, _joined(before + own)

    return parse


def _joined(parts: list[str]) -> str:
    """``parts`` joined with `` && ``, as many as fit in ``_EXPANDED_MAX`` characters, the first always (a
    hostile recipe's long lines must not grow a script without bound, and a recipe is never lost)."""
    joined = parts[0]
    for part in parts[1:]:
        if len(joined) + 4 + len(part) > _EXPANDED_MAX:
            break
        joined = f"{joined} && {part}"
    return joined


def _prerequisites(rest: str) -> list[str]:
    """The names after a target's or a recipe's colon, up to a comment or a ``;`` recipe on the same line."""
    rest = rest.split("#", 1)[0].split(";", 1)[0]
    return [word for word in rest.split() if not word.startswith(("$", "|"))]


def _body(lines: list[str], header: int, tab_only: bool) -> list[str]:
    """The command lines of the recipe under the header at ``header``: the indented lines after it, up to
    the first that is not, without comments and blank lines."""
    commands: list[str] = []
    pending = ""
    for line in lines[header + 1 : header + 1 + _RECIPE_LINES]:
        indented = line.startswith("\t") if tab_only else line[:1] in ("\t", " ")
        if not indented and not pending:
            break
        command = line.strip()
        if pending:
            command = f"{pending} {command}"
        if command.endswith("\\"):
            pending = command[:-1].rstrip()
            continue
        pending = ""
        command = command.lstrip("@-").strip()
        if command and not command.startswith("#"):
            commands.append(command)
    return commands


_RECIPE_LINES = 64
"""The most lines of one recipe read: a longer one is a script, whose later lines tell nothing more."""


# A variable set at the top of a Makefile (`EASK ?= eask`, `PYTHON := python3`) or a justfile (`python :=
# "python3"`), and where a recipe uses one (`$(EASK)`, `${PYTHON}`; `{{python}}`): a recipe is read with its
# variables' own values, so `$(EASK) test` is the `eask test` the agent may also run by hand.
_MAKE_VARIABLE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?:\?|:{1,3}|\+)?=(.*)$")
_JUST_VARIABLE = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:=[ \t]*(?:\"([^\"]*)\"|'([^']*)')[ \t]*$")
_MAKE_USE = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")
_JUST_USE = re.compile(r"\{\{[ \t]*([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\}\}")


def _variables(lines: list[str], *, tab_only: bool) -> dict[str, str]:
    """The variables a Makefile (``tab_only``) or a justfile sets at its top level, with their values; a
    value that uses another variable, or a shell call, is left out (it is not known without running)."""
    found: dict[str, str] = {}
    pattern = _MAKE_VARIABLE if tab_only else _JUST_VARIABLE
    for line in lines:
        if (hit := pattern.match(line)) is None:
            continue
        value = next((group for group in hit.groups()[1:] if group is not None), "").strip(" \t")
        if value and "$" not in value and "`" not in value and "{{" not in value:
            found.setdefault(hit.group(1), value)
    return found


def _expanded(command: str, variables: dict[str, str], *, tab_only: bool) -> str:
    """``command`` with each use of a variable ``variables`` knows replaced by its value; ``command`` as it
    is when that would make it longer than ``_EXPANDED_MAX`` (a hostile Makefile's thousand uses of a long
    value must not grow a recipe without bound)."""
    if not variables:
        return command
    use = _MAKE_USE if tab_only else _JUST_USE
    hits = list(use.finditer(command))
    grown = sum(len(variables.get(hit.group(1), hit.group(0))) - len(hit.group(0)) for hit in hits)
    if not hits or len(command) + grown > _EXPANDED_MAX:
        return command
    return use.sub(lambda hit: variables.get(hit.group(1), hit.group(0)), command)


_EXPANDED_MAX = 4096


_MIX_ALIASES = re.compile(r"\bdefp?\s+aliases(?:\(\))?\s*,?\s*do(.*?)^\s*end\b", re.DOTALL | re.MULTILINE)
_MIX_ENTRY = re.compile(r"""(?:"([^"\n]+)"|([a-z_][\w.]*))\s*:\s*(\[[^\[\]]*\]|"[^"\n]*")""")
_MIX_STRING = re.compile(r'"([^"\n]*)"')


def _mix_aliases(text: str, path: str) -> Iterator[tuple[str, str]]:
    """``mix.exs`` aliases written as data (``test: ["ecto.create --quiet", "test"]``): each step is a mix
    task, so ``mix setup`` runs ``mix deps.get && mix ecto.setup``; a function step is not a command."""
    block = _MIX_ALIASES.search(text)
    if block is None:
        return
    for entry in _MIX_ENTRY.finditer(block.group(1)):
        name = entry.group(1) or entry.group(2)
        found = _command(_MIX_STRING.findall(entry.group(3)), prefix="mix ")
        if found:
            yield name, found


_PARSERS: dict[str, Any] = {
    "package.json": _json_table("scripts"),
    "composer.json": _json_table("scripts"),
    "deno.json": _json_table("tasks"),
    "deno.jsonc": _json_table("tasks"),
    "pyproject.toml": _pyproject,
    "hatch.toml": _hatch_toml,
    "Taskfile.yml": _taskfile,
    "Taskfile.yaml": _taskfile,
    "taskfile.yml": _taskfile,
    "taskfile.yaml": _taskfile,
    "mix.exs": _mix_aliases,
    **dict.fromkeys(("Makefile", "makefile", "GNUmakefile"), _recipes(_MAKE_TARGET, "make", tab_only=True)),
    **dict.fromkeys(("justfile", "Justfile", ".justfile"), _recipes(_JUST_RECIPE, "just", tab_only=False)),
}
"""Each manifest the reader parses, by file name, and how."""
_PATH_PARSERS: dict[str, Any] = {".cargo/config.toml": _cargo_config, ".cargo/config": _cargo_config}
"""Manifests known by their place rather than their name alone."""


def _parser(path: str) -> Any:
    """How to read the manifest at ``path`` (relative to the root), or None when it is not one."""
    return _PATH_PARSERS.get(path) or _PARSERS.get(path.rsplit("/", 1)[-1])


# -- the cache ------------------------------------------------------------------------------------------


class ProjectReader:
    """Readings of checkouts, kept per root and read again when one of the folders a reading listed or the
    manifests it read has a new modification time (a file added, removed or renamed anywhere it listed
    changes its folder's time; an edit to a manifest changes the manifest's)."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[tuple[str, ...], tuple[int, ...], ProjectFacts]] = {}

    def facts(self, root: Path | None) -> ProjectFacts:
        if root is None:
            return UNKNOWN
        key = str(root)
        kept = self._kept.get(key)
        if kept is not None and _stamp(root, kept[0]) == kept[1]:
            return kept[2]
        reading = _Reading.of(root)
        watched = tuple(reading.watched)
        self._kept[key] = (watched, _stamp(root, watched), reading.facts)
        return reading.facts


def _stamp(root: Path, watched: tuple[str, ...]) -> tuple[int, ...]:
    """The modification times of ``watched`` (relative paths), each reached through the jail."""
    try:
        jail = Jail(root)
    except ValueError:
        return ()
    stamps = []
    for path in watched:
        try:
            stamps.append(jail.stat(path)[1].st_mtime_ns)
        except JailError:
            stamps.append(-1)
    return tuple(stamps)
