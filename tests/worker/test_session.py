"""The session loop, in process: tail → project → policy → pass → gate → mailbox → status.

The observer runs offline (no model keys in the environment), so the
structural detectors answer with their fallback advisories: a repeated
failure is the advisory these tests watch travel through the loop.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from worker_helpers import FAST_CONFIG, World, drive, make_session, until

from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.advice import Advice


@pytest.fixture(autouse=True)
def _private_env(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.apply_env(monkeypatch)


def _record_status(session: Any) -> list[dict[str, Any]]:
    """Every document the status file is written with, in order."""
    written: list[dict[str, Any]] = []
    original = session.status.update

    def update(**fields: Any) -> None:
        original(**fields)
        written.append(json.loads(session.status.path.read_text()))

    session.status.update = update
    return written


def _advisories(world: World) -> list[dict[str, Any]]:
    return [r for r in world.history() if r.get("stage") == "gate" and r.get("action") != "drop"]


def test_a_repeated_failure_becomes_one_queued_advisory_with_a_status_after_every_pass(world: World) -> None:
    session = make_session(world)
    writes = _record_status(session)
    records = world.records

    async def scenario() -> None:
        world.append(records.prompt("make the tests pass"))
        for attempt in range(3):
            world.append(*records.failing(times=1))
            await until(
                lambda n=attempt: session.record.passes > n, what=f"the pass after failure {attempt + 1}"
            )
        await until(lambda: world.mailbox(), what="the advisory in the mailbox")

    drive(session, scenario)
    queued = world.mailbox()
    assert len(queued) == 1
    advice = queued[0]
    assert advice.kind == "repeat-failure"
    assert "failed 3 times in a row" in advice.headline
    assert advice.task_id == world.session
    assert [r["detector"] for r in _advisories(world)] == ["repeat-failure"]

    numbers = {doc["last_pass"]["number"] for doc in writes if doc.get("last_pass")}
    assert numbers == set(range(1, session.record.passes + 1)), "the status file is written after every pass"
    final = writes[-1]
    assert final["passes"] == session.record.passes
    verdicts = {item["detector"]: item for item in final["last_pass"]["verdicts"]}
    assert verdicts["repeat-failure"]["label"] == "advise"
    assert verdicts["repeat-failure"]["gate"] == {"action": "deliver_agent", "reason": "passed"}
    assert verdicts["default"]["label"] == "skipped: no model"
    assert final["policy"]["passes"] == session.record.passes


def test_the_stop_message_is_observed_once_when_the_hook_outruns_the_transcript(world: World) -> None:
    session = make_session(world, turn_end_settle_s=0.2)  # the transcript is slower than the settle
    records = world.records
    final = "The fix is in; I did not run the tests."

    async def scenario() -> None:
        world.append(records.prompt("fix the bug"), *records.bash("ls", "app.py"))
        await until(lambda: session.record.observed >= 2, what="the first observations")
        world.event("turn_end", last_assistant_message=final, stop_hook_active=False)
        await until(lambda: session.record.passes >= 1, what="the turn-end pass")
        world.append(records.say(final))  # the transcript catches up after the pass
        await until(
            lambda: session.input.spool.path.read_text().count("did not run the tests") == 1, what="spool"
        )
        await until(lambda: session.policy.status().pending == 0 and session._flight is None, what="quiet")

    drive(session, scenario)
    assert session.record.last is not None and session.record.last["turn_end"] is True
    texts = [o.text for o in session.host.observer.engine.history if o.kind == "text"]
    assert texts == [f"[text] {final}"]


def test_the_stop_message_is_not_added_when_the_transcript_already_has_it(world: World) -> None:
    session = make_session(world)
    records = world.records
    final = "Done: all green."

    async def scenario() -> None:
        world.append(records.prompt("fix the bug"), *records.bash("pytest -q", "1 passed"))
        await until(lambda: session.record.passes == 1, what="the prompt's early pass")
        world.append(records.say(final))
        await until(lambda: session.record.observed == 3, what="the final text")
        world.event("turn_end", last_assistant_message=final, stop_hook_active=False)
        await until(lambda: session.record.last and session.record.last["turn_end"], what="the turn-end pass")

    drive(session, scenario)
    texts = [o.text for o in session.host.observer.engine.history if o.kind == "text"]
    assert texts == [f"[text] {final}"]


async def _ticks_pass(session: Any, count: int = 10) -> None:
    """Wait until the worker has run ``count`` more ticks: long enough to have started any pass it would."""
    mark = session.record.ticks
    await until(lambda: session.record.ticks >= mark + count, what=f"{count} more ticks")


def _kinds(session: Any) -> list[str]:
    return [obs.kind for obs in session.host.observer.engine.history]


def test_a_late_worker_judges_a_whole_turn_it_finds_on_disk_in_one_turn_end_pass(world: World) -> None:
    """Prompt, tool calls, final text and the Stop event are all there when the worker starts."""
    records = world.records
    final = "The subtraction was the bug; fixed."
    world.append(
        records.prompt("fix the failing test"),
        *records.bash("pytest tests/test_app.py -q", "Exit code 1\nFAILED test_add", error=True),
        *records.bash("cat app.py", "def add(a, b): return a - b"),
        records.say(final),
    )
    world.event("turn_end", last_assistant_message=final, stop_hook_active=False)
    session = make_session(world)

    async def scenario() -> None:
        await until(lambda: session.record.passes >= 1, what="the turn-end pass")
        await _ticks_pass(session)

    drive(session, scenario)
    assert session.record.passes == 1, [p["reason"] for p in session.record.recent]
    assert session.record.last is not None
    assert (session.record.last["reason"], session.record.last["turn_end"]) == ("turn_end", True)
    assert _kinds(session) == ["prompt", "tool", "error", "tool", "text"]
    assert session.policy.status().pending == 0


def test_a_turn_end_waits_for_the_transcript_to_catch_up_and_takes_the_whole_turn(world: World) -> None:
    """The Stop event comes first; the turn's records follow: no pass starts until they are in."""
    records = world.records
    final = "Added the test; it passes."
    world.event("turn_end", last_assistant_message=final, stop_hook_active=False)
    session = make_session(world, turn_end_settle_s=30.0)

    async def scenario() -> None:
        await until(lambda: session.host.observer is not None, what="the worker to start")
        world.append(records.prompt("add a test for add()"))
        await until(lambda: session.record.observed >= 1, what="the prompt")
        await _ticks_pass(session)
        assert session.record.passes == 0, "a pass started before the transcript caught up with the turn end"
        world.append(*records.bash("pytest -q", "1 passed"), records.say(final))
        await until(lambda: session.record.passes >= 1, what="the turn-end pass")
        await _ticks_pass(session)

    drive(session, scenario)
    assert session.record.passes == 1
    assert session.record.last is not None and session.record.last["turn_end"] is True
    assert _kinds(session) == ["prompt", "tool", "text"]


