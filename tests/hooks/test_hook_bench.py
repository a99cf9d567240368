"""``second-brain bench-hooks``: it measures what it says, and refuses too few runs."""

from __future__ import annotations

import sys

import pytest
from hook_helpers import LAUNCHER

from sbcore.cli import main as cli
from sbcore.cli.hookbench import MIN_RUNS, Figures, bench, fuzz


@pytest.mark.slow
def test_bench_times_the_fast_path_the_baseline_and_a_drain() -> None:
    figures = bench(LAUNCHER, sys.executable, MIN_RUNS)
    assert figures.runs == MIN_RUNS
    assert min(figures.fast_ms, figures.bare_ms, figures.floor_ms, figures.drain_ms) > 0
    assert figures.drain_delivered == MIN_RUNS
    report = figures.report()
    assert f"(n={MIN_RUNS})" in report and "ratio fast path / python" in report


def test_report_states_the_verdict() -> None:
    assert "meets the <= 0.05 target" in Figures(20, "py", 1.0, 40.0, 0.8, 90.0, 20).report()
    assert "MISSES the <= 0.05 target" in Figures(20, "py", 3.0, 40.0, 0.8, 90.0, 20).report()


def test_fewer_than_twenty_runs_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["bench-hooks", "--runs", "5"]) == 2
    assert "at least 20" in capsys.readouterr().err


def test_fuzz_counts_every_case() -> None:
    report = fuzz(40, seed=7)
    assert report.cases == 40
    assert report.ok, report.failures
    assert "fuzz: 40 cases" in report.summary()
