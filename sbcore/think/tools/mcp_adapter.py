"""The MCP adapter: MCP servers' tools, proxied into detector forks. The ONLY module importing ``mcp``.

Protocol work is not ours to hand-roll, so this is a thin layer over the official SDK's ``Client``. One
:class:`McpHub` per worker holds one client session per configured server (stdio via
``StdioServerParameters``, or streamable HTTP via a URL) and every fork of every pass shares it; calls are
independent requests, so forks may call concurrently, and no result is shared. Each session lives in its own
task (the SDK's transports are task-scoped), started in parallel at hub start with a startup timeout.

A server that cannot be used — bad definition, fails to start, times out, errors during the handshake or the
tool listing, or drops its connection later — is recorded with the reason, and its tools are ABSENT: never
stubbed, never offered on the wire. :meth:`McpHub.report` and :meth:`McpHub.status` say why, for the status
command and the logs.

Tools appear on the wire as ``mcp__<server>__<tool>`` because provider APIs only accept
``[a-zA-Z0-9_-]{1,64}`` names; detectors grant them as ``mcp:<server>/<tool>`` (or ``mcp:<server>/*``). See
:func:`wire_name`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import anyio
import httpx2
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from jsonschema.validators import validator_for
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import (
    CONNECTION_CLOSED,
    CallToolResult,
    EmbeddedResource,
    Implementation,
    ResourceLink,
    TextContent,
    TextResourceContents,
)

from sbcore import __version__
from sbcore.problems import SbcoreError
from sbcore.think.tools.base import ToolResult, cap_text

log = logging.getLogger(__name__)

SERVER_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_DESCRIPTION_CHARS = 2000
MAX_ERRLOG_BYTES = 1024 * 1024
"""A server's stderr goes to an unlinked temporary file, emptied when it grows past this."""
SHUTDOWN_TIMEOUT_S = 10.0
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")

SERVER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "MCP server definition",
    "type": "object",
    "properties": {
        "type": {
            "enum": ["stdio", "http"],
            "description": "Transport; inferred from command/url when absent.",
        },
        "command": {
            "type": "string",
            "minLength": 1,
            "description": "Executable that starts a stdio server.",
        },
        "args": {"type": "array", "items": {"type": "string"}, "description": "Its arguments."},
        "env": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "Extra environment for a stdio server (which otherwise gets HOME, PATH, USER, …).",
        },
        "cwd": {
            "type": "string",
            "description": "Working directory of a stdio server (default: workspace root).",
        },
        "url": {"type": "string", "pattern": "^https?://", "description": "Streamable HTTP endpoint."},
        "headers": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "HTTP headers sent with every request (e.g. Authorization).",
        },
        "startup_timeout_s": {
            "type": "number",
            "exclusiveMinimum": 0,
            "description": "Time to connect and list.",
        },
        "call_timeout_s": {
            "type": "number",
            "exclusiveMinimum": 0,
            "description": "Time one tool call may take.",
        },
        "enabled": {
            "type": "boolean",
            "description": "false keeps the definition but never starts the server.",
        },
        "description": {"type": "string", "description": "Free text for people."},
    },
    "additionalProperties": False,
    "oneOf": [{"required": ["command"]}, {"required": ["url"]}],
}
_SERVER_VALIDATOR = Draft202012Validator(SERVER_SCHEMA)


class DefinitionError(SbcoreError, ValueError):
    """A server definition that cannot be used; the message says why."""


def wire_name(server: str, tool: str) -> str:
    """The provider-safe wire name of MCP tool ``tool`` of ``server``: ``mcp__<server>__<tool>``.

    Deterministic: characters outside ``[A-Za-z0-9_-]`` become ``_``, and when anything was replaced or the
    name is longer than 64 characters it is cut and suffixed with 8 hex digits of a hash of ``server/tool``,
    so two different tools do not silently share a name. The hub maps names back through its own table, never
    by parsing.
    """
    raw = f"mcp__{server}__{tool}"
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", raw)
    if safe == raw and len(raw) <= 64:
        return raw
    digest = hashlib.sha256(f"{server}/{tool}".encode()).hexdigest()[:8]
    return f"{safe[:55]}_{digest}"


