"""Did it land, through the live worker: a delivered advisory's outcome, judged by the fork that raised it.

The worker runs in process against the loopback fake provider; the drain hook's part (claiming what
waits in the mailbox, which delivers it) is played by :meth:`Mailbox.claim`, exactly as the hook calls it.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from worker_helpers import World, drive, make_session, until

from sbcore.deliver.mailbox import Mailbox
from sbcore.state import db
from sbcore.testing.fake_provider import FakeProvider
from sbcore.testing.scripts import feedback


@pytest.fixture(autouse=True)
def _private_env(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.apply_env(monkeypatch)


FINDING: dict[str, Any] = {  # the default lens runs on every pass, so each error brings its fork
    "headline": "Stop retrying the same pytest run",
    "body": "It fails the same way each time; read the assertion first.",
    "confidence": 0.8,
    "dedup_key": "rf:pytest",
    "evidence": ["AssertionError in tests/test_app.py x3"],
}


def _gate_records(world: World, detector: str = "default") -> list[dict[str, Any]]:
    return [r for r in world.history() if r.get("stage") == "gate" and r.get("detector") == detector]


def test_an_evidenced_rejection_suppresses_the_same_finding_for_the_rest_of_the_task(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeProvider() as fake:
        for key, value in fake.env("anthropic").items():
            monkeypatch.setenv(key, value)
        fake.script(
            "default",
            feedback("advise", **FINDING),
            feedback(
                "silent",
                outcomes=[
                    {
                        "advice_id": "rf:pytest",
                        "verdict": "rejected",
                        "evidence": ["[text] the retries are deliberate: the test is flaky on CI only"],
                    }
                ],
            ),
            feedback("advise", **{**FINDING, "headline": "Still retrying the same pytest run"}),
        )
        session = make_session(world)
        records = world.records

        async def scenario() -> None:
            world.append(records.prompt("make it pass"), *records.failing())
            await until(lambda: world.mailbox(), what="the first advisory")
            claimed = Mailbox(world.session, world.data).claim(
                time.time(), for_agent=True, human_channel=True
            )
            assert [advice.dedup_key for advice in claimed] == ["rf:pytest"]
            world.append(*records.failing(times=1))
            await until(lambda: len(fake.requests_for("default")) >= 2, what="the adjudicating fork")
            world.append(*records.failing(times=1))
            await until(lambda: len(_gate_records(world)) >= 3, what="the repeated finding's decision")

        drive(session, scenario)

    first, _, third = _gate_records(world)
    assert first["reason"] == "passed"
    delivered_id = first["advice_id"]
    assert first["fork_id"] == "rf:pytest", "the gate keeps the id the fork is shown"
    # the adjudicating fork was shown the advisory under that id
    tail = fake.requests_for("default")[1].raw.decode()
    assert "rf:pytest: Stop retrying the same pytest run" in tail
    (outcome,) = [r for r in world.history() if r.get("stage") == "outcome"]
    assert outcome["advice_id"] == delivered_id and outcome["fork_id"] == "rf:pytest"
    assert outcome["text"] == "rejected: key 'rf:pytest' suppressed for the rest of the task"
    assert third["reason"] == "suppressed"
    assert third["text"] == f"key 'rf:pytest': rejected (advisory {delivered_id})"
    assert world.mailbox() == []
    with db.opened(db.db_path(world.data), readonly=True) as conn:
        rows = [dict(row) for row in conn.execute("SELECT * FROM uptake_outcomes")]
    assert [(r["advice_id"], r["uptake"], r["verdict"], r["fork_id"]) for r in rows] == [
        (delivered_id, "rejected", "rejected", "rf:pytest")
    ]
