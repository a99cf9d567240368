"""The provider benchmark: the ``claude-code`` provider beside the direct ``anthropic`` one, on the same fake.

Both providers answer the same passes of tool-less detectors from the same loopback fake (the claude CLI is
pointed at it with ``ANTHROPIC_BASE_URL``, in a scratch HOME, so no login of the user's is used). For each
provider and each width (1 detector, then N), the median pass wall over ``repeat`` passes after one warm-up
pass, and the fake's cache accounting of every request of those passes: how many prompt tokens were served
from cache. For the CLI also the process start cost (spawn to its ``init`` event, per fork) and the peak
resident memory of the fork processes: the largest single process, and the sum of all of them at once
(the CLI plus the relay server it starts), sampled from ``/proc`` every 50 ms. Linux only for memory.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sbcore.bench.lenses import bench_detectors
from sbcore.conductor import assembly
from sbcore.observe.model import Observation
from sbcore.testing import FakeProvider
from sbcore.think.pass_ import EngineSettings
from sbcore.think.providers.anthropic import AnthropicProvider
from sbcore.think.providers.base import Provider, ProviderSettings, RetryPolicy, Secret
from sbcore.think.providers.claude_code import ClaudeCodeOptions, ClaudeCodeProvider

MODEL = "claude-haiku-4-5"
SAMPLE_S = 0.05


@dataclass
class Width:
    """One provider at one width: pass walls and the fake's token accounting of those passes."""

    detectors: int
    walls_s: list[float]
    prompt_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    offline_because: list[str] = field(default_factory=list)

    @property
    def median_s(self) -> float:
        return statistics.median(self.walls_s) if self.walls_s else 0.0

    @property
    def cached_share(self) -> float:
        return self.cache_read_tokens / self.prompt_tokens if self.prompt_tokens else 0.0


@dataclass
class ProviderFigures:
    name: str
    widths: list[Width]
    start_s: list[float] = field(default_factory=list)
    peak_process_kib: int = 0
    peak_total_kib: int = 0
    max_parallel_forks: int = 0

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for width, raw in zip(self.widths, out["widths"], strict=True):
            raw["median_s"] = round(width.median_s, 3)
            raw["cached_share"] = round(width.cached_share, 3)
        if self.start_s:
            out["start_median_s"] = round(statistics.median(self.start_s), 3)
        return out


def episode(number: int) -> list[Observation]:
    return [
        Observation("text", f"[text] pass {number} step {step}: reading the parser, running the tests again")
        for step in range(8)
    ]


class ProcessSampler:
    """Peak RSS of this process's descendants, sampled from /proc on a thread while a pass runs."""

    def __init__(self) -> None:
        self.peak_process_kib = 0
        self.peak_total_kib = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ProcessSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_S):
            sizes = [rss for rss in map(_rss_kib, descendants(os.getpid())) if rss]
            if sizes:
                self.peak_process_kib = max(self.peak_process_kib, max(sizes))
                self.peak_total_kib = max(self.peak_total_kib, sum(sizes))


def descendants(root: int) -> list[int]:
    """Every live process below ``root`` (from each /proc/<pid>/stat's parent field)."""
    parents: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        parents[int(entry.name)] = int(fields[1])
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return 0
    return 0


@contextmanager
def cli_environment(fake: FakeProvider, claude: str) -> Iterator[dict[str, str]]:
    """A scratch HOME and the fake as the CLI's backend: the bench never uses the user's login."""
    with tempfile.TemporaryDirectory(prefix="sbcore-bench-cc-") as home:
        path = f"{Path(claude).parent}{os.pathsep}{os.environ.get('PATH', os.defpath)}"
        env = {
            "HOME": home,
            "PATH": path,
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            **fake.env("anthropic"),
            "ANTHROPIC_API_KEY": "bench",
        }
        if os.geteuid() == 0:
            env["IS_SANDBOX"] = "1"
        yield env


