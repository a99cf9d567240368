"""``second-brain bench hooks``: it measures what it says, and refuses too few runs."""

from __future__ import annotations

import re

import pytest

from sbcore.bench.hooks import MIN_RUNS, Figures
from sbcore.cli import main as cli
from sbcore.testing.hookcases import fuzz


@pytest.mark.slow
def test_bench_hooks_times_the_fast_path_the_baseline_and_a_drain(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["bench", "hooks", "--runs", str(MIN_RUNS)]) == 0
    out = capsys.readouterr().out
    medians = {
        label: float(value)
        for label, value in re.findall(
            r"^(hook fast path|bare|floor|drain)\b.*?median\s+([\d.]+) ms", out, re.M
        )
    }
    assert set(medians) == {"hook fast path", "bare", "floor", "drain"}, out
    assert min(medians.values()) > 0
    assert out.count(f"(n={MIN_RUNS}") == 4
    assert f"delivered {MIN_RUNS}/{MIN_RUNS}" in out
    ratio = re.search(r"ratio fast path / python:\s+([\d.]+)", out)
    assert ratio is not None and float(ratio.group(1)) == pytest.approx(
        medians["hook fast path"] / medians["bare"], abs=1e-3
    )


def test_report_states_the_verdict() -> None:
    assert "meets the <= 0.05 target" in Figures(20, "py", 1.0, 40.0, 0.8, 90.0, 20).report()
    assert "MISSES the <= 0.05 target" in Figures(20, "py", 3.0, 40.0, 0.8, 90.0, 20).report()


def test_fewer_than_twenty_runs_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["bench", "hooks", "--runs", "5"]) == 2
    assert "at least 20" in capsys.readouterr().err


def test_the_old_command_name_is_gone(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["bench-hooks", "--runs", "20"]) == 2
    assert "has no command 'bench-hooks'" in capsys.readouterr().err


def test_fuzz_counts_every_case() -> None:
    report = fuzz(40, seed=7)
    assert report.cases == 40
    assert report.ok, report.failures
    assert "fuzz: 40 cases" in report.summary()
