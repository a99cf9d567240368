"""The relay that lets an agent CLI's fork use the worker's own tools, over a private Unix socket.

A fork run through the ``claude`` CLI reaches its tools as an MCP server the CLI starts on stdio. That
server (:func:`main`, run by :meth:`RelayHost.server_command`) holds no tool: it lists the definitions the
worker wrote into SPEC and forwards every call over a Unix socket to :class:`RelayHost` in the worker, where
the same grant check, jail and redaction answer it as for any other fork. So the CLI never reads a file
itself, and what it may call is decided where it always is: :meth:`Toolbox.dispatch`.

The socket lives in a private (0700) directory made for one fork, and every request carries a random token
from the 0600 SPEC file: another local user cannot connect, and a stale server cannot talk to a new fork.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from sbcore.think.tools.base import ToolResult

SERVER_NAME = "sbcore"
"""The MCP server's name: the CLI offers its tools as ``mcp__sbcore__<tool>``."""
MAX_LINE = 16 * 1024 * 1024
"""Longest request or answer line (a tool's output is capped far below this)."""

_SERVER_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from sbcore.think.tools.relay import main; sys.exit(main(sys.argv[2:]))"
)
"""``sbcore``'s own directory goes first on the server's path, as the worker may not be installed."""
_PACKAGE_PARENT = str(Path(__file__).resolve().parents[3])

Handler = Callable[[str, dict[str, Any]], Awaitable[ToolResult]]


def cli_tool_name(tool: str) -> str:
    """The name the CLI gives a relayed tool."""
    return f"mcp__{SERVER_NAME}__{tool}"


class RelayHost:
    """The worker's end: a Unix socket answering tool calls with ``handler``. Use as ``async with``.

    :param directory: a private directory (0700) of this fork; the socket and SPEC are written there.
    :param tools: the wire definitions the server lists (name, description, input_schema).
    :param handler: answers one call; it never raises (a raise is answered as a tool error).
    """

    def __init__(self, directory: Path, tools: Sequence[Mapping[str, Any]], handler: Handler) -> None:
        self.directory = directory
        self.tools = [dict(tool) for tool in tools]
        self.handler = handler
        self.token = secrets.token_hex(16)
        self.socket_path = directory / "relay.sock"
        self.spec_path = directory / "relay.json"
        self._server: asyncio.AbstractServer | None = None

    def server_command(self) -> list[str]:
        """The command the CLI runs to start the stdio MCP server: this interpreter, this very package."""
        return [sys.executable, "-P", "-c", _SERVER_BOOT, _PACKAGE_PARENT, str(self.spec_path)]

    def mcp_config(self) -> dict[str, Any]:
        """The ``--mcp-config`` document naming only this relay."""
        command = self.server_command()
        return {"mcpServers": {SERVER_NAME: {"type": "stdio", "command": command[0], "args": command[1:]}}}

    async def __aenter__(self) -> RelayHost:
        path = str(self.socket_path)
        self._server = await asyncio.start_unix_server(self._serve, path=path, limit=MAX_LINE)
        os.chmod(self.socket_path, 0o600)
        spec = {"socket": str(self.socket_path), "token": self.token, "tools": self.tools}
        fd = os.open(self.spec_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(spec, handle, ensure_ascii=False)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 1.0)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                answer = await self._answer(line)
                writer.write(json.dumps(answer, ensure_ascii=False).encode("utf-8") + b"\n")
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()

    async def _answer(self, line: bytes) -> dict[str, Any]:
        try:
            request = json.loads(line)
        except ValueError:
            return {"text": "refused: not a relay request", "is_error": True, "refused": True}
        if not isinstance(request, dict) or not secrets.compare_digest(
            str(request.get("token", "")), self.token
        ):
            return {"text": "refused: wrong relay token", "is_error": True, "refused": True}
        args = request.get("args")
        try:
            result = await self.handler(str(request.get("name", "")), args if isinstance(args, dict) else {})
        except Exception as exc:  # a handler bug is a tool error the model reads, not a dead fork
            result = ToolResult.error(f"tool failed: {type(exc).__name__}: {exc}")
        return {"text": result.text, "is_error": result.is_error, "refused": result.refused}


class _Client:
    """The server process's end of the socket: one call at a time over one connection."""

    def __init__(self, socket_path: str, token: str) -> None:
        self.socket_path = socket_path
        self.token = token
        self._lock = asyncio.Lock()
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def call(self, name: str, args: dict[str, Any]) -> ToolResult:
        async with self._lock:
            if self._streams is None:
                self._streams = await asyncio.open_unix_connection(self.socket_path, limit=MAX_LINE)
            reader, writer = self._streams
            request = {"token": self.token, "name": name, "args": args}
            writer.write(json.dumps(request, ensure_ascii=False).encode("utf-8") + b"\n")
            await writer.drain()
            line = await reader.readline()
        if not line:
            return ToolResult.error("the observer is no longer answering tool calls")
        answer = json.loads(line)
        return ToolResult(
            str(answer.get("text", "")), bool(answer.get("is_error")), bool(answer.get("refused"))
        )


def main(argv: Sequence[str] | None = None) -> int:
    """The relay server: serve SPEC's tools on stdio, every call answered by the worker."""
    from sbcore.think.tools.mcp_adapter import serve_stdio

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: relay SPEC", file=sys.stderr)
        return 2
    spec = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    client = _Client(str(spec["socket"]), str(spec["token"]))
    asyncio.run(serve_stdio(SERVER_NAME, list(spec["tools"]), client.call))
    return 0


if __name__ == "__main__":
    sys.exit(main())