def test_records_of_a_judged_turn_arriving_late_ride_with_the_next_pass_but_start_none(world: World) -> None:
    """The transcript outran even the settle: its copy of the judged turn is context, not a new trigger."""
    records = world.records
    records.clock = datetime.now(UTC) - timedelta(minutes=5)  # the judged turn happened before its Stop
    world.event("turn_end", last_assistant_message="Renamed the helper.", stop_hook_active=False)
    session = make_session(world, turn_end_settle_s=0.1)

    async def scenario() -> None:
        await until(lambda: session.record.passes >= 1, what="the turn-end pass on the Stop message alone")
        world.append(records.prompt("rename the helper"), *records.bash("ls", "app.py"))
        await until(lambda: session.record.observed >= 3, what="the judged turn's late records")
        await _ticks_pass(session)
        assert session.record.passes == 1, "a late prompt of a judged turn started a pass of its own"
        assert session.policy.status().pending == 2
        records.clock = datetime.now(UTC)
        world.append(records.prompt("now add a docstring"))
        await until(lambda: session.record.passes >= 2, what="the next prompt's early pass")

    drive(session, scenario)
    assert [p["reason"] for p in session.record.recent] == ["turn_end", "salience"]
    assert session.record.last is not None and session.record.last["observations"] == 3


def test_a_restarted_worker_neither_observes_nor_advises_twice(world: World) -> None:
    records = world.records
    first = make_session(world)

    async def run_first() -> None:
        world.append(records.prompt("make it pass"), *records.failing())
        await until(lambda: world.mailbox(), what="the advisory")

    drive(first, run_first)
    observed_before = first.record.observed

    second = make_session(world)

    async def run_second() -> None:
        await until(lambda: second.host.observer is not None, what="the second worker to start")
        world.append(*records.failing(times=1))  # the same streak goes on
        await until(lambda: second.record.passes >= 1, what="a pass in the second worker")

    drive(second, run_second)
    assert observed_before == 7
    assert second.record.observed == 2, "only what arrived after the restart is observed"
    assert len(world.mailbox()) == 1
    # The rebuilt window remembers the streak (ledger + recent observations), so the restarted worker's
    # trigger sees it go on: at most it refreshes the waiting advisory in place, never queues a second one.
    admitted = _advisories(world)
    assert admitted[0]["reason"] == "passed"
    assert all(record["reason"] == "supersedes" for record in admitted[1:])


