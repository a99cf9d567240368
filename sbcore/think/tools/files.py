"""Read, Grep and Glob: the observer's read-only file tools, jailed to the workspace root.

A watcher must be structurally unable to write, so these three tools only ever open regular files for reading,
through :class:`~sbcore.jail.Jail`. Every result is bounded: Read by a line window and a file-size
cap, Grep by match counts, a file-size cap and a time box, Glob by a result count and a time box, and all
three by a character cap on the text returned (with a marker where it was cut). A file is redacted as a
whole before it is cut into lines (so a multi-line secret such as a PEM key is caught, and no window into
it shows its body), and Grep matches the redacted lines, so a pattern cannot probe a secret's body.

Grep and Glob walk directory trees and Grep runs a model-written regular expression, which Python cannot
interrupt (a catastrophic pattern can run for ever). So both run in a short-lived child process that is killed
at its time box; Read is bounded by the size cap and runs on a worker thread. The child is isolated: ``python
-I`` (no current directory, ``PYTHONPATH`` or user site on ``sys.path``, so a ``json.py`` in the workspace is
never imported) and the scrubbed environment Run uses (no API keys or tokens).
"""

from __future__ import annotations

import asyncio
import fnmatch
import json
import os
import re
import stat
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sbcore.jail import Jail, JailError, NotFound, is_link_at, read_regular_at
from sbcore.observe.redact import redact
from sbcore.think.tools.base import ToolResult, cap_text, finish_output
from sbcore.think.tools.redacted_lines import redacted_lines
from sbcore.think.tools.run import scrubbed_env, terminate_group

READ = "Read"
GREP = "Grep"
GLOB = "Glob"

BINARY_SNIFF_BYTES = 8192
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn"})
"""Version-control internals: Grep never walks them, Glob never lists them (Read may open a named file)."""


@dataclass(frozen=True)
class FileLimits:
    """Bounds for the file tools. Defaults keep one result well inside a cheap model's context."""

    max_file_bytes: int = 2 * 1024 * 1024
    max_result_chars: int = 40_000
    max_line_chars: int = 2000
    read_max_lines: int = 2000
    grep_max_matches: int = 100
    grep_hard_max_matches: int = 1000
    grep_per_file_matches: int = 20
    grep_max_files: int = 20_000
    grep_scan_line_chars: int = 10_000
    grep_match_line_chars: int = 300
    glob_max_results: int = 500
    glob_hard_max_results: int = 2000
    time_box_s: float = 10.0
    kill_grace_s: float = 2.0
    pattern_max_chars: int = 1000


def _looks_binary(data: bytes) -> bool:
    return b"\x00" in data[:BINARY_SNIFF_BYTES]


def _lines(data: bytes) -> list[str]:
    """The file's lines, redacted as one text first (see :mod:`~sbcore.think.tools.redacted_lines`)."""
    return redacted_lines(data.decode("utf-8", errors="replace"))


def _clip_line(line: str, limit: int) -> str:
    """Cap one already-redacted line."""
    if len(line) <= limit:
        return line
    return line[:limit] + f" [… line truncated, {len(line) - limit} more characters]"


@dataclass
class _FileTool:
    """What every file tool holds: the jail it reads through and the bounds on its results."""

    jail: Jail
    limits: FileLimits = field(default_factory=FileLimits)


# -- Read ----------------------------------------------------------------------------------------------------


@dataclass
class ReadTool(_FileTool):
    """Read a text file inside the workspace, numbered like ``cat -n``, one line window at a time."""

    name: str = READ

    @property
    def description(self) -> str:
        return (
            "Read a text file in the workspace (read-only). Output is numbered like `cat -n`. Paths are "
            "relative to the workspace root (absolute paths inside it also work). Use offset/limit to page "
            "through long "
            f"files (at most {self.limits.read_max_lines} lines per call); binary files and files over "
            f"{self.limits.max_file_bytes} bytes are refused."
        )

    @property
    def input_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "File path, relative to the workspace root."},
                "offset": {"type": "integer", "minimum": 1, "description": "First line to show (1-based)."},
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": self.limits.read_max_lines,
                    "description": "Number of lines to show.",
                },
            },
            "required": ["path"],
            "additionalProperties": False,
        }

    async def call(self, args: dict[str, Any]) -> ToolResult:
        return await asyncio.to_thread(self.read, args)

    def read(self, args: dict[str, Any]) -> ToolResult:
        """The synchronous body of :meth:`call` (runs on a worker thread)."""
        try:
            resolved, data = self.jail.read_file(args["path"], max_bytes=self.limits.max_file_bytes)
        except NotFound as exc:
            return ToolResult.error(str(exc))
        except JailError as exc:
            return ToolResult.refusal(str(exc))
        if _looks_binary(data):
            return ToolResult.refusal(f"refused: {resolved.given!r} looks like a binary file")
        lines = _lines(data)
        if not lines:
            return ToolResult(f"{resolved.rel} is empty")
        offset = int(args.get("offset", 1))
        limit = int(args.get("limit", self.limits.read_max_lines))
        if offset > len(lines):
            return ToolResult(f"{resolved.rel} has {len(lines)} lines; offset {offset} is past the end")
        window = lines[offset - 1 : offset - 1 + limit]
        body = "\n".join(
            f"{number:>6}\t{_clip_line(line, self.limits.max_line_chars)}"
            for number, line in enumerate(window, start=offset)
        )
        last = offset + len(window) - 1
        if offset > 1 or last < len(lines):
            body += f"\n[lines {offset}-{last} of {len(lines)}"
            body += f"; call Read with offset={last + 1} for more]" if last < len(lines) else "]"
        return ToolResult(finish_output(body, self.limits.max_result_chars))


