"""Through the live worker: a workspace layer with one bad key still applies its other keys, the user is
told once, and a broken key that narrows never widens what applies.

Offline, three identical failures are repeat-failure's advisory (its fallback); each test turns that
detector off or mutes the workspace through a layer that also holds a broken key, so the advisory that
would come if the whole layer were skipped (as it was before) is the evidence."""

from __future__ import annotations

import json
from typing import Any

import pytest
from worker_helpers import World, drive, make_session, prompt_hook, until

from sbcore.deliver.framing import NOTICE_KIND
from sbcore.state import document, status, status_line


@pytest.fixture(autouse=True)
def _private_env(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.apply_env(monkeypatch)
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ATTENDED", "1")
    monkeypatch.setenv("CLAUDE_CODE_ENTRYPOINT", "cli")


def _team_layer(world: World, text: str) -> None:
    layer = world.project / ".second-brain" / "config.yaml"
    layer.parent.mkdir(parents=True, exist_ok=True)
    layer.write_text(text)


def _loop_then_quiet(world: World, session: Any) -> None:
    """Three identical failures, then enough ticks for any advisory they earn to be posted."""

    async def scenario() -> None:
        await until(lambda: session.pipeline is not None, what="the worker active")
        world.append(world.records.prompt("make the tests pass"), *world.records.failing())
        start = session.record.ticks
        await until(lambda: session.record.ticks > start + 60, what="ticks after the failures")

    drive(session, scenario)


def test_one_bad_key_keeps_the_rest_of_the_team_layer_and_the_user_hears_once(world: World) -> None:
    _team_layer(world, "detectors:\n  repeat-failure:\n    enabled: false\ngate:\n  rate_per_hour: lots\n")
    session = make_session(world)
    _loop_then_quiet(world, session)

    posted = world.mailbox()
    assert [advice.kind for advice in posted] == [NOTICE_KIND], "no repeat-failure advisory: it is off"
    (notice,) = posted
    assert notice.human_only
    assert notice.headline == "1 configuration key held back"
    assert "gate.rate_per_hour: held back (the value below this layer applies)" in notice.body
    shown = prompt_hook(world)
    assert shown is not None and "gate.rate_per_hour: held back" in shown["systemMessage"]
    assert "additionalContext" not in json.dumps(shown), "the agent is not told"

    doc = document.read(status.status_path(world.data, world.session), version=status.VERSION)
    assert doc is not None and len(doc["config_problems"]) == 1
    assert "gate.rate_per_hour" in doc["config_problems"][0]
    line = status_line.line_path(world.data, world.session).read_text().splitlines()[1]
    assert line.endswith("· config: 1 problem")

    again = make_session(world)  # a restarted worker remembers it said so
    _loop_then_quiet(world, again)
    assert world.mailbox() == []


def test_a_broken_mute_mutes(world: World) -> None:
    """Muted means nothing delivered, the notice included: the status line and ``why`` say it."""
    _team_layer(world, "mute:\n  all: 'yes'\n")
    session = make_session(world)
    _loop_then_quiet(world, session)
    assert session.config.get("mute.all") is True
    assert world.mailbox() == [], "muted: nothing is delivered, not even the notice"
    doc = document.read(status.status_path(world.data, world.session), version=status.VERSION)
    assert doc is not None and doc["state"] == "muted"
    assert "mute.all" in doc["config_problems"][0]
    line = status_line.line_path(world.data, world.session).read_text().splitlines()[1]
    assert line.startswith("SB muted") and line.endswith("· config: 1 problem")


def test_a_broken_enabled_switches_the_detector_off(world: World) -> None:
    _team_layer(world, "detectors:\n  repeat-failure:\n    enabled: 'off'\n")
    session = make_session(world)
    _loop_then_quiet(world, session)
    assert [advice.kind for advice in world.mailbox()] == [NOTICE_KIND]
