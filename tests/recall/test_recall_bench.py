"""``second-brain bench recall`` runs end to end and reports its figures (figures, never pass or fail)."""

from __future__ import annotations

import json

import pytest

from sbcore.cli import main


def test_bench_recall_reports_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "recall", "--notes", "6", "--sections", "3", "--queries", "4", "--json"])
    assert code == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["notes"], figures["sections"]) == (6, 3)
    assert figures["chunks"] == 6 * (3 + 1)  # a title chunk and three sections per note
    assert figures["index_bytes"] > 0
    for name in ("first_index_s", "unchanged_refresh_s", "one_changed_refresh_s", "search_p50_ms"):
        assert figures[name] >= 0


def test_bench_recall_refuses_nonsense(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "recall", "--notes", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err
