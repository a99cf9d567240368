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

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from sbcore.observe.model import Observation

from .identity import strip_prefixes
from .shell import split_segments

# Steps that name a runner without running it: installing, printing, searching, committing.
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
}
_PATH_KEYS = ("file_path", "notebook_path", "path", "pattern")
_CONTENT_KEYS = ("new_string", "content", "new_source")
_COMMENT_LINE = re.compile(r"^\s*(?:#|//|/\*|\*|--|;|<!--|-->|\"\"\"|'''|$)")
_DOCSTRING = re.compile(r"^\s*[rubf]*(?:\"\"\"|''')")


def invocations(command: str) -> list[str]:
    """The steps of ``command`` that run something, each as ``program args…`` (wrappers removed)."""
    return list(_invocations(command))


@lru_cache(maxsize=8192)
def _invocations(command: str) -> tuple[str, ...]:
    """Cached: a pass looks back over the whole session, and a session repeats its commands."""
    try:
        segments, _ = split_segments(command)
    except ValueError:
        return (command,)
    steps = []
    for segment in segments:
        words = strip_prefixes(segment)
        if not words or words[0] in ("cd", "pushd", "export", "source", ".", "sleep"):
            continue
        program = words[0].rsplit("/", 1)[-1]
        if program in _NOT_RUNS:
            subcommands = _NOT_RUNS[program]
            if subcommands is None or (len(words) > 1 and words[1] in subcommands):
                continue
        steps.append(" ".join([program if program.endswith(".py") else words[0], *words[1:]]))
    return tuple(steps)


def runs_any(command: str, patterns: Sequence[re.Pattern[str]]) -> bool:
    """Whether one of ``command``'s invocations matches a pattern."""
    return any(p.search(step) for step in _invocations(command) for p in patterns)


def seen_paths(observations: Iterable[Observation]) -> list[str]:
    """Every path the session touched or named: tool arguments, locators and command words."""
    paths: list[str] = []
    for obs in observations:
        if obs.kind != "tool":
            paths.extend(locator.split(":", 1)[0] for locator in obs.locators)
            continue
        for key in _PATH_KEYS:
            value = obs.args.get(key)
            if isinstance(value, str) and value:
                paths.append(value.rstrip("/"))
        paths.extend(locator.split(":", 1)[0] for locator in obs.locators)
        command = obs.args.get("command")
        if isinstance(command, str):
            paths.extend(word.rstrip("/") for word in command.split() if _looks_like_path(word))
    return paths


def edit_contents(observations: Iterable[Observation], edit_tools: frozenset[str]) -> list[str]:
    """The (projected, capped) new text of every edit, for content evidence such as inline tests."""
    texts: list[str] = []
    for obs in observations:
        if obs.kind == "tool" and obs.tool in edit_tools:
            texts.extend(str(obs.args[key]) for key in _CONTENT_KEYS if obs.args.get(key))
            for item in obs.args.get("edits") or ():
                if isinstance(item, dict) and item.get("new_string"):
                    texts.append(str(item["new_string"]))
    return texts


def comment_only(obs: Observation) -> bool:
    """Whether an Edit/MultiEdit changed only comment or docstring lines (both sides, fully shown)."""
    pairs: list[tuple[str, str]] = []
    if obs.tool == "Edit":
        pairs.append((str(obs.args.get("new_string", "")), str(obs.args.get("old_string", ""))))
    elif obs.tool == "MultiEdit":
        for item in obs.args.get("edits") or ():
            if isinstance(item, dict):
                pairs.append((str(item.get("new_string", "")), str(item.get("old_string", ""))))
    if not any((new + old).strip() for new, old in pairs):
        return False  # nothing shown: unknown, so code
    return all(_only_comments(new) and _only_comments(old) for new, old in pairs)


def _only_comments(text: str) -> bool:
    if "…" in text:
        return False  # elided or capped (every projection marker starts with it): it might hide code
    inside = False
    for line in text.splitlines():
        quotes = line.count('"""') + line.count("'''")
        if inside or _DOCSTRING.match(line):
            if quotes % 2 == 1:
                inside = not inside
            continue
        if not _COMMENT_LINE.match(line):
            return False
    return True


def _looks_like_path(word: str) -> bool:
    return "/" in word or "." in word.strip(".") or word in ("tests", "test", "Tests", "spec")


@lru_cache(maxsize=512)
def regex(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from exc
