"""The offline provider: fallback advisories for triggered detectors, 'skipped: no model' for the rest."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sbcore.packs.model import Cadence, DetectorDef, SourceRef, TriggerRef
from sbcore.packs.templates import render
from sbcore.packs.types import TriggerMatch
from sbcore.think.providers import SKIPPED_NO_MODEL, Message, NoModel, OfflineProvider, Request

FALLBACK = {
    "headline": "`{{ match.data.command }}` failed {{ match.data.count }} times",
    "body": "Stop retrying {{ match.data.command }} unchanged; read the error first. ({{ detector.id }})",
    "confidence": 0.75,
    "dedup_key": "repeat-failure:{{ match.key }}",
    "finish_gate": False,
}


def detector(*, fallback: dict[str, Any] | None, trigger: bool = True) -> DetectorDef:
    return DetectorDef(
        id="repeat-failure",
        pack="builtin",
        source=SourceRef("catalogue/repeat-failure.yaml", 1),
        description="The same command failing again and again.",
        status="stable",
        enabled=True,
        prompt="Look for a retry loop.",
        tools=(),
        schema={},
        cadence=Cadence("on_trigger") if trigger else Cadence("every_pass"),
        trigger=TriggerRef("repeat_failure", {"min_failures": 3}) if trigger else None,
        deadline_s=None,
        max_iterations=4,
        confidence_floor=None,
        finish_gate_floor=None,
        config={"min_failures": 3},
        config_schema=None,
        fallback=fallback,
        extras={},
        raw={},
    )


MATCH = TriggerMatch(
    key="pytest tests/test_x.py",
    summary="pytest failed 3 times",
    evidence=("15:01:02 FAILED tests/test_x.py::test_a", "15:02:40 FAILED tests/test_x.py::test_a"),
    data={"command": "pytest tests/test_x.py", "count": 3},
)


def test_triggered_detector_returns_its_rendered_fallback() -> None:
    result = OfflineProvider().evaluate(detector(fallback=FALLBACK), MATCH.as_template_input(), render)
    assert result == {
        "verdict": "advise",
        "headline": "`pytest tests/test_x.py` failed 3 times",
        "body": "Stop retrying pytest tests/test_x.py unchanged; read the error first. (repeat-failure)",
        "dedup_key": "repeat-failure:pytest tests/test_x.py",
        "evidence": list(MATCH.evidence),
        "confidence": 0.75,
        "finish_gate": False,
    }


def test_match_object_evidence_is_used_too() -> None:
    def plain(source: str, **inputs: Any) -> str:
        return source

    result = OfflineProvider().evaluate(detector(fallback={"headline": "h"}), MATCH, plain)
    assert result == {"verdict": "advise", "headline": "h", "evidence": list(MATCH.evidence)}


def test_fallback_without_a_match_is_silent() -> None:
    assert OfflineProvider().evaluate(detector(fallback=FALLBACK), None, render) == {"verdict": "silent"}


@pytest.mark.parametrize("fallback", [None, {}])
def test_model_only_detector_is_skipped(fallback: dict[str, Any] | None) -> None:
    result = OfflineProvider().evaluate(detector(fallback=fallback, trigger=False), None, render)
    assert result == SKIPPED_NO_MODEL == "skipped: no model"


def test_offline_refuses_model_calls() -> None:
    provider = OfflineProvider()
    assert not provider.has_model and provider.name == "offline"
    with pytest.raises(NoModel, match="no model configured"):
        asyncio.run(provider.send(Request("m", (), (Message.user("hi"),))))
