"""Advice reaching an interactive session: through the drain hook mid-turn, and the deferred finish-gate wake.

The CLI's main loop and the observer's forks both talk to one fake provider:
the main loop follows ``script_primary``, each detector fork its own script.
The worker was started by the monitor; nothing is driven by hand but the
prompt typed into the TUI.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from tui_harness import Tui, TuiWorld, carries, message_texts, monitor_events, wait_for, woke

from sbcore.deliver.framing import frame_for_wake
from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.advice import Advice
from sbcore.observe.sentinel import ADVISORY_SENTINEL
from sbcore.testing import FakeProvider, feedback, text, tool_call

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

FAILING = 'echo "FAILED tests/test_app.py::test_add - assert 3 == -1"; exit 1'


def _wait_for_mail(world: TuiWorld, limit_s: int = 60) -> str:
    """A shell command that returns once some mailbox in ``world`` holds an advisory (or after ``limit_s``).

    The scripted agent runs it as its next tool call, so the PostToolUse hook
    after it is sure to find the advisory the worker queued meanwhile, however
    long the worker's pass took.
    """
    return (
        f"for i in $(seq {limit_s * 10}); do for f in {world.mailbox_glob()}; do "
        '[ -s "$f" ] && break 2; done; sleep 0.1; done; echo waited for the observer'
    )


def _read_the_tests(world: TuiWorld) -> Any:
    """The agent reads the project's test first: the session shows the project has tests, so the checklist's
    "were the tests run?" applies to the edit that follows (it asks only where it can be answered)."""
    tests = world.project / "tests"
    tests.mkdir(exist_ok=True)
    (tests / "test_app.py").write_text(
        "from app import add\n\n\ndef test_add():\n    assert add(2, 1) == 3\n"
    )
    return tool_call("Read", {"file_path": str(tests / "test_app.py")})


def test_a_repeated_failure_is_advised_through_the_drain_hook(
    start_tui: Callable[[], Tui], world: TuiWorld, fake: FakeProvider
) -> None:
    headline = "SB-TUI-REPEAT: the same test failed three times"
    fake.script(
        "repeat-failure",
        feedback(
            "advise",
            headline=headline,
            body="Read the assertion: add() subtracts. A fourth identical run will fail the same way.",
            evidence=["tests/test_app.py::test_add failed 3 times: assert 3 == -1"],
            confidence=0.9,
            dedup_key="repeat-failure:test_add",
        ),
    )
    fake.script_primary(
        *(tool_call("Bash", {"command": FAILING, "description": "run the test"}) for _ in range(3)),
        tool_call("Bash", {"command": _wait_for_mail(world), "description": "look at the failure"}),
        text("SB-TUI-DONE: stopping here."),
    )
    tui = start_tui()
    session = tui.wait_watching()
    tui.submit("make test_add pass")
    tui.wait_screen(r"SB-TUI-DONE", timeout=90)

    requests = tui.main_requests()
    assert len(requests) == 5
    carrying = [index for index, request in enumerate(requests) if carries(request, headline)]
    # Queued during the wait (tool call 4), drained by its PostToolUse hook, in request 5's context.
    assert carrying == [4], f"the advisory is in requests {carrying}"
    framed = [message for message in message_texts(requests[4]) if headline in message]
    assert framed and ADVISORY_SENTINEL in framed[0], "the agent gets the framed advisory"
    assert "PostToolUse:Bash hook additional context" in framed[0]

    # The user sees the same advisory under the tool call, as the hook's systemMessage.
    screen = tui.wait_screen(r"PostToolUse:Bash says:").string
    assert headline in screen
    assert "from the repeat-failure detector" in screen

    delivered = [
        record
        for record in world.history(session)
        if record.get("stage") == "gate" and record.get("detector") == "repeat-failure"
    ]
    assert [record.get("action") for record in delivered] == ["deliver_agent"]
    assert not list(world.data.glob("mailbox/*.json")), "the advisory was claimed (delivered once)"
    assert not [request for request in requests if monitor_events(request)], "no wake for ordinary advice"


def _finish_gate_records(world: TuiWorld, session: str) -> list[dict[str, Any]]:
    return [record for record in world.history(session) if record.get("stage") == "finish_gate"]


def _pending_advice(world: TuiWorld, session: str) -> list[Advice]:
    return Mailbox(session, world.data).pending()


def _events(world: TuiWorld, session: str) -> list[dict[str, Any]]:
    """What the hooks recorded for the worker (session start, prompts, turn ends)."""
    path = world.data / "events" / f"{session}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _turn_ends(world: TuiWorld, session: str) -> list[float]:
    """When the Stop hook recorded each turn end."""
    return [float(record["at"]) for record in _events(world, session) if record.get("event") == "turn_end"]


def test_an_unfinished_task_wakes_the_idle_session_exactly_once(
    start_tui: Callable[[], Tui], world: TuiWorld, fake: FakeProvider
) -> None:
    # No cooldown between advisories: the second one must reach the mailbox, so that only the finish
    # gate's own budget (finish_gate.min_interval_s) stands between it and a second wake.
    world.configure({"gate.cooldown_s": 0})
    first = "SB-TUI-UNFINISHED: app.py changed and no test ran since"
    second = "SB-TUI-SECOND: util.py changed and no test ran since"
    fake.script(
        "standard-questions",
        feedback(
            "advise",
            headline=first,
            body="Run the tests before calling the work done.",
            evidence=["Write app.py", "no test command after it"],
            confidence=0.95,
            finish_gate=True,
            dedup_key="standard-questions:tests-run:app.py",
        ),
        # The woken turn edits again: a second finish-gate advisory that only the budget can hold back.
        feedback(
            "advise",
            headline=second,
            body="Still no test run.",
            evidence=["Write util.py", "no test command after it"],
            confidence=0.95,
            finish_gate=True,
            dedup_key="standard-questions:tests-run:util.py",
        ),
    )
    fake.script_primary(
        _read_the_tests(world),
        # A person's agent takes a moment to answer: the worker's pass on the new prompt is over before
        # the edit lands, so the edit and the final text are what the turn-end pass judges.
        tool_call(
            "Write",
            {"file_path": str(world.project / "app.py"), "content": "def add(a, b):\n    return a + b\n"},
            delay_ms=1500,
        ),
        text("SB-TUI-TURN-ONE: add() is written."),
        # The turn the wake starts:
        tool_call(
            "Write",
            {"file_path": str(world.project / "util.py"), "content": "def double(x):\n    return 2 * x\n"},
        ),
        text("SB-TUI-WOKEN: noted."),
    )
    tui = start_tui()
    session = tui.wait_watching()
    tui.submit("write add() in app.py")
    tui.wait_screen(r"SB-TUI-TURN-ONE", timeout=60)

    # The turn ended with the work unfinished: after Stop, the worker's turn-end pass wakes the idle session.
    tui.wait_screen(r"Monitor event: Second Brain advisory", timeout=60)
    tui.wait_screen(r"SB-TUI-WOKEN", timeout=60)
    # The woken turn ends too; wait until the worker has judged it and the deferred finish gate held.
    records = wait_for(
        lambda: found if len(found := _finish_gate_records(world, session)) >= 2 else None,
        60,
        "the deferred finish gate's decision after the woken turn",
        explain=tui.explain,
    )
    assert [(record["action"], record["reason"]) for record in records] == [
        ("fire", "fire"),
        ("hold", "too_soon"),
    ]
    # A second finish-gate advisory was waiting: the budget, not a missing candidate, held it back.
    assert [advice.headline for advice in _pending_advice(world, session)] == [second]

    requests = tui.main_requests()
    woken = [index for index, request in enumerate(requests) if woke(request)]
    assert len(woken) == 1, f"requests started by a monitor line: {woken}"
    (line,) = monitor_events(requests[-1])
    assert line.startswith(ADVISORY_SENTINEL) and first in line, "the wake line is the framed advisory"
    assert not [request for request in requests if carries(request, second)]
    # It came after the turn had ended (Stop), not during it.
    fire_at = float(records[0]["at"])
    assert _turn_ends(world, session)[0] < fire_at
    assert tui.screen().count("Monitor event:") == 1
    # The screen shows the line cut to one row (the frame's fixed opening); the detailed transcript
    # view (ctrl+o) shows the user the whole of it, the same text the agent got.
    tui.key("C-o")
    tui.wait_screen(r"SB-TUI-UNFINISHED:\s+app\.py\s+changed")


def test_the_wake_line_reaches_the_agent_whole(
    start_tui: Callable[[], Tui], world: TuiWorld, fake: FakeProvider
) -> None:
    """Claude Code cuts a monitor line to 500 characters: the wake line must fit, or the agent gets a stub.

    A typical advisory — a headline, two sentences, two pieces of evidence —
    must arrive exactly as the worker framed it for a wake (the compact form,
    :func:`~sbcore.deliver.framing.frame_for_wake`), not ending in ``...(truncated)``.
    """
    fake.script(
        "standard-questions",
        feedback(
            "advise",
            headline="SB-TUI-WHOLE: app.py changed and no test ran since",
            body="The last edit to app.py was not followed by a test run. Run the tests before finishing.",
            evidence=["Write app.py (add)", "no pytest or other test command after it"],
            confidence=0.95,
            finish_gate=True,
        ),
    )
    fake.script_primary(
        _read_the_tests(world),
        tool_call(
            "Write",
            {"file_path": str(world.project / "app.py"), "content": "def add(a, b):\n    return a + b\n"},
            delay_ms=1500,
        ),
        text("SB-TUI-TURN-ONE: add() is written."),
        text("SB-TUI-WOKEN: noted."),
    )
    tui = start_tui()
    session = tui.wait_watching()
    tui.submit("write add() in app.py")
    tui.wait_screen(r"SB-TUI-WOKEN", timeout=60)

    (record,) = [
        record
        for record in world.history(session)
        if record.get("stage") == "gate" and record.get("detector") == "standard-questions"
    ]
    advice = Advice.from_json(record["advice"])
    expected = frame_for_wake(advice)
    (line,) = monitor_events(tui.main_requests()[-1])
    assert line == expected, f"the agent got {len(line)} characters of a {len(expected)}-character wake line"
    assert not line.endswith("(truncated)")
    for part in (advice.headline, advice.body, *advice.evidence):
        assert part in line, f"{part!r} did not reach the agent"


def test_the_stop_hook_continues_the_turn_when_a_finish_gate_advisory_is_waiting(
    start_tui: Callable[[], Tui], world: TuiWorld, fake: FakeProvider
) -> None:
    """The immediate half of the finish gate, in the TUI, where the monitor itself is a background task.

    Claude Code lists every running monitor in the Stop payload's
    ``background_tasks`` — the plugin's own worker included — so the Stop
    hook must not count its own monitor as outstanding work.
    """
    headline = "SB-TUI-STOP-GATE: the test still fails and the turn is ending"
    fake.script(
        "repeat-failure",
        feedback(
            "advise",
            headline=headline,
            body="test_add failed three times in a row; the work is not done.",
            evidence=["tests/test_app.py::test_add failed 3 times: assert 3 == -1"],
            confidence=0.95,
            finish_gate=True,
            dedup_key="repeat-failure:test_add",
        ),
    )
    fake.script_primary(
        *(tool_call("Bash", {"command": FAILING, "description": "run the test"}) for _ in range(3)),
        # The agent takes a while to write its last words: meanwhile the worker's pass on the third
        # failure queues the advisory, after the last tool hook and before Stop.
        text("SB-TUI-STOPPING: I give up.", delay_ms=5000),
        text("SB-TUI-CONTINUED: running the test again after reading the assertion."),
    )
    tui = start_tui()
    session = tui.wait_watching()
    tui.submit("make test_add pass")
    tui.wait_screen(r"SB-TUI-STOPPING", timeout=60)
    stop = wait_for(
        lambda: [record for record in _events(world, session) if record.get("event") == "turn_end"],
        30,
        "the Stop hook to record the turn end",
        explain=tui.explain,
    )
    assert stop[0].get("background_tasks"), "the Stop payload lists the monitor as a background task"

    tui.wait_screen(r"SB-TUI-CONTINUED", timeout=30)
    requests = tui.main_requests()
    continued = [index for index, request in enumerate(requests) if carries(request, "Stop hook feedback")]
    assert continued == [4], f"the Stop hook's block reached requests {continued}"
    assert carries(requests[4], headline)
    assert not [request for request in requests if woke(request)], "the Stop hook, not a wake, delivered it"


def test_no_wake_after_the_user_cleared_the_task(
    start_tui: Callable[[], Tui], world: TuiWorld, fake: FakeProvider
) -> None:
    """``/clear`` ends the task: a finish-gate advisory about it must not wake the session afterwards.

    The turn-end pass is held in flight (the fork's answer is delayed) while
    the user clears the conversation; Claude Code keeps the same monitor (the
    same worker) but gives the conversation a new session id.
    """
    headline = "SB-TUI-CLEARED: app.py changed and no test ran since"
    fake.script(
        "standard-questions",
        feedback(
            "advise",
            headline=headline,
            body="Run the tests before calling the work done.",
            evidence=["Write app.py", "no test command after it"],
            confidence=0.95,
            finish_gate=True,
            delay_ms=6000,
        ),
    )
    fake.script_primary(
        _read_the_tests(world),
        tool_call(
            "Write",
            {"file_path": str(world.project / "app.py"), "content": "def add(a, b):\n    return a + b\n"},
            delay_ms=1500,
        ),
        text("SB-TUI-TURN-ONE: add() is written."),
    )
    tui = start_tui()
    session = tui.wait_watching()
    mark = time.time()
    tui.submit("write add() in app.py")
    tui.wait_screen(r"SB-TUI-TURN-ONE", timeout=60)
    wait_for(
        lambda: fake.requests_for("standard-questions"), 30, "the turn-end pass's fork", explain=tui.explain
    )
    tui.submit("/clear")
    judged = wait_for(
        lambda: world.turn_end_pass_since(session, mark),
        30,
        "the turn-end pass to finish",
        explain=tui.explain,
    )
    # The worker decided about the wake before it wrote the pass down: that decision is the event.
    assert str(judged["wake"]).startswith("none: the task ended"), judged
    assert not [request for request in tui.main_requests() if woke(request)], (
        "the worker woke a session whose task the user had cleared"
    )
    assert "Monitor event" not in tui.screen()


def test_the_conversation_after_clear_is_still_observed(
    start_tui: Callable[[], Tui], world: TuiWorld, fake: FakeProvider
) -> None:
    """After ``/clear`` the same CLI (and the same monitor) goes on under a new session id.

    Claude Code does not restart monitors on ``/clear``, so the worker the
    monitor started must follow the conversation to its new session: the
    hooks now record events and drain the mailbox under the new id.
    """
    headline = "SB-TUI-AFTER-CLEAR: the same test failed three times"
    fake.script(
        "repeat-failure",
        feedback(
            "advise",
            headline=headline,
            body="Read the assertion before running it again.",
            evidence=["tests/test_app.py::test_add failed 3 times: assert 3 == -1"],
            confidence=0.9,
        ),
    )
    fake.script_primary(
        text("SB-TUI-BEFORE-CLEAR: hello."),
        *(tool_call("Bash", {"command": FAILING, "description": "run the test"}) for _ in range(3)),
        tool_call("Bash", {"command": _wait_for_mail(world, limit_s=20), "description": "look at it"}),
        text("SB-TUI-DONE-AFTER-CLEAR"),
    )
    tui = start_tui()
    before = tui.wait_watching()
    tui.submit("say hello")
    tui.wait_screen(r"SB-TUI-BEFORE-CLEAR", timeout=60)
    tui.submit("/clear")
    tui.wait_ready()
    tui.submit("make test_add pass")
    tui.wait_screen(r"SB-TUI-DONE-AFTER-CLEAR", timeout=90)

    requests = tui.main_requests()
    after = requests[-1].headers.get("x-claude-code-session-id")
    assert after and after != before, "/clear gave the conversation a new session id"
    assert carries(requests[-1], headline), (
        f"the advisory for the conversation after /clear was not delivered; workers: "
        f"{[(proc.pid, proc.env.get('CLAUDE_CODE_SESSION_ID')) for proc in world.workers()]}"
    )
