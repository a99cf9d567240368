"""The gate's rules: an ordered list, asked in turn, the first stop decides; a new rule is one function."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gate_helpers import FakeClock, make_settings

from sbcore.gate import gate as gate_module
from sbcore.gate import rules
from sbcore.gate.answer import GateInput
from sbcore.gate.gate import Gate
from sbcore.gate.history import Action, Reason


def advise(confidence: float = 0.9, **more: Any) -> GateInput:
    feedback = {
        "verdict": "advise",
        "headline": "The same test failed three times",
        "body": "Read the assertion before running it again.",
        "confidence": confidence,
        "dedup_key": "repeat-failure:test_add",
        **more,
    }
    return GateInput(detector="repeat-failure", task_id="t1", feedback=feedback)


def make_gate(data: Path, clock: FakeClock, **settings: Any) -> Gate:
    return Gate(make_settings(**settings), session_id="s1", workspace="/w", clock=clock, data=data)


def test_the_rules_are_asked_in_the_documented_order() -> None:
    assert [rule.__name__ for rule in rules.RULES] == [
        "muted",
        "expired",
        "floors",
        "suppressed",
        "duplicate",
        "stale",
        "rate",
    ]


def test_the_first_rule_that_stops_decides(tmp_path: Path) -> None:
    """Muted and below every floor: the mute, asked first, is the reason."""
    clock = FakeClock()
    gate = make_gate(tmp_path, clock, mute__all=True)
    decision = gate.decide(advise(confidence=0.01))
    assert (decision.action, decision.reason) == (Action.DROP, Reason.MUTED)


def test_the_floors_rule_routes_what_the_later_rules_judge(tmp_path: Path) -> None:
    """Below the agent floor but above the human floor: for the user alone, and the rate does not apply."""
    clock = FakeClock()
    gate = make_gate(
        tmp_path, clock, gate__confidence_floor=0.8, gate__human_floor=0.3, gate__rate_per_hour=1
    )
    first = gate.decide(advise(confidence=0.5))
    assert (first.action, first.reason) == (Action.DELIVER_HUMAN_ONLY, Reason.HUMAN_ONLY)
    assert first.advice is not None and first.advice.human_only


def test_a_new_rule_is_one_function_in_the_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def weekend(case: rules.Case) -> rules.Stop | None:
        asked.append(case.advice.headline)
        return rules.Stop(Reason.MUTED, "no advice at weekends")

    def never(case: rules.Case) -> rules.Stop | None:
        raise AssertionError("a rule after the one that stopped was asked")

    monkeypatch.setattr(gate_module, "RULES", (weekend, never))
    decision = make_gate(tmp_path, FakeClock()).decide(advise())
    assert (decision.action, decision.reason, decision.text) == (
        Action.DROP,
        Reason.MUTED,
        "no advice at weekends",
    )
    assert asked == ["The same test failed three times"]
