"""Run: execute one of a detector's exact allowlisted commands in the workspace, time-boxed, output capped.

The only tool that executes, so the risk class the design singles out. Its wire definition offers ``command``
as an enum of the pass's allowlisted commands (the union over the pass's detectors, sorted), but the enum is
only a hint to the model: dispatch runs a command only when it is, byte for byte, in the CALLING detector's
own allowlist.

How a command runs: split with :func:`shlex.split` and executed directly (no shell, so ``|``, ``;``, ``$(…)``
mean nothing), in the workspace root, stdin from ``/dev/null``, in its own session (so the whole process group
can be killed), with a scrubbed environment carrying ``SBCORE_OBSERVER=1`` (the plugin's own hooks recognise
and ignore processes the observer started) and no API key, token or secret variable. A command that executes
code the repository controls (``mypy`` plugins, ``pytest`` conftest, ``npx``, …) is refused by dispatch unless
trusted: see :mod:`~sbcore.think.tools.repo_code`. The time box kills the group (SIGTERM, then SIGKILL);
stdout and stderr are merged and capped, keeping the head and the tail, where build errors and summaries
usually are; what the output shows of files outside the workspace is withheld
(:mod:`~sbcore.think.tools.outside_lines`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore.observe.redact import redact
from sbcore.think.tools.base import ToolResult, cap_text
from sbcore.think.tools.git_safety import GitConfigUnreadable, git_environment, is_git
from sbcore.think.tools.outside_lines import withhold_outside
from sbcore.think.tools.redacted_lines import redact_fragment

RUN = "Run"

ENV_PASSTHROUGH = (
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "TMPDIR",
    "TZ",
)
"""The only variables a command inherits: enough for toolchains to find themselves and their caches."""

FIXED_ENV = {
    "SBCORE_OBSERVER": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "NO_COLOR": "1",
    "GIT_CONFIG_COUNT": "2",
    "GIT_CONFIG_KEY_0": "core.fsmonitor",
    "GIT_CONFIG_VALUE_0": "false",
    "GIT_CONFIG_KEY_1": "core.hooksPath",
    "GIT_CONFIG_VALUE_1": "/dev/null",
    "GOTOOLCHAIN": "local",
}
"""Always set: the observer marker; git never prompts, pages or takes optional locks (no contention with the
primary's own git commands), never starts a file-system monitor or a hook named by repository configuration
(``GIT_CONFIG_*`` outranks every config file); ``go`` never downloads and runs the toolchain a ``go.mod``
asks for; no colour escapes in output a model reads."""

READ_CHUNK = 65536


@dataclass(frozen=True)
class RunLimits:
    """Bounds for one command."""

    timeout_s: float = 60.0
    max_output_chars: int = 40_000
    kill_grace_s: float = 2.0


def scrubbed_env(
    passthrough: Iterable[str] = ENV_PASSTHROUGH, source: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment of a command: the ``passthrough`` names found in ``source``, plus :data:`FIXED_ENV`."""
    source = os.environ if source is None else source
    env = {name: source[name] for name in passthrough if name in source}
    env.update(FIXED_ENV)
    return env


async def terminate_group(proc: asyncio.subprocess.Process, grace_s: float = 2.0) -> None:
    """Stop ``proc`` and all it started (it leads its own session): SIGTERM, SIGKILL ``grace_s`` later."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
        try:
            await asyncio.wait_for(asyncio.shield(proc.wait()), timeout=grace_s)
            return
        except TimeoutError:
            continue
    await proc.wait()


class _Capture:
    """Keeps the first and last ``half`` bytes of a stream and counts the rest."""

    def __init__(self, half: int) -> None:
        self.half = half
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.half - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > self.half:
                del self.tail[: len(self.tail) - self.half]

    def text(self) -> str:
        head = redact(self.head.decode("utf-8", errors="replace"))
        omitted = self.total - len(self.head) - len(self.tail)
        if not self.tail:
            return head
        tail = redact_fragment(self.tail.decode("utf-8", errors="replace"))
        if omitted <= 0:
            return head + tail
        return f"{head}\n[… {omitted} bytes of output omitted …]\n{tail}"


async def run_command(
    command: str, *, cwd: Path, limits: RunLimits | None = None, env: Mapping[str, str] | None = None
) -> ToolResult:
    """Run ``command`` (no shell) in ``cwd`` and report its exit status and merged output."""
    limits = limits or RunLimits()
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return ToolResult.error(f"cannot parse command {command!r}: {exc}")
    if not argv:
        return ToolResult.error("empty command")
    environment = dict(env) if env is not None else scrubbed_env()
    if is_git(argv):
        try:  # git runs nothing the repository's own configuration names
            environment = await git_environment(environment, cwd)
        except GitConfigUnreadable as exc:
            return ToolResult.error(f"$ {redact(command)}\nnot run: {exc}")
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            cwd=str(cwd),
            env=environment,
            start_new_session=True,
        )
    except FileNotFoundError:
        return ToolResult.error(f"command not found: {argv[0]}")
    except OSError as exc:
        return ToolResult.error(f"cannot start {argv[0]}: {exc.strerror or exc}")

    capture = _Capture(limits.max_output_chars // 2)
    stdout = proc.stdout
    assert stdout is not None  # PIPE was requested

    async def collect() -> None:
        while chunk := await stdout.read(READ_CHUNK):
            capture.feed(chunk)
        await proc.wait()

    timed_out = False
    try:
        await asyncio.wait_for(collect(), timeout=limits.timeout_s)
    except TimeoutError:
        timed_out = True
        await terminate_group(proc, limits.kill_grace_s)
    except asyncio.CancelledError:
        await terminate_group(proc, limits.kill_grace_s)
        raise
    output = cap_text(withhold_outside(capture.text(), cwd), limits.max_output_chars) or "(no output)"
    shown = redact(command)
    if timed_out:
        return ToolResult.error(
            f"$ {shown}\ntimed out after {limits.timeout_s:g} s and was stopped\n{output}"
        )
    status = proc.returncode
    state = f"killed by signal {-status}" if status is not None and status < 0 else f"exit status {status}"
    return ToolResult(f"$ {shown}\n{state}\n{output}", is_error=status != 0)


@dataclass
class RunTool:
    """The wire ``Run`` tool of one pass: ``command`` is an enum of the pass's allowlisted commands.

    Calling it directly runs any command of that enum; dispatch is what narrows it to the caller's own list.
    """

    root: Path
    commands: tuple[str, ...]
    limits: RunLimits = field(default_factory=RunLimits)
    env: Mapping[str, str] | None = None
    name: str = RUN

    def __post_init__(self) -> None:
        self.commands = tuple(sorted(set(self.commands)))

    @property
    def description(self) -> str:
        return (
            "Run one allowlisted command in the workspace root (no shell; exact strings only) and get its "
            "exit "
            f"status and combined stdout/stderr. Time limit {self.limits.timeout_s:g} s; output is capped "
            f"(head and tail kept). Only commands in your own grant run; others are refused."
        )

    @property
    def input_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "command": {
                    "type": "string",
                    "enum": list(self.commands),
                    "description": "The exact command to run, one of the allowlisted strings.",
                }
            },
            "required": ["command"],
            "additionalProperties": False,
        }

    async def call(self, args: dict[str, Any]) -> ToolResult:
        command = args["command"]
        if command not in self.commands:
            return ToolResult.refusal(f"refused: {command!r} is not an allowlisted command")
        return await run_command(command, cwd=self.root, limits=self.limits, env=self.env)
