"""The statusline benchmark: what one status-bar refresh costs, against a bare ``python -c pass``.

Claude Code runs the statusline command on every refresh, so its cost is a process start plus
whatever the line reads. Timed the way :mod:`sbcore.bench.hooks` times the hooks (wall clock around a
subprocess, the statusline JSON piped to its stdin, kinds rotating in blocks within one run so load
that comes and goes hits them alike, medians), in a scratch data directory holding a live worker's
status file and a turn-end report, so the line read is a full one:

- ``plugin/bin/sb-statusline`` as the settings run it: the shell launcher printing the line the worker
  rendered (:mod:`sbcore.state.status_line`), which starts no Python while that line is fresh;
- ``python -P -m sbcore.hooks.statusline`` alone: what a refresh costs when the line is stale or missing;
- ``python -c pass``, the floor of anything written in Python; the ratio is the launcher's to it.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sbcore.bench.hooks import BLOCK, SESSION, _hook_environment, _timed

MIN_RUNS = 20
TARGET = 0.1
"""A refresh while the worker's line is fresh, as a share of ``python -c pass`` (issue 26)."""


def default_launcher() -> Path:
    """The checkout's ``plugin/bin/sb-statusline``."""
    return Path(__file__).resolve().parents[2] / "plugin" / "bin" / "sb-statusline"


@dataclass
class Figures:
    """Medians in milliseconds, and the line the launcher printed."""

    runs: int
    python: str
    launcher_ms: float
    module_ms: float
    bare_ms: float
    line: str

    @property
    def ratio(self) -> float:
        return self.launcher_ms / self.bare_ms

    @property
    def verdict(self) -> str:
        return "meets" if self.ratio <= TARGET else "MISSES"

    def report(self) -> str:
        return "\n".join(
            [
                f"statusline (plugin/bin/sb-statusline):  median {self.launcher_ms:8.2f} ms  (n={self.runs})",
                f"  `python -P -m sbcore.hooks.statusline` alone:  median {self.module_ms:8.2f} ms",
                f"bare `{self.python} -c pass`:  median {self.bare_ms:8.2f} ms  (n={self.runs})",
                f"ratio statusline / python -c pass:  {self.ratio:.2f}"
                f"  ({self.verdict} the <= {TARGET} target)",
                f"the line: {self.line}",
            ]
        )


def bench(launcher: Path, python: str, runs: int) -> Figures:
    """Time the launcher, the module alone and the baseline, in rotating blocks of :data:`BLOCK`."""
    with tempfile.TemporaryDirectory(prefix="sbcore-bench-") as scratch:
        root = Path(scratch)
        project = root / "project"
        project.mkdir()
        environment = _hook_environment(root, python)
        _seed(Path(environment["SBCORE_DATA_DIR"]))
        workspace = {"current_dir": str(project), "project_dir": str(project)}
        payload = json.dumps(
            {
                "session_id": SESSION,
                "cwd": str(project),
                "workspace": workspace,
                "model": {"id": "claude-opus-5-5", "display_name": "Opus"},
                "version": "2.1.328",
            }
        ).encode()
        commands = {
            "launcher": [str(launcher)],
            "module": [python, "-P", "-m", "sbcore.hooks.statusline"],
            "bare": [python, "-c", "pass"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        line = ""
        while len(times["launcher"]) < runs:
            for name, command in commands.items():
                for _ in range(min(BLOCK, runs - len(times[name]))):
                    elapsed, out = _timed(command, payload, environment, project)
                    if name == "launcher":
                        line = out.strip()
                    times[name].append(elapsed)
        if not line.startswith("SB "):
            raise RuntimeError(f"the statusline printed {line[:200]!r}, not a Second Brain line")
        return Figures(
            runs,
            python,
            statistics.median(times["launcher"]) * 1000,
            statistics.median(times["module"]) * 1000,
            statistics.median(times["bare"]) * 1000,
            line,
        )


def _seed(data: Path) -> None:
    """A live worker's status file (this process stands in for it) and a turn-end report, written as the
    worker writes them: each renders the status-bar line the launcher prints while it is fresh."""
    from sbcore.state import turns
    from sbcore.worker import turn_report
    from sbcore.worker.status import StatusFile

    now = time.time()
    verdicts: list[dict[str, Any]] = [
        {
            "detector": "repeat-failure",
            "label": "advise",
            "headline": "The same pytest command failed three times unchanged",
            "gate": {"action": "deliver_agent", "reason": "passed"},
            "advice_id": "bench-1",
        },
        {"detector": "default", "label": "silent", "headline": None},
    ]
    status = StatusFile(data, SESSION, host="bench")
    status.update(
        state="watching",
        pid=os.getpid(),
        last_pass={"number": 3, "turn_end": True, "started_at": now - 5, "verdicts": verdicts},
        policy={"budget": {"task": 19_000_000, "hour": 2_500_000, "hour_fraction": 0.84}, "last": None},
    )
    report = {"session_id": SESSION, "task_id": SESSION, "pass": 3, "at": now, "verdicts": verdicts}
    turn_report.record(data, {**report, "line": turns.outcome(verdicts)}, show=False)