def test_observations_waiting_when_the_worker_stopped_are_offered_again(world: World) -> None:
    world.write_config("mute:\n  all: true\nloop:\n  salience_per_hour: 120\n")
    records = world.records
    first = make_session(world)

    async def run_first() -> None:
        world.append(records.prompt("make it pass"), *records.failing())
        await until(lambda: first.record.observed == 7, what="the muted worker to read everything")
        await until(lambda: first.status.document.get("state") == "muted", what="the muted state")

    drive(first, run_first)
    assert first.record.passes == 0 and not world.mailbox()

    world.write_config("loop:\n  salience_per_hour: 120\n")
    second = make_session(world)

    async def run_second() -> None:
        await until(lambda: world.mailbox(), what="the advisory after the restart")

    drive(second, run_second)
    assert second.record.observed == 7, "nothing a pass had not covered was lost"
    assert [a.kind for a in world.mailbox()] == ["repeat-failure"]


def test_an_unenrolled_workspace_waits_dormant_and_picks_up_a_later_enrolment(world: World) -> None:
    world.write_config("enable:\n  default: false\nloop:\n  salience_per_hour: 120\n")
    world.append(world.records.prompt("make it pass"), *world.records.failing())
    session = make_session(world)

    async def scenario() -> None:
        await until(lambda: session.status.document.get("state") == "dormant", what="dormant")
        await _ticks_pass(session)
        assert session.record.observed == 0 and not session.input.spool.path.exists(), (
            "nothing is read while dormant"
        )
        enrolled = f"enable:\n  default: false\n  workspaces:\n    {world.project}: true\n"
        world.write_config(enrolled + "loop:\n  salience_per_hour: 120\n")
        await until(lambda: world.mailbox(), what="the advisory after enrolment")

    drive(session, scenario)
    assert session.record.observed == 7


def test_mute_takes_effect_within_a_tick_and_unmute_resumes_with_what_was_observed(world: World) -> None:
    session = make_session(world)
    records = world.records

    async def scenario() -> None:
        world.append(records.prompt("start"))
        await until(lambda: session.record.passes == 1, what="the first pass")
        world.write_config("mute:\n  all: true\nloop:\n  salience_per_hour: 120\n")
        await until(lambda: session.policy.muted, timeout=2, what="the mute")
        world.append(*records.failing())
        await until(lambda: session.record.observed == 7, what="observation to go on while muted")
        await _ticks_pass(session)
        assert session.record.passes == 1 and not world.mailbox()
        world.write_config("loop:\n  salience_per_hour: 120\n")
        await until(lambda: world.mailbox(), what="the advisory after the unmute")

    drive(session, scenario)


def test_a_configuration_change_rebuilds_the_observer_at_a_pass_boundary_keeping_the_window(
    world: World,
) -> None:
    session = make_session(world)
    records = world.records

    async def scenario() -> None:
        world.append(records.prompt("start"))
        await until(lambda: session.record.passes == 1, what="the first pass")
        window = session.host.observer.engine.window
        world.write_config(
            "detectors:\n  repeat-failure:\n    enabled: false\nloop:\n  salience_per_hour: 120\n"
        )
        await until(
            lambda: "repeat-failure" not in [d.id for d in session.host.observer.engine.detectors],
            what="the rebuilt observer",
        )
        assert session.host.observer.engine.window is window
        world.append(*records.failing())
        await until(
            lambda: session.record.passes == 2 and session._flight is None, what="the pass after the change"
        )

    drive(session, scenario)
    assert session.record.last is not None and session.record.last["observations"] == 6
    ran = [item["detector"] for item in session.record.last["verdicts"] + session.record.last["skipped"]]
    assert "repeat-failure" not in ran
    assert not world.mailbox()


