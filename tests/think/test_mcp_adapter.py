"""The MCP adapter against a real MCP server (tests/think/mcp_server_fixture.py, written with the SDK).

The server is started by the hub itself over stdio (and once over streamable HTTP on loopback), so the round
trip is the one the worker makes: hub start → tool listing → wire union → dispatch with the grant re-check →
the server's answer as the tool result. Dead servers are exercised too: their tools are absent and reported.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sbcore.think.tools.base import WIRE_NAME_RE, ToolResult
from sbcore.think.tools.dispatch import Grant, Toolbox
from sbcore.think.tools.mcp_adapter import McpHub, wire_name

FIXTURE = str(Path(__file__).with_name("mcp_server_fixture.py"))
REPO = Path(__file__).resolve().parents[2]
FX = {"command": sys.executable, "args": [FIXTURE]}


def fixture_server(**extra: Any) -> dict[str, Any]:
    return {**FX, **extra}


async def _dispatch(box: Toolbox, detector: str, grant: Grant, name: str, args: dict[str, Any]) -> ToolResult:
    return await box.dispatch(detector, grant, name, args)


# -- the round trip the acceptance line names ------------------------------------------------------


def test_granted_tool_round_trip_and_ungranted_refusal(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with McpHub({"fx": fixture_server()}, cwd=tmp_path) as hub:
            box = Toolbox(tmp_path, remote=hub)
            prior_art = Grant.parse(["mcp:fx/echo"])
            silent = Grant.parse(["Read"])
            wire = box.build_wire_tools([prior_art, silent])
            assert [tool["name"] for tool in wire] == ["Read", "mcp__fx__echo"]
            echo_def = wire[1]
            assert echo_def["input_schema"]["required"] == ["text"]
            assert echo_def["description"].startswith("[MCP server fx] Return the text")

            result = await box.dispatch(
                "prior-art", prior_art, "mcp__fx__echo", {"text": "is there a retry helper?"}
            )
            assert result == ToolResult("fixture echo: is there a retry helper?")

            refused = await box.dispatch("standard-questions", silent, "mcp__fx__echo", {"text": "x"})
            assert refused.refused and "not granted 'mcp__fx__echo'" in refused.text
            # a tool the server has but the grant names no part of: refused, even though the hub knows it
            other = await box.dispatch("prior-art", prior_art, "mcp__fx__add", {"a": 1, "b": 2})
            assert other.refused

    asyncio.run(scenario())


def test_wildcard_grant_tool_errors_and_schema_checks(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with McpHub({"fx": fixture_server()}, cwd=tmp_path) as hub:
            box = Toolbox(tmp_path, remote=hub)
            grant = Grant.parse(["mcp:fx/*"])
            assert box.granted_names(grant) == [
                "mcp__fx__add",
                "mcp__fx__echo",
                "mcp__fx__env",
                "mcp__fx__fail",
                "mcp__fx__pid",
                f"{wire_name('fx', 'search.code')}",
                "mcp__fx__slow",
                "mcp__fx__x__echo",
            ]
            assert (await box.dispatch("d", grant, "mcp__fx__add", {"a": 2, "b": 40})).text == "42"
            failed = await box.dispatch("d", grant, "mcp__fx__fail", {"reason": "boom"})
            assert failed.is_error and not failed.refused  # the server's isError, passed through
            invalid = await box.dispatch("d", grant, "mcp__fx__add", {"a": "two", "b": 1})
            assert invalid.refused and "is not of type 'integer'" in invalid.text  # checked before sending
            dotted = await box.dispatch("d", grant, wire_name("fx", "search.code"), {"query": "retry"})
            assert dotted.text == "no results for retry"

    asyncio.run(scenario())


def test_one_session_shared_by_concurrent_forks(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with McpHub({"fx": fixture_server()}, cwd=tmp_path) as hub:
            box = Toolbox(tmp_path, remote=hub)
            grant = Grant.parse(["mcp:fx/*"])

            async def fork(i: int) -> tuple[str, str]:
                echoed = await box.dispatch(f"d{i}", grant, "mcp__fx__echo", {"text": str(i)})
                pid = await box.dispatch(f"d{i}", grant, "mcp__fx__pid", {})
                return echoed.text, pid.text

            results = await asyncio.gather(*(fork(i) for i in range(8)))
            assert [echoed for echoed, _ in results] == [f"fixture echo: {i}" for i in range(8)]
            assert len({pid for _, pid in results}) == 1  # every fork talked to the same server process

    asyncio.run(scenario())


def test_stdio_server_gets_explicit_env_and_the_observer_marker(tmp_path: Path) -> None:
    async def scenario() -> None:
        servers = {
            "fx": fixture_server(env={"FIXTURE_TOKEN": "${SBCORE_TEST_TOKEN}", "FALLBACK": "${NOPE:-dflt}"})
        }
        environ = {"SBCORE_TEST_TOKEN": "t0k3n", "LEAKY_PARENT_VAR": "should-not-pass"}
        async with McpHub(servers, cwd=tmp_path, environ=environ) as hub:

            async def env(name: str) -> str:
                return (await hub.call("fx", "env", {"name": name})).text

            assert await env("SBCORE_OBSERVER") == "1"
            assert await env("FIXTURE_TOKEN") == "t0k3n"
            assert await env("FALLBACK") == "dflt"
            assert await env("LEAKY_PARENT_VAR") == "<unset>"

    asyncio.run(scenario())


# -- unavailable servers: absent and reported, never stubbed ---------------------------------------


@pytest.mark.timeout(60)
def test_dead_servers_are_absent_and_reported(tmp_path: Path) -> None:
    servers: dict[str, dict[str, Any]] = {
        "fx": fixture_server(),
        "missing": {"command": str(tmp_path / "no-such-server")},
        "crashes": {
            "command": sys.executable,
            "args": ["-c", "import sys; print('bad config', file=sys.stderr); sys.exit(3)"],
        },
        "hangs": {
            "command": sys.executable,
            "args": ["-c", "import time; time.sleep(60)"],
            "startup_timeout_s": 1,
        },
        "both": {"command": "x", "url": "http://127.0.0.1:1/mcp"},
        "typo": {"comand": "x"},
        "needs_env": {"command": "${SBCORE_UNSET_VARIABLE}"},
        "off": fixture_server(enabled=False),
    }

    async def scenario() -> None:
        async with McpHub(servers, cwd=tmp_path, environ={}) as hub:
            box = Toolbox(tmp_path, remote=hub)
            grants = [Grant.parse([f"mcp:{name}/*"]) for name in servers]
            names = [tool["name"] for tool in box.build_wire_tools(grants)]
            assert names and all(name.startswith("mcp__fx__") for name in names)

            down = hub.unavailable()
            assert sorted(down) == ["both", "crashes", "hangs", "missing", "needs_env", "off", "typo"]
            assert "No such file or directory" in down["missing"]
            assert "bad config" in down["crashes"]  # the server's own stderr explains it
            assert down["hangs"] == "did not start within 1 s"
            assert down["both"] == "invalid definition: give exactly one of command or url"
            assert down["typo"].startswith("invalid definition:")
            assert "${SBCORE_UNSET_VARIABLE}, which is not set" in down["needs_env"]
            assert down["off"] == "disabled in configuration"

            report = hub.report()
            assert (
                report[0]
                == "both (stdio): unavailable — invalid definition: give exactly one of command or url; "
                "its tools are absent"
            )
            assert any(
                line.startswith(
                    "fx (stdio): ready, 8 tools: add, echo, env, fail, pid, search.code, slow, x__echo"
                )
                for line in report
            )
            assert any(
                line.startswith("off (stdio): disabled — disabled in configuration") for line in report
            )
            states = {status.name: status.state for status in hub.status()}
            assert (
                states["fx"] == "ready" and states["off"] == "disabled" and states["hangs"] == "unavailable"
            )

            crashed = Grant.parse(["mcp:crashes/*"])
            assert box.missing(crashed)[0].startswith("mcp:crashes/*: MCP server 'crashes' is unavailable: ")
            result = await box.dispatch("d", crashed, "mcp__crashes__anything", {})
            assert result.refused and "there is no tool named" in result.text
            direct = await hub.call("crashes", "anything", {})
            assert direct.is_error and "is unavailable" in direct.text

    asyncio.run(scenario())


@pytest.mark.timeout(60)
def test_a_server_that_dies_mid_session_loses_its_tools(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with McpHub({"fx": fixture_server()}, cwd=tmp_path) as hub:
            box = Toolbox(tmp_path, remote=hub)
            grant = Grant.parse(["mcp:fx/*"])
            pid = int((await box.dispatch("d", grant, "mcp__fx__pid", {})).text)
            os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(0.3)
            after = await box.dispatch("d", grant, "mcp__fx__echo", {"text": "anyone?"})
            assert after.is_error
            assert box.build_wire_tools([grant]) == []  # the next pass offers nothing of it
            assert hub.unavailable()["fx"].startswith("connection lost")
            assert box.missing(grant) == [
                f"mcp:fx/*: MCP server 'fx' is unavailable: {hub.unavailable()['fx']}"
            ]

    asyncio.run(scenario())


def test_wire_name_clash_across_servers_is_resolved_by_server_name(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with McpHub({"fx": fixture_server(), "fx__x": fixture_server()}, cwd=tmp_path) as hub:
            box = Toolbox(tmp_path, remote=hub)
            # fx/x__echo and fx__x/echo both map to mcp__fx__x__echo: fx sorts first and keeps it
            keeper = await box.dispatch("d", Grant.parse(["mcp:fx/*"]), "mcp__fx__x__echo", {"text": "hi"})
            assert keeper.text == "x echo: hi"
            loser = Grant.parse(["mcp:fx__x/echo"])
            assert box.granted_names(loser) == []
            assert box.missing(loser) == ["mcp:fx__x/echo: MCP server 'fx__x' has no tool 'echo'"]
            assert (
                "fx__x: tool echo: wire name mcp__fx__x__echo is already used by fx — not offered"
                in hub.report()
            )

    asyncio.run(scenario())


def test_slow_calls_time_out_as_error_results(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with McpHub({"fx": fixture_server(call_timeout_s=0.5)}, cwd=tmp_path) as hub:
            started = time.monotonic()
            result = await hub.call("fx", "slow", {"seconds": 5})
            assert time.monotonic() - started < 4
            assert result.is_error
            assert (await hub.call("fx", "echo", {"text": "still here"})).text == "fixture echo: still here"

    asyncio.run(scenario())


# -- streamable HTTP on loopback -------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def http_server() -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, FIXTURE, "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("the HTTP fixture server did not start")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)


@pytest.mark.timeout(60)
def test_http_server_round_trip(tmp_path: Path, http_server: str) -> None:
    async def scenario() -> None:
        servers = {
            "web": {"url": http_server, "headers": {"Authorization": "Bearer ${TOKEN}"}},
            "plain": {"url": http_server},
            "closed": {"url": f"http://127.0.0.1:{_free_port()}/mcp", "startup_timeout_s": 5},
        }
        async with McpHub(servers, environ={"TOKEN": "t"}) as hub:
            box = Toolbox(tmp_path, remote=hub)
            grant = Grant.parse(["mcp:web/echo", "mcp:plain/add"])
            assert box.granted_names(grant) == ["mcp__plain__add", "mcp__web__echo"]
            assert (await box.dispatch("d", grant, "mcp__web__echo", {"text": "over http"})).text == (
                "fixture echo: over http"
            )
            assert (await box.dispatch("d", grant, "mcp__plain__add", {"a": 1, "b": 1})).text == "2"
            assert "closed" in hub.unavailable()
            assert {s.name: s.transport for s in hub.status()} == {
                "closed": "http",
                "plain": "http",
                "web": "http",
            }

    asyncio.run(scenario())


# -- names and the import boundary -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("server", "tool", "expected"),
    [
        ("docs", "search", "mcp__docs__search"),
        ("my-server", "get_issue", "mcp__my-server__get_issue"),
    ],
)
def test_wire_names_keep_simple_names_readable(server: str, tool: str, expected: str) -> None:
    assert wire_name(server, tool) == expected


def test_wire_names_are_valid_deterministic_and_distinct() -> None:
    cases = [
        ("fx", "search.code"),
        ("fx", "search_code"),
        ("a.b", "c"),
        ("a_b", "c"),
        ("s", "t" * 200),
        ("s", "t" * 201),
    ]
    names = [wire_name(server, tool) for server, tool in cases]
    assert all(WIRE_NAME_RE.match(name) for name in names)
    assert len(set(names)) == len(names)
    assert names == [wire_name(server, tool) for server, tool in cases]
    assert re.fullmatch(r"mcp__fx__search_code_[0-9a-f]{8}", names[0])


_MCP_IMPORT = re.compile(r"^\s*(?:import|from)\s+(?:mcp|mcp_types|httpx2)\b", re.MULTILINE)


def test_only_the_adapter_imports_the_mcp_sdk() -> None:
    offenders = []
    for base in ("sbcore", "detectors", "catalogue"):
        for path in (REPO / base).rglob("*.py"):
            if _MCP_IMPORT.search(path.read_text(encoding="utf-8")):
                offenders.append(path.relative_to(REPO).as_posix())
    assert offenders == ["sbcore/think/tools/mcp_adapter.py"]


def test_importing_dispatch_does_not_load_the_sdk() -> None:
    code = (
        "import sys, sbcore.think.tools.dispatch; "
        "print(any(m == 'mcp' or m.startswith('mcp.') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.strip() == "False"
