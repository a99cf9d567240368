"""What a trusted capability can reach, so that the approval covers it, or is refused with the reason.

An approval is a hash of the layer and of the repository files its capabilities name (an MCP server's
script, a ``Run`` target, a prompt file, a catalogue): change any and the approval is withdrawn. That is
only as good as the list of files. A command can reach code it does not name as a file, so each way is
followed or refused here:

* **a shell handed a command string** (``sh -c 'bash scripts/x.sh'``, ``bash -lc …``): the string is read
  as a command line too, and the files it names are covered;
* **a module launch** (``python -m tools.lint``): the module's files in the repository (``tools/lint.py``
  or its package, with each package's ``__init__.py``) are covered;
* **an environment that loads code** (``BASH_ENV``, ``PYTHONSTARTUP``, ``NODE_OPTIONS``, ``LD_PRELOAD``…
  in an MCP server's ``env``): refused; what it loads is not a command's argument to follow;
* **a link out of the repository** (a named path inside the repository that resolves outside it):
  refused, since its content is not the repository's to hash;
* **more files than** :data:`MAX_NAMED_FILES`: refused, naming the cap, never covered silently in part.

:func:`reach` returns the files and the refusals; ``trust`` shows both, and :func:`~sbcore.config.trust.
grant` records nothing while a refusal stands.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_NAMED_FILES = 512
"""Most repository files one layer's capabilities may name (a directory counts each file); past it, trust
is refused with the reason."""
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "busybox"})
PYTHONS = ("python", "python3", "pypy", "pypy3")
CODE_LOADING_ENV = frozenset(
    {"BASH_ENV", "ENV", "ZDOTDIR", "PROMPT_COMMAND", "PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME"}
    | {"PYTHONINSPECT", "NODE_OPTIONS", "NODE_PATH", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT"}
    | {"DYLD_INSERT_LIBRARIES", "PERL5OPT", "PERL5LIB", "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS"}
    | {"_JAVA_OPTIONS", "GIT_CONFIG_GLOBAL", "GIT_EXEC_PATH", "GCONV_PATH", "MALLOC_CONF"}
)
"""Variables that make a program load code or configuration from wherever they point."""
SHELL_DEPTH = 3
"""Command strings inside command strings are followed this deep; deeper is refused."""


@dataclass
class Reach:
    """The repository files a layer's capabilities reach (in the order named), and why trust must wait."""

    files: list[Path] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)

    def add(self, path: Path) -> None:
        if path not in self._seen:
            self._seen.add(path)
            self.files.append(path)

    def refuse(self, why: str) -> None:
        if why not in self.refusals:
            self.refusals.append(why)

    def __post_init__(self) -> None:
        self._seen: set[Path] = set(self.files)


def inside(candidate: Path, root: Path) -> Path | None:
    """``candidate`` resolved (links followed) when that is inside ``root``, else None."""
    real = Path(os.path.realpath(candidate))
    if real == root or root not in real.parents:
        return None
    return real


def reach(
    workspace: Path, data: Mapping[str, Any], detectors: Sequence[tuple[Path, Mapping[str, Any]]]
) -> Reach:
    """What the layer ``data`` and the workspace's detector files (``(path, data)``) reach."""
    found = Reach()
    servers = (data.get("tools") or {}).get("mcp_servers") or {}
    if isinstance(servers, Mapping):
        for name, spec in servers.items():
            if isinstance(spec, Mapping):
                words = [str(spec.get("command") or "")]
                words += [str(arg) for arg in spec.get("args") or [] if isinstance(arg, str)]
                _command(workspace, words, workspace, found, f"tools.mcp_servers.{name}")
                env = spec.get("env")
                for variable in sorted(env if isinstance(env, Mapping) else ()):
                    if str(variable) in CODE_LOADING_ENV:
                        found.refuse(
                            f"tools.mcp_servers.{name}.env sets {variable}, which makes a program load code "
                            "from wherever it points: that cannot be covered by the approval; remove it"
                        )
    catalogue = (data.get("catalogue") or {}).get("file")
    if isinstance(catalogue, str):
        _paths(workspace, [catalogue], workspace, found, "catalogue.file")
    overrides = data.get("detectors") or {}
    if isinstance(overrides, Mapping):
        for ident, fields in overrides.items():
            if isinstance(fields, Mapping):
                _run_targets(workspace, fields.get("tools"), found, f"detectors.{ident}.tools")
    for path, item in detectors:
        _run_targets(workspace, item.get("tools"), found, f"{path.name}: tools")
        prompt_file = item.get("prompt_file")
        if isinstance(prompt_file, str):
            _paths(workspace, [prompt_file], path.parent, found, f"{path.name}: prompt_file")
    if len(found.files) > MAX_NAMED_FILES:
        found.refuse(
            f"the capabilities reach {len(found.files)} repository files, more than the {MAX_NAMED_FILES} an "
            "approval covers: name the scripts and files they run rather than whole directories"
        )
        found.files = found.files[:MAX_NAMED_FILES]
    return found


