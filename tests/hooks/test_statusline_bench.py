"""``second-brain bench statusline``: it times the launcher on a fresh line, the module and the baseline."""

from __future__ import annotations

import re

import pytest

from sbcore.bench.statusline import MIN_RUNS, Figures
from sbcore.cli import main as cli


@pytest.mark.slow
def test_bench_statusline_times_the_launcher_the_module_and_the_baseline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli(["bench", "statusline", "--runs", str(MIN_RUNS)]) == 0
    out = capsys.readouterr().out
    medians = dict(re.findall(r"^\s*(statusline|`python -P|bare)\b.*?median\s+([\d.]+) ms", out, re.M))
    assert set(medians) == {"statusline", "`python -P", "bare"}, out
    assert "the line: SB watching · last turn: repeat-failure advised" in out
    ratio = re.search(r"ratio statusline / python -c pass:\s+([\d.]+)", out)
    assert ratio is not None
    expected = float(medians["statusline"]) / float(medians["bare"])
    assert float(ratio.group(1)) == pytest.approx(expected, abs=0.01)


def test_report_states_the_verdict() -> None:
    assert "meets the <= 0.1 target" in Figures(20, "py", 2.0, 40.0, 30.0, "SB watching").report()
    assert "MISSES the <= 0.1 target" in Figures(20, "py", 35.0, 40.0, 30.0, "SB watching").report()
