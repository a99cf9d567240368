"""End to end on the real Claude Code CLI (issue 5 item 7): the plugin installed, a session run headless.

Every test installs the plugin into its own HOME the way the README says,
turns on headless observation (``headless.observe``), and runs ``claude -p``
against the fake provider, which scripts the primary agent and, where a test
says so, answers the observer's detector forks too. Assertions read the
request bodies the fake received and the CLI's stream-json output.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pytest
from e2e_helpers import Harness, Run

from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.advice import Advice
from sbcore.testing.fake_provider import FakeProvider
from sbcore.testing.scripts import Reply, feedback, text, tool_call

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

FAILING = "python3 -c 'import sys; sys.exit(\"widget registry missing\")'"
QUESTION = "Were the tests run after the latest code change?"
FAILING_TEST = "from app import add\n\n\ndef test_add():\n    assert add(2, 1) == 3\n"


def bash(command: str, *, delay_ms: int = 0) -> Reply:
    return tool_call("Bash", {"command": command, "description": "run a command"}, delay_ms=delay_ms)


def three_failures_then(*rest: Reply) -> list[Reply]:
    """The same failing command three times; then ``rest`` (harmless calls give the observer time)."""
    return [bash(FAILING), bash(FAILING, delay_ms=150), bash(FAILING, delay_ms=150), *rest]


def observed(harness: Harness, *, observer: str = "offline", **more: Any) -> None:
    """Headless observation on, the observer offline or on the fake, an early pass on every error."""
    harness.configure(
        {"headless.observe": True, "model.provider": observer, "loop.salience_per_hour": 120, **more}
    )


def assert_clean(run: Run, *, stop_blocks: int = 0) -> None:
    """The session completed and no hook of the plugin failed, blocked with an error or was cancelled.

    ``stop_blocks``: finish-gate blocks the test expects; the CLI records a Stop block as a
    ``hook_blocking_error`` attachment, so exactly that many of those (and nothing else) are allowed.
    """
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.result().get("subtype") == "success", run.result()
    responses = run.hook_responses()
    assert responses, "--include-hook-events shows every hook call"
    for response in responses:
        assert response.get("exit_code") == 0 and response.get("outcome") == "success", response
    errors = run.hook_error_records()
    blocks = [
        record
        for record in errors
        if record["attachment"]["type"] == "hook_blocking_error"
        and record["attachment"].get("hookEvent") == "Stop"
    ]
    assert len(blocks) == stop_blocks, blocks
    assert [record for record in errors if record not in blocks] == []


# -- a. the repeat-failure advisory reaches the agent and the user ------------------------------------


@pytest.mark.parametrize("observer", ["offline", "anthropic"], ids=["observer-offline", "observer-on-fake"])
def test_a_repeated_failure_is_advised_to_the_agent_and_shown_to_the_user(
    harness: Harness, observer: str
) -> None:
    observed(harness, observer=observer)
    with FakeProvider() as fake:
        fake.script_primary(
            *three_failures_then(
                bash("sleep 1; echo still here", delay_ms=400),
                bash("sleep 1; echo and here", delay_ms=200),
                text("I will look at the widget registry next."),
            )
        )
        if observer == "anthropic":
            fake.script(
                "repeat-failure",
                feedback(
                    "advise",
                    headline="The widget command has failed three times unchanged",
                    body="Read the error: the registry is missing. Retrying the same command will not help.",
                    confidence=0.85,
                    dedup_key="repeat-failure:widget",
                    evidence=["widget registry missing (3 times)"],
                ),
            )
        run = harness.run(fake, "make the widget work")
        assert not fake.pending(), f"unused script steps: {fake.pending()}"
    assert_clean(run)
    harness.wait_for_worker_exit(run.session)
    framed = harness.framed(run.session)
    assert len(framed) == 1, f"one advisory for one repeated failure, got {framed}"
    advisory = framed[0]
    if observer == "anthropic":
        assert "failed three times unchanged" in advisory
        assert fake.requests_for("repeat-failure"), "the observer's fork went to the fake provider"
    else:
        assert "has failed 3 times in a row" in advisory
    carrying = run.carrying(advisory)
    assert carrying, "the advisory reached a model request"
    assert carrying[0] >= 3, "only requests after the third failure can carry it"
    shown = [message for message in run.system_messages() if advisory in message]
    assert len(shown) == 1, run.system_messages()
    assert "repeat-failure" in shown[0] and "second-brain config set detectors.repeat-failure" in shown[0]


# -- b. the finish gate: one block naming the unanswered question, then the turn may end ---------------


def test_edits_then_stop_with_no_test_run_is_blocked_once(harness: Harness) -> None:
    observed(harness, observer="anthropic", **{"detectors.standard-questions.cadence": "every_pass"})
    # The project has tests, and the session shows it (the checklist asks only where it can be answered).
    (harness.project / "tests").mkdir()
    (harness.project / "tests" / "test_app.py").write_text(FAILING_TEST)
    with FakeProvider() as fake:
        # The advisory must still be waiting when Stop fires: every PostToolUse drains the mailbox,
        # so the pass that produces it is set off by the last tool call (a failure: an early pass),
        # whose hook ran before its result reached the transcript; the final text comes after it.
        fake.script_primary(
            bash("ls tests/; sleep 1; echo looking"),
            tool_call(
                "Edit",
                {"file_path": str(harness.project / "app.py"), "old_string": "a - b", "new_string": "a + b"},
            ),
            bash("ls no-such-file", delay_ms=100),
            text("Fixed add().", delay_ms=1500),
            text("Right, I have not run the tests; stopping here as asked."),
        )
        fake.script(
            "standard-questions",
            feedback(
                "advise",
                headline="app.py was edited and no test run followed",
                body=f"Unanswered: {QUESTION}",
                confidence=0.9,
                dedup_key="standard-questions:tests_run",
                evidence=["Edit app.py; no test command after it"],
                finish_gate=True,
            ),
        )
        run = harness.run(fake, "fix add() in app.py")
        assert not fake.pending(), fake.pending()
    assert_clean(run, stop_blocks=1)
    stops = [r for r in run.hook_responses() if r.get("hook_event") == "Stop"]
    blocks = [r for r in stops if '"decision": "block"' in str(r.get("stdout"))]
    assert len(stops) == 2 and len(blocks) == 1, stops
    assert QUESTION in str(blocks[0].get("stdout"))
    assert run.carrying("Stop hook feedback"), "the block's reason reached the agent"


# -- b2. a headless session's last turn is judged, after the CLI has exited -----------------------------


def test_the_last_turn_of_a_headless_session_is_judged_after_the_cli_exits(harness: Harness) -> None:
    """``claude -p`` exits right after its turn: the worker judges that turn before it goes (issue 22)."""
    observed(harness)  # offline: standard-questions answers with its fallback
    (harness.project / "tests").mkdir()
    (harness.project / "tests" / "test_app.py").write_text(FAILING_TEST)
    with FakeProvider() as fake:
        fake.script_primary(
            tool_call("Read", {"file_path": str(harness.project / "tests" / "test_app.py")}),
            tool_call(
                "Edit",
                {"file_path": str(harness.project / "app.py"), "old_string": "a - b", "new_string": "a + b"},
            ),
            text("Fixed add(); done."),
        )
        run = harness.run(fake, "fix add() in app.py")
        assert not fake.pending(), fake.pending()
    assert_clean(run)
    exited_at = time.time()
    # A short -p session can be over before its headless worker has written anything: wait for the worker
    # to have come and gone.
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and not (harness.status(run.session) or {}).get("exit"):
        time.sleep(0.1)
    status = harness.wait_for_worker_exit(run.session, timeout=10)
    assert status is not None and status["exit"]["reason"] == "parent_gone", status
    last = status.get("last_pass") or {}
    assert last.get("turn_end") is True, f"the last turn was never judged: {last}"
    questions = [advice for advice in harness.delivered(run.session) if advice.kind == "standard-questions"]
    assert questions and "tests_run" in questions[-1].headline, harness.delivered(run.session)
    history = harness.data / "history" / f"{run.session}.jsonl"
    records = [json.loads(line) for line in history.read_text().splitlines()]
    decided = [r for r in records if r.get("stage") == "gate" and r.get("detector") == "standard-questions"]
    assert decided and decided[-1]["at"] >= exited_at - 5  # decided as the worker left, not during the turn


# -- c. failure modes: the session is never the one to pay ---------------------------------------------


def _break_data_dir(harness: Harness) -> None:
    """Every directory the hooks and the worker write into is a regular file (root ignores mode bits)."""
    for name in (
        "events",
        "logs",
        "mailbox",
        "spool",
        "status",
        "workers",
        "history",
        "offsets",
        "background",
    ):
        target = harness.data / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("not a directory\n")


def _corrupt(harness: Harness, session: str) -> None:
    mailbox = harness.data / "mailbox" / f"{session}.json"
    mailbox.parent.mkdir(parents=True, exist_ok=True)
    mailbox.write_text('{"v": 1, "entries": [{"id": ')
    (harness.home / ".config" / "sbcore" / "config.yaml").write_text("loop: [unclosed\n  : :\n")


@pytest.mark.parametrize("failure", ["worker absent", "data dir unwritable", "corrupt mailbox and config"])
def test_the_session_completes_cleanly_whatever_breaks(harness: Harness, failure: str) -> None:
    session = "0d6f3c51-5a8e-4c1b-9d2e-7a4b3c2d1e0f"
    if failure != "worker absent":
        observed(harness)
    if failure == "data dir unwritable":
        _break_data_dir(harness)
    if failure == "corrupt mailbox and config":
        _corrupt(harness, session)
    with FakeProvider() as fake:
        fake.script_primary(
            *three_failures_then(bash("echo fine", delay_ms=300), text("Done for now.")),
        )
        run = harness.run(fake, "make the widget work", session=session)
        assert not fake.pending()
    assert_clean(run)
    if failure == "worker absent":
        assert harness.status(session) is None, "no worker starts unless headless.observe is on"
    else:
        harness.wait_for_worker_exit(session)


# -- d. a subagent's tool calls never receive advice --------------------------------------------------


def test_advice_waiting_while_a_subagent_works_is_kept_for_the_main_loop(harness: Harness) -> None:
    observed(harness)
    with FakeProvider() as fake:
        fake.script_primary(
            *three_failures_then(
                tool_call(
                    "Agent",
                    {
                        "description": "inspect the registry",
                        "prompt": "Look for the widget registry and report where it is.",
                        "subagent_type": "general-purpose",
                    },
                    delay_ms=800,
                ),
                text("The subagent found nothing; I will stop here."),
            )
        )
        fake.script_subagent(
            bash("sleep 1; echo looking", delay_ms=100),
            bash("ls", delay_ms=100),
            text("No registry anywhere in the project."),
        )
        run = harness.run(fake, "make the widget work")
        assert not fake.pending(), fake.pending()
    assert_clean(run)
    harness.wait_for_worker_exit(run.session)
    framed = harness.framed(run.session)
    assert len(framed) == 1
    assert len(run.route("subagent")) == 3
    assert run.carrying(framed[0], route="subagent") == [], "a subagent must never be handed the advice"
    assert run.carrying(framed[0]), "the main loop gets it when the Agent call returns"


# -- e. the observer never observes itself ------------------------------------------------------------


def test_no_hook_does_anything_in_a_process_the_observer_started(harness: Harness) -> None:
    observed(harness)
    session = "7c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e"
    now = time.time()
    waiting = Advice(
        id="waiting-1",
        task_id=session,
        session_id=session,
        workspace=str(harness.project),
        kind="repeat-failure",
        headline="A waiting advisory no hook may deliver here",
        body="",
        confidence=0.9,
        dedup_key="waiting",
        generated_at=now,
        ttl=900.0,
        queue_timeout=600.0,
    )
    Mailbox(session, harness.data).post(waiting)
    with FakeProvider() as fake:
        fake.script_primary(bash("echo one"), bash("ls no-such-file"), text("Done."))
        run = harness.run(fake, "do a little", session=session, env={"SBCORE_OBSERVER": "1"})
    assert_clean(run)
    assert all(not response.get("stdout") for response in run.hook_responses())
    assert run.system_messages() == []
    assert run.carrying("A waiting advisory") == []
    assert [advice.id for advice in Mailbox(session, harness.data).pending()] == ["waiting-1"]
    assert harness.status(session) is None, "no worker was started"
    assert not (harness.data / "events" / f"{session}.jsonl").exists(), "no event was recorded"
    history = harness.data / "history" / f"{session}.jsonl"
    stages = (
        [json.loads(line).get("stage") for line in history.read_text().splitlines()]
        if history.exists()
        else []
    )
    assert "claim" not in stages


# -- replay parity: what replay says of a recorded session is what the live worker did --------------------


OTHER_FAILING = "python3 -c 'import sys; sys.exit(\"gadget cache corrupt\")'"


def test_replaying_the_recorded_session_gives_the_live_gate_decisions(harness: Harness) -> None:
    """Two failure streaks: the first advisory is delivered, the second (worded alike: the same point to the
    gate) dropped — live, and in a replay of the transcript the CLI recorded (the same configuration, the
    records' own clock)."""
    observed(harness)
    with FakeProvider() as fake:
        fake.script_primary(
            *three_failures_then(
                bash("sleep 1; echo still here", delay_ms=400),
                bash(OTHER_FAILING),
                bash(OTHER_FAILING, delay_ms=150),
                bash(OTHER_FAILING, delay_ms=150),
                bash("sleep 1; echo and here", delay_ms=400),
                bash("sleep 1; echo done looking", delay_ms=200),
                text("Both commands fail; I will look at the registry and the cache."),
            )
        )
        run = harness.run(fake, "make the widget and the gadget work")
    assert_clean(run)
    harness.wait_for_worker_exit(run.session)

    history = harness.data / "history" / f"{run.session}.jsonl"
    live = [
        (record["detector"], record["action"], record["reason"])
        for record in map(json.loads, history.read_text().splitlines())
        if record.get("stage") == "gate" and record.get("reason") != "not_advise"
    ]
    assert live == [
        ("repeat-failure", "deliver_agent", "passed"),
        ("repeat-failure", "drop", "duplicate_similar"),
    ], live

    replayed = json.loads(harness.second_brain("replay", "--json", str(run.transcript)).stdout)
    decisions = [
        (result["detector"], result["gate"]["action"], result["gate"]["reason"])
        for session in replayed["sessions"]
        for one in session["passes"]
        for result in one["results"]
        if "gate" in result
    ]
    assert decisions == live


# -- the work, not the string: one failing test under four spellings, and a piped run ---------------------


@pytest.mark.parametrize(
    "commands",
    [
        [
            "pytest tests/test_app.py -x",
            "pytest -x -v tests/test_app.py",
            "python -m pytest tests/test_app.py -x",
            "python -m pytest tests/test_app.py -x -p no:cacheprovider",
        ],
        ["pytest tests/test_app.py -x 2>&1 | tail -5"] * 3,
    ],
    ids=["four-spellings", "piped-exit-status"],
)
def test_a_loop_on_one_test_is_advised_however_it_is_spelt(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, commands: list[str]
) -> None:
    """The same test failing the same way: spelt four ways, or piped so the CLI records a success."""
    import sys
    from pathlib import Path

    # pytest and python on the agent's PATH: this test environment's own.
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")
    (harness.project / "tests").mkdir()
    (harness.project / "tests" / "test_app.py").write_text(FAILING_TEST)
    (harness.project / "pytest.ini").write_text("[pytest]\npythonpath = .\n")
    observed(harness)
    with FakeProvider() as fake:
        fake.script_primary(
            *(bash(command, delay_ms=150) for command in commands),
            bash("sleep 1; echo reading the test", delay_ms=400),
            bash("sleep 1; echo and the code", delay_ms=200),
            text("I will read add() next."),
        )
        run = harness.run(fake, "make test_add pass")
    assert_clean(run)
    harness.wait_for_worker_exit(run.session)
    framed = harness.framed(run.session)
    assert len(framed) == 1, f"one advisory for one loop, got {framed}"
    assert "assert 1 == 3" in framed[0], "the advisory quotes the failing assertion"
    assert run.carrying(framed[0]), "the advisory reached a model request"
