"""Grants, the pass's wire tool list, and dispatch: the one place a fork's tool call is allowed to run.

Every fork of a pass sends the same ``tools=`` list — the union of the pass's detector grants, sorted by name,
so it is byte-identical across forks and the provider's prefix cache holds. What a detector may actually use
is its own grant, and :meth:`Toolbox.dispatch` re-checks every call against it: a model can name any tool it
saw on the wire (or one it never saw), so the offered list is a hint and the grant is the boundary.
Dispatch never raises for a bad call; it returns an error ``ToolResult`` the model can read.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from jsonschema.validators import validator_for

from sbcore.jail import Jail
from sbcore.packs.model import ToolGrant
from sbcore.state.recall import RecallReader
from sbcore.think import FEEDBACK_TOOL
from sbcore.think.tools.base import (
    WIRE_NAME_RE,
    CallAnswers,
    RemoteTool,
    RemoteToolSource,
    Tool,
    ToolResult,
    finish_output,
    wire_definition,
)
from sbcore.think.tools.files import GLOB, GREP, READ, FileLimits, GlobTool, GrepTool, ReadTool
from sbcore.think.tools.recall import RECALL, RecallTool
from sbcore.think.tools.repo_code import repo_code_refusal
from sbcore.think.tools.run import RUN, RunLimits, RunTool
from sbcore.timebound import time_bound

FILE_TOOLS = (READ, GREP, GLOB)
RESERVED_NAMES = frozenset({*FILE_TOOLS, RECALL, RUN, FEEDBACK_TOOL})
ARGS_BOUND_S = 1.0
"""Wall-time bound on validating one call's arguments (see :mod:`sbcore.timebound`)."""
MCP_WIRE_PREFIX = "mcp__"
MCP_GRANT_RE = re.compile(r"^mcp:([A-Za-z0-9][A-Za-z0-9_.-]*)/(\*|[A-Za-z0-9_.-]+)$")
"""``mcp:<server>/<tool>`` or ``mcp:<server>/*`` (the same syntax the catalogue loader accepts)."""


@dataclass(frozen=True)
class Grant:
    """What one detector may call: file tools and registered tools by name, exact commands, MCP tools."""

    tools: frozenset[str] = frozenset()
    run: tuple[str, ...] = ()
    mcp: frozenset[tuple[str, str]] = frozenset()
    """(server, tool) pairs; tool ``*`` grants every tool of that server."""
    repo_code_trusted: bool = False
    """Whether commands of ``run`` that execute repository code may run on this grant's say-so (the user's
    own configuration chose them); see :mod:`~sbcore.think.tools.repo_code`."""

    @classmethod
    def parse(cls, items: Iterable[object], *, repo_code_trusted: bool = False) -> Grant:
        """Build a grant from a detector's ``tools`` entries.

        Accepts the loader's :class:`~sbcore.packs.model.ToolGrant` values and the YAML forms: ``"Read"``,
        ``{"run": [...]}``, ``"mcp:server/tool"``, ``"mcp:server/*"``, or a registered tool id.
        """
        tools: set[str] = set()
        run: set[str] = set()
        mcp: set[tuple[str, str]] = set()
        for item in items:
            if isinstance(item, ToolGrant):
                if item.kind == "run":
                    run.update(item.commands)
                elif item.kind == "mcp":
                    if not (item.server and item.tool):
                        raise ValueError(f"MCP grant {item.name!r} names no server or tool")
                    mcp.add((item.server, item.tool))
                else:
                    tools.add(item.name)
            elif isinstance(item, Mapping) and set(item) == {"run"}:
                commands = item["run"]
                if isinstance(commands, str | bytes) or not all(isinstance(c, str) and c for c in commands):
                    raise ValueError(f"{{run: ...}} takes a list of command strings, got {commands!r}")
                run.update(commands)
            elif isinstance(item, str) and item.startswith("mcp:"):
                match = MCP_GRANT_RE.match(item)
                if match is None:
                    raise ValueError(
                        f"malformed MCP grant {item!r}; expected mcp:<server>/<tool> or mcp:<server>/*"
                    )
                mcp.add((match.group(1), match.group(2)))
            elif isinstance(item, str) and item == RUN:
                raise ValueError("grant Run as {run: [<exact command>, ...]}, not as a bare name")
            elif isinstance(item, str) and WIRE_NAME_RE.match(item):
                tools.add(item)
            else:
                raise ValueError(f"not a tool grant: {item!r}")
        return cls(frozenset(tools), tuple(sorted(run)), frozenset(mcp), repo_code_trusted)

    def allows_remote(self, server: str, tool: str) -> bool:
        """Whether this grant covers tool ``tool`` of MCP server ``server``."""
        return (server, tool) in self.mcp or (server, "*") in self.mcp

    def labels(self) -> list[str]:
        """The grant as people write it, sorted: ``Glob``, ``Run: git log -n 5``, ``mcp:docs/search``."""
        return sorted(
            [
                *self.tools,
                *(f"{RUN}: {command}" for command in self.run),
                *(f"mcp:{s}/{t}" for s, t in self.mcp),
            ]
        )

    def __bool__(self) -> bool:
        return bool(self.tools or self.run or self.mcp)


