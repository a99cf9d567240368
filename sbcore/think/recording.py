"""Recorded model answers and tool results: a run with a provider kept, and replayed offline as it ran.

A labelled case judged with a model is evidence only while the model answers the same way, and a team's CI
has no model to call. So a run with a provider can keep every fork's model I/O and every tool result, one
*tape* per case, and a later run answers the same forks from the tapes: offline, deterministic, in any
process.

What a tape holds, per model call: which detector's fork made it and at which iteration, a digest of each
part of the request (the system prompt, the tools offered, each message) and the response as the provider
gave it. The request itself is not kept: it is the session's window, already on disk as the transcript, and
its digests are enough to find the recorded answer and to say what changed when there is none. Per tool
call: the detector, the tool, its arguments and the result it returned; and the MCP tools the servers
offered, so a replay offers the same list without starting any server. Every string a tape keeps is
redacted, as everything the observer sends is.

Replaying keeps the boundary live runs have. A tool call goes through :meth:`Toolbox.dispatch` as it does
live: the grant, the allowlist, repository code before trust and the argument schema all decide first, and
only a call dispatch would have run is answered from the tape. So a recorded ``Run`` of the repository's own
code is refused in a workspace that is not trusted, whatever the tape holds.

A replay never passes by accident: a model call the tape does not hold fails that fork, and its case,
naming the call and the first part of the request that differs from the recording (the detector's
instructions, the window, a tool result); so does a recorded call the replay never made.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore.observe.redact import redact
from sbcore.problems import SbcoreError
from sbcore.state import document
from sbcore.think import DETECTOR_MARKER_RE
from sbcore.think.providers.base import (
    Message,
    Provider,
    ProviderError,
    Request,
    Response,
    StopReason,
    TextBlock,
    ToolUseBlock,
    Usage,
)
from sbcore.think.tools.base import RemoteTool, RemoteToolSource, ToolResult

VERSION = 1
"""The tape format's version (``v`` in each file)."""

_STOP_REASONS: tuple[StopReason, ...] = ("end_turn", "tool_use", "max_tokens", "stop_sequence", "other")

_CURRENT: ContextVar[Tape | None] = ContextVar("sbcore_tape", default=None)
"""The tape of the case being judged. Forks run as tasks of the case's replay and copy its context, so a
provider or toolbox shared by every case finds the right tape without being told."""


class RecordingError(SbcoreError, ValueError):
    """A tape that cannot be used (missing, unreadable, malformed); the message names the file and key."""


class RecordingMiss(ProviderError):
    """A model call the tape does not hold: the replay left its recording."""


# -- a tape ------------------------------------------------------------------------------------------------


