"""A soaking detector is judged like any other, but what the gate admits for it is never queued.

Its would-deliver is recorded as ``soak`` and remembered for that detector's own dedup only: it spends no
rate slot and silences no other detector, and a restarted gate folds it back the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gate_helpers import FakeClock, make_settings

from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.answer import GateInput
from sbcore.gate.gate import Gate
from sbcore.gate.history import Action, History, Reason


def answer(
    detector: str,
    key: str,
    headline: str = "Tests were not run after the last edit",
    body: str = "services/foo.py changed and no test command followed.",
) -> GateInput:
    feedback: dict[str, Any] = {
        "verdict": "advise",
        "headline": headline,
        "body": body,
        "confidence": 0.9,
        "dedup_key": key,
    }
    return GateInput(detector=detector, task_id="t1", feedback=feedback)


def gate(clock: FakeClock, data: Path, **settings: Any) -> Gate:
    return Gate(make_settings(**settings), session_id="s1", workspace="/w", clock=clock, data=data)


def test_a_soaked_would_deliver_is_recorded_and_never_reaches_the_mailbox(
    clock: FakeClock, data: Path
) -> None:
    mailbox = Mailbox("s1", data)
    decision = gate(clock, data).submit(answer("team-check", "k1"), mailbox, soak=True)
    assert decision.soaked and not decision.delivers
    assert (decision.action, decision.reason) == (Action.SOAK, Reason.PASSED)
    assert decision.advice is not None and decision.text.startswith("soaking, not delivered")
    assert not mailbox.path.exists() or mailbox.pending() == []
    records, _ = History.for_task("t1", data).read()
    assert [(r["stage"], r["action"], r.get("soak")) for r in records] == [("gate", "soak", True)]


def test_a_soaking_detectors_repeat_is_a_duplicate_of_its_own_would_deliver(
    clock: FakeClock, data: Path
) -> None:
    g, mailbox = gate(clock, data), Mailbox("s1", data)
    assert g.submit(answer("team-check", "k1"), mailbox, soak=True).soaked
    clock.advance(30)
    again = g.submit(answer("team-check", "k1"), mailbox, soak=True)
    assert again.reason is Reason.DUPLICATE_KEY
    restarted = gate(clock, data)  # the memory is a fold over the history: it survives a restart
    assert restarted.submit(answer("team-check", "k1"), mailbox, soak=True).reason is Reason.DUPLICATE_KEY


def test_soaking_silences_no_other_detector_and_spends_no_rate_slot(clock: FakeClock, data: Path) -> None:
    g, mailbox = gate(clock, data, gate__rate_per_hour=1, gate__cooldown_s=0), Mailbox("s1", data)
    for word in ("alpha", "bravo", "charlie"):  # more than the rate allows: none held back, none uses it
        soaked = answer("team-check", word, f"{word} parser", f"{word} lexer")
        assert g.submit(soaked, mailbox, soak=True).soaked
    spoken = g.submit(answer("standard-questions", "alpha", "alpha parser", "alpha lexer"), mailbox)
    assert spoken.action is Action.DELIVER_AGENT, "same key and words as a soaked one: still delivered"
    assert [advice.kind for advice in mailbox.pending()] == ["standard-questions"]


def test_a_delivered_advisory_still_dedups_a_soaking_detector(clock: FakeClock, data: Path) -> None:
    g, mailbox = gate(clock, data), Mailbox("s1", data)
    assert g.submit(answer("standard-questions", "k1"), mailbox).delivers
    clock.advance(30)
    assert g.submit(answer("team-check", "k1"), mailbox, soak=True).reason is Reason.DUPLICATE_KEY


def test_soak_is_gated_as_usual_below_the_floors(clock: FakeClock, data: Path) -> None:
    g = gate(clock, data, gate__human_floor=0.95, gate__confidence_floor=0.95)
    decision = g.submit(answer("team-check", "k1"), Mailbox("s1", data), soak=True)
    assert decision.reason is Reason.BELOW_HUMAN_FLOOR and not decision.soaked
