"""``second-brain bench recall``: what the recall index costs, on a synthetic notes tree.

A scratch workspace gets ``notes`` Markdown files of ``sections`` sections each under ``docs/decisions/``
(words drawn from a fixed vocabulary with a seeded generator, so two runs build the same tree). Measured, in
one process and a scratch data directory: the first full index, a refresh with nothing changed (the stat-only
path every worker pays every ``recall.refresh_s``), a refresh after one note changed, the index file's size,
and the median and 95th percentile of a search and of one call of the ``recall_offers`` trigger (what a pass
pays). Figures, never pass or fail.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sbcore.conductor.recall_index import RecallSettings, recall_window, refresh_workspace
from sbcore.observe.model import Observation
from sbcore.state.recall import RecallReader, index_path

_WORDS = (
    "pool connection timeout retry cache invalidate migration schema index deadlock replica queue worker "
    "token session cookie header proxy gateway latency throughput shard partition lock mutex thread async "
    "await future promise callback handler route middleware template render compile bundle import module "
    "package version pin upgrade rollback deploy release canary flag toggle config secret vault certificate"
)
_VOCABULARY = _WORDS.split()
_ERRORS = ("TimeoutError", "ConnectionRefusedError", "KeyError", "ModuleNotFoundError", "DeadlockDetected")


@dataclass(frozen=True)
class RecallFigures:
    """The measured figures (seconds unless named otherwise)."""

    notes: int
    sections: int
    chunks: int
    first_index_s: float
    unchanged_refresh_s: float
    one_changed_refresh_s: float
    index_bytes: int
    search_p50_ms: float
    search_p95_ms: float
    trigger_p50_ms: float
    trigger_p95_ms: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def report(self) -> str:
        return "\n".join(
            [
                f"recall index of {self.notes} notes x {self.sections} sections ({self.chunks} chunks)",
                f"  first index            {self.first_index_s:8.3f} s",
                f"  refresh, none changed  {self.unchanged_refresh_s:8.3f} s",
                f"  refresh, one changed   {self.one_changed_refresh_s:8.3f} s",
                f"  index file             {self.index_bytes / 1_048_576:8.2f} MiB",
                f"  search       p50 {self.search_p50_ms:7.2f} ms   p95 {self.search_p95_ms:7.2f} ms",
                f"  trigger call p50 {self.trigger_p50_ms:7.2f} ms   p95 {self.trigger_p95_ms:7.2f} ms",
            ]
        )


def bench_recall(notes: int, sections: int, queries: int, *, seed: int = 7) -> RecallFigures:
    """Build, refresh and query a synthetic notes tree in scratch directories (see the module docstring)."""
    from sbcore.packs.manager import get_plugin_manager

    trigger = get_plugin_manager().registry.triggers["recall_offers"]  # as a pass calls it: time-bounded
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="sb-bench-recall-") as scratch:
        root, data = Path(scratch) / "repo", Path(scratch) / "data"
        folder = root / "docs" / "decisions"
        folder.mkdir(parents=True)
        for number in range(notes):
            (folder / f"{number:05d}.md").write_text(_note(rng, number, sections))
        settings = RecallSettings(advisories=False, max_files=max(notes, 1))
        first = _timed(lambda: refresh_workspace(root, settings, data=data))
        unchanged = _timed(lambda: refresh_workspace(root, settings, data=data))
        (folder / "00000.md").write_text(_note(rng, notes + 1, sections))
        one = _timed(lambda: refresh_workspace(root, settings, data=data))
        path = index_path(root, data)
        reader = RecallReader(path)
        with reader.connect() as conn:
            chunks = int(conn.execute("SELECT count(*) FROM recall_chunks").fetchone()[0])
        searches, calls = [], []
        for _ in range(queries):
            words = rng.sample(_VOCABULARY, 4)
            started = time.perf_counter()
            reader.search(words, limit=12)
            searches.append(time.perf_counter() - started)
            window = recall_window(root, settings, data=data)
            failure = _failure(rng)
            started = time.perf_counter()
            trigger.invoke(failure, {}, {}, recall=window)
            calls.append(time.perf_counter() - started)
        return RecallFigures(
            notes=notes,
            sections=sections,
            chunks=chunks,
            first_index_s=first,
            unchanged_refresh_s=unchanged,
            one_changed_refresh_s=one,
            index_bytes=path.stat().st_size,
            search_p50_ms=_ms(statistics.median(searches)),
            search_p95_ms=_ms(_p95(searches)),
            trigger_p50_ms=_ms(statistics.median(calls)),
            trigger_p95_ms=_ms(_p95(calls)),
        )


def _note(rng: random.Random, number: int, sections: int) -> str:
    parts = [f"# Decision {number}\n"]
    for section in range(sections):
        error = rng.choice(_ERRORS)
        words = " ".join(rng.choices(_VOCABULARY, k=60))
        parts.append(f"## {error} in {rng.choice(_VOCABULARY)} {section}\n\n{words}.\n")
    return "\n".join(parts)


def _failure(rng: random.Random) -> list[Observation]:
    line = f"{rng.choice(_ERRORS)}: " + " ".join(rng.sample(_VOCABULARY, 6))
    return [
        Observation(kind="tool", tool="Bash", tool_use_id="t1", args={"command": "pytest"}, text="pytest"),
        Observation(kind="error", tool="Bash", tool_use_id="t1", text=f"Exit code 1\n{line}"),
    ]


def _timed(action: Any) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)
