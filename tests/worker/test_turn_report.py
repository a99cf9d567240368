"""Through the live worker: the turn-end report for the user, and a spent budget said once.

The observer runs offline, so a repeated failure is the advisory (repeat-failure's fallback) and
every other detector is silent or skipped; the hook side is the real drain hook, called in process.
"""

from __future__ import annotations

import io
import json
import os
import time

import pytest
from worker_helpers import FAST_CONFIG, World, drive, make_session, prompt_hook, until

from sbcore.deliver.framing import NOTICE_KIND
from sbcore.hooks.statusline import main as statusline
from sbcore.state import turns


@pytest.fixture(autouse=True)
def _private_env(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.apply_env(monkeypatch)
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ATTENDED", "1")
    monkeypatch.setenv("CLAUDE_CODE_ENTRYPOINT", "cli")


def _turn(world: World, final: str) -> None:
    world.append(world.records.say(final))
    world.event("turn_end", last_assistant_message=final, stop_hook_active=False)


def test_a_turn_end_pass_leaves_a_report_the_next_hook_shows_once(world: World) -> None:
    session = make_session(world)
    records = world.records

    async def scenario() -> None:
        world.append(records.prompt("make the tests pass"), *records.failing())
        await until(lambda: world.mailbox(), what="the advisory")
        _turn(world, "I could not make them pass.")
        await until(lambda: turns.read(world.data, world.session), what="the turn-end report")

    drive(session, scenario)
    report = turns.read(world.data, world.session)
    assert report is not None and report["task_id"] == world.session
    verdicts = {item["detector"]: item for item in report["verdicts"]}
    assert report["line"] == "all silent", report
    assert verdicts["default"]["label"] == "skipped: no model"
    assert os.stat(turns.report_path(world.data, world.session)).st_mode & 0o777 == 0o600

    first = prompt_hook(world)
    assert first is not None
    shown = first["systemMessage"]
    when = time.strftime("%H:%M", time.localtime(report["at"]))
    assert shown.startswith(f"Second Brain, on the turn that ended at {when} (pass {report['pass']}):")
    assert "Shown to you only" in shown and "- default: skipped: no model" in shown
    # The advisory waiting since before the turn end rides in the same answer, to both, once.
    assert "has failed 3 times in a row" in first["hookSpecificOutput"]["additionalContext"]
    assert shown.count("has failed 3 times in a row") == 1
    assert "on the turn that ended at" not in first["hookSpecificOutput"]["additionalContext"]
    assert prompt_hook(world) is None, "claimed once"
    assert turns.read(world.data, world.session) == report, "the kept report stays for the statusline"


def test_an_advisory_of_the_turn_end_pass_reaches_the_user_even_if_it_expires_unclaimed(world: World) -> None:
    session = make_session(world)
    records = world.records

    async def scenario() -> None:
        world.append(records.prompt("make the tests pass"), *records.failing(times=2))
        await until(lambda: session.record.passes >= 1, what="the early passes")
        world.append(*records.failing(times=1))
        _turn(world, "Giving up for now.")
        await until(lambda: turns.read(world.data, world.session), what="the turn-end report")

    drive(session, scenario)
    report = turns.read(world.data, world.session)
    assert report is not None
    advised = [item for item in report["verdicts"] if item.get("gate", {}).get("action") == "deliver_agent"]
    assert [item["detector"] for item in advised] == ["repeat-failure"]
    assert report["line"] == "repeat-failure advised"
    # The mailbox copy expires (the user walked away); the report still carries the advisory.
    from sbcore.deliver.mailbox import Mailbox

    Mailbox(world.session, world.data).sweep_on_start(0.0, lambda advice: "expired for the test")
    shown = prompt_hook(world)
    assert shown is not None and "hookSpecificOutput" not in shown
    assert "repeat-failure: advise" in shown["systemMessage"]
    assert "has failed 3 times in a row" in shown["systemMessage"]
    assert "To mute it:" in shown["systemMessage"]


def test_turn_end_report_off_keeps_the_report_but_shows_nothing(world: World) -> None:
    world.write_config(FAST_CONFIG.replace("loop:\n", "loop:\n  turn_end_report: false\n"))
    session = make_session(world)

    async def scenario() -> None:
        world.append(world.records.prompt("look"), *world.records.bash("ls", "app.py"))
        _turn(world, "Done.")
        await until(lambda: turns.read(world.data, world.session), what="the turn-end report")

    drive(session, scenario)
    assert not turns.pending_path(world.data, world.session).exists()
    assert prompt_hook(world) is None


def test_a_spent_budget_is_said_to_the_user_once(world: World) -> None:
    world.write_config(FAST_CONFIG + "budget:\n  tokens_per_task: 0\n")
    session = make_session(world)
    records = world.records

    async def scenario() -> None:
        world.append(records.prompt("make the tests pass"), *records.failing())
        await until(lambda: world.mailbox(), what="the notice")
        _turn(world, "Stopped.")
        await until(lambda: session.policy.status().refused, what="the turn end refused")

    drive(session, scenario)
    assert session.record.passes == 0
    line = io.StringIO()
    statusline(io.BytesIO(json.dumps({"session_id": world.session}).encode()), line)
    assert line.getvalue().endswith(" · budget spent\n"), line.getvalue()
    queued = world.mailbox()
    assert [advice.kind for advice in queued] == [NOTICE_KIND]
    assert queued[0].human_only
    assert queued[0].headline == "Second Brain is silent: task budget spent: 0 of 0 tokens"
    assert "/second-brain:config set budget.tokens_per_task <tokens>" in queued[0].body
    shown = prompt_hook(world)
    assert shown is not None and "hookSpecificOutput" not in shown
    assert "Second Brain is silent: task budget spent" in shown["systemMessage"]

    # A restarted worker remembers it said so.
    again = make_session(world)

    async def later() -> None:
        world.append(*records.failing(times=1))
        await until(lambda: again.policy is not None and again.policy.held is not None, what="a hold")
        await until(lambda: again.record.ticks > 20, what="ticks")

    drive(again, later)
    assert world.mailbox() == []


def test_the_notice_seam_posts_once_per_key(world: World) -> None:
    session = make_session(world)

    async def scenario() -> None:
        await until(lambda: session.pipeline is not None, what="the worker active")
        notices, task = session.chores.notices, session.task_id
        assert notices.post("auto-mute:default", "default was muted", "Its advice went unused.", task_id=task)
        assert not notices.post("auto-mute:default", "default was muted", "again", task_id=task)

    drive(session, scenario)
    assert [advice.headline for advice in world.mailbox()] == ["default was muted"]
    shown = prompt_hook(world)
    assert shown is not None and "Its advice went unused." in shown["systemMessage"]


def test_forget_takes_the_turn_end_reports_with_the_session(world: World) -> None:
    """The report holds verdict headlines and advisory text: ``forget`` and the sweep must find it."""
    from sbcore.worker import forget

    verdicts = [{"detector": "default", "label": "silent", "headline": None}]
    for session in (world.session, "other-session"):
        body = {"session_id": session, "task_id": session, "pass": 1, "at": 1.0, "verdicts": verdicts}
        turns.write(world.data, {**body, "line": "all silent"}, pending=True)
    report = forget.forget(world.data, world.session, timeout=1)
    assert report.files == 2
    assert not turns.report_path(world.data, world.session).exists()
    assert not turns.pending_path(world.data, world.session).exists()
    assert turns.read(world.data, "other-session") is not None