# -- Grep and Glob run in a child process ---------------------------------------------------------------

_CHILD_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from sbcore.think.tools.files import child_main; child_main()"
)
"""``sbcore``'s own directory goes first on the child's path, so the child imports this very package."""
_PACKAGE_PARENT = str(Path(__file__).resolve().parents[3])


async def _run_isolated(op: str, jail: Jail, args: dict[str, Any], limits: FileLimits) -> ToolResult:
    """Run ``op`` (grep or glob) in a child process, killed if it outlives its time box plus a grace."""
    payload = json.dumps({"op": op, "root": str(jail.root), "args": args, "limits": asdict(limits)}).encode()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-I",
        "-c",
        _CHILD_BOOT,
        _PACKAGE_PARENT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=str(jail.root),
        env=scrubbed_env(),
        start_new_session=True,
    )
    try:
        out, err = await asyncio.wait_for(
            proc.communicate(payload), timeout=limits.time_box_s + limits.kill_grace_s
        )
    except TimeoutError:
        await terminate_group(proc, limits.kill_grace_s)
        return ToolResult.error(
            f"{op.capitalize()} did not finish within its {limits.time_box_s:g} s time box and was stopped; "
            "narrow the path, the pattern or the glob"
        )
    except asyncio.CancelledError:
        await terminate_group(proc, limits.kill_grace_s)
        raise
    try:
        reply = json.loads(out)
        return ToolResult(str(reply["text"]), bool(reply["is_error"]), bool(reply["refused"]))
    except (ValueError, KeyError, TypeError):
        tail = err.decode("utf-8", errors="replace")[-500:]
        return ToolResult.error(f"{op.capitalize()} failed (exit status {proc.returncode}): {tail}")


def child_main() -> None:
    """Entry point of the child process: one JSON request on stdin, one JSON reply on stdout."""
    request = json.loads(sys.stdin.buffer.read())
    limits = FileLimits(**request["limits"])
    deadline = time.monotonic() + limits.time_box_s
    try:
        jail = Jail(request["root"])
        if request["op"] == "grep":
            result = grep_sync(jail, request["args"], limits, deadline)
        else:
            result = glob_sync(jail, request["args"], limits, deadline)
    except NotFound as exc:
        result = ToolResult.error(str(exc))
    except JailError as exc:
        result = ToolResult.refusal(str(exc))
    except Exception as exc:  # the parent turns this into an error result; it must not become a traceback
        result = ToolResult.error(f"{request['op']} failed: {type(exc).__name__}: {exc}")
    sys.stdout.write(
        json.dumps({"text": result.text, "is_error": result.is_error, "refused": result.refused})
    )
    sys.stdout.flush()


def _check_pattern_text(kind: str, value: object, limits: FileLimits) -> str:
    if not isinstance(value, str) or value == "":
        raise JailError(f"{kind} must be a non-empty string")
    if "\x00" in value:
        raise JailError(f"refused: the {kind} contains a NUL byte")
    if len(value) > limits.pattern_max_chars:
        raise JailError(f"refused: the {kind} is longer than {limits.pattern_max_chars} characters")
    return value


# -- Grep ----------------------------------------------------------------------------------------------------


