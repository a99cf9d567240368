"""Untrusted regular expressions run under a wall-time bound: a catastrophic pattern cannot stall anything.

Each case uses ``(a+)+$`` against forty ``a`` and a ``!``: about 2**40 backtracking steps, hours of CPU. A
case finishing at all is the proof; the bound itself is a fraction of a second.
"""

from __future__ import annotations

import asyncio
import re
import threading
from pathlib import Path
from typing import Any, ClassVar

import pytest

from sbcore.observe.model import Observation
from sbcore.packs.errors import CatalogueError
from sbcore.packs.loader import load_detector_file, validate_detector_data
from sbcore.packs.model import SourceRef
from sbcore.packs.registry import TriggerSpec
from sbcore.think.feedback import check_feedback
from sbcore.think.tools.base import ToolResult
from sbcore.think.tools.dispatch import Grant, Toolbox
from sbcore.timebound import PatternTimeout, time_bound

EVIL = r"(a+)+$"
SUBJECT = "a" * 40 + "!"


def test_a_runaway_match_is_interrupted() -> None:
    with pytest.raises(PatternTimeout, match=r"longer than 0\.1 s"), time_bound(0.1, "a test pattern"):
        re.search(EVIL, SUBJECT)


def test_the_bound_is_disarmed_afterwards_and_an_outer_bound_holds() -> None:
    with time_bound(0.05, "quick"):
        assert re.search("a+", SUBJECT)
    # nested: the outer bound keeps running
    with pytest.raises(PatternTimeout, match="outer"), time_bound(0.2, "outer"), time_bound(5.0, "inner"):
        re.search(EVIL, SUBJECT)


def test_off_the_main_thread_the_bound_adds_nothing() -> None:
    ran: list[bool] = []

    def body() -> None:
        with time_bound(0.01, "in a thread"):
            ran.append(bool(re.search("a+", SUBJECT)))

    thread = threading.Thread(target=body)
    thread.start()
    thread.join()
    assert ran == [True]


def test_a_trigger_whose_params_carry_a_catastrophic_pattern_is_stopped() -> None:
    def ignore(observations: Any, params: Any, state: Any) -> None:
        for observation in observations:
            re.search(params["ignore_errors"][0], observation.text)

    spec = TriggerSpec("ignore", ignore, None, "test", False)
    with pytest.raises(PatternTimeout, match="trigger 'ignore'"):
        spec.invoke([Observation("error", SUBJECT)], {"ignore_errors": [EVIL]}, {})


def test_feedback_against_a_schema_with_a_catastrophic_pattern_is_invalid_not_stuck() -> None:
    detector = validate_detector_data(
        {
            "schema_version": 1,
            "id": "patterned",
            "description": "A schema extension with a pattern.",
            "prompt": "x",
            "schema": {"extends": "feedback_v1", "properties": {"tag": {"type": "string", "pattern": EVIL}}},
        },
        source=SourceRef("<test>"),
        pack="test",
    )
    feedback, why = check_feedback(detector, {"verdict": "silent", "tag": SUBJECT})
    assert feedback is None and why is not None and "stopped" in why


def test_a_config_schema_pattern_is_bounded_when_the_detector_loads(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text(
        "schema_version: 1\nid: patterned\ndescription: d\nprompt: x\n"
        f"config_schema:\n  type: object\n  properties:\n    name: {{type: string, pattern: '{EVIL}'}}\n"
        f"config:\n  name: '{SUBJECT}'\n"
    )
    with pytest.raises(CatalogueError) as caught:
        load_detector_file(tmp_path / "d.yaml", pack="test")
    (chain,) = caught.value.chains
    assert chain.key == "config" and "stopped" in chain.problem and chain.source.line == 9


def test_tool_arguments_against_a_pack_schema_with_a_catastrophic_pattern_are_refused(tmp_path: Path) -> None:
    class Patterned:
        name = "patterned"
        description = "A pack tool whose schema carries a pattern."
        input_schema: ClassVar[dict[str, Any]] = {
            "type": "object",
            "properties": {"q": {"type": "string", "pattern": EVIL}},
        }

        async def call(self, args: dict[str, Any]) -> ToolResult:
            return ToolResult("ran")

    box = Toolbox(tmp_path, registered={"patterned": Patterned()})
    result = asyncio.run(box.dispatch("d", Grant.parse(["patterned"]), "patterned", {"q": SUBJECT}))
    assert result.is_error and "stopped" in result.text
