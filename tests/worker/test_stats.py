"""`second-brain stats --json` and `second-brain why` on a session recorded by the live worker.

The worker runs in process against the loopback fake provider; the transcript's assistant replies carry
`usage` the way Claude Code writes it. Every figure the test checks is computed from a source other than
the observer's own bookkeeping: what the fake billed for each request, the usage written into the
transcript, and the published prices.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from worker_helpers import World, drive, make_session, until

from sbcore import __version__
from sbcore.cli import main
from sbcore.deliver.mailbox import Mailbox
from sbcore.testing import wire
from sbcore.testing.fake_provider import FakeProvider
from sbcore.testing.scripts import feedback


@pytest.fixture(autouse=True)
def _private_env(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.apply_env(monkeypatch)


AGENT_USAGE = {
    "input_tokens": 12,
    "output_tokens": 300,
    "cache_read_input_tokens": 40_000,
    "cache_creation_input_tokens": 2_000,
}


def agent_reply(world: World, text: str) -> dict[str, Any]:
    """An assistant reply as Claude Code writes it: the model and the reply's usage on the record."""
    record = world.records.say(text)
    record["message"]["model"] = "claude-sonnet-4-5"
    record["message"]["usage"] = dict(AGENT_USAGE)
    return record


def failing(world: World, n: int) -> list[dict[str, Any]]:
    """One failing test run, of a different target each time (no repeated-failure streak)."""
    return world.records.failing(command=f"pytest tests/test_{n}.py -q", times=1)


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_stats_reports_what_the_recorded_session_delivered_dropped_took_up_and_cost(
    world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    finding = {"evidence": ["pytest tests/test_0.py failed"], "dedup_key": "k:a", "confidence": 0.8}
    with FakeProvider() as fake:
        for key, value in fake.env("anthropic").items():
            monkeypatch.setenv(key, value)
        fake.script(
            "default",
            feedback("advise", headline="Read the failing assertion before editing", **finding),
            feedback(
                "advise",
                headline="Maybe the fixture is wrong",
                confidence=0.2,  # below the human floor
                dedup_key="k:b",
                outcomes=[{"advice_id": "k:a", "verdict": "adopted", "evidence": ["Read tests/test_0.py"]}],
            ),
            feedback("advise", headline="Read the failing assertion first", **finding),  # the same key again
        )
        session = make_session(world)

        async def scenario() -> None:
            world.append(world.records.prompt("make it pass"), agent_reply(world, "Running the tests."))
            for n in range(3):
                world.append(*failing(world, n), agent_reply(world, f"Attempt {n} failed."))
                await until(lambda n=n: len(fake.requests_for("default")) > n, what=f"fork {n + 1}")
                if n == 0:
                    await until(lambda: world.mailbox(), what="the first advisory")
                    Mailbox(world.session, world.data).claim(time.time(), for_agent=True, human_channel=True)
            await until(lambda: session.record.passes >= 3, what="the third pass concluded")

        drive(session, scenario)
        billed = [request for request in fake.requests if request.outcome == "reply"]

    assert session.record.passes == 3
    document = json.loads(
        run_cli(capsys, "stats", "--json", "--session", world.session, "--data", str(world.data))
    )
    span = document["spans"]["session"]
    assert span["passes"] == {"total": 3, "by_reason": {"salience": 3}}
    assert span["per_hour"] is None  # its passes span seconds: no rate is extrapolated from under a minute
    advice = span["advisories"]
    assert (advice["queued"], advice["delivered"], advice["dropped"]) == (1, 1, 2)
    assert advice["dropped_by_reason"] == {"below_human_floor": 1, "duplicate_key": 1}
    assert advice["by_detector"]["default"]["dropped"] == {"below_human_floor": 1, "duplicate_key": 1}
    uptake = span["uptake"]
    assert {name: uptake[name] for name in ("acted", "rejected", "ignored", "no_evidence", "open")} == {
        "acted": 1,
        "rejected": 0,
        "ignored": 0,
        "no_evidence": 0,
        "open": 0,
    }
    assert uptake["uptake"] == 1.0

    observer = span["observer_tokens"]
    expected = {
        "input_tokens": sum(r.usage.input_tokens for r in billed if r.usage),
        "output_tokens": sum(wire.output_tokens(r.reply) for r in billed if r.reply),
        "cache_read_tokens": sum(r.usage.cache_read_tokens for r in billed if r.usage),
        "cache_write_tokens": sum(r.usage.cache_write_tokens for r in billed if r.usage),
    }
    assert {kind: observer[kind] for kind in expected} == expected
    assert list(observer["by_model"]) == ["claude-haiku-4-5"]
    haiku = (
        expected["input_tokens"] * 1.0
        + expected["output_tokens"] * 5.0
        + expected["cache_read_tokens"] * 0.1
        + expected["cache_write_tokens"] * 1.25
    ) / 1e6
    assert observer["cost_usd"] == round(haiku, 6)

    agent = span["agent_tokens"]
    replies = 4
    assert agent["replies"] == replies
    assert (agent["input_tokens"], agent["output_tokens"], agent["cache_read_tokens"]) == (48, 1200, 160_000)
    assert agent["cache_write_tokens"] == 8_000
    sonnet = (48 * 3.0 + 1200 * 15.0 + 160_000 * 0.3 + 8_000 * 3.75) / 1e6
    assert agent["cost_usd"] == round(sonnet, 6)
    assert span["observer_to_agent_ratio"] == round(observer["total"] / agent["total"], 4)

    assert document["spans"]["task"]["advisories"] == advice
    assert document["spans"]["last_24h"]["passes"]["total"] == 3
    assert document["worker"]["skew"] == [] and document["worker"]["installed_version"] == __version__
    assert document["budget"]["headroom"]["task"] == 20_000_000 - observer["total"]

    why = json.loads(
        run_cli(capsys, "why", "--json", "-n", "3", "--session", world.session, "--data", str(world.data))
    )
    assert [(d["stage"], d["reason"] or d.get("verdict")) for d in why["decisions"]] == [
        ("outcome", "adopted"),
        ("gate", "below_human_floor"),
        ("gate", "duplicate_key"),
    ]
    assert why["decisions"][0]["evidence"] == ["Read tests/test_0.py"]
    assert why["decisions"][2]["in_words"] == "already said (same key)"
    concluded = {item["detector"]: item["label"] for item in why["last_pass"]["detectors"]}
    assert concluded["default"] == "advise"
    text = run_cli(capsys, "why", "--session", world.session, "--data", str(world.data))
    assert "too unsure even to show you" in text and "last pass 3 (salience):" in text
    assert "acted 1" in run_cli(capsys, "stats", "--session", world.session, "--data", str(world.data))
