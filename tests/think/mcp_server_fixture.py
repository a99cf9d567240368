"""A small MCP server written with the official SDK, started by the MCP adapter tests.

Run as ``python mcp_server_fixture.py`` for stdio, or ``python mcp_server_fixture.py --http PORT`` for
streamable HTTP on 127.0.0.1. Its tools are deliberately tiny, each exercising one adapter path: a plain
result (echo, add), a tool error (fail), a slow call (slow), the server's environment (env) and process (pid),
and tool names that need care on the wire (search.code, x__echo).
"""

from __future__ import annotations

import asyncio
import os
import sys

from mcp.server.mcpserver import MCPServer

app = MCPServer("sbcore-test-fixture")


@app.tool()
def echo(text: str) -> str:
    """Return the text, prefixed so the test can tell it came through the server."""
    return f"fixture echo: {text}"


@app.tool()
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


@app.tool()
def fail(reason: str) -> str:
    """Always fail, so the result comes back with isError set."""
    raise RuntimeError(reason)


@app.tool()
async def slow(seconds: float) -> str:
    """Sleep, then answer: lets a test outlast the client's call timeout."""
    await asyncio.sleep(seconds)
    return "finally"


@app.tool()
def env(name: str) -> str:
    """The server's value of an environment variable, or <unset>."""
    return os.environ.get(name, "<unset>")


@app.tool()
def pid() -> str:
    """The server's process id: the same for every call proves one shared session."""
    return str(os.getpid())


@app.tool(name="search.code")
def search_code(query: str) -> str:
    """A tool whose name is not a valid provider tool name as it stands."""
    return f"no results for {query}"


@app.tool(name="x__echo")
def x_echo(text: str) -> str:
    """On a server named ``fx``, maps to the same wire name as ``echo`` on a server named ``fx__x``."""
    return f"x echo: {text}"


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        app.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        app.run("stdio")