@dataclass
class GrepTool(_FileTool):
    """Search file contents under a workspace path with a Python regular expression."""

    name: str = GREP

    @property
    def description(self) -> str:
        return (
            "Search text files in the workspace with a Python regular expression (read-only). Prints "
            "`path:line: text` for each matching line. `path` may be a directory (searched recursively, "
            "version-control directories and symbolic links skipped) or one file; `glob` filters file names "
            f"(e.g. `*.py`). Binary files and files over {self.limits.max_file_bytes} bytes are skipped; "
            "at most "
            f"{self.limits.grep_per_file_matches} matches per file; the search stops after "
            f"{self.limits.time_box_s:g} s."
        )

    @property
    def input_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "pattern": {
                    "type": "string",
                    "description": "Python regular expression searched in each line.",
                },
                "path": {"type": "string", "description": "Directory or file to search (default: the root)."},
                "glob": {
                    "type": "string",
                    "description": "Only search files whose name matches, e.g. `*.py`.",
                },
                "ignore_case": {"type": "boolean", "description": "Case-insensitive search."},
                "max_matches": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": self.limits.grep_hard_max_matches,
                    "description": "Stop after this many matching lines "
                    f"(default {self.limits.grep_max_matches}).",
                },
            },
            "required": ["pattern"],
            "additionalProperties": False,
        }

    async def call(self, args: dict[str, Any]) -> ToolResult:
        try:
            _check_pattern_text("pattern", args["pattern"], self.limits)
            re.compile(args["pattern"])
        except JailError as exc:
            return ToolResult.refusal(str(exc))
        except re.error as exc:
            return ToolResult.error(f"invalid regular expression: {exc}")
        return await _run_isolated("grep", self.jail, args, self.limits)


def grep_sync(jail: Jail, args: dict[str, Any], limits: FileLimits, deadline: float) -> ToolResult:
    """The body of Grep (runs in the child process). ``deadline`` is a ``time.monotonic()`` instant."""
    pattern = _check_pattern_text("pattern", args["pattern"], limits)
    try:
        regex = re.compile(pattern, re.IGNORECASE if args.get("ignore_case") else 0)
    except re.error as exc:
        return ToolResult.error(f"invalid regular expression: {exc}")
    file_glob = args.get("glob")
    if file_glob is not None:
        check_glob_pattern(file_glob, limits)
    max_matches = int(args.get("max_matches", limits.grep_max_matches))
    resolved, st = jail.stat(args.get("path", "."))

    out: list[str] = []
    counts = {
        "matches": 0,
        "files": 0,
        "matched_files": 0,
        "binary": 0,
        "oversize": 0,
        "unreadable": 0,
        "symlinks": 0,
    }
    stop: str | None = None

    def search(dir_fd: int, name: str, rel: str) -> None:
        nonlocal stop
        try:
            entry = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except OSError:
            counts["unreadable"] += 1
            return
        if stat.S_ISLNK(entry.st_mode):
            counts["symlinks"] += 1
            return
        if not stat.S_ISREG(entry.st_mode):
            return
        if entry.st_size > limits.max_file_bytes:
            counts["oversize"] += 1
            return
        try:
            data = read_regular_at(dir_fd, name, max_bytes=limits.max_file_bytes, label=rel)
        except JailError:
            counts["unreadable"] += 1
            return
        if _looks_binary(data):
            counts["binary"] += 1
            return
        counts["files"] += 1
        in_file = 0
        for number, line in enumerate(_lines(data), start=1):
            if number % 1000 == 0 and time.monotonic() > deadline:
                stop = f"time box of {limits.time_box_s:g} s reached"
                return
            if regex.search(line, 0, limits.grep_scan_line_chars):
                out.append(f"{rel}:{number}: {_clip_line(line, limits.grep_match_line_chars)}")
                in_file += 1
                counts["matches"] += 1
                if counts["matches"] >= max_matches:
                    stop = f"stopped at max_matches={max_matches}"
                    break
                if in_file >= limits.grep_per_file_matches:
                    out.append(f"{rel}: [… more matches in this file not shown]")
                    break
        if in_file:
            counts["matched_files"] += 1

    def is_link(dir_fd: int, name: str) -> bool:
        """fwalk lists links to directories among the directories (without descending): count them skipped."""
        link = is_link_at(dir_fd, name)
        counts["symlinks"] += link
        return link

    selected: set[str] | None = None
    if file_glob is not None and "/" in file_glob and stat.S_ISDIR(st.st_mode):
        selected = {str(path) for path in Path(resolved.real).glob(file_glob)}

    def wanted(dirpath: str, name: str) -> bool:
        """A glob without ``/`` matches file names at any depth; one with ``/`` is a path pattern relative to
        the searched directory, with pathlib's meaning (``**`` is zero or more directories)."""
        if selected is None:
            return fnmatch.fnmatchcase(name, str(file_glob))
        return os.path.join(dirpath, name) in selected

    if stat.S_ISREG(st.st_mode):
        parent_fd, name = jail.open_parent(resolved)
        try:
            search(parent_fd, name, resolved.rel)
        finally:
            os.close(parent_fd)
    elif stat.S_ISDIR(st.st_mode):
        for dirpath, dirnames, filenames, dir_fd in os.fwalk(str(resolved.real), follow_symlinks=False):
            dirnames[:] = [d for d in sorted(dirnames) if d not in SKIPPED_DIRS and not is_link(dir_fd, d)]
            for name in sorted(filenames):
                rel = jail.relative(os.path.join(dirpath, name))
                if file_glob is not None and not wanted(dirpath, name):
                    continue
                if counts["files"] >= limits.grep_max_files:
                    stop = f"stopped after scanning {limits.grep_max_files} files"
                elif time.monotonic() > deadline:
                    stop = f"time box of {limits.time_box_s:g} s reached"
                if stop:
                    break
                search(dir_fd, name, rel)
                if stop:
                    break
            if stop:
                break
    else:
        raise JailError(f"refused: {resolved.given!r} is neither a regular file nor a directory")

    notes = [
        f"{counts['matches']} matching lines in {counts['matched_files']} of {counts['files']} files searched"
    ]
    skipped = [
        f"{counts[key]} {key}" for key in ("binary", "oversize", "unreadable", "symlinks") if counts[key]
    ]
    if skipped:
        notes.append("skipped: " + ", ".join(skipped))
    if stop:
        notes.append(f"incomplete: {stop}")
    if not out:
        return ToolResult(f"no matches for /{pattern}/ under {resolved.rel}\n[" + "; ".join(notes) + "]")
    return ToolResult(finish_output("\n".join(out) + "\n[" + "; ".join(notes) + "]", limits.max_result_chars))