def test_a_starting_worker_sweeps_the_mailbox(world: World) -> None:
    now = time.time()
    mailbox = Mailbox(world.session, world.data)

    def advice(ident: str, **fields: Any) -> Advice:
        values: dict[str, Any] = {
            "id": ident,
            "task_id": world.session,
            "session_id": world.session,
            "workspace": str(world.project),
            "kind": "default",
            "headline": f"headline {ident}",
            "body": "",
            "confidence": 0.9,
            "dedup_key": ident,
            "generated_at": now - 5,
            "ttl": 900.0,
            "queue_timeout": 600.0,
            **fields,
        }
        return Advice(**values)

    mailbox.post(advice("handled", stale_if=(r"\bpytest\b",)), now=now - 5)
    mailbox.post(advice("live"), now=now - 5)
    mailbox.post(advice("old", generated_at=now - 700, ttl=3600.0), now=now - 650)  # left by a dead worker
    records = world.records
    world.append(records.prompt("go on"), *records.bash("pytest -q", "3 passed"))
    world.transcript.touch()
    # The transcript's records are stamped in 2026-01; stamp them after the advisories instead.
    lines = [json.loads(line) for line in world.transcript.read_text().splitlines()]
    for line in lines:
        line["timestamp"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now + 1))
    world.transcript.write_text("".join(json.dumps(line) + "\n" for line in lines))

    session = make_session(world)

    async def scenario() -> None:
        await until(lambda: session.host.observer is not None, what="activation")

    drive(session, scenario)
    assert [a.id for a in world.mailbox()] == ["live"]
    swept = {r["advice_id"]: r["reason"] for r in world.history() if r.get("stage") == "sweep"}
    assert swept == {"old": "expired_queue", "handled": "revalidated_out"}


def test_background_launches_are_left_for_the_stop_hook(world: World) -> None:
    from sbcore.hooks.events import outstanding_launches

    session = make_session(world)
    records = world.records

    async def scenario() -> None:
        call_id, call = records.call(
            "Bash", {"command": "npm run dev", "description": "dev server", "run_in_background": True}
        )
        world.append(records.prompt("start the server"), call, records.result(call_id, "started"))
        await until(lambda: session.record.observed >= 2, what="the launch")

    drive(session, scenario)
    found = outstanding_launches(world.data, world.session, time.time(), settle_s=600)
    assert len(found) == 1 and found[0].startswith("bash toolu_")
    assert outstanding_launches(world.data, world.session, time.time() + 1e9, settle_s=600) == []


def test_with_a_model_in_the_environment_the_forks_go_to_it(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sbcore.testing.fake_provider import FakeProvider
    from sbcore.testing.scripts import feedback

    with FakeProvider() as fake:
        for key, value in fake.env("anthropic").items():
            monkeypatch.setenv(key, value)
        fake.script(
            "repeat-failure",
            feedback(
                "advise",
                headline="Stop retrying the same pytest run",
                body="It fails the same way each time.",
                confidence=0.8,
                dedup_key="rf:pytest",
                evidence=["AssertionError x3"],
            ),
        )
        session = make_session(world)
        records = world.records

        async def scenario() -> None:
            world.append(records.prompt("make it pass"), *records.failing())
            await until(lambda: world.mailbox(), what="the model's advisory")

        drive(session, scenario)
        assert fake.requests_for("repeat-failure")
    assert "model provider anthropic" in (
        session.host.observer.provider_line if session.host.observer else ""
    )
    assert [a.headline for a in world.mailbox()] == ["Stop retrying the same pytest run"]


def test_clear_ends_the_task_its_waiting_advice_is_withdrawn_and_the_next_task_starts_fresh(
    world: World,
) -> None:
    session = make_session(world)
    records = world.records

    async def scenario() -> None:
        world.append(records.prompt("make it pass"), *records.failing())
        await until(lambda: world.mailbox(), what="the first task's advisory")
        world.event("session_start", source="clear", transcript_path=str(world.transcript))
        await until(lambda: session.task_id.endswith("~1"), what="the new task")
        assert world.mailbox() == [], "advice of a task the user ended is not delivered into the next"
        world.append(records.prompt("now the other thing"), *records.failing())
        await until(lambda: world.mailbox(), what="the new task's advisory")

    drive(session, scenario)
    assert [a.task_id for a in world.mailbox()] == [f"{world.session}~1"]
    swept = [r for r in world.history() if r.get("stage") == "sweep"]
    assert [r["reason"] for r in swept] == ["revalidated_out"]
    assert "its task ended" in swept[0]["text"]
    assert session.status.document["task_id"] == f"{world.session}~1"


def test_debug_enabled_captures_each_pass_for_the_session(world: World, tmp_path: Path) -> None:
    capture = tmp_path / "capture"
    world.write_config(FAST_CONFIG + f"debug:\n  enabled: true\n  path: {capture}\n")
    session = make_session(world)
    records = world.records

    async def scenario() -> None:
        world.append(records.prompt("make the tests pass"))
        world.append(*records.failing(times=1))
        await until(lambda: session.record.passes > 0, what="a pass")

    drive(session, scenario)
    digest = capture / world.session / "0001" / "digest.txt"
    assert digest.is_file() and digest.stat().st_mode & 0o777 == 0o600
    assert "make the tests pass" in digest.read_text()