@dataclass
class Tape:
    """One case's recording, and while it is replayed, what is left of it and how the replay left it."""

    name: str
    provider: str = ""
    model: str = ""
    calls: list[dict[str, Any]] = field(default_factory=list)
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    remote: list[dict[str, Any]] = field(default_factory=list)
    replaying: bool = False
    """The tape answers the calls (it was read back) rather than keeping them."""
    misses: list[tuple[str, str]] = field(default_factory=list)
    """How a replay left the recording: each miss's detector, and the miss naming the call."""
    _answers: dict[str, deque[dict[str, Any]]] = field(default_factory=dict, repr=False)
    _results: dict[str, deque[dict[str, Any]]] = field(default_factory=dict, repr=False)

    # recording

    def keep_call(self, request: Request, response: Response) -> None:
        detector, iteration = fork_of(request)
        parts = request_parts(request)
        self.calls.append(
            {
                "detector": detector,
                "iteration": iteration,
                "key": _digest(parts),
                "parts": parts,
                "response": response_json(response),
            }
        )

    def keep_tool(self, detector: str, tool: str, args: Mapping[str, Any], result: ToolResult) -> None:
        self.tool_calls.append(
            {
                "detector": detector,
                "tool": tool,
                "input": _redacted(dict(args)),
                "result": redact(result.text),
                "is_error": result.is_error,
            }
        )

    # replaying

    def answer(self, request: Request) -> Response:
        """The recorded response to ``request``; a miss is noted and raised as :class:`RecordingMiss`."""
        if not self._answers and self.calls:
            for call in self.calls:
                self._answers.setdefault(call["key"], deque()).append(call)
        parts = request_parts(request)
        waiting = self._answers.get(_digest(parts))
        if waiting:
            call = waiting.popleft()
            call["used"] = True
            return response_from(call["response"])
        detector, iteration = fork_of(request)
        miss = f"{detector} model call {iteration}: {self._difference(detector, iteration, parts)}"
        self.misses.append((detector, miss))
        raise RecordingMiss(f"not in the recording: {miss}", provider="recorded")

    def tool_answer(self, detector: str, tool: str, args: Mapping[str, Any]) -> ToolResult:
        """The recorded result of this call (one a live dispatch would have run); a miss is a refusal."""
        if not self._results and self.tool_calls:
            for call in self.tool_calls:
                self._results.setdefault(
                    _tool_key(call["detector"], call["tool"], call["input"]), deque()
                ).append(call)
        waiting = self._results.get(_tool_key(detector, tool, _redacted(dict(args))))
        if waiting:
            call = waiting.popleft()
            return ToolResult(call["result"], is_error=bool(call["is_error"]))
        miss = f"{detector} tool call {tool} {_canonical(args)}: not in the recording"
        self.misses.append((detector, miss))
        return ToolResult.refusal(f"refused: the recording has no result for this {tool} call")

    def problem(self, detector: str) -> str:
        """How the replay of ``detector``'s forks left the recording, in one line ("" when they did not, or
        when this run records)."""
        if not self.replaying:
            return ""
        misses = [miss for who, miss in self.misses if who == detector]
        unused = [call for call in self.calls if call["detector"] == detector and not call.get("used")]
        if misses:
            more = f" (and {len(misses) - 1} more)" if len(misses) > 1 else ""
            return f"left its recording: {misses[0]}{more}; re-record it with --record"
        if unused:
            first = unused[0]
            return (
                f"left its recording: {first['detector']} model call {first['iteration']} was recorded but "
                f"not made ({len(unused)} recorded call(s) unused); re-record it with --record"
            )
        return ""

    def _difference(self, detector: str, iteration: int, parts: Mapping[str, Any]) -> str:
        """What differs between ``parts`` and the closest recorded call of the same fork."""
        same = [call for call in self.calls if call["detector"] == detector]
        if not same:
            return f"the recording holds no call of {detector}"
        recorded = next((call for call in same if call["iteration"] == iteration), None)
        if recorded is None:
            return f"the recording holds {detector}'s calls 1 to {max(c['iteration'] for c in same)} only"
        return describe_difference(recorded["parts"], parts)

    # files

    def to_json(self) -> dict[str, Any]:
        return {
            "case": self.name,
            "provider": self.provider,
            "model": self.model,
            "calls": [{key: value for key, value in call.items() if key != "used"} for call in self.calls],
            "tool_calls": self.tool_calls,
            "remote_tools": self.remote,
        }

    @classmethod
    def from_json(cls, path: Path, body: Mapping[str, Any]) -> Tape:
        """A tape read from ``path``, its shape checked (a malformed one names the key)."""
        for key, kind in (("case", str), ("provider", str), ("model", str)):
            if not isinstance(body.get(key), kind):
                raise RecordingError(f"{path}: key {key!r}: expected a string")
        lists = {key: body.get(key) for key in ("calls", "tool_calls", "remote_tools")}
        for key, items in lists.items():
            if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
                raise RecordingError(f"{path}: key {key!r}: expected a list of objects")
        for index, call in enumerate(lists["calls"] or ()):
            for key in ("detector", "iteration", "key", "parts", "response"):
                if key not in call:
                    raise RecordingError(f"{path}: key 'calls[{index}].{key}': missing")
            try:
                response_from(call["response"])
            except (KeyError, TypeError, ValueError) as exc:
                raise RecordingError(f"{path}: key 'calls[{index}].response': {exc}") from None
        for index, call in enumerate(lists["tool_calls"] or ()):
            for key in ("detector", "tool", "input", "result", "is_error"):
                if key not in call:
                    raise RecordingError(f"{path}: key 'tool_calls[{index}].{key}': missing")
        for index, tool in enumerate(lists["remote_tools"] or ()):
            for key in ("name", "server", "remote_name", "description", "input_schema"):
                if key not in tool:
                    raise RecordingError(f"{path}: key 'remote_tools[{index}].{key}': missing")
        return cls(
            str(body["case"]),
            str(body["provider"]),
            str(body["model"]),
            replaying=True,
            calls=[dict(call) for call in lists["calls"] or ()],
            tool_calls=[dict(call) for call in lists["tool_calls"] or ()],
            remote=[dict(tool) for tool in lists["remote_tools"] or ()],
        )


# -- requests and responses as a tape keeps them -----------------------------------------------------------


def fork_of(request: Request) -> tuple[str, int]:
    """Which detector's fork sent ``request``, and its iteration (1 for the first call).

    The fork's private tail opens with the detector's marker, right after the shared prefix
    (``breakpoint``); each later iteration adds the model's reply and the tool results."""
    start = request.breakpoint + 1 if request.breakpoint is not None else 0
    tail = request.messages[start:]
    for index, message in enumerate(tail):
        first = message.content[0]
        if message.role == "user" and isinstance(first, TextBlock):
            found = DETECTOR_MARKER_RE.match(first.text)
            if found is not None:
                return found.group(1), (len(tail) - index - 1) // 2 + 1
    return "(no detector)", 1


