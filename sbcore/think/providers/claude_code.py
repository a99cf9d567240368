"""The ``claude-code`` provider: detector forks run through the user's own ``claude`` CLI, in print mode.

Most Claude Code users pay with a subscription and hold no API key; the sanctioned way to use that login
from a program is the CLI itself (``claude -p``), never its token. So this provider does not answer one
model call at a time: it runs a whole fork as one ``claude -p`` process (see :mod:`sbcore.think.cli_fork`),
whose only tools are ours, relayed over MCP, and whose every customisation of the user's is switched off.

What each flag is for (verified on 2.1.328, see docs/providers.md):

- ``-p --input-format stream-json --output-format stream-json --verbose``: the fork's tail goes on stdin,
  events come back one JSON line each;
- ``--model``: always a cheap model (the CLI's own default is its largest);
- ``--system-prompt-file``: the observer's system blocks and the pass's shared window replace Claude
  Code's system prompt. The CLI marks the system prompt for caching but puts its only message breakpoint
  on the newest block, so the system prompt is where a prefix shared by every fork of a pass can live
  (the fork's tail is the user message); a file, because a window outgrows one argv string;
- ``--tools ""``: every built-in tool off; ``--mcp-config F --strict-mcp-config``: our relay and no MCP
  server of the user's; ``--allowedTools mcp__sbcore`` so our tools run without a permission prompt;
- ``--setting-sources ""``: no user, project or local settings, so no hook and no plugin of the user's;
  ``--disable-slash-commands``: no skills or commands; ``CLAUDE_CODE_DISABLE_CLAUDE_MDS=1`` and
  ``CLAUDE_CODE_DISABLE_AUTO_MEMORY=1``: no CLAUDE.md or memory; ``--safe-mode`` would do all of that but
  also drops our ``--mcp-config`` server, and ``--bare`` never reads a subscription login;
- ``--no-session-persistence``: nothing in ``~/.claude/projects``, nothing in the user's ``/resume`` list;
- ``--max-budget-usd``: the CLI's own spending stop, per fork;
- ``SBCORE_OBSERVER=1``: were a hook of ours loaded anyway, it would do nothing;
  ``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1``: no telemetry, update check or side call from a fork.

The binary is ``claude`` on the worker's PATH, which is the user's: no configuration layer names it and
none adds a flag, so a repository cannot choose what runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore.think.providers.base import (
    NoModel,
    ProviderError,
    ProviderSettings,
    Request,
    Response,
    TextBlock,
    Usage,
)

NAME = "claude-code"
BINARY = "claude"
DEFAULT_MODEL = "claude-haiku-4-5"
MODEL_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:\[\]-]{0,127}$")
"""A model name that cannot be read as a flag."""

OBSERVER_ENV = {
    "SBCORE_OBSERVER": "1",
    "CLAUDE_CODE_DISABLE_CLAUDE_MDS": "1",
    "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
}
"""Set in every fork's environment (see the module docstring)."""
_PARENT_SESSION_ENV = re.compile(
    r"^(CLAUDECODE|CLAUDE_PID|CLAUDE_PROJECT_DIR|CLAUDE_ENV_FILE|CLAUDE_EFFORT|CLAUDE_PLUGIN_\w+"
    r"|CLAUDE_CODE_(SESSION_\w+|ENTRYPOINT|MESSAGING_\w+|CHILD_\w+))$"
)
"""Variables the primary's CLI gave the worker that would tie a fork to the primary's session."""

AUTH_TIMEOUT_S = 10.0
MAX_API_RETRIES = 2
"""Retries of a failing model call (other than a 429) a fork allows the CLI before the pass goes offline."""


@dataclass(frozen=True)
class ClaudeCodeOptions:
    """``model.claude_code.*``: how hard this provider may lean on the user's subscription."""

    max_parallel_forks: int = 2
    min_interval_s: float = 600.0
    tokens_per_hour: int = 400_000
    max_budget_usd: float = 0.05
    start_allowance_s: float = 20.0

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> ClaudeCodeOptions:
        values = values or {}
        known = {key: values[key] for key in cls.__dataclass_fields__ if values.get(key) is not None}
        return cls(**known)


class CliUnavailable(ProviderError):
    """The CLI cannot run forks now (missing, logged out, rate-limited, slow to start, a flag it refuses).

    Not a detector's failure: the pass that meets it runs offline and says why.
    """


def find_binary(env: Mapping[str, str] | None = None) -> str | None:
    """``claude`` on the PATH of ``env`` (the worker's, which is the user's)."""
    env = os.environ if env is None else env
    return shutil.which(BINARY, path=env.get("PATH", os.defpath))