# -- Glob ----------------------------------------------------------------------------------------------------


@dataclass
class GlobTool(_FileTool):
    """List workspace paths matching a glob pattern, relative to the root, sorted."""

    name: str = GLOB

    @property
    def description(self) -> str:
        return (
            "List files and directories in the workspace matching a glob pattern (read-only), e.g. "
            "`**/*.py` or "
            "`src/*/test_*.py`. The pattern is relative to `path` (default: the workspace root); `..` and "
            "absolute patterns are refused. Results are root-relative, sorted, directories end with `/`, "
            f"version-control directories are skipped, at most {self.limits.glob_max_results} by default."
        )

    @property
    def input_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "pattern": {
                    "type": "string",
                    "description": "Glob pattern (`*`, `?`, `[..]`, `**` for any depth).",
                },
                "path": {
                    "type": "string",
                    "description": "Directory the pattern is relative to (default: root).",
                },
                "max_results": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": self.limits.glob_hard_max_results,
                    "description": f"Show at most this many paths (default {self.limits.glob_max_results}).",
                },
            },
            "required": ["pattern"],
            "additionalProperties": False,
        }

    async def call(self, args: dict[str, Any]) -> ToolResult:
        try:
            check_glob_pattern(args["pattern"], self.limits)
        except JailError as exc:
            return ToolResult.refusal(str(exc))
        return await _run_isolated("glob", self.jail, args, self.limits)


def check_glob_pattern(pattern: object, limits: FileLimits) -> str:
    """Refuse glob patterns that could leave the directory they are relative to."""
    text = _check_pattern_text("pattern", pattern, limits)
    if text.startswith("/"):
        raise JailError("refused: absolute glob patterns are not allowed; make it relative to the root")
    if text.startswith("~"):
        raise JailError("refused: '~' is not expanded in glob patterns")
    if ".." in text.split("/"):
        raise JailError("refused: '..' is not allowed in glob patterns")
    return text


def glob_sync(jail: Jail, args: dict[str, Any], limits: FileLimits, deadline: float) -> ToolResult:
    """The body of Glob (runs in the child process)."""
    pattern = check_glob_pattern(args["pattern"], limits)
    max_results = int(args.get("max_results", limits.glob_max_results))
    base = jail.directory(args.get("path", "."))
    found: list[str] = []
    outside = 0
    stop: str | None = None
    ceiling = limits.glob_hard_max_results * 10
    for path in Path(base.real).glob(pattern):
        if time.monotonic() > deadline:
            stop = f"time box of {limits.time_box_s:g} s reached"
            break
        if not jail.contains(path):
            outside += 1
            continue
        rel = jail.relative(path)
        if any(part in SKIPPED_DIRS for part in rel.split("/")):
            continue
        found.append(rel + "/" if path.is_dir() else rel)
        if len(found) >= ceiling:
            stop = f"stopped after {ceiling} matches"
            break
    found.sort()
    notes = [
        f"{len(found)} matches" + (f", showing the first {max_results}" if len(found) > max_results else "")
    ]
    if outside:
        notes.append(f"{outside} results leading outside the workspace left out")
    if stop:
        notes.append(f"incomplete: {stop}")
    if not found:
        return ToolResult(f"no paths match {pattern!r} under {base.rel}\n[" + "; ".join(notes) + "]")
    body = "\n".join(redact(rel) for rel in found[:max_results])
    return ToolResult(cap_text(body + "\n[" + "; ".join(notes) + "]", limits.max_result_chars))