def _expand(value: str, environ: Mapping[str, str], where: str) -> str:
    """``${VAR}`` / ``${VAR:-default}`` substitution, as Claude Code's own MCP configuration allows."""

    def sub(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        if name in environ:
            return environ[name]
        if default is not None:
            return default
        raise DefinitionError(f"{where} refers to ${{{name}}}, which is not set")

    return _ENV_REF.sub(sub, value)


@dataclass(frozen=True)
class ServerStatus:
    """One configured server as the status command shows it."""

    name: str
    transport: str
    state: str
    """``ready``, ``unavailable`` or ``disabled``."""
    tools: tuple[str, ...] = ()
    """Remote tool names offered (sorted)."""
    reason: str | None = None
    skipped: tuple[str, ...] = ()
    """Tools the server listed but the hub could not offer, each with the reason."""


@dataclass
class McpTool:
    """One MCP server tool, proxied: a :class:`~sbcore.think.tools.base.RemoteTool`."""

    name: str
    server: str
    remote_name: str
    description: str
    input_schema: dict[str, Any]
    hub: McpHub = field(repr=False, compare=False)

    async def call(self, args: dict[str, Any]) -> ToolResult:
        return await self.hub.call(self.server, self.remote_name, args)


@dataclass
class _Server:
    name: str
    spec: Mapping[str, Any]
    transport: str = "stdio"
    call_timeout_s: float = 60.0
    startup_timeout_s: float = 15.0
    client: Client | None = None
    tools: dict[str, McpTool] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    reason: str | None = None
    disabled: bool = False
    errlog: IO[str] | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    closing: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    def stderr_tail(self, limit: int = 400) -> str:
        if self.errlog is None:
            return ""
        try:
            self.errlog.seek(0)
            text = self.errlog.read()
        except (OSError, ValueError):
            return ""
        return " ".join(text[-limit:].split())


def _leaf_errors(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaf_errors(inner)]
    return [exc]


def _describe(exc: BaseException) -> str:
    parts = []
    for leaf in _leaf_errors(exc):
        text = str(leaf) or type(leaf).__name__
        if isinstance(leaf, OSError) and leaf.strerror:
            text = leaf.strerror + (f": {leaf.filename}" if leaf.filename else "")
        parts.append(text)
    return "; ".join(dict.fromkeys(parts))


def _result_text(result: CallToolResult) -> str:
    """Flatten a tool result's content blocks into the text a tool_result carries."""
    parts: list[str] = []
    for block in result.content:
        if isinstance(block, TextContent):
            parts.append(block.text)
        elif isinstance(block, EmbeddedResource):
            resource = block.resource
            if isinstance(resource, TextResourceContents):
                parts.append(resource.text)
            else:
                parts.append(f"[binary resource {resource.uri} not shown]")
        elif isinstance(block, ResourceLink):
            parts.append(f"[resource link {block.uri}]")
        else:
            parts.append(f"[{block.type} content ({block.mime_type}) not shown]")
    if not parts and result.structured_content is not None:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False, sort_keys=True))
    return "\n".join(parts)


