"""``second-brain bench``: the figures the engine's claims rest on, measured, never asserted.

- ``fanout``: wall time of a pass with one detector against a pass with N tool-less detectors, every model
  call answered by the loopback fake provider after a fixed latency. Pilot then fan-out should cost about
  two calls' time, not N.
- ``cache``: the fake provider's prompt-cache accounting over consecutive passes: how much of the forks'
  shared prefix is read from cache, who writes it, and whether every prefix extends the previous one
  (both: :mod:`sbcore.bench.passes`).
- ``replay-vs-measure``: offline replay of transcripts against ``second-brain measure`` on the same files in
  the same run; with ``--labels``, the structural detectors' precision and recall too.
- ``replay-jobs``: offline replay of the same transcripts serially and with ``-j N``, in the same run:
  sessions per second each, and whether the two outputs are identical.
- ``hooks``: the hook launcher's fast path against a bare ``python -c pass`` (median of at least 20 runs
  each, same run) and a drain with mail; with ``--fuzz N``, N generated hook calls checked
  (:mod:`sbcore.bench.hooks`, :mod:`sbcore.testing.hookcases`).
- ``worker``: a real session worker's RSS idle and after N observations of a synthetic session, beside a bare
  interpreter's (:mod:`sbcore.bench.worker`).
- ``provider``: the ``claude-code`` provider (forks through the claude CLI) beside the direct ``anthropic``
  one on the same fake: pass walls, cache reads, process start cost, RSS (:mod:`sbcore.bench.provider`).
- ``hostile``: ``config show``, ``project``, ``measure`` and ``replay`` on hostile inputs (an alias bomb, a
  deeply nested line, a half-written line, FIFOs, a large transcript): exit status, wall time, peak RSS and
  whether a traceback escaped (:mod:`sbcore.bench.hostile`).
- ``secrets``: gitleaks' own true-positive fixtures, read from a checkout the user gives, through ``redact``:
  how many come out redacted (:mod:`sbcore.bench.secrets`).
- ``gc``: N simulated sessions written into a scratch data directory, the worker's sweep every 100: the
  peak and final size against ``ledger.data_max_bytes``, the sweeps' time (:mod:`sbcore.bench.gc`).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sbcore.packs.model import DetectorDef


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure fan-out, prompt-cache reuse, replay speed, hook latency, worker memory and recall",
        description="Benchmarks of the pass engine, the hooks and the worker: figures, never pass or fail.",
    )
    parser.set_defaults(func=lambda _args: _usage(parser))
    kinds = parser.add_subparsers(dest="bench", metavar="BENCH")

    fanout = kinds.add_parser("fanout", help="pass wall time: 1 detector vs N, at a fixed model latency")
    fanout.add_argument("--detectors", type=int, default=8, help="detectors in the wide pass (default 8)")
    fanout.add_argument(
        "--latency-ms", type=int, default=300, help="fake model latency per call (default 300)"
    )
    fanout.add_argument("--repeat", type=int, default=5, help="passes measured per width; median (default 5)")
    fanout.add_argument("--json", action="store_true")
    fanout.set_defaults(func=_fanout)

    cache = kinds.add_parser("cache", help="prompt-cache reads and writes over consecutive passes")
    cache.add_argument("--detectors", type=int, default=8, help="detectors per pass (default 8)")
    cache.add_argument("--passes", type=int, default=10, help="consecutive passes (default 10)")
    cache.add_argument("--min-cacheable", type=int, default=1024, help="provider minimum cacheable tokens")
    cache.add_argument("--json", action="store_true")
    cache.set_defaults(func=_cache)

    replay = kinds.add_parser(
        "replay-vs-measure", help="offline replay time against `measure` on the same files"
    )
    replay.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="transcripts or directories")
    replay.add_argument("--labels", type=Path, metavar="FILE", help="also score these labelled cases")
    replay.add_argument("--corpus", type=Path, metavar="DIR", help="where `corpus:` label references point")
    replay.add_argument("--repeat", type=int, default=5, help="measure's throughput runs (its default, 5)")
    replay.add_argument("--json", action="store_true")
    replay.set_defaults(func=_replay_vs_measure)
    topic = kinds.add_parser(
        "topic", help="drift and stall: cost per observation at two task lengths (linear or not)"
    )
    topic.add_argument(
        "--observations", type=int, default=2000, metavar="N", help="the short task (default 2000)"
    )
    topic.add_argument(
        "--every", type=int, default=10, metavar="K", help="a pass every K observations (default 10)"
    )
    topic.add_argument("--json", action="store_true")
    topic.set_defaults(func=_topic)
    jobs = kinds.add_parser(
        "replay-jobs", help="offline replay sessions/s, serial against -j N, on the same files"
    )
    jobs.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="transcripts or directories")
    jobs.add_argument("-j", "--jobs", type=int, default=2, help="parallel sessions (default 2)")
    jobs.add_argument("--repeat", type=int, default=3, help="runs of each, the best one counts (default 3)")
    jobs.add_argument("--json", action="store_true")
    jobs.set_defaults(func=_replay_jobs)

    _register_hooks(kinds)
    _register_statusline(kinds)
    _register_worker(kinds)
    _register_provider(kinds)
    _register_secrets(kinds)

    recall = kinds.add_parser(
        "recall", help="recall index: build, refresh and search times and size on a synthetic notes tree"
    )
    recall.add_argument("--notes", type=int, default=500, help="note files (default 500)")
    recall.add_argument("--sections", type=int, default=8, help="sections per note (default 8)")
    recall.add_argument(
        "--queries", type=int, default=200, help="searches and trigger calls timed (default 200)"
    )
    recall.add_argument("--json", action="store_true")
    recall.set_defaults(func=_recall)

    hostile = kinds.add_parser(
        "hostile",
        help="config show / project / measure / replay on hostile inputs: wall time, peak RSS, tracebacks",
    )
    hostile.add_argument(
        "--size-mb",
        type=int,
        nargs="+",
        default=[200],
        metavar="MB",
        help="sizes of the large transcripts in MB, one case each (default 200; 0: leave them out)",
    )
    hostile.add_argument("--json", action="store_true")
    hostile.set_defaults(func=_hostile)

    gc = kinds.add_parser("gc", help="the sweep across N simulated sessions: data directory size vs its cap")
    gc.add_argument("--sessions", type=int, default=10_000, help="simulated sessions (default 10,000)")
    gc.add_argument("--cap-mb", type=float, default=16.0, help="ledger.data_max_bytes in MiB (default 16)")
    gc.add_argument("--every", type=int, default=100, help="sessions between sweeps (default 100)")
    gc.add_argument("--spool-bytes", type=int, default=8000, help="spool bytes per session (default 8000)")
    gc.add_argument("--json", action="store_true")
    gc.set_defaults(func=_gc)


def _register_hooks(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from sbcore.bench.hooks import MIN_RUNS

    hooks = kinds.add_parser(
        "hooks",
        help="hook fast path vs `python -c pass`, a drain with mail; optionally fuzz the hooks",
        description=(
            "Time the hook launcher's fast path (no mail) against a bare `python -c pass` and "
            "`/bin/true`, median of --runs each within one run, and a drain with mail; print the "
            "figures and the ratio. With --fuzz N, also run N generated hook calls and check each "
            "one's exit status, output and file permissions."
        ),
    )
    hooks.add_argument("--runs", type=int, default=25, help=f"timed runs of each (at least {MIN_RUNS})")
    hooks.add_argument(
        "--python",
        metavar="PATH",
        help="interpreter for the `-c pass` baseline and the hooks (default: the one running this command)",
    )
    hooks.add_argument("--launcher", type=Path, metavar="PATH", help="plugin/bin/sb-hook to time")
    hooks.add_argument("--fuzz", type=int, default=0, metavar="N", help="also run N fuzzed hook calls")
    hooks.add_argument("--seed", type=int, help="seed for --fuzz (default: random)")
    hooks.set_defaults(func=_hooks)


def _register_statusline(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from sbcore.bench.statusline import MIN_RUNS

    statusline = kinds.add_parser(
        "statusline",
        help="one status-bar refresh (plugin/bin/sb-statusline) vs `python -c pass`",
        description=(
            "Time plugin/bin/sb-statusline as Claude Code's settings run it, the Python module alone, and "
            "a bare `python -c pass`, in rotating blocks within one run, over a scratch data directory with "
            "a live status file and a turn-end report; print the medians and the ratio."
        ),
    )
    statusline.add_argument("--runs", type=int, default=25, help=f"timed runs of each (at least {MIN_RUNS})")
    statusline.add_argument(
        "--python",
        metavar="PATH",
        help="interpreter for the `-c pass` baseline and the statusline (default: the one running this)",
    )
    statusline.add_argument("--launcher", type=Path, metavar="PATH", help="plugin/bin/sb-statusline to time")
    statusline.set_defaults(func=_statusline)


def _register_worker(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    worker = kinds.add_parser(
        "worker",
        help="session worker RSS: idle, and after N observations",
        description=(
            "Start a real session worker (the headless host's command, offline provider, scratch data "
            "directory), read its RSS from /proc when idle, play a synthetic session of N observations "
            "into its transcript and hooks' events, and read RSS and the peak again once it has spooled "
            "everything and run its passes; then stop it with SIGTERM. A bare `python -c` sleeping is "
            "read the same way for scale. Linux only."
        ),
    )
    worker.add_argument(
        "--observations", type=int, default=1000, metavar="N", help="observations to feed (default 1000)"
    )
    worker.add_argument("--python", metavar="PATH", help="interpreter to run the worker (default: this one)")
    worker.add_argument(
        "--turn-gap", type=float, default=0.3, metavar="S", help="seconds between turns (default 0.3)"
    )
    worker.add_argument(
        "--settle", type=float, default=2.0, metavar="S", help="idle seconds before each reading (default 2)"
    )
    worker.add_argument(
        "--timeout", type=float, default=300.0, metavar="S", help="give up catching up after (default 300)"
    )
    worker.add_argument("--json", action="store_true")
    worker.set_defaults(func=_worker)


def _register_secrets(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from sbcore.bench.secrets import PINNED_COMMIT

    secrets = kinds.add_parser(
        "secrets",
        help="gitleaks' own fixtures (from a checkout you give) through redaction: how many are redacted",
        description=(
            "Read the true-positive fixtures of every rule in a gitleaks checkout "
            "(cmd/generate/config/rules/*.go, string literals only), run each through the redaction every "
            "store applies, and print how many come out with their secret gone, and each that does not. "
            f"The published figure is measured at gitleaks {PINNED_COMMIT}."
        ),
    )
    secrets.add_argument("checkout", type=Path, metavar="GITLEAKS_CHECKOUT", help="a gitleaks work tree")
    secrets.add_argument(
        "--fail-under",
        type=float,
        metavar="RATIO",
        help="exit 1 when fewer than this share of the fixtures are redacted (0..1)",
    )
    secrets.add_argument("--json", action="store_true")
    secrets.set_defaults(func=_secrets)


def _register_provider(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    provider = kinds.add_parser(
        "provider",
        help="claude-code (forks through the claude CLI) beside the direct anthropic provider, same fake",
        description=(
            "Run the same passes of tool-less detectors through the direct anthropic provider and through "
            "the claude-code provider (the claude CLI pointed at the loopback fake, in a scratch HOME): "
            "pass wall for 1 and N detectors, prompt tokens served from cache, the CLI's process start "
            "cost and the fork processes' peak RSS."
        ),
    )
    provider.add_argument("--claude", metavar="PATH", help="the claude CLI to run (default: claude on PATH)")
    provider.add_argument("--detectors", type=int, default=8, help="detectors in the wide pass (default 8)")
    provider.add_argument("--repeat", type=int, default=2, help="passes measured per width (default 2)")
    provider.add_argument("--latency-ms", type=int, default=300, help="fake model latency (default 300)")
    provider.add_argument("--json", action="store_true")
    provider.set_defaults(func=_provider_bench)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


# -- fanout and cache (sbcore.bench.passes) --------------------------------------------------------------


def _fanout(args: argparse.Namespace) -> int:
    if args.detectors < 2 or args.repeat < 1 or args.latency_ms < 0:
        print(
            "second-brain bench fanout: --detectors >= 2, --repeat >= 1, --latency-ms >= 0", file=sys.stderr
        )
        return 2
    from sbcore.bench.passes import fanout

    result = fanout(args.latency_ms, args.detectors, args.repeat)
    if args.json:
        _print_json(result)
    else:
        one, many = result["one_detector_s"], result["n_detectors_s"]
        print(
            f"fake model latency {args.latency_ms} ms per call, median of {args.repeat} passes each "
            f"(after one warm-up pass)\n"
            f"  1 detector:  {one:.3f} s\n"
            f"  {args.detectors} detectors: {many:.3f} s (pilot, then {args.detectors - 1} in parallel)\n"
            f"  ratio {result['ratio']:.2f}"
        )
    return 0


def _cache(args: argparse.Namespace) -> int:
    if args.detectors < 1 or args.passes < 1:
        print("second-brain bench cache: --detectors and --passes must be at least 1", file=sys.stderr)
        return 2
    from sbcore.bench.passes import cache

    summary = cache(args.detectors, args.passes, args.min_cacheable)
    if args.json:
        _print_json(summary)
        return 0
    print(f"{args.detectors} detectors, {args.passes} passes, provider minimum {args.min_cacheable} tokens")
    head = ("pass", "prefix tok", "cache read", "cache write", "writers", "read share")
    print(" ".join(f"{title:>11}" for title in head))
    for row in summary["passes_detail"]:
        share = f"{row['read_share']:.3f}" if row["cacheable"] else "(too short)"
        cells = (row["pass"], row["prefix_tokens"], row["cache_read"], row["cache_write"], row["writers"])
        print(" ".join(f"{cell:>11,}" for cell in cells) + f" {share:>11}")
    share = summary["read_share"]
    print(
        f"cache reads cover {share if share is not None else 'n/a'} of the forks' prefix tokens "
        f"(target (N-1)/N = {summary['target_share']}); prefixes identical across forks: "
        f"{summary['identical_across_forks']}; each pass extends the previous: {summary['append_only']}"
    )
    return 0


# -- replay vs measure ------------------------------------------------------------------------------------


def _replay_vs_measure(args: argparse.Namespace) -> int:
    from sbcore.observe.measure import measure, transcript_files

    try:
        files = transcript_files(args.paths)
    except FileNotFoundError as exc:
        print(f"second-brain bench replay-vs-measure: {exc}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    measure(files, repeat=args.repeat)
    measure_s = time.perf_counter() - started
    started = time.perf_counter()
    sessions, passes = asyncio.run(_replay_offline(files))
    replay_s = time.perf_counter() - started
    result: dict[str, Any] = {
        "files": len(files),
        "measure_s": round(measure_s, 3),
        "measure_repeat": args.repeat,
        "replay_s": round(replay_s, 3),
        "ratio": round(replay_s / measure_s, 3) if measure_s else None,
        "passes": passes,
    }
    scores = asyncio.run(_scores(args.labels, args.corpus)) if args.labels is not None else None
    if scores is not None:
        result["labels"] = {name: score.to_json() for name, score in scores.items()}
    if args.json:
        _print_json(result)
        return 0
    print(
        f"{len(files)} transcripts: measure {measure_s:.2f} s (repeat {args.repeat}), offline replay "
        f"{replay_s:.2f} s ({sessions} sessions, {passes} passes); replay / measure = {result['ratio']}"
    )
    if scores is not None:
        from sbcore.conductor.labels import render_scores

        print("\n".join(render_scores(scores)))
    return 0


def _offline_replayer(detectors: list[DetectorDef] | None = None) -> Any:
    from sbcore.conductor.assembly import Parts
    from sbcore.conductor.replay import Replayer
    from sbcore.config import load_config
    from sbcore.think.providers import OfflineProvider

    parts = Parts.load(load_config(None))
    return Replayer.of(parts, parts.enabled if detectors is None else detectors, OfflineProvider())


async def _replay_offline(files: list[Path]) -> tuple[int, int]:
    replayer = _offline_replayer()
    passes = 0
    for path in files:
        session = await replayer.replay_file(path)
        passes += session.tally.passes
    return len(files), passes


async def _scores(labels: Path, corpus: Path | None) -> dict[str, Any]:
    from dataclasses import replace

    from sbcore.conductor.assembly import Parts
    from sbcore.conductor.labels import evaluate_labels, load_labels
    from sbcore.config import load_config

    cases = load_labels(labels, corpus)
    detectors = {d.id: d for d in Parts.load(load_config(None)).definitions}
    base = _offline_replayer([])
    return await evaluate_labels(cases, detectors, lambda chosen: replace(base, detectors=chosen))


# -- replay jobs ------------------------------------------------------------------------------------------


def _replay_jobs(args: argparse.Namespace) -> int:
    from sbcore.observe.measure import transcript_files

    if args.jobs < 2 or args.repeat < 1:
        print("second-brain bench replay-jobs: --jobs >= 2, --repeat >= 1", file=sys.stderr)
        return 2
    try:
        files = transcript_files(args.paths)
    except FileNotFoundError as exc:
        print(f"second-brain bench replay-jobs: {exc}", file=sys.stderr)
        return 2
    serial_s, serial = _best_replay(files, 1, args.repeat)
    parallel_s, parallel = _best_replay(files, args.jobs, args.repeat)
    result = {
        "sessions": len(files),
        "jobs": args.jobs,
        "serial_s": round(serial_s, 3),
        "parallel_s": round(parallel_s, 3),
        "serial_sessions_per_s": round(len(files) / serial_s, 2),
        "parallel_sessions_per_s": round(len(files) / parallel_s, 2),
        "speedup": round(serial_s / parallel_s, 3),
        "identical_output": serial == parallel,
    }
    if args.json:
        _print_json(result)
    else:
        print(
            f"{len(files)} transcripts, offline, best of {args.repeat}: serial {serial_s:.2f} s "
            f"({result['serial_sessions_per_s']} sessions/s); -j {args.jobs} {parallel_s:.2f} s "
            f"({result['parallel_sessions_per_s']} sessions/s); speedup x{result['speedup']}; "
            f"identical output: {result['identical_output']}"
        )
    return 0 if serial == parallel else 1


def _best_replay(files: list[Path], jobs: int, repeat: int) -> tuple[float, list[Any]]:
    """The fastest of ``repeat`` offline replays of ``files`` with ``jobs``, and what it produced."""
    from sbcore.conductor.replay import ReplayFailure, replay_many

    best = float("inf")
    produced: list[Any] = []
    for _ in range(repeat):
        replayer = _offline_replayer()
        started = time.perf_counter()
        outcomes = asyncio.run(replay_many(replayer, files, jobs=jobs))
        best = min(best, time.perf_counter() - started)
        produced = [o.message if isinstance(o, ReplayFailure) else o.to_json() for o in outcomes]
    return best, produced


# -- hooks ------------------------------------------------------------------------------------------------


def _hooks(args: argparse.Namespace) -> int:
    from sbcore.bench.hooks import MIN_RUNS, bench, default_launcher

    if args.runs < MIN_RUNS:
        print(f"error: --runs must be at least {MIN_RUNS}", file=sys.stderr)
        return 2
    launcher = args.launcher or default_launcher()
    if not launcher.is_file():
        print(f"error: no hook launcher at {launcher}; pass --launcher", file=sys.stderr)
        return 2
    figures = bench(launcher, args.python or sys.executable, args.runs)
    print(figures.report())
    if args.fuzz > 0:
        from sbcore.testing.hookcases import fuzz

        report = fuzz(args.fuzz, seed=args.seed)
        print(report.summary())
        return 0 if report.ok else 1
    return 0


def _statusline(args: argparse.Namespace) -> int:
    from sbcore.bench.statusline import MIN_RUNS, bench, default_launcher

    if args.runs < MIN_RUNS:
        print(f"error: --runs must be at least {MIN_RUNS}", file=sys.stderr)
        return 2
    launcher = (args.launcher or default_launcher()).resolve()  # the runs start in a scratch directory
    if not launcher.is_file():
        print(f"error: no statusline launcher at {launcher}; pass --launcher", file=sys.stderr)
        return 2
    print(bench(launcher, args.python or sys.executable, args.runs).report())
    return 0


# -- worker -----------------------------------------------------------------------------------------------


def _worker(args: argparse.Namespace) -> int:
    if args.observations < 1 or args.turn_gap < 0 or args.settle < 0 or args.timeout <= 0:
        print(
            "second-brain bench worker: --observations >= 1, --turn-gap and --settle >= 0, --timeout > 0",
            file=sys.stderr,
        )
        return 2
    from sbcore.bench.worker import BenchError, bench_worker

    try:
        figures = bench_worker(
            args.observations,
            python=args.python,
            turn_gap_s=args.turn_gap,
            settle_s=args.settle,
            timeout_s=args.timeout,
        )
    except BenchError as error:
        print(f"second-brain bench worker: {error}", file=sys.stderr)
        return 1
    if args.json:
        _print_json(figures.to_json())
    else:
        print(figures.report())
    return 0 if figures.exit_status == 0 else 1


def _gc(args: argparse.Namespace) -> int:
    from sbcore.bench.gc import run_gc_bench
    from sbcore.state.ledger import SweepLimits
    from sbcore.worker.retention import Limits

    limits = Limits(
        files_ttl_s=14 * 86400,
        data_max_bytes=int(args.cap_mb * 1024 * 1024),
        ledger=SweepLimits(ttl_s=7 * 86400, max_per_workspace=50, max_bytes=32 * 1024 * 1024),
    )
    with tempfile.TemporaryDirectory(prefix="sb-gc-") as scratch:
        figures = run_gc_bench(
            Path(scratch), args.sessions, limits, every=max(1, args.every), spool_bytes=args.spool_bytes
        )
    if args.json:
        _print_json(figures.to_json())
    else:
        print(figures.render())
    return 0


def _provider_bench(args: argparse.Namespace) -> int:
    import shutil

    claude = args.claude or shutil.which("claude")
    if claude is None:
        print("second-brain bench provider: no claude CLI on PATH (give one with --claude)", file=sys.stderr)
        return 2
    if args.detectors < 2 or args.repeat < 1 or args.latency_ms < 0:
        print(
            "second-brain bench provider: --detectors >= 2, --repeat >= 1, --latency-ms >= 0", file=sys.stderr
        )
        return 2
    from sbcore.bench.provider import bench_providers, report

    figures = bench_providers(claude, wide=args.detectors, repeat=args.repeat, latency_ms=args.latency_ms)
    if args.json:
        _print_json([item.to_json() for item in figures])
    else:
        print(report(figures, args.latency_ms, args.repeat))
    return 0


def _topic(args: argparse.Namespace) -> int:
    from sbcore.bench.topic import measure

    rows = [
        cost for count in (args.observations, args.observations * 10) for cost in measure(count, args.every)
    ]
    if args.json:
        _print_json(
            [
                {
                    "trigger": cost.trigger,
                    "observations": cost.observations,
                    "passes": cost.passes,
                    "seconds": round(cost.seconds, 3),
                    "us_per_observation": round(cost.us_per_observation, 1),
                }
                for cost in rows
            ]
        )
        return 0
    print(f"{'trigger':<8}{'observations':>14}{'passes':>8}{'seconds':>9}{'us/observation':>16}")
    for cost in rows:
        print(
            f"{cost.trigger:<8}{cost.observations:>14}{cost.passes:>8}{cost.seconds:>9.2f}"
            f"{cost.us_per_observation:>16.1f}"
        )
    return 0


def _hostile(args: argparse.Namespace) -> int:
    import tempfile

    from sbcore.bench.hostile import as_json, render, run_hostile

    with tempfile.TemporaryDirectory(prefix="sb-hostile-") as scratch:
        sizes = [size * 1_000_000 for size in args.size_mb if size > 0]
        results = run_hostile(Path(scratch), large_bytes=sizes)
    if args.json:
        _print_json(as_json(results))
    else:
        print(render(results))
    return 0


def _recall(args: argparse.Namespace) -> int:
    if args.notes < 1 or args.sections < 1 or args.queries < 1:
        print(
            "second-brain bench recall: --notes, --sections and --queries must be at least 1", file=sys.stderr
        )
        return 2
    from sbcore.bench.recall import bench_recall

    figures = bench_recall(args.notes, args.sections, args.queries)
    if args.json:
        _print_json(figures.to_json())
    else:
        print(figures.report())
    return 0


def _secrets(args: argparse.Namespace) -> int:
    from sbcore.bench.secrets import bench

    if args.fail_under is not None and not 0 <= args.fail_under <= 1:
        print("error: --fail-under is a share between 0 and 1", file=sys.stderr)
        return 2
    try:
        report = bench(args.checkout)
    except FileNotFoundError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not report.outcomes:
        print(f"error: {args.checkout}: no literal fixture found in its rules files", file=sys.stderr)
        return 2
    if args.json:
        _print_json(report.as_json())
    else:
        print(report.text())
    return 1 if args.fail_under is not None and report.ratio < args.fail_under else 0


def _print_json(value: Any) -> None:
    """The figures, after what produced them (provenance: versions and the fingerprint of the workspace's
    catalogue and configuration; a list of figures goes under ``items``)."""
    import json

    from sbcore.conductor.provenance import here, stamped

    json.dump(stamped(value, here()), sys.stdout, indent=1)
    print()