def request_parts(request: Request) -> dict[str, Any]:
    """A digest of each part of ``request`` (the model's name aside: a replay's provider has none)."""
    return {
        "system": _digest(list(request.system)),
        "tools": _digest(
            [
                {"name": t.name, "description": t.description, "input_schema": t.input_schema}
                for t in request.tools
            ]
        ),
        "messages": [_digest(_message_json(message)) for message in request.messages],
        "breakpoint": request.breakpoint,
        "force_tool": request.force_tool,
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
    }


def describe_difference(recorded: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    """The first part of a request that differs from the recorded one, in words."""
    if recorded.get("system") != now["system"]:
        return "the system prompt differs from the recording"
    if recorded.get("tools") != now["tools"]:
        return "the tools offered differ from the recording"
    old, new = list(recorded.get("messages") or ()), list(now["messages"])
    breakpoint = now["breakpoint"]
    for index, (before, after) in enumerate(zip(old, new, strict=False)):
        if before != after:
            if breakpoint is None or index <= breakpoint:
                return f"the session window differs from the recording (message {index + 1})"
            if index == breakpoint + 1:
                return "the detector's instructions (its private tail) differ from the recording"
            return f"a tool result or reply the fork read differs from the recording (message {index + 1})"
    if len(old) != len(new):
        return f"the request has {len(new)} messages, the recording {len(old)}"
    for key in ("force_tool", "max_tokens", "temperature", "breakpoint"):
        if recorded.get(key) != now[key]:
            return f"its {key} is {now[key]!r}, the recording's {recorded.get(key)!r}"
    return "the request differs from the recording"


def response_json(response: Response) -> dict[str, Any]:
    """``response`` as a tape keeps it, its text and tool arguments redacted."""
    content: list[dict[str, Any]] = []
    for block in response.content:
        if isinstance(block, TextBlock):
            content.append({"type": "text", "text": redact(block.text)})
        else:
            content.append(
                {
                    "type": "tool_use",
                    "id": block.id,
                    "name": block.name,
                    "input": _redacted(dict(block.input)),
                }
            )
    usage = response.usage
    return {
        "content": content,
        "stop_reason": response.stop_reason,
        "usage": {
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "cache_read_tokens": usage.cache_read_tokens,
            "cache_write_tokens": usage.cache_write_tokens,
        },
        "model": response.model,
        "id": response.id,
    }


def response_from(data: Mapping[str, Any]) -> Response:
    """The response a tape recorded (raises KeyError, TypeError or ValueError when it is malformed)."""
    blocks: list[TextBlock | ToolUseBlock] = []
    for block in data["content"]:
        if block["type"] == "text":
            blocks.append(TextBlock(str(block["text"])))
        elif block["type"] == "tool_use":
            if not isinstance(block["input"], dict):
                raise TypeError("a tool call's input must be an object")
            blocks.append(ToolUseBlock(str(block["id"]), str(block["name"]), dict(block["input"])))
        else:
            raise ValueError(f"unknown content block type {block['type']!r}")
    stop = data["stop_reason"]
    if stop not in _STOP_REASONS:
        raise ValueError(f"unknown stop_reason {stop!r}")
    usage = {key: int(value) for key, value in dict(data["usage"]).items()}
    return Response(tuple(blocks), stop, Usage(**usage), str(data.get("model", "")), str(data.get("id", "")))


def _message_json(message: Message) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, TextBlock):
            content.append({"type": "text", "text": block.text})
        elif isinstance(block, ToolUseBlock):
            content.append(
                {"type": "tool_use", "id": block.id, "name": block.name, "input": dict(block.input)}
            )
        else:
            content.append(
                {
                    "type": "tool_result",
                    "id": block.tool_use_id,
                    "text": block.content,
                    "error": block.is_error,
                }
            )
    return {"role": message.role, "content": content}


