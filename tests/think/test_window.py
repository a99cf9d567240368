"""The window: append-only between compactions, a ledger within its cap, compaction with hysteresis."""

from __future__ import annotations

import asyncio

import pytest

from sbcore.observe.model import Observation
from sbcore.think.compaction import compact, digest
from sbcore.think.providers.base import Message, TextBlock, ToolSpec
from sbcore.think.window import LEDGER_MAX_CHARS, LEDGER_MAX_FACTS, Window, clock_label

SYSTEM = ("observer prompt", "workspace block")


def obs(text: str, kind: str = "text", minute: int = 0, **extra: object) -> Observation:
    return Observation(kind, text, timestamp=f"2026-01-05T14:{minute:02d}:00Z", **extra)  # type: ignore[arg-type]


def texts(message: Message) -> list[str]:
    return [block.text for block in message.content if isinstance(block, TextBlock)]


def test_episode_block_layout_and_feedback_lines() -> None:
    window = Window(SYSTEM)
    block = window.append_episode(
        3,
        [obs("[prompt] fix the bug", "prompt", 1), obs("[tool] Bash: pytest", "tool", 2)],
        notes=["check repeat_failure matched (repeat-failure): `pytest` failed 3 times"],
        reason="turn end",
    )
    assert texts(block.message) == [
        "[pass 3 14:02 · turn end] 2 observations\n[prompt] fix the bug\n[tool] Bash: pytest",
        "[note] check repeat_failure matched (repeat-failure): `pytest` failed 3 times",
    ]
    assert block.when == "14:02"
    feedback = window.append_feedback(3, ["[pass 3 14:02] a → silent", "[pass 3 14:02] b → silent"])
    assert feedback is not None and texts(feedback.message) == [
        "[pass 3 14:02] a → silent\n[pass 3 14:02] b → silent"
    ]
    assert window.append_feedback(4, []) is None
    assert [m.role for m in window.messages] == ["user", "user", "user"]
    assert window.chars == sum(len(t) for m in window.messages for t in texts(m))


def test_appending_never_rewrites_the_prefix() -> None:
    window = Window(SYSTEM)
    seen: list[tuple[Message, ...]] = []
    for number in range(1, 11):
        seen.append(window.messages)
        window.append_episode(number, [obs(f"[text] step {number}", minute=number)])
        window.append_feedback(number, [f"[pass {number} 14:{number:02d}] d → silent"])
        current = window.messages
        for earlier in seen:
            assert current[: len(earlier)] == earlier  # every earlier snapshot is a prefix, object for object
    assert window.compactions == 0


def test_snapshot_is_shared_and_immutable() -> None:
    window = Window(SYSTEM)
    window.append_episode(1, [obs("[text] a")])
    tools = (ToolSpec("b", "", {}), ToolSpec("a", "", {}))
    snap = window.snapshot(tools)
    window.append_episode(2, [obs("[text] b")])
    assert len(snap.messages) == 2 and snap.breakpoint == 1
    assert snap.system == SYSTEM and snap.tools == tools
    rendered = snap.render()
    assert rendered.index("- a:") < rendered.index("- b:")  # tools in wire (sorted) order
    assert "=== message 1 (user)  [cache breakpoint] ===" in rendered
    assert "=== message 2" not in rendered  # the pass's prefix, not the window as it grew afterwards
    later = window.snapshot(tools).render()
    assert "=== message 1 (user) ===" in later and "=== message 2 (user)  [cache breakpoint] ===" in later