@dataclass(frozen=True)
class AuthStatus:
    """What ``claude auth status --json`` said (it reports the login without showing any token)."""

    binary: str | None
    logged_in: bool
    method: str
    problem: str = ""

    def describe(self) -> str:
        if self.binary is None:
            return "no claude CLI on PATH"
        if self.problem:
            return f"the claude CLI at {self.binary} did not report its login: {self.problem}"
        if not self.logged_in:
            return f"the claude CLI at {self.binary} is not logged in"
        return f"the claude CLI at {self.binary} is logged in ({self.method})"


def auth_status(env: Mapping[str, str] | None = None, timeout_s: float | None = None) -> AuthStatus:
    """Ask the user's CLI whether it is logged in: one short process, no token read by us.

    ``timeout_s`` defaults to :data:`AUTH_TIMEOUT_S`; a CLI that does not answer in time is "not logged in".
    """
    import subprocess

    env = dict(os.environ if env is None else env)
    binary = find_binary(env)
    if binary is None:
        return AuthStatus(None, False, "none")
    try:
        done = subprocess.run(
            [binary, "auth", "status", "--json"],
            env=fork_env(env),
            capture_output=True,
            text=True,
            timeout=AUTH_TIMEOUT_S if timeout_s is None else timeout_s,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return AuthStatus(binary, False, "none", f"{type(exc).__name__}: {exc}")
    try:
        report = json.loads(done.stdout)
    except ValueError:
        tail = " ".join((done.stderr or done.stdout).split())[-200:]
        return AuthStatus(binary, False, "none", f"exit {done.returncode}, no JSON status ({tail})")
    if not isinstance(report, dict):
        return AuthStatus(binary, False, "none", "its status is not a JSON object")
    return AuthStatus(binary, report.get("loggedIn") is True, str(report.get("authMethod") or "unknown"))


def fork_env(env: Mapping[str, str]) -> dict[str, str]:
    """The fork's environment: the user's (the login lives there), minus the primary session's ties."""
    kept = {key: value for key, value in env.items() if not _PARENT_SESSION_ENV.match(key)}
    return {**kept, **OBSERVER_ENV}


def write_private(path: Path, text: str) -> Path:
    """Write ``text`` to a new 0600 file (the system prompt holds the window: the session's content)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def command(binary: str, model: str, system: Path, mcp_config: Path, budget_usd: float) -> list[str]:
    """The argv of one fork (every flag explained in the module docstring)."""
    if not MODEL_RE.match(model):
        raise ProviderError(f"model name {model!r} is not one the claude CLI can be given", provider=NAME)
    return [
        binary,
        "-p",
        "--input-format=stream-json",
        "--output-format=stream-json",
        "--verbose",
        f"--model={model}",
        "--system-prompt-file",
        str(system),
        "--tools=",
        "--mcp-config",
        str(mcp_config),
        "--strict-mcp-config",
        "--allowedTools=mcp__sbcore",
        "--setting-sources=",
        "--disable-slash-commands",
        "--no-session-persistence",
        f"--max-budget-usd={budget_usd:g}",
    ]


def user_message(blocks: Sequence[str]) -> bytes:
    """One stream-json user message whose content is ``blocks`` as text blocks, in order."""
    content = [{"type": "text", "text": text} for text in blocks if text]
    line = {"type": "user", "message": {"role": "user", "content": content}}
    return json.dumps(line, ensure_ascii=False).encode("utf-8") + b"\n"


@dataclass
class CliRun:
    """What one ``claude -p`` run reported: its init event, usage, cost and how it ended."""

    init: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    returncode: int | None = None
    stderr: str = ""
    started_s: float | None = None
    """Seconds from spawn to the init event: the process start cost."""
    retries: list[dict[str, Any]] = field(default_factory=list)
    """The CLI's ``api_retry`` events: a model call it is retrying (status, error, delay)."""
    _seen: set[str] = field(default_factory=set)

    def feed(self, event: Mapping[str, Any]) -> None:
        """Account one stream-json event (assistant usage is counted once per message id)."""
        kind = event.get("type")
        if kind == "system" and event.get("subtype") == "init":
            self.init = dict(event)
        elif kind == "assistant":
            message = event.get("message") or {}
            key = str(message.get("id") or "")
            if key and key not in self._seen and isinstance(message.get("usage"), Mapping):
                self._seen.add(key)
                self.usage = self.usage + usage_of(message["usage"])
        elif kind == "system" and event.get("subtype") == "api_retry":
            self.retries.append(dict(event))
        elif kind == "result":
            self.result = dict(event)
            if isinstance(event.get("usage"), Mapping):
                self.usage = usage_of(event["usage"])
            cost = event.get("total_cost_usd")
            if isinstance(cost, int | float):
                self.cost_usd = float(cost)

    def retry_problem(self) -> str | None:
        """Why to stop a CLI that is retrying its model calls, or None to let it go on.

        A 429 stops it at once: a subscription's rate limit is the user's, and the CLI would back off for
        minutes inside the fork's deadline. Other errors get :data:`MAX_API_RETRIES` retries.
        """
        if not self.retries:
            return None
        last = self.retries[-1]
        if last.get("error_status") == 429 or last.get("error") == "rate_limit":
            return "the claude CLI is rate-limited (HTTP 429; it was retrying)"
        if len(self.retries) > MAX_API_RETRIES:
            return (
                f"the claude CLI's model calls keep failing (HTTP {last.get('error_status')}, "
                f"{last.get('error')}; {len(self.retries)} retries)"
            )
        return None

    def failure(self) -> str | None:
        """Why the CLI itself failed (None when it ran): the text a pass reports when it goes offline."""
        text = " ".join(self.stderr.split())[-300:]
        result = self.result or {}
        said = " ".join(str(result.get(key) or "") for key in ("result", "error", "subtype")).lower()
        said += " " + " ".join(str(e) for e in result.get("errors") or ()).lower()
        if "unknown option" in text.lower() or "error: unknown" in text.lower():
            return f"the claude CLI refused a flag (another version?): {text}"
        if self.result is not None and not self.result.get("is_error"):
            return None  # it ran; whatever its stderr says
        both = f"{said} {text.lower()}"
        if any(word in both for word in ("rate limit", "rate_limit", "429", "usage limit")):
            return "the claude CLI is rate-limited"
        if any(word in both for word in ("log in", "login", "401", "authenticat", "api key")):
            return f"the claude CLI is not logged in: {text or said.strip()}"
        if self.init is None:
            return f"the claude CLI exited ({self.returncode}) before it started a session: {text}"
        return None


def usage_of(raw: Mapping[str, Any]) -> Usage:
    """The CLI's usage record (Anthropic's names) as a :class:`Usage`."""

    def count(key: str) -> int:
        value = raw.get(key)
        return int(value) if isinstance(value, int | float) else 0

    return Usage(
        count("input_tokens"),
        count("output_tokens"),
        count("cache_read_input_tokens"),
        count("cache_creation_input_tokens"),
    )


async def kill_group(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL the fork's process group (the CLI and the relay server it started) and reap it."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(proc.wait(), 5.0)


class ClaudeCodeProvider:
    """Runs forks through the user's ``claude`` CLI; paces itself for a subscription.

    The pass engine hands it whole forks (:mod:`sbcore.think.cli_fork`) rather than calling :meth:`send`
    per iteration; :meth:`send` serves tool-less calls (compaction). :meth:`begin_pass` is the provider's
    own, conservative pace; a pass it refuses, or one whose CLI turns out unusable (:attr:`degraded`), runs
    offline and says why.
    """

    name = NAME
    has_model = True

    def __init__(
        self,
        settings: ProviderSettings,
        options: ClaudeCodeOptions | None = None,
        *,
        monotonic: Callable[[], float] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.settings = settings
        self.options = options or ClaudeCodeOptions.from_mapping(settings.options)
        self.model = settings.model or DEFAULT_MODEL
        self.degraded: str | None = None
        self.pass_cost_usd = 0.0
        self._monotonic = monotonic or time.monotonic
        self.env = env
        """The environment forks start from (and PATH is searched in); None: the worker's own."""
        self.start_costs: deque[float] = deque(maxlen=64)
        """Seconds from spawn to session start of the most recent forks (``bench provider`` reads it)."""
        self._last_pass: float | None = None
        self._spent: list[tuple[float, int]] = []

    @classmethod
    def from_settings(cls, settings: ProviderSettings) -> ClaudeCodeProvider:
        return cls(settings)

    def __repr__(self) -> str:
        return f"ClaudeCodeProvider(model={self.model!r})"

    @property
    def max_parallel_forks(self) -> int:
        return self.options.max_parallel_forks

    def binary(self) -> str | None:
        return find_binary(self.env)

    def begin_pass(self, *, turn_end: bool = False) -> str | None:
        """None when this pass may use the CLI; otherwise why it runs offline (the provider's pace).

        A turn end's pass is exempt from the interval, as it is from the pacer's floor (it is the last
        moment to judge the turn, and turns end rarely); the hourly token allowance binds it all the same.
        """
        self.degraded = None
        self.pass_cost_usd = 0.0
        now = self._monotonic()
        hour_ago = now - 3600.0
        self._spent = [(when, tokens) for when, tokens in self._spent if when > hour_ago]
        used = sum(tokens for _, tokens in self._spent)
        last = self._last_pass
        if last is not None and now - last < self.options.min_interval_s and not turn_end:
            wait = self.options.min_interval_s - (now - last)
            return (
                f"claude-code pacing: the next model pass in {wait:.0f} s "
                f"(model.claude_code.min_interval_s {self.options.min_interval_s:g})"
            )
        if used >= self.options.tokens_per_hour:
            return (
                f"claude-code pacing: {used} tokens in the last hour reached "
                f"model.claude_code.tokens_per_hour {self.options.tokens_per_hour}"
            )
        self._last_pass = now
        return None

    def spent(self, usage: Usage) -> None:
        """Count a fork's tokens against this provider's hourly allowance."""
        self._spent.append((self._monotonic(), usage.prompt_tokens + usage.output_tokens))

    def unavailable(self, reason: str) -> None:
        """A fork found the CLI unusable: the rest of this pass runs offline, saying ``reason``."""
        self.degraded = self.degraded or reason

    async def run(
        self,
        argv: Sequence[str],
        blocks: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str] | None = None,
        on_event: Callable[[Mapping[str, Any]], None] | None = None,
        into: CliRun | None = None,
    ) -> CliRun:
        """Run one ``claude -p``, feeding ``blocks`` as the user message; the caller bounds it in time.

        Raises :class:`CliUnavailable` when the CLI cannot be started or does not start a session within
        ``start_allowance_s``. Cancellation (the hard deadline) kills the whole process group. ``into``
        is filled as events arrive, so a caller sees the usage so far while the CLI still runs.
        """
        run = into if into is not None else CliRun()
        started = self._monotonic()
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv,
                cwd=cwd,
                env=fork_env(env or self.env or os.environ),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,
                limit=16 * 1024 * 1024,
            )
        except OSError as exc:
            raise CliUnavailable(f"the claude CLI could not be started: {exc}", provider=NAME) from exc
        stderr_task = asyncio.ensure_future(_read_all(proc.stderr))
        try:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(user_message(blocks))
            with contextlib.suppress(ConnectionError):
                await proc.stdin.drain()
            proc.stdin.close()
            first = True
            while True:
                timeout = self.options.start_allowance_s if first else None
                try:
                    line = await asyncio.wait_for(proc.stdout.readline(), timeout)
                except TimeoutError:
                    raise CliUnavailable(
                        f"the claude CLI started no session within {self.options.start_allowance_s:g} s "
                        "(model.claude_code.start_allowance_s)",
                        provider=NAME,
                    ) from None
                if not line:
                    break
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(event, dict):
                    continue
                if first and event.get("type") == "system" and event.get("subtype") == "init":
                    first = False
                    run.started_s = self._monotonic() - started
                    self.start_costs.append(run.started_s)
                run.feed(event)
                if on_event is not None:
                    on_event(event)
                problem = run.retry_problem()
                if problem is not None:
                    raise CliUnavailable(problem, provider=NAME)
            run.returncode = await proc.wait()
            run.stderr = await stderr_task
            return run
        finally:
            self.pass_cost_usd += run.cost_usd
            await kill_group(proc)
            stderr_task.cancel()

    async def send(self, request: Request) -> Response:
        """A tool-less call (compaction's summary): one ``claude -p`` with no tool at all."""
        if request.tools:
            raise NoModel("claude-code runs tool-using forks whole, not one call at a time", provider=NAME)
        binary = self.binary()
        if binary is None:
            raise CliUnavailable("no claude CLI on PATH", provider=NAME)
        import tempfile

        with tempfile.TemporaryDirectory(prefix="sbcore-cc-") as tmp:
            config = write_private(Path(tmp) / "mcp.json", json.dumps({"mcpServers": {}}))
            system = write_private(Path(tmp) / "system.txt", "\n\n".join(request.system))
            argv = command(binary, self.model, system, config, self.options.max_budget_usd)
            blocks = [
                "\n".join(b.text for b in m.content if isinstance(b, TextBlock)) for m in request.messages
            ]
            run = await self.run(argv, blocks, cwd=Path(tmp))
        problem = run.failure()
        if problem is not None:
            raise CliUnavailable(problem, provider=NAME)
        self.spent(run.usage)
        text = str((run.result or {}).get("result") or "")
        return Response((TextBlock(text),), "end_turn", run.usage, self.model)

    async def aclose(self) -> None:
        return None


async def _read_all(stream: asyncio.StreamReader | None) -> str:
    if stream is None:
        return ""
    data = await stream.read()
    return data.decode("utf-8", "replace")[-20000:]
