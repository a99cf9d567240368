"""Grants, the pass's wire tool union, and dispatch's re-check of every call against the caller's grant."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbcore.packs.model import ToolGrant
from sbcore.think import FEEDBACK_TOOL
from sbcore.think.tools.base import WIRE_NAME_RE, RemoteTool, ToolResult
from sbcore.think.tools.dispatch import Grant, Toolbox

QUERY_SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}


@dataclass
class FakeRemote:
    """Shaped like an MCP hub tool; no SDK involved (the adapter has its own tests)."""

    server: str
    remote_name: str
    description: str = "a remote tool"
    input_schema: dict[str, Any] = field(default_factory=lambda: dict(QUERY_SCHEMA))
    calls: list[dict[str, Any]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"mcp__{self.server}__{self.remote_name}"

    async def call(self, args: dict[str, Any]) -> ToolResult:
        self.calls.append(args)
        return ToolResult(f"{self.server}/{self.remote_name} says {args['q']}")


@dataclass
class FakeHub:
    remote: list[FakeRemote]
    down: dict[str, str] = field(default_factory=dict)

    def tools(self) -> list[RemoteTool]:
        return sorted(self.remote, key=lambda tool: tool.name)

    def unavailable(self) -> dict[str, str]:
        return dict(self.down)


@dataclass
class PackTool:
    """A pack-registered tool; ``behaviour`` selects how it misbehaves."""

    name: str = "word_count"
    behaviour: str = "ok"
    description: str = "Count words."
    input_schema: dict[str, Any] = field(default_factory=lambda: dict(QUERY_SCHEMA))

    async def call(self, args: dict[str, Any]) -> ToolResult:
        if self.behaviour == "raise":
            raise RuntimeError("pack tool exploded")
        if self.behaviour == "hang":
            await asyncio.sleep(30)
        if self.behaviour == "wrong-type":
            return "plain string"  # type: ignore[return-value]
        if self.behaviour == "loud":
            return ToolResult("AKIA" + "ABCDEFGHIJKLMNOP " + "w" * 5000)
        return ToolResult(str(len(args["q"].split())))


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    return tmp_path


@pytest.fixture
def hub() -> FakeHub:
    return FakeHub(
        [FakeRemote("docs", "search"), FakeRemote("docs", "fetch"), FakeRemote("code", "grep")],
        down={"vault": "did not start within 15 s"},
    )


def call(box: Toolbox, detector: str, grant: Grant, tool: str, args: object) -> ToolResult:
    return asyncio.run(box.dispatch(detector, grant, tool, args))


# -- Grant -----------------------------------------------------------------------------------------


def test_grant_parses_every_yaml_form() -> None:
    grant = Grant.parse(
        ["Read", "Glob", {"run": ["git log -n 5", "git status"]}, "mcp:docs/search", "mcp:code/*"]
    )
    assert grant.tools == {"Read", "Glob"}
    assert grant.run == ("git log -n 5", "git status")
    assert grant.mcp == {("docs", "search"), ("code", "*")}
    assert grant.labels() == [
        "Glob",
        "Read",
        "Run: git log -n 5",
        "Run: git status",
        "mcp:code/*",
        "mcp:docs/search",
    ]


def test_grant_parses_loader_values() -> None:
    grant = Grant.parse(
        [
            ToolGrant(kind="builtin", name="Grep"),
            ToolGrant(kind="run", name="Run", commands=("make -n",)),
            ToolGrant(kind="mcp", name="mcp:docs/*", server="docs", tool="*"),
            ToolGrant(kind="pack", name="word_count"),
        ]
    )
    assert grant == Grant(frozenset({"Grep", "word_count"}), ("make -n",), frozenset({("docs", "*")}))


def test_empty_grant_is_falsy() -> None:
    assert not Grant.parse([])
    assert Grant.parse(["Read"])


@pytest.mark.parametrize(
    "item",
    [
        "mcp:docs",
        "mcp:/tool",
        "mcp:docs/a/b",
        "mcp:do cs/x",
        "Run",
        "not a name!",
        7,
        {"run": "git log"},
        {"run": [""]},
    ],
)
def test_grant_rejects_malformed_entries(item: object) -> None:
    with pytest.raises(ValueError):
        Grant.parse([item])


def test_remote_grants_match_exact_tools_or_whole_servers() -> None:
    grant = Grant.parse(["mcp:docs/search", "mcp:code/*"])
    assert grant.allows_remote("docs", "search")
    assert not grant.allows_remote("docs", "fetch")
    assert grant.allows_remote("code", "anything")
    assert not grant.allows_remote("vault", "search")


# -- the wire union --------------------------------------------------------------------------------


def test_wire_tools_are_the_sorted_union(ws: Path, hub: FakeHub) -> None:
    box = Toolbox(ws, registered={"word_count": PackTool()}, remote=hub)
    grants = [
        Grant.parse(["Read", {"run": ["git status"]}]),
        Grant.parse(["Grep", "Read", "mcp:docs/search", {"run": ["git log -n 5"]}]),
        Grant.parse(["mcp:code/*", "word_count", "mcp:vault/*"]),
        Grant.parse([]),
    ]
    wire = box.build_wire_tools(grants)
    names = [tool["name"] for tool in wire]
    assert names == ["Grep", "Read", "Run", "mcp__code__grep", "mcp__docs__search", "word_count"]
    assert all(WIRE_NAME_RE.match(name) for name in names)
    run = next(tool for tool in wire if tool["name"] == "Run")
    assert run["input_schema"]["properties"]["command"]["enum"] == ["git log -n 5", "git status"]
    assert all(set(tool) == {"name", "description", "input_schema"} for tool in wire)


def test_wire_tools_are_byte_identical_whatever_the_grant_order(ws: Path, hub: FakeHub) -> None:
    box = Toolbox(ws, remote=hub)
    grants = [
        Grant.parse(["Glob", {"run": ["b", "a"]}]),
        Grant.parse(["mcp:docs/*", "Read"]),
        Grant.parse([{"run": ["c"]}]),
    ]
    first = json.dumps(box.build_wire_tools(grants), separators=(",", ":"))
    second = json.dumps(box.build_wire_tools(list(reversed(grants))), separators=(",", ":"))
    assert first == second


def test_no_grants_no_tools(ws: Path, hub: FakeHub) -> None:
    assert Toolbox(ws, remote=hub).build_wire_tools([Grant.parse([]), Grant.parse([])]) == []


def test_granted_names_and_missing(ws: Path, hub: FakeHub) -> None:
    box = Toolbox(ws, remote=hub)
    grant = Grant.parse(
        [
            "Read",
            "unknown_pack_tool",
            "mcp:docs/*",
            "mcp:docs/nope",
            "mcp:vault/x",
            "mcp:ghost/*",
            {"run": ["x"]},
        ]
    )
    assert box.granted_names(grant) == ["Read", "Run", "mcp__docs__fetch", "mcp__docs__search"]
    assert box.missing(grant) == [
        "unknown_pack_tool: no such tool is registered",
        "mcp:docs/nope: MCP server 'docs' has no tool 'nope'",
        "mcp:ghost/*: MCP server 'ghost' is not configured or offers no tools",
        "mcp:vault/x: MCP server 'vault' is unavailable: did not start within 15 s",
    ]


# -- dispatch --------------------------------------------------------------------------------------


def test_dispatch_refuses_a_tool_outside_the_grant_even_when_on_the_wire(ws: Path) -> None:
    box = Toolbox(ws)
    reader = Grant.parse(["Read"])
    silent = Grant.parse(["Glob"])
    assert [tool["name"] for tool in box.build_wire_tools([reader, silent])] == ["Glob", "Read"]
    allowed = call(box, "prior-art", reader, "Read", {"path": "notes.txt"})
    assert not allowed.is_error and "alpha" in allowed.text
    refused = call(box, "standard-questions", silent, "Read", {"path": "notes.txt"})
    assert refused.refused
    assert refused.text == "refused: detector 'standard-questions' is not granted 'Read' (its tools: Glob)"
    assert "alpha" not in refused.text


def test_dispatch_refuses_remote_tools_outside_the_grant(ws: Path, hub: FakeHub) -> None:
    box = Toolbox(ws, remote=hub)
    exact = Grant.parse(["mcp:docs/search"])
    ok = call(box, "prior-art", exact, "mcp__docs__search", {"q": "retry"})
    assert ok == ToolResult("docs/search says retry")
    assert call(box, "prior-art", exact, "mcp__docs__fetch", {"q": "x"}).refused
    assert call(box, "prior-art", exact, "mcp__code__grep", {"q": "x"}).refused
    wildcard = Grant.parse(["mcp:code/*"])
    assert call(box, "git-log", wildcard, "mcp__code__grep", {"q": "y"}).text == "code/grep says y"
    assert [[c["q"] for c in remote.calls] for remote in hub.remote] == [["retry"], [], ["y"]]


def test_dispatch_refuses_unknown_tools(ws: Path) -> None:
    box = Toolbox(ws)
    everything = Grant.parse(["Read", "Grep", "Glob", {"run": ["true"]}])
    for name in ("Write", "Bash", "Edit", FEEDBACK_TOOL, "mcp__ghost__tool", "", "read"):
        result = call(box, "default", everything, name, {})
        assert result.refused and "there is no tool named" in result.text


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ("notes.txt", "must be a JSON object"),
        (["notes.txt"], "must be a JSON object"),
        (None, "must be a JSON object"),
        ({}, "'path' is a required property"),
        ({"path": 3}, "path: 3 is not of type 'string'"),
        ({"path": "notes.txt", "offset": 0}, "offset: 0 is less than the minimum of 1"),
        ({"path": "notes.txt", "mode": "w"}, "Additional properties are not allowed"),
    ],
)
def test_dispatch_validates_arguments_before_running(ws: Path, args: object, fragment: str) -> None:
    result = call(Toolbox(ws), "prior-art", Grant.parse(["Read"]), "Read", args)
    assert result.refused
    assert fragment in result.text


def test_an_unusable_schema_is_an_error_not_an_exception(ws: Path) -> None:
    schema = {"type": "object", "properties": {"q": {"$ref": "https://example.invalid/schema.json"}}}
    box = Toolbox(ws, remote=FakeHub([FakeRemote("docs", "search", input_schema=schema)]))
    result = call(box, "d", Grant.parse(["mcp:docs/*"]), "mcp__docs__search", {"q": "x"})
    assert result.is_error and "cannot check the arguments of mcp__docs__search" in result.text


def test_registered_tools_run_when_granted(ws: Path) -> None:
    box = Toolbox(ws, registered={"word_count": PackTool()})
    assert call(box, "d", Grant.parse(["word_count"]), "word_count", {"q": "a b c"}) == ToolResult("3")
    assert call(box, "d", Grant.parse(["Read"]), "word_count", {"q": "a b c"}).refused


@pytest.mark.parametrize(
    ("behaviour", "fragment"),
    [
        ("raise", "word_count failed: RuntimeError: pack tool exploded"),
        ("hang", "word_count did not return within 0.5 s"),
        ("wrong-type", "word_count returned str, not a ToolResult"),
    ],
)
def test_a_misbehaving_tool_becomes_an_error_result(ws: Path, behaviour: str, fragment: str) -> None:
    box = Toolbox(ws, registered={"word_count": PackTool(behaviour=behaviour)}, call_timeout_s=0.5)
    result = call(box, "d", Grant.parse(["word_count"]), "word_count", {"q": "x"})
    assert result.is_error and not result.refused
    assert result.text == fragment


def test_every_result_is_redacted_and_capped(ws: Path) -> None:
    box = Toolbox(ws, registered={"word_count": PackTool(behaviour="loud")}, max_result_chars=100)
    result = call(box, "d", Grant.parse(["word_count"]), "word_count", {"q": "x"})
    assert result.text.startswith("[REDACTED:aws-access-key-id] www")
    assert "more characters not shown]" in result.text


@pytest.mark.parametrize(
    ("registered", "fragment"),
    [
        ({"Read": PackTool(name="Read")}, "collides with a built-in"),
        ({FEEDBACK_TOOL: PackTool(name=FEEDBACK_TOOL)}, "collides with a built-in"),
        ({"bad name": PackTool(name="bad name")}, "must match"),
        ({"mcp__x__y": PackTool(name="mcp__x__y")}, "must match"),
        ({"word_count": PackTool(name="other")}, "reports the name"),
        ({"word_count": PackTool(input_schema={"type": "nonsense"})}, "invalid input_schema"),
    ],
)
def test_registered_tools_are_checked(ws: Path, registered: dict[str, PackTool], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        Toolbox(ws, registered=registered)


_NAMES = st.sampled_from(
    ["Read", "Grep", "Glob", "Run", "word_count", "mcp__docs__search", "Write", FEEDBACK_TOOL]
)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
_ARGS = (
    st.dictionaries(st.sampled_from(["path", "pattern", "command", "q", "offset", "glob", "x"]), _JSON)
    | _JSON
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=_NAMES,
    args=_ARGS,
    granted=st.lists(st.sampled_from(["Read", "word_count", "mcp:docs/*"]), max_size=3),
)
def test_dispatch_never_raises(ws: Path, hub: FakeHub, name: str, args: object, granted: list[str]) -> None:
    box = Toolbox(ws, registered={"word_count": PackTool()}, remote=hub)
    grant = Grant.parse(granted)
    result = call(box, "d", grant, name, args)
    assert isinstance(result, ToolResult)
    if result.refused:
        assert result.is_error
    else:
        assert name in box.granted_names(grant)  # whatever ran was granted