def test_compaction_has_hysteresis_and_keeps_the_newest_pass() -> None:
    window = Window(SYSTEM, budget_chars=10_000, compaction_threshold=0.8, compaction_floor=0.4)
    number = 0
    while not window.needs_compaction():
        number += 1
        window.append_episode(number, [obs("[text] " + "x" * 900, minute=number % 60)])
    evicted = window.plan_eviction()
    assert evicted and evicted[0].pass_number == 1
    assert all(block.pass_number != number for block in evicted)
    window.compact(evicted, "passes summarised")
    assert window.chars <= 0.4 * 10_000 + 1000  # down to the floor (within one pass's size)
    assert window.compactions == 1
    assert "passes summarised" in texts(window.messages[0])[0]
    assert window.blocks[-1].pass_number == number
    # right after a compaction the next pass does not compact again
    window.append_episode(number + 1, [obs("[text] " + "x" * 900)])
    assert not window.needs_compaction()


def test_compact_refuses_blocks_that_are_not_the_oldest() -> None:
    window = Window(SYSTEM)
    window.append_episode(1, [obs("[text] a")])
    second = window.append_episode(2, [obs("[text] b")])
    with pytest.raises(ValueError, match="oldest"):
        window.compact([second], "nope")


def test_ledger_stays_within_its_cap_and_fact_count() -> None:
    window = Window(SYSTEM, budget_chars=2_000, compaction_threshold=0.5, compaction_floor=0.2)
    for number in range(1, 200):
        window.append_episode(
            number, [obs("[prompt] goal: ship it", "prompt")] if number == 1 else [obs("[text] y" * 40)]
        )
        if window.needs_compaction():
            window.compact(window.plan_eviction(), f"summary {number} " + "z" * 150)
    ledger = texts(window.messages[0])[0]
    assert len(ledger) <= LEDGER_MAX_CHARS
    assert len(window.facts) <= LEDGER_MAX_FACTS
    assert "Goal: goal: ship it" in ledger  # the first prompt becomes the goal when it is folded away
    assert window.facts[-1].startswith("summary")


def test_offline_compaction_digest_is_deterministic() -> None:
    async def run() -> tuple[str, str]:
        summaries = []
        for _ in range(2):
            window = Window(SYSTEM, budget_chars=3_000, compaction_threshold=0.6, compaction_floor=0.3)
            window.append_episode(
                1,
                [
                    obs("[prompt] make the tests pass", "prompt", 1),
                    obs(
                        "[tool] Bash: pytest -x",
                        "tool",
                        2,
                        tool="Bash",
                        tool_use_id="t1",
                        args={"command": "pytest -x"},
                    ),
                    obs("[error] Bash: 1 failed", "error", 3, tool="Bash", tool_use_id="t1"),
                    obs(
                        "[tool] Edit a.py",
                        "tool",
                        4,
                        tool="Edit",
                        tool_use_id="t2",
                        args={"file_path": "a.py"},
                    ),
                ],
            )
            window.append_feedback(1, ['[pass 1 14:04] repeat-failure → advise "stop" (0.75)'])
            window.append_episode(2, [obs("[text] " + "w" * 2000, minute=5)])
            result = await compact(window, 2)
            assert result is not None and not result.by_model and result.evicted_passes == (1,)
            summaries.append(result.summary)
        return summaries[0], summaries[1]

    first, second = asyncio.run(run())
    assert first == second
    assert 'Asked: "make the tests pass"' in first
    assert '"pytest -x" x1 (1 failed)' in first
    assert "Edited: a.py" in first
    assert "repeat-failure advise x1" in first


def test_digest_of_a_quiet_span() -> None:
    window = Window(SYSTEM)
    block = window.append_episode(1, [])
    assert digest([block]) == "Pass 1: 0 observations (none)."


def test_clock_label() -> None:
    assert clock_label("2026-01-05T14:03:22.511Z") == "14:03"
    assert clock_label("2026-01-05T16:03:22+02:00") == "14:03"
    assert clock_label(None) == "--:--"
    assert clock_label("yesterday") == "--:--"


def test_window_rejects_bad_fractions() -> None:
    with pytest.raises(ValueError, match="compaction_floor"):
        Window(SYSTEM, compaction_threshold=0.5, compaction_floor=0.6)