def _run_targets(workspace: Path, tools: Any, found: Reach, where: str) -> None:
    if not isinstance(tools, list):
        return
    for item in tools:
        if isinstance(item, Mapping) and isinstance(item.get("run"), list):
            for command in item["run"]:
                if isinstance(command, str):
                    _command(workspace, tokens(command), workspace, found, where)


def tokens(text: str) -> list[str]:
    """A command line's words, and the value of each ``NAME=value`` or ``--opt=value`` word as one too."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    out = []
    for word in words:
        out.append(word)
        if "=" in word:
            out.append(word.split("=", 1)[1])
    return out


def _command(workspace: Path, words: list[str], base: Path, found: Reach, where: str, depth: int = 0) -> None:
    """The files one command line names, and those its shell strings and modules reach."""
    _paths(workspace, words, base, found, where)
    for index, word in enumerate(words[:-1]):
        program = os.path.basename(word)
        option = words[index + 1]
        if (
            program in SHELLS
            and option.startswith("-")
            and "c" in option.lstrip("-")
            and index + 2 < len(words)
        ):
            if depth >= SHELL_DEPTH:
                found.refuse(
                    f"{where}: shell command strings nested deeper than {SHELL_DEPTH}: name the script"
                )
                continue
            _command(workspace, tokens(words[index + 2]), base, found, where, depth + 1)
        if program.startswith(PYTHONS) and option == "-m" and index + 2 < len(words):
            _module(workspace, words[index + 2], found)


def _module(workspace: Path, module: str, found: Reach) -> None:
    """The repository files ``python -m module`` runs: its file or package, and each package above it."""
    parts = [part for part in module.split(".") if part]
    if not parts or not all(part.isidentifier() for part in parts):
        return
    for depth in range(1, len(parts) + 1):
        package = workspace.joinpath(*parts[:depth])
        for candidate in (package / "__init__.py", package / "__main__.py", package.with_suffix(".py")):
            if depth < len(parts) and candidate.name != "__init__.py":
                continue
            real = inside(candidate, workspace)
            if real is not None and real.is_file():
                found.add(real)


def _paths(workspace: Path, words: list[str], base: Path, found: Reach, where: str) -> None:
    """Repository files among ``words`` (relative ones resolved against ``base``); a directory's files too;
    a path inside the repository that links out of it, or a relative one that climbs out, is refused."""
    for word in words:
        if not word or (word.startswith("-") and "/" not in word):
            continue
        path = Path(os.path.expanduser(word))
        lexical = Path(os.path.normpath(path if path.is_absolute() else base / path))
        real = inside(lexical, workspace)
        if real is None:
            if workspace in lexical.parents and os.path.lexists(lexical):
                found.refuse(f"{where}: {word} is a link out of the repository: its target cannot be covered")
            elif not path.is_absolute() and os.path.lexists(lexical):
                # `../tools/server.py`: a neighbour's file, which a commit can change behind the approval
                found.refuse(f"{where}: {word} leads out of the repository: its content cannot be covered")
            continue
        if real.is_file():
            found.add(real)
        elif real.is_dir():
            for path_found in _walk(real):
                found.add(path_found)
                if len(found.files) > MAX_NAMED_FILES:
                    return


def _walk(directory: Path) -> Iterator[Path]:
    for folder, subdirs, names in os.walk(directory):
        subdirs.sort()
        yield from (Path(folder) / name for name in sorted(names))
