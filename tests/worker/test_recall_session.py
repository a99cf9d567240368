"""Recall through the real worker loop: the notes are indexed between passes, and a failing run whose error
they describe becomes a soaking recall offer, with the notes and the index untouched by the pass."""

from __future__ import annotations

import hashlib
import json
import textwrap
from pathlib import Path

import pytest
from worker_helpers import FAST_CONFIG, World, drive, make_session, until

from sbcore.conductor.soaklog import soak_path
from sbcore.state.recall import index_path

NOTE = textwrap.dedent(
    """\
    # 0007: One connection pool per process

    ## Fix for psycopg TooManyConnections

    "psycopg.errors.TooManyConnections: remaining connection slots are reserved" came from fixtures
    opening their own connections; the fix was the session-scoped db_pool fixture.
    """
)
ERROR = "E   psycopg.errors.TooManyConnections: remaining connection slots are reserved for superusers"


@pytest.fixture(autouse=True)
def _private_env(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.apply_env(monkeypatch)
    # recall ships off (docs/soak.md, "Soaking detectors' verdicts"): the user turns it on, and it soaks
    world.write_config(FAST_CONFIG + "detectors:\n  recall:\n    enabled: true\n")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_failing_run_the_notes_describe_soaks_a_past_fix_offer(world: World) -> None:
    note = world.project / "docs" / "decisions" / "0007-pool.md"
    note.parent.mkdir(parents=True)
    note.write_text(NOTE)
    session = make_session(world)
    records = world.records
    index = index_path(session.workspace, world.data)
    seen: dict[str, str] = {}

    async def scenario() -> None:
        await until(lambda: session.chores.recall.last is not None, what="the first index refresh")
        seen["index"], seen["note"] = _digest(index), _digest(note)
        world.append(records.prompt("the invoice tests fail, please look"))
        world.append(*records.bash("pytest tests/test_invoices.py -q", f"Exit code 1\n{ERROR}", error=True))
        await until(lambda: soak_path(session.workspace, world.data).exists(), what="the soak record")

    drive(session, scenario)
    assert index.parent == world.data / "recall"
    assert not any(path.suffix == ".db" for path in world.project.rglob("*"))  # nothing in the repository
    assert (_digest(index), _digest(note)) == (seen["index"], seen["note"])
    [record] = [
        json.loads(line)
        for line in soak_path(session.workspace, world.data).read_text().splitlines()
        if json.loads(line).get("detector") == "recall"
    ]
    assert "docs/decisions/0007-pool.md#fix-for-psycopg-toomanyconnections" in record["headline"]
    assert world.mailbox() == []  # soaking: logged as a would-deliver, never queued
