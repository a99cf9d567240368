"""The worker refreshes the index between passes, never while one runs, at most every recall.refresh_s."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sbcore.config import load_config
from sbcore.paths import data_dir
from sbcore.worker.recall import RecallRefresher


def test_the_refresh_waits_for_the_pass_and_the_interval(workspace: Path) -> None:
    async def scenario() -> None:
        now = [0.0]
        refresher = RecallRefresher(workspace, data_dir(), monotonic=lambda: now[0])
        config = load_config(workspace)

        refresher.poll(config, pass_running=True)
        await refresher.aclose()
        assert refresher.last is None  # a pass is running: not now

        refresher.poll(config, pass_running=False)
        assert refresher.busy, "a forget request waits while this refresh runs"
        await refresher.aclose()
        assert not refresher.busy
        first = refresher.last
        assert first is not None and sorted(first.indexed) == ["CLAUDE.md", "docs/decisions/0007-pool.md"]

        (workspace / "CLAUDE.md").write_text("# Changed\n\nnew text\n")
        now[0] = 10.0
        refresher.poll(config, pass_running=False)
        await refresher.aclose()
        assert refresher.last is first  # within recall.refresh_s of the last one

        now[0] = 10.0 + float(config.get("recall.refresh_s"))
        refresher.poll(config, pass_running=False)
        await refresher.aclose()
        assert refresher.last is not first and refresher.last is not None
        assert refresher.last.indexed == ["CLAUDE.md"]

    asyncio.run(scenario())


def test_recall_off_indexes_nothing(workspace: Path) -> None:
    layer = workspace / ".second-brain"
    layer.mkdir()
    (layer / "config.yaml").write_text("recall:\n  enabled: false\n")

    async def scenario() -> None:
        refresher = RecallRefresher(workspace, data_dir())
        refresher.poll(load_config(workspace), pass_running=False)
        await refresher.aclose()
        assert refresher.last is None

    asyncio.run(scenario())
    assert not (data_dir() / "recall").exists()


def test_the_settings_defaults_are_the_schemas(workspace: Path) -> None:
    from sbcore.conductor.recall_index import RecallSettings

    assert RecallSettings.from_config(load_config(workspace)) == RecallSettings()