def _validation_problems(schema: dict[str, Any], args: dict[str, Any]) -> list[str]:
    validator = validator_for(schema, default=Draft202012Validator)(schema)
    problems = []
    for error in sorted(validator.iter_errors(args), key=lambda e: [str(p) for p in e.absolute_path]):
        where = "/".join(str(p) for p in error.absolute_path)
        problems.append(f"{where}: {error.message}" if where else error.message)
    return problems


@dataclass
class Toolbox:
    """The tools one workspace can offer detector forks, and dispatch of their calls.

    ``registered`` are pack tools (``register_tools``) by id; ``remote`` is the MCP hub (or anything shaped
    like it). One toolbox serves every pass of a workspace; it holds no per-fork state.
    """

    root: Path
    registered: Mapping[str, Tool] = field(default_factory=dict)
    remote: RemoteToolSource | None = None
    file_limits: FileLimits = field(default_factory=FileLimits)
    run_limits: RunLimits = field(default_factory=RunLimits)
    call_timeout_s: float = 120.0
    """Backstop for any single call; each tool also bounds itself (Run and Grep/Glob well below this)."""
    max_result_chars: int = 40_000
    trusted_workspace: bool = False
    """Whether the user trusted this workspace's content: then Run commands that execute repository code
    may run on any grant (see :mod:`~sbcore.think.tools.repo_code`)."""
    recall: RecallReader | None = None
    """The workspace's recall index (read-only) the Recall tool searches; None: recall is off."""
    answers: CallAnswers | None = None
    """What answers a call once everything above allowed it: None runs the tool; a recording keeps its
    result, a replay of one answers from it (:mod:`sbcore.think.recording`). The checks stay these."""

    def __post_init__(self) -> None:
        self.jail = Jail(self.root)
        self._files: dict[str, Tool] = {
            READ: ReadTool(self.jail, self.file_limits),
            GREP: GrepTool(self.jail, self.file_limits),
            GLOB: GlobTool(self.jail, self.file_limits),
            RECALL: RecallTool(self.recall),
        }
        for tool_id, tool in self.registered.items():
            if tool.name != tool_id:
                raise ValueError(f"registered tool {tool_id!r} reports the name {tool.name!r}")
            if not WIRE_NAME_RE.match(tool_id) or tool_id.startswith(MCP_WIRE_PREFIX):
                raise ValueError(
                    f"registered tool id {tool_id!r} must match {WIRE_NAME_RE.pattern} without mcp__"
                )
            if tool_id in RESERVED_NAMES:
                raise ValueError(f"registered tool id {tool_id!r} collides with a built-in tool")
            try:
                validator_for(tool.input_schema, default=Draft202012Validator).check_schema(tool.input_schema)
            except SchemaError as exc:
                raise ValueError(
                    f"registered tool {tool_id!r} has an invalid input_schema: {exc.message}"
                ) from None

    # -- what a grant resolves to ----------------------------------------------------------------------------

    def _remote_tools(self) -> dict[str, RemoteTool]:
        return {} if self.remote is None else {tool.name: tool for tool in self.remote.tools()}

    def _granted_tools(self, grant: Grant) -> dict[str, Tool]:
        """The tools of ``grant`` that exist now, by wire name (not Run: its enum depends on the pass)."""
        tools: dict[str, Tool] = {}
        for name in grant.tools:
            tool = self._files.get(name) or self.registered.get(name)
            if tool is not None:
                tools[name] = tool
        for name, remote in self._remote_tools().items():
            if grant.allows_remote(remote.server, remote.remote_name):
                tools[name] = remote
        return tools

    def granted_names(self, grant: Grant) -> list[str]:
        """Wire names ``grant`` lets a detector call now, sorted (what its fork tail should state)."""
        names = set(self._granted_tools(grant))
        if grant.run:
            names.add(RUN)
        return sorted(names)

    def missing(self, grant: Grant) -> list[str]:
        """Entries of ``grant`` that resolve to no tool right now, each with its reason (status, logs)."""
        problems = [
            f"{name}: no such tool is registered"
            for name in sorted(grant.tools)
            if name not in self._files and name not in self.registered
        ]
        remote = self._remote_tools()
        unavailable = self.remote.unavailable() if self.remote is not None else {}
        servers = {tool.server for tool in remote.values()}
        for server, tool in sorted(grant.mcp):
            label = f"mcp:{server}/{tool}"
            if server in unavailable:
                problems.append(f"{label}: MCP server {server!r} is unavailable: {unavailable[server]}")
            elif server not in servers and tool == "*":
                problems.append(f"{label}: MCP server {server!r} is not configured or offers no tools")
            elif server not in servers:
                problems.append(f"{label}: MCP server {server!r} is not configured")
            elif tool != "*" and not any(
                t.server == server and t.remote_name == tool for t in remote.values()
            ):
                problems.append(f"{label}: MCP server {server!r} has no tool {tool!r}")
        return problems

    def build_wire_tools(self, grants: Iterable[Grant]) -> list[dict[str, Any]]:
        """The pass's ``tools=`` list: the union of ``grants``' available tools, sorted by name.

        ``Run`` appears once, its ``command`` enum the sorted union of every grant's commands. Call once per
        pass and give every fork the same list.
        """
        tools: dict[str, Tool] = {}
        commands: set[str] = set()
        for grant in grants:
            tools.update(self._granted_tools(grant))
            commands.update(grant.run)
        if commands:
            tools[RUN] = self._run_tool(commands)
        return [wire_definition(tools[name]) for name in sorted(tools)]

    def _run_tool(self, commands: Iterable[str]) -> RunTool:
        return RunTool(self.jail.root, tuple(commands), self.run_limits)

    # -- dispatch --------------------------------------------------------------------------------------------

    async def dispatch(self, detector_id: str, grant: Grant, tool_name: str, args: object) -> ToolResult:
        """Run one tool call of detector ``detector_id`` if ``grant`` allows it; refuse it otherwise.

        Order: the tool must exist; it must be in the caller's grant (for ``Run``, the exact command must be
        in the caller's own allowlist); the arguments must validate against the tool's input schema. Only then
        does it run, bounded by ``call_timeout_s``; its output is redacted and capped. Never raises except on
        cancellation.
        """
        tool: Tool | None
        if tool_name == RUN:
            tool = self._run_tool(grant.run) if grant.run else None
            known = True
        else:
            tool = self._files.get(tool_name) or self.registered.get(tool_name)
            remote = self._remote_tools().get(tool_name)
            known = tool is not None or remote is not None
            if remote is not None:
                tool = remote if grant.allows_remote(remote.server, remote.remote_name) else None
            elif tool is not None and tool_name not in grant.tools:
                tool = None
        if not known:
            return ToolResult.refusal(f"refused: there is no tool named {tool_name!r}")
        if tool is None:
            allowed = ", ".join(self.granted_names(grant)) or "none"
            return ToolResult.refusal(
                f"refused: detector {detector_id!r} is not granted {tool_name!r} (its tools: {allowed})"
            )
        if not isinstance(args, dict):
            return ToolResult.refusal(f"refused: arguments to {tool_name} must be a JSON object")
        command = args.get("command")
        if tool_name == RUN and isinstance(command, str) and command not in grant.run:
            return ToolResult.refusal(
                f"refused: {command!r} is not in detector {detector_id!r}'s allowlist "
                f"(allowed: {'; '.join(grant.run)})"
            )
        if tool_name == RUN and isinstance(command, str):
            refusal = repo_code_refusal(command, trusted=grant.repo_code_trusted or self.trusted_workspace)
            if refusal is not None:
                return ToolResult.refusal(refusal)
        try:
            # An MCP server or a pack wrote the schema: its patterns run under a time bound.
            with time_bound(ARGS_BOUND_S, f"validating the arguments of {tool_name}"):
                problems = _validation_problems(tool.input_schema, args)
        except Exception as exc:  # e.g. an MCP server's schema with an unresolvable $ref, or PatternTimeout
            return ToolResult.error(f"cannot check the arguments of {tool_name}: {type(exc).__name__}: {exc}")
        if problems:
            return ToolResult.refusal(f"invalid arguments for {tool_name}: " + "; ".join(problems[:5]))
        if self.answers is not None:
            checked: Tool = tool
            return await self.answers.answer(
                detector_id, tool_name, args, lambda: self._run(tool_name, checked, args)
            )
        return await self._run(tool_name, tool, args)

    async def _run(self, tool_name: str, tool: Tool, args: dict[str, Any]) -> ToolResult:
        """Run one allowed call, bounded by ``call_timeout_s``; its output redacted and capped."""
        try:
            result = await asyncio.wait_for(tool.call(args), timeout=self.call_timeout_s)
        except TimeoutError:
            return ToolResult.error(f"{tool_name} did not return within {self.call_timeout_s:g} s")
        except Exception as exc:  # a broken tool must not end the fork; the model reads what happened
            return ToolResult.error(f"{tool_name} failed: {type(exc).__name__}: {exc}")
        if not isinstance(result, ToolResult):
            return ToolResult.error(f"{tool_name} returned {type(result).__name__}, not a ToolResult")
        return replace(result, text=finish_output(result.text, self.max_result_chars))