def _redacted(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: _redacted(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_redacted(item) for item in value]
    return value


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def _digest(value: Any) -> str:
    return hashlib.sha256(_canonical(value).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _tool_key(detector: str, tool: str, args: Any) -> str:
    return f"{detector} {tool} {_canonical(args)}"


# -- the provider and the tools' answers, recording or replaying ---------------------------------------------


class RecordingProvider:
    """A provider that keeps each call on the current case's tape as it passes through."""

    def __init__(self, inner: Provider) -> None:
        self.inner = inner

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def model(self) -> str:
        return self.inner.model

    @property
    def has_model(self) -> bool:
        return self.inner.has_model

    async def send(self, request: Request) -> Response:
        response = await self.inner.send(request)
        tape = _CURRENT.get()
        if tape is not None:
            tape.keep_call(request, response)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


class RecordedProvider:
    """A provider that answers from the current case's tape and nothing else: no network, no model."""

    name = "recorded"

    def __init__(self, model: str = "") -> None:
        self._model = model

    @property
    def model(self) -> str:
        tape = _CURRENT.get()
        return tape.model if tape is not None and tape.model else self._model

    @property
    def has_model(self) -> bool:
        return True

    async def send(self, request: Request) -> Response:
        tape = _CURRENT.get()
        if tape is None:
            raise RecordingMiss("no recording is open for this call", provider=self.name)
        return tape.answer(request)

    async def aclose(self) -> None:
        return None


class ToolAnswers:
    """What answers a tool call dispatch allowed: the tool itself (kept on the tape), or the tape."""

    def __init__(self, *, replaying: bool) -> None:
        self.replaying = replaying

    async def answer(
        self, detector: str, tool: str, args: dict[str, Any], run: Callable[[], Awaitable[ToolResult]]
    ) -> ToolResult:
        tape = _CURRENT.get()
        if self.replaying:
            if tape is None:
                return ToolResult.refusal("refused: no recording is open for this call")
            return tape.tool_answer(detector, tool, args)
        result = await run()
        if tape is not None:
            tape.keep_tool(detector, tool, args, result)
        return result


@dataclass(frozen=True)
class _RecordedTool:
    """An MCP tool as a tape recorded its definition; dispatch answers its calls from the tape."""

    name: str
    server: str
    remote_name: str
    description: str
    input_schema: dict[str, Any]

    async def call(self, args: dict[str, Any]) -> ToolResult:
        return ToolResult.refusal(f"refused: {self.name} is answered from its recording only")


class RecordedRemote:
    """The MCP tools the current case's tape recorded, offered as the servers offered them (none runs)."""

    def tools(self) -> list[RemoteTool]:
        tape = _CURRENT.get()
        if tape is None:
            return []
        return [
            _RecordedTool(
                str(item["name"]),
                str(item["server"]),
                str(item["remote_name"]),
                str(item["description"]),
                dict(item["input_schema"]),
            )
            for item in tape.remote
        ]

    def unavailable(self) -> dict[str, str]:
        return {}


@contextmanager
def playing(tape: Tape) -> Iterator[Tape]:
    """``tape`` as the current case's for what runs inside (and the tasks it starts)."""
    token = _CURRENT.set(tape)
    try:
        yield tape
    finally:
        _CURRENT.reset(token)


# -- a run's tapes -------------------------------------------------------------------------------------------


class Recordings:
    """The tapes of one run, a file per case in ``directory``: written by a run that records, read by a
    run that replays (:attr:`replaying`)."""

    def __init__(self, directory: Path, *, replaying: bool) -> None:
        self.directory = directory
        self.replaying = replaying

    def path(self, name: str) -> Path:
        """The tape file of case ``name``."""
        return self.directory / f"{_slug(name)}.json"

    def model(self) -> str:
        """The model the tapes were recorded with (the first tape's), for a replay's reports."""
        for path in sorted(self.directory.glob("*.json")):
            try:
                body = document.read(path, version=VERSION)
            except document.DocumentError:
                continue
            if body is not None and isinstance(body.get("model"), str):
                return str(body["model"])
        return ""

    def load(self, name: str) -> Tape:
        """Case ``name``'s tape (a missing or malformed one is a :class:`RecordingError` naming it)."""
        path = self.path(name)
        try:
            body = document.read(path, version=VERSION)
        except document.DocumentError as exc:
            raise RecordingError(str(exc)) from None
        if body is None:
            raise RecordingError(f"{path}: no recording of case {name!r} (record it with --record)")
        return Tape.from_json(path, body)

    @contextmanager
    def case(self, name: str, provider: Provider, remote: RemoteToolSource | None = None) -> Iterator[Tape]:
        """The tape of case ``name`` while its replay runs; a recorded one is written when it ends."""
        if self.replaying:
            tape = self.load(name)
        else:
            tape = Tape(name, provider.name, provider.model, remote=_remote_definitions(remote))
        with playing(tape):
            yield tape
        if not self.replaying:
            document.write(self.path(name), tape.to_json(), version=VERSION)


def _remote_definitions(remote: RemoteToolSource | None) -> list[dict[str, Any]]:
    if remote is None:
        return []
    return [
        {
            "name": tool.name,
            "server": tool.server,
            "remote_name": tool.remote_name,
            "description": tool.description,
            "input_schema": dict(tool.input_schema),
        }
        for tool in remote.tools()
    ]


def _slug(name: str) -> str:
    """A file name for a case id: its safe characters, and a digest when any were replaced."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip(".-")[:80] or "case"
    return safe if safe == name else f"{safe}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"