class McpHub:
    """One client session per configured MCP server, shared by all forks. Use as ``async with McpHub(...)``.

    ``servers`` maps a server name to its definition (:data:`SERVER_SCHEMA`): ``{command, args, env, cwd}``
    for stdio or ``{url, headers}`` for streamable HTTP, plus optional ``startup_timeout_s``,
    ``call_timeout_s`` and ``enabled``. String values may use ``${VAR}`` / ``${VAR:-default}`` from
    ``environ``. Servers start in parallel; the hub is usable once each has either started or been recorded as
    unavailable.
    """

    def __init__(
        self,
        servers: Mapping[str, Mapping[str, Any]],
        *,
        cwd: str | os.PathLike[str] | None = None,
        startup_timeout_s: float = 15.0,
        call_timeout_s: float = 60.0,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self._cwd = None if cwd is None else Path(cwd)
        self._environ = dict(os.environ if environ is None else environ)
        self._servers: dict[str, _Server] = {}
        self._files = contextlib.ExitStack()
        for name in sorted(servers):
            spec = servers[name]
            server = _Server(
                name=name, spec=spec, startup_timeout_s=startup_timeout_s, call_timeout_s=call_timeout_s
            )
            self._servers[name] = server
            try:
                self._check(server)
            except DefinitionError as exc:
                server.reason = f"invalid definition: {exc}"

    @staticmethod
    def _check(server: _Server) -> None:
        if not SERVER_NAME_RE.match(server.name):
            raise DefinitionError(f"server name {server.name!r} must match {SERVER_NAME_RE.pattern}")
        if not isinstance(server.spec, Mapping):
            raise DefinitionError("a server definition is a mapping")
        errors = sorted(_SERVER_VALIDATOR.iter_errors(dict(server.spec)), key=lambda e: list(e.absolute_path))
        if errors:
            first = errors[0]
            where = "/".join(str(p) for p in first.absolute_path)
            message = "give exactly one of command or url" if first.validator == "oneOf" else first.message
            raise DefinitionError(f"{where}: {message}" if where else message)
        server.transport = "http" if "url" in server.spec else "stdio"
        declared = server.spec.get("type")
        if declared is not None and declared != server.transport:
            raise DefinitionError(f"type {declared!r} does not match the {server.transport} fields given")
        server.startup_timeout_s = float(server.spec.get("startup_timeout_s", server.startup_timeout_s))
        server.call_timeout_s = float(server.spec.get("call_timeout_s", server.call_timeout_s))
        server.disabled = server.spec.get("enabled") is False

    # -- lifecycle -------------------------------------------------------------------------------------------

    async def __aenter__(self) -> McpHub:
        startable = [s for s in self._servers.values() if s.reason is None and not s.disabled]
        for server in startable:
            server.task = asyncio.create_task(self._own(server), name=f"mcp:{server.name}")
        try:
            await asyncio.gather(*(self._await_start(server) for server in startable))
        except BaseException:  # cancelled while starting: stop what did start before giving up
            await self.__aexit__(None, None, None)
            raise
        self._drop_clashes()
        for line in self.report():
            log.info("mcp %s", line)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        tasks = [s.task for s in self._servers.values() if s.task is not None]
        for server in self._servers.values():
            server.closing.set()
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=SHUTDOWN_TIMEOUT_S)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending)
        for server in self._servers.values():
            server.client = None
            server.errlog = None
        self._files.close()

    async def _await_start(self, server: _Server) -> None:
        try:
            await asyncio.wait_for(server.ready.wait(), timeout=server.startup_timeout_s)
        except TimeoutError:
            tail = server.stderr_tail()
            server.reason = f"did not start within {server.startup_timeout_s:g} s" + (
                f" (stderr: {tail})" if tail else ""
            )
            assert server.task is not None
            server.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await server.task

    async def _own(self, server: _Server) -> None:
        """The task owning one session: connect, list tools, hold the session until the hub closes."""
        try:
            async with AsyncExitStack() as stack:
                target = await self._target(server, stack)
                client = Client(
                    target,
                    read_timeout_seconds=server.call_timeout_s,
                    client_info=Implementation(name="sbcore-observer", version=__version__),
                )
                await stack.enter_async_context(client)
                await self._list_tools(server, client)
                server.client = client
                server.ready.set()
                await server.closing.wait()
        except Exception as exc:  # any failure makes the server unavailable, with the reason recorded
            if server.reason is None:
                tail = server.stderr_tail()
                server.reason = _describe(exc) + (f" (stderr: {tail})" if tail else "")
        finally:
            server.client = None
            server.tools = {}
            server.ready.set()

    async def _target(self, server: _Server, stack: AsyncExitStack) -> Any:
        spec = server.spec
        where = f"server {server.name!r}"
        if server.transport == "http":
            url = _expand(spec["url"], self._environ, f"{where} url")
            headers = {
                k: _expand(v, self._environ, f"{where} header {k}")
                for k, v in spec.get("headers", {}).items()
            }
            if not headers:
                return url
            http = await stack.enter_async_context(
                httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=300.0))
            )
            return streamable_http_client(url, http_client=http)
        env = {k: _expand(v, self._environ, f"{where} env {k}") for k, v in spec.get("env", {}).items()}
        env["SBCORE_OBSERVER"] = "1"
        cwd = spec.get("cwd")
        params = StdioServerParameters(
            command=_expand(spec["command"], self._environ, f"{where} command"),
            args=[_expand(a, self._environ, f"{where} args") for a in spec.get("args", [])],
            env=env,
            cwd=_expand(cwd, self._environ, f"{where} cwd") if cwd is not None else self._cwd,
        )
        # The hub's ExitStack closes it at exit: it must outlive this session to explain a failed start.
        errlog = tempfile.TemporaryFile("a+", encoding="utf-8", errors="replace")  # noqa: SIM115
        self._files.enter_context(errlog)
        server.errlog = errlog
        return stdio_client(params, errlog=server.errlog)

    def _drop_clashes(self) -> None:
        """Two servers' tools mapped to one wire name (``a``/``b__c`` and ``a__b``/``c``): the server first in
        name order keeps it, so the outcome does not depend on which server started first."""
        owners: dict[str, str] = {}
        for server in self._servers.values():  # sorted by name at construction
            for name in sorted(server.tools):
                if name in owners:
                    tool = server.tools.pop(name)
                    server.skipped.append(
                        f"{tool.remote_name}: wire name {name} is already used by {owners[name]}"
                    )
                else:
                    owners[name] = server.name

    async def _list_tools(self, server: _Server, client: Client) -> None:
        listed = []
        cursor: str | None = None
        for _ in range(100):
            page = await client.list_tools(cursor=cursor)
            listed.extend(page.tools)
            cursor = page.next_cursor
            if cursor is None:
                break
        for tool in sorted(listed, key=lambda t: t.name):
            name = wire_name(server.name, tool.name)
            schema = dict(tool.input_schema or {})
            problem = None
            if name in server.tools:
                problem = f"wire name {name} is already used by {server.tools[name].remote_name}"
            elif schema.get("type") != "object":
                problem = "its input schema is not an object schema"
            else:
                try:
                    validator_for(schema, default=Draft202012Validator).check_schema(schema)
                except SchemaError as exc:
                    problem = f"invalid input schema: {exc.message}"
            if problem:
                server.skipped.append(f"{tool.name}: {problem}")
                continue
            description = tool.description or tool.title or ""
            server.tools[name] = McpTool(
                name=name,
                server=server.name,
                remote_name=tool.name,
                description=cap_text(
                    f"[MCP server {server.name}] {description}".strip(), MAX_DESCRIPTION_CHARS
                ),
                input_schema=schema,
                hub=self,
            )

    # -- what the toolbox reads ------------------------------------------------------------------------------

    def tools(self) -> list[McpTool]:
        """Tools of the servers available now, sorted by wire name."""
        found = [
            tool
            for server in self._servers.values()
            if server.client is not None
            for tool in server.tools.values()
        ]
        return sorted(found, key=lambda tool: tool.name)

    def unavailable(self) -> dict[str, str]:
        """Configured servers that are not available, mapped to the reason."""
        return {
            name: ("disabled in configuration" if server.disabled else server.reason or "not started")
            for name, server in self._servers.items()
            if server.client is None
        }

    def status(self) -> list[ServerStatus]:
        """Every configured server, sorted by name."""
        result = []
        for name, server in self._servers.items():
            ready = server.client is not None
            state = "ready" if ready else "disabled" if server.disabled else "unavailable"
            result.append(
                ServerStatus(
                    name=name,
                    transport=server.transport,
                    state=state,
                    tools=tuple(sorted(t.remote_name for t in server.tools.values())) if ready else (),
                    reason=None if ready else self.unavailable()[name],
                    skipped=tuple(server.skipped),
                )
            )
        return result

    def report(self) -> list[str]:
        """One line per server (and per skipped tool) for the status command and the worker log."""
        lines = []
        for item in self.status():
            if item.state == "ready":
                lines.append(
                    f"{item.name} ({item.transport}): ready, {len(item.tools)} tools: {', '.join(item.tools)}"
                )
            else:
                lines.append(
                    f"{item.name} ({item.transport}): {item.state} — {item.reason}; its tools are absent"
                )
            lines.extend(f"{item.name}: tool {skip} — not offered" for skip in item.skipped)
        return lines

    # -- calls -----------------------------------------------------------------------------------------------

    async def call(self, server_name: str, tool: str, args: dict[str, Any]) -> ToolResult:
        """Call ``tool`` on ``server_name``; every kind of failure comes back as an error result."""
        server = self._servers.get(server_name)
        client = None if server is None else server.client
        if server is None or client is None:
            reason = "not configured" if server is None else self.unavailable()[server_name]
            return ToolResult.error(f"MCP server {server_name!r} is unavailable: {reason}")
        self._trim_errlog(server)
        try:
            with anyio.fail_after(server.call_timeout_s + 5.0):
                result = await client.call_tool(tool, args, read_timeout_seconds=server.call_timeout_s)
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED:
                self._lost(server, str(exc))
            return ToolResult.error(f"MCP server {server_name!r} answered {tool} with an error: {exc}")
        except TimeoutError:
            return ToolResult.error(
                f"MCP tool {tool} of {server_name!r} did not answer within {server.call_timeout_s:g} s"
            )
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream, OSError) as exc:
            self._lost(server, _describe(exc))
            return ToolResult.error(f"MCP server {server_name!r} connection failed: {_describe(exc)}")
        except Exception as exc:  # e.g. a result that does not validate; the fork must go on
            return ToolResult.error(f"MCP tool {tool} of {server_name!r} failed: {type(exc).__name__}: {exc}")
        return ToolResult(_result_text(result), is_error=bool(result.is_error))

    def _lost(self, server: _Server, detail: str) -> None:
        """A session that died mid-run: its tools disappear from later passes, and status says why."""
        tail = server.stderr_tail()
        server.reason = f"connection lost: {detail}" + (f" (stderr: {tail})" if tail else "")
        server.client = None
        server.tools = {}
        log.warning("mcp %s: %s", server.name, server.reason)

    @staticmethod
    def _trim_errlog(server: _Server) -> None:
        if server.errlog is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if os.fstat(server.errlog.fileno()).st_size > MAX_ERRLOG_BYTES:
                server.errlog.truncate(0)


