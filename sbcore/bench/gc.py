"""``second-brain bench gc``: does the sweep keep the data directory under its cap across many sessions?

Simulates a machine where a script starts session after session: each leaves the files a real session leaves
(spool, events, history, worker log, status and state, offsets) and a ledger row, stamped with a simulated
clock one minute apart, and a worker's sweep runs every ``every`` sessions, as a running worker's timer
would. Prints the data directory's size before and after each sweep (the peak, the final figure) against the
cap, and the time the sweeps took. Figures only; the test suite checks the cap on a smaller count.
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore import paths
from sbcore.state import db
from sbcore.state import ledger as store
from sbcore.worker.retention import Limits, sweep

SESSION_SPACING_S = 60.0


@dataclass
class GcFigures:
    """What one simulated run measured."""

    sessions: int
    cap_bytes: int
    written_bytes: int = 0
    peak_bytes: int = 0
    final_bytes: int = 0
    sweeps: int = 0
    sweep_seconds: list[float] = field(default_factory=list)
    removed_sessions: int = 0
    removed_ledgers: int = 0
    over_cap_after_sweep: int = 0
    wall_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "cap_bytes": self.cap_bytes,
            "written_bytes": self.written_bytes,
            "peak_bytes": self.peak_bytes,
            "final_bytes": self.final_bytes,
            "sweeps": self.sweeps,
            "sweep_median_s": round(statistics.median(self.sweep_seconds), 4) if self.sweep_seconds else 0,
            "sweep_max_s": round(max(self.sweep_seconds), 4) if self.sweep_seconds else 0,
            "removed_sessions": self.removed_sessions,
            "removed_ledgers": self.removed_ledgers,
            "over_cap_after_sweep": self.over_cap_after_sweep,
            "wall_s": round(self.wall_s, 2),
        }

    def render(self) -> str:
        body = self.to_json()
        return "\n".join(
            [
                f"gc bench: {self.sessions:,} simulated sessions, data cap {self.cap_bytes:,} bytes",
                f"  written in total       {self.written_bytes:,} bytes",
                f"  peak (before a sweep)  {self.peak_bytes:,} bytes",
                f"  final (after the last) {self.final_bytes:,} bytes",
                f"  sweeps                 {self.sweeps} "
                f"(median {body['sweep_median_s']} s, max {body['sweep_max_s']} s)",
                f"  removed                {self.removed_sessions:,} sessions, "
                f"{self.removed_ledgers:,} ledgers",
                f"  over the cap after a sweep: {self.over_cap_after_sweep} times",
                f"  wall time              {self.wall_s:.1f} s",
            ]
        )


def write_session(
    data: Path, conn: sqlite3.Connection, key: str, at: float, *, spool_bytes: int, workspace: str
) -> int:
    """The files one session leaves, stamped ``at``; returns their size."""
    files = {
        data / "spool" / f"{key}.jsonl": b'{"kind":"text","text":"' + b"x" * spool_bytes + b'"}\n',
        data / "events" / f"{key}.jsonl": b'{"event":"session_start","source":"startup"}\n' * 20,
        data / "history" / f"{key}.jsonl": b'{"v":1,"stage":"gate","action":"drop"}\n' * 30,
        data / "logs" / f"worker-{key}.log": b"pass 1 (turn_end): 3 silent\n" * 60,
        data / "status" / f"{key}.json": b'{"v":1,"state":"exited"}\n',
        data / "workers" / f"{key}.state.json": b'{"v":1,"spool_offset":0,"events_offset":0}\n',
        data / "offsets" / key / "main.json": b'{"v":1,"offset":0}\n',
    }
    size = 0
    for path, body in files.items():
        paths.ensure_private_dir(path.parent)
        fd = paths.open_private(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        try:
            os.write(fd, body)  # no fsync: the bench measures the sweep, not the disk
        finally:
            os.close(fd)
        os.utime(path, (at, at))
        size += len(body)
    ledger = store.Ledger(key, key, workspace, goal=f"goal of {key}", facts=[f"fact of {key}"] * 3)
    store.save(conn, ledger, at)
    return size


def directory_size(data: Path) -> int:
    """Bytes of every file under ``data``."""
    total = 0
    for folder, _dirs, names in os.walk(data):
        for name in names:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                continue
    return total


def run_gc_bench(
    data: Path,
    sessions: int,
    limits: Limits,
    *,
    every: int = 100,
    spool_bytes: int = 8000,
    workspaces: int = 20,
) -> GcFigures:
    """Write ``sessions`` sessions into ``data``, sweeping every ``every``; the figures."""
    figures = GcFigures(sessions=sessions, cap_bytes=limits.data_max_bytes)
    started = time.monotonic()
    clock = time.time() - sessions * SESSION_SPACING_S
    conn = store.prepare(db.connect(db.db_path(data)))
    conn.execute("PRAGMA synchronous=OFF")
    try:
        for number in range(sessions):
            clock += SESSION_SPACING_S
            key = f"sim-{number:06d}"
            workspace = f"/work/project-{number % workspaces}"
            figures.written_bytes += write_session(
                data, conn, key, clock, spool_bytes=spool_bytes, workspace=workspace
            )
            if (number + 1) % every == 0 or number + 1 == sessions:
                _sweep(data, limits, clock, figures)
    finally:
        conn.close()
    figures.wall_s = time.monotonic() - started
    return figures


def _sweep(data: Path, limits: Limits, clock: float, figures: GcFigures) -> None:
    """One sweep at simulated time ``clock``, measured."""
    figures.peak_bytes = max(figures.peak_bytes, directory_size(data))
    report = sweep(data, limits, now=clock)
    figures.sweeps += 1
    figures.sweep_seconds.append(report.seconds)
    figures.removed_sessions += len(report.removed_sessions)
    figures.removed_ledgers += len(report.removed_ledgers)
    figures.final_bytes = directory_size(data)
    if figures.final_bytes > limits.data_max_bytes:
        figures.over_cap_after_sweep += 1
