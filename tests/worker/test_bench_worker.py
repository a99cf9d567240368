"""``second-brain bench worker``: a real worker is fed a synthetic session and its memory is reported.

Only that the figures exist and the worker saw what it was fed: memory and
timing are the benchmark's output, never asserted here.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from sbcore.bench.synthetic import SyntheticSession
from sbcore.cli import main as cli
from sbcore.observe.config import ProjectionConfig
from sbcore.observe.project import Projector

MIB = r"([\d.]+) MiB"


def _figure(pattern: str, out: str) -> float:
    found = re.search(pattern, out, re.M)
    assert found is not None, f"{pattern!r} not in:\n{out}"
    return float(found.group(1))


@pytest.mark.slow
def test_bench_worker_reports_memory_idle_and_after_the_observations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli(["bench", "worker", "--observations", "50", "--settle", "0.3", "--turn-gap", "0.1"]) == 0
    out = capsys.readouterr().out
    idle = _figure(rf"^  idle after start-up\s+{MIB}", out)
    appended = int(_figure(r"^  after (\d+) observations \(\d+ turns, \d+ records\):", out))
    loaded = _figure(rf"^  after \d+ observations .*?:\s+{MIB}", out)
    peak = _figure(rf"^  peak \(VmHWM\):\s+{MIB}", out)
    baseline = _figure(rf'^for scale, bare `python -c "import time; time.sleep\(1\)"`: {MIB}', out)
    assert min(idle, loaded, peak, baseline) > 0
    assert peak >= loaded
    assert re.search(r"\(delta [+-][\d.]+ MiB\)", out)
    assert appended >= 50
    assert int(_figure(r"spooled: (\d+);", out)) == appended
    assert int(_figure(r"observed by the worker: (\d+);", out)) >= appended - 1  # a Stop text may stand in
    assert int(_figure(r"passes run: (\d+);", out)) >= 1
    assert "stopped with SIGTERM: exit 0" in out


def test_the_synthetic_session_is_deterministic_and_has_every_kind_of_observation() -> None:
    def first_turns(count: int) -> list[list[dict[str, Any]]]:
        session = SyntheticSession("5f0c2a8e-3b7d-4c1e-9a6f-2d8b7e4c1a91", "/w")
        return [session.next_turn().records for _ in range(count)]

    turns = first_turns(12)
    assert turns == first_turns(12)
    projector = Projector(ProjectionConfig())
    kinds = Counter(obs.kind for records in turns for obs in projector.feed(records))
    assert {"prompt", "text", "tool", "error"} <= set(kinds)
    assert kinds["prompt"] == 12
    tools = {
        block["name"]
        for records in turns
        for record in records
        if record["type"] == "assistant"
        for block in record["message"]["content"]
        if block["type"] == "tool_use"
    }
    assert {"Read", "Edit", "Bash"} <= tools


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["bench", "worker", "--observations", "0"]) == 2
    assert "--observations >= 1" in capsys.readouterr().err
