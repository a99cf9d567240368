"""A long session at the default window budget: compaction fires at its threshold and memory stays bounded.

The worker runs one pass engine per task, possibly for days. What the engine holds
between passes (the window and the trigger history) must level off, not grow with the
session: the window by compacting at ``window.compaction_threshold`` of
``window.budget_chars``, the trigger history by its own cap at ``budget_chars``.
"""

from __future__ import annotations

import asyncio

from sbcore.bench.synthetic import SyntheticSession
from sbcore.observe.project import Projector
from sbcore.think.pass_ import EngineSettings, PassEngine, PassResult
from sbcore.think.providers.offline import OfflineProvider
from sbcore.think.window import LEDGER_MAX_CHARS

OBSERVATIONS = 8_000
"""Enough synthetic work (about twice the default window) for several compactions."""


def test_the_default_window_compacts_at_its_threshold_and_the_engine_levels_off() -> None:
    settings = EngineSettings()
    assert settings.budget_chars == 400_000 and settings.compaction_threshold == 0.85
    engine = PassEngine([], OfflineProvider(), settings=settings)
    session = SyntheticSession("s1", "/work/repo")
    projector = Projector()
    threshold = settings.compaction_threshold * settings.budget_chars
    floor = settings.compaction_floor * settings.budget_chars

    async def run() -> list[PassResult]:
        observed, results = 0, []
        while observed < OBSERVATIONS:
            observations = projector.feed(session.next_turn().records)
            observed += len(observations)
            results.append(await engine.run_pass(observations, turn_end=True, reason="turn_end"))
        return results

    results = asyncio.run(run())
    compactions = [result.compaction for result in results if result.compaction is not None]
    assert len(compactions) >= 3, "a session twice the window compacts more than once"
    for result in results:
        assert result.window_chars <= threshold, f"pass {result.number} left the window above the threshold"
    for compaction in compactions:
        assert compaction.chars_before > threshold  # it fired because the window passed the threshold
        assert compaction.chars_after <= floor + LEDGER_MAX_CHARS  # down to the floor (the ledger regrown)
    assert engine.window.compactions == len(compactions)
    assert sum(len(o.text) for o in engine.history) <= settings.budget_chars
    assert len(engine.history) < OBSERVATIONS