async def measure(
    provider: Provider, fake: FakeProvider, widths: Sequence[int], repeat: int, parallel: int
) -> list[Width]:
    """Median pass walls per width, and the fake's token accounting of the measured passes."""
    out = []
    for count in widths:
        engine = assembly.pass_engine(
            bench_detectors(count),
            provider,
            settings=EngineSettings(fork_deadline_s=60, fork_grace_s=5, max_parallel_forks=parallel),
        )
        await engine.run_pass(episode(0))  # warm-up: start-up and the first cache write stay out
        before = len(fake.requests)
        width = Width(count, [])
        for number in range(1, repeat + 1):
            started = time.perf_counter()
            result = await engine.run_pass(episode(number))
            width.walls_s.append(time.perf_counter() - started)
            if result.offline_because:
                width.offline_because.append(result.offline_because)
        for request in fake.requests[before:]:
            if request.usage is None:
                continue
            width.prompt_tokens += (
                request.usage.input_tokens
                + request.usage.cache_read_tokens
                + request.usage.cache_write_tokens
            )
            width.cache_read_tokens += request.usage.cache_read_tokens
            width.cache_write_tokens += request.usage.cache_write_tokens
        out.append(width)
    return out


def bench_providers(
    claude: str, *, wide: int = 8, repeat: int = 2, latency_ms: int = 300
) -> list[ProviderFigures]:
    """The direct provider, then the claude-code provider, over the same fake and the same passes."""
    widths = (1, wide)
    with FakeProvider(latency_ms=latency_ms) as fake:
        direct = AnthropicProvider(
            ProviderSettings(
                "anthropic",
                MODEL,
                base_url=fake.anthropic_base_url,
                api_key=Secret("bench"),
                retry=RetryPolicy(max_retries=0),
            )
        )
        figures = [ProviderFigures("anthropic", asyncio.run(measure(direct, fake, widths, repeat, wide)))]
        fake.reset_cache()
        with cli_environment(fake, claude) as env:
            options = ClaudeCodeOptions(min_interval_s=0, tokens_per_hour=10**12, max_budget_usd=5.0)
            cli = ClaudeCodeProvider(ProviderSettings("claude-code", MODEL), options, env=env)
            with ProcessSampler() as sampler:
                measured = asyncio.run(measure(cli, fake, widths, repeat, wide))
            figures.append(
                ProviderFigures(
                    "claude-code",
                    measured,
                    list(cli.start_costs),
                    sampler.peak_process_kib,
                    sampler.peak_total_kib,
                    cli.max_parallel_forks,
                )
            )
    return figures


def report(figures: Sequence[ProviderFigures], latency_ms: int, repeat: int) -> str:
    lines = [
        f"fake model latency {latency_ms} ms per call; median of {repeat} passes per width after a warm-up"
    ]
    for item in figures:
        parallel = f", {item.max_parallel_forks} forks at once" if item.max_parallel_forks else ""
        lines.append(f"{item.name}{parallel}:")
        for width in item.widths:
            offline = f"  (offline: {width.offline_because[0]})" if width.offline_because else ""
            lines.append(
                f"  {width.detectors:>2} detector{'s' if width.detectors != 1 else ' '}: "
                f"pass {width.median_s:7.3f} s"
                f"  prompt tokens {width.prompt_tokens:>7}, from cache {width.cache_read_tokens:>7}"
                f" ({width.cached_share:.0%}), written {width.cache_write_tokens:>6}{offline}"
            )
        if item.start_s:
            lines.append(
                f"  process start (spawn to session): median {statistics.median(item.start_s):.2f} s, "
                f"max {max(item.start_s):.2f} s over {len(item.start_s)} forks"
            )
        if item.peak_process_kib:
            lines.append(
                f"  peak RSS: {item.peak_process_kib / 1024:.0f} MiB largest process, "
                f"{item.peak_total_kib / 1024:.0f} MiB all fork processes at once"
            )
    return "\n".join(lines)