# -- serving: our own tools to an agent CLI ---------------------------------------------------------------

ToolHandler = Callable[[str, dict[str, Any]], Awaitable[ToolResult]]
"""``handler(tool_name, args) -> ToolResult``: where a served tool call is really answered."""


async def serve_stdio(name: str, tools: list[Mapping[str, Any]], handler: ToolHandler) -> None:
    """Serve ``tools`` (wire definitions: name, description, input_schema) as MCP server ``name`` on stdio.

    The server holds no tool of its own: every call goes to ``handler``, which is how an agent CLI's fork
    reaches the worker's jailed, grant-checked toolbox. A handler that raises answers with a tool error, so
    a fault is something the model reads, never a dead server.
    """
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server
    from mcp_types import ListToolsResult, Tool

    listed = [
        Tool(name=str(t["name"]), description=str(t["description"]), input_schema=dict(t["input_schema"]))
        for t in tools
    ]

    async def list_tools(ctx: Any, params: Any) -> ListToolsResult:
        return ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: Any) -> CallToolResult:
        try:
            result = await handler(str(params.name), dict(params.arguments or {}))
        except Exception as exc:  # the relay is gone or broke: the model reads why, the server lives on
            result = ToolResult.error(f"tool {params.name} failed: {type(exc).__name__}: {exc}")
        return CallToolResult(content=[TextContent(type="text", text=result.text)], is_error=result.is_error)

    server: Server[Any] = Server(name, version=__version__, on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
