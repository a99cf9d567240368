"""The tools a detector fork may call, and the rules that bound them.

- :mod:`~sbcore.think.tools.base` — the ``Tool`` protocol and ``ToolResult``;
- :mod:`~sbcore.jail` — the workspace path jail;
- :mod:`~sbcore.think.tools.files` — Read, Grep, Glob (read-only, jailed);
- :mod:`~sbcore.think.tools.run` — Run (exact allowlisted commands, no shell, time-boxed);
- :mod:`~sbcore.think.tools.dispatch` — grants, the pass's wire tool list, dispatch;
- :mod:`~sbcore.think.tools.mcp_adapter` — MCP servers' tools (the only module importing ``mcp``).

Nothing is imported here: Grep and Glob child processes import ``files`` alone and start fast, and the MCP SDK
is loaded only by code that configures MCP servers.
"""
