"""The worker memory benchmark: a real session worker's resident set, idle and after a session of work.

What runs is the process a headless session starts (``python -P -c <boot>
worker --host headless …``, the code the monitor host runs too), in a scratch
home, config and data directory, enrolled, with the offline provider (no
network, no key), watching the benchmark's own pid as the session's process.
The benchmark plays Claude Code and its hooks: it records the SessionStart
event, waits until the worker is watching and has settled, reads its memory,
then writes a synthetic session (:mod:`sbcore.bench.synthetic`) turn by turn —
the prompt event, the turn's transcript records, the Stop hook's turn-end
event — until the records project to the requested number of observations.
Once the worker has tailed the whole transcript, spooled it and committed the
passes that covered it, memory is read again; then the worker gets SIGTERM and
must exit 0.

Memory is read from ``/proc/<pid>/status``: ``VmRSS`` (resident now) and
``VmHWM`` (the resident peak over the process's life). For scale, a bare
``python -c "import time; time.sleep(1)"`` is read the same way in the same
run. Linux only.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sbcore.bench.synthetic import SyntheticSession
from sbcore.hooks.events import record_event
from sbcore.hooks.session_start import WORKER_BOOT
from sbcore.observe.config import ProjectionConfig
from sbcore.observe.offsets import CorruptOffset, OffsetStore
from sbcore.observe.project import Projector
from sbcore.observe.spool import Spool
from sbcore.problems import SbcoreError
from sbcore.worker.status import read_status
from sbcore.worker.worker_state import WorkerState

SESSION = "5f0c2a8e-3b7d-4c1e-9a6f-2d8b7e4c1a91"
CONFIG = "enable:\n  default: true\nmodel:\n  provider: offline\n"
BASELINE = "import time; time.sleep(1)"
STARTUP_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 20.0


class BenchError(SbcoreError, RuntimeError):
    """The benchmark could not measure what it promises; the message says why (and what the worker logged)."""


@dataclass(frozen=True)
class Memory:
    """One reading of ``/proc/<pid>/status``, in KiB."""

    rss_kib: int
    hwm_kib: int


def read_memory(pid: int) -> Memory:
    """``VmRSS`` and ``VmHWM`` of a running process."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError as error:
        raise BenchError(f"cannot read /proc/{pid}/status: {error.strerror}") from error
    fields = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])  # "  61234 kB"
    if set(fields) != {"VmRSS", "VmHWM"}:
        raise BenchError(f"/proc/{pid}/status has no VmRSS/VmHWM (is the process a zombie?)")
    return Memory(fields["VmRSS"], fields["VmHWM"])


@dataclass(frozen=True)
class WorkerFigures:
    """What one run of the benchmark measured."""

    requested: int
    appended: int
    """Observations the appended records project to (whole turns: at least ``requested``)."""
    turns: int
    records: int
    transcript_bytes: int
    spooled: int
    observed: int
    """The worker's own count (its status file), after it dropped the Stop hook's duplicate texts."""
    passes: int
    catch_up_s: float
    """From the last turn written to every observation spooled and covered by a committed pass."""
    idle: Memory
    loaded: Memory
    exit_status: int
    python: str
    baseline: Memory

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def report(self) -> str:
        delta = self.loaded.rss_kib - self.idle.rss_kib
        after = f"after {self.appended} observations ({self.turns} turns, {self.records} records)"
        width = max(len(after), len("idle after start-up")) + 1
        return "\n".join(
            [
                f"session worker RSS (offline provider, headless host, {self.python})",
                f"  {'idle after start-up':<{width}} {_mib(self.idle.rss_kib):>9}",
                f"  {after + ':':<{width}} {_mib(self.loaded.rss_kib):>9}  "
                f"(delta {'+' if delta >= 0 else '-'}{_mib(abs(delta))})",
                f"  {'peak (VmHWM):':<{width}} {_mib(self.loaded.hwm_kib):>9}",
                f"  passes run: {self.passes}; observed by the worker: {self.observed}; spooled: "
                f"{self.spooled}; transcript {self.transcript_bytes / 1024:.0f} KiB; caught up "
                f"{self.catch_up_s:.2f} s after the last turn",
                f"  stopped with SIGTERM: exit {self.exit_status}",
                f'for scale, bare `python -c "{BASELINE}"`: {_mib(self.baseline.rss_kib)} '
                f"(peak {_mib(self.baseline.hwm_kib)})",
            ]
        )


def _mib(kib: int) -> str:
    return f"{kib / 1024:.1f} MiB"


def bench_worker(
    observations: int,
    *,
    python: str | None = None,
    turn_gap_s: float = 0.3,
    settle_s: float = 2.0,
    timeout_s: float = 300.0,
) -> WorkerFigures:
    """Start a worker in a scratch world, feed it ``observations`` worth of session, read its memory.

    ``turn_gap_s`` separates the turns (a little over the worker's tick, so
    it sees most turn ends one at a time, as in a live session); ``settle_s``
    is how long the worker is left alone before each reading; ``timeout_s``
    bounds the wait for it to catch up.
    """
    if not Path("/proc/self/status").is_file():
        raise BenchError("bench worker reads /proc/<pid>/status: it needs Linux")
    python = python or sys.executable
    with tempfile.TemporaryDirectory(prefix="sbcore-bench-worker-") as scratch:
        world = _World(Path(scratch))
        baseline = _baseline(python, world.environment())
        worker = world.start(python)
        try:
            return _drive(world, worker, observations, python, baseline, turn_gap_s, settle_s, timeout_s)
        finally:
            if worker.poll() is None:  # only after a failure: the orderly stop happened in _drive
                worker.kill()
                worker.wait()


def _drive(
    world: _World,
    worker: subprocess.Popen[bytes],
    observations: int,
    python: str,
    baseline: Memory,
    turn_gap_s: float,
    settle_s: float,
    timeout_s: float,
) -> WorkerFigures:
    world.wait(
        worker, lambda: (world.status() or {}).get("state") == "watching", STARTUP_TIMEOUT_S, "start-up"
    )
    time.sleep(settle_s)
    idle = read_memory(worker.pid)

    session = SyntheticSession(world.session, str(world.project))
    projector = Projector(ProjectionConfig())
    appended = records = turns = 0
    for turn in session.turns():
        turns += 1
        records += len(turn.records)
        appended += len(projector.feed(turn.records))
        world.play(turn.records, turn.final_text)
        last_turn = time.monotonic()
        if appended >= observations:
            break
        time.sleep(turn_gap_s)
        world.check_alive(worker)
    caught_up_at = world.wait(
        worker,
        world.caught_up,
        timeout_s,
        "the worker to spool and pass over the whole session",
        steady_s=1.0,
    )
    catch_up = caught_up_at - last_turn
    time.sleep(settle_s)
    loaded = read_memory(worker.pid)
    status = world.status() or {}
    spooled = len(Spool(world.session, world.data).read(0).observations)

    worker.send_signal(signal.SIGTERM)
    try:
        exit_status = worker.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired as error:
        raise BenchError(f"the worker did not exit within {STOP_TIMEOUT_S:.0f} s of SIGTERM") from error
    return WorkerFigures(
        requested=observations,
        appended=appended,
        turns=turns,
        records=records,
        transcript_bytes=world.transcript.stat().st_size,
        spooled=spooled,
        observed=int(status.get("observed", 0)),
        passes=int(status.get("passes", 0)),
        catch_up_s=catch_up,
        idle=idle,
        loaded=loaded,
        exit_status=exit_status,
        python=python,
        baseline=baseline,
    )


def _baseline(python: str, environment: dict[str, str]) -> Memory:
    """A bare interpreter's memory, read while it sleeps (well after its start-up)."""
    process = subprocess.Popen([python, "-c", BASELINE], env=environment, stdin=subprocess.DEVNULL)
    try:
        time.sleep(0.6)
        return read_memory(process.pid)
    finally:
        process.wait(timeout=10)


class _World:
    """The scratch home, config, data and project one benchmark run plays a Claude Code session in."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.session = SESSION
        self.home = root / "home"
        self.config = root / "config"
        self.data = root / "data"
        self.project = root / "project"
        for directory in (self.home, self.config, self.project / ".git"):
            directory.mkdir(parents=True)
        (self.config / "config.yaml").write_text(CONFIG)
        self.transcript = self.home / ".claude" / "projects" / "bench" / f"{self.session}.jsonl"
        self.transcript.parent.mkdir(parents=True)
        self.transcript.touch()
        self.stderr = root / "worker.stderr"

    def environment(self) -> dict[str, str]:
        """No model keys and no Claude Code or sbcore variables from the caller: offline, private dirs."""
        keep = {key: os.environ[key] for key in ("PATH", "LANG", "LC_ALL", "TMPDIR") if key in os.environ}
        return {
            **keep,
            "HOME": str(self.home),
            "SBCORE_CONFIG_DIR": str(self.config),
            "SBCORE_DATA_DIR": str(self.data),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
        }

    def start(self, python: str) -> subprocess.Popen[bytes]:
        """What the SessionStart hook does in an observed headless session: record the start, spawn."""
        start = {"source": "startup", "transcript_path": str(self.transcript), "cwd": str(self.project)}
        record_event(self.data, self.session, "session_start", time.time(), start, texts=tuple(start))
        command = [python, "-P", "-c", WORKER_BOOT, "worker", "--host", "headless", "--session", self.session]
        command += [
            "--data",
            str(self.data),
            "--project",
            str(self.project),
            "--parent-pid",
            str(os.getpid()),
        ]
        environment = {**self.environment(), "SBCORE_OBSERVER": "1", "CLAUDE_CODE_SESSION_ID": self.session}
        with open(self.stderr, "wb") as stderr:
            return subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                env=environment,
                cwd=self.project,
            )

    def play(self, records: list[dict[str, Any]], final_text: str) -> None:
        """One turn as Claude Code and its hooks leave it: prompt event, transcript records, turn end."""
        prompt = records[0]["message"]["content"]
        record_event(self.data, self.session, "prompt", time.time(), {"prompt": prompt}, texts=("prompt",))
        with open(self.transcript, "a", encoding="utf-8") as handle:
            handle.write("".join(json.dumps(record) + "\n" for record in records))
        stop = {"last_assistant_message": final_text, "stop_hook_active": False, "background_tasks": []}
        record_event(
            self.data,
            self.session,
            "turn_end",
            time.time(),
            stop,
            texts=("last_assistant_message",),
            values=("stop_hook_active", "background_tasks"),
        )

    def status(self) -> dict[str, Any] | None:
        return read_status(self.data, self.session)

    def caught_up(self) -> bool:
        """The whole transcript tailed, a committed pass covering the whole spool, no pass running.

        The events file is not part of it: a turn end that arrives after a
        pass already covered its turn is dropped without a pass, so the
        committed events offset may stay behind for good.
        """

        try:
            tailed = OffsetStore(self.session, self.data).load("main")
        except CorruptOffset:
            return False
        if tailed is None or tailed.offset != self.transcript.stat().st_size:
            return False
        state = WorkerState.load(self.data, self.session)
        spool = Spool(self.session, self.data).path
        if not spool.exists() or state.spool_offset != spool.stat().st_size:
            return False
        return (self.status() or {}).get("state") == "watching"

    def check_alive(self, worker: subprocess.Popen[bytes]) -> None:
        if worker.poll() is not None:
            raise BenchError(
                f"the worker exited ({worker.returncode}) during the benchmark{self._evidence()}"
            )

    def wait(
        self,
        worker: subprocess.Popen[bytes],
        probe: Callable[[], object],
        timeout: float,
        what: str,
        *,
        steady_s: float = 0.0,
    ) -> float:
        """Until ``probe()`` has held ``steady_s`` seconds on end; returns when it began to hold (monotonic).

        Steadiness matters at the end of a session: a turn end the worker reads
        late may still start a pass.
        """
        deadline = time.monotonic() + timeout
        held_since: float | None = None
        while True:
            self.check_alive(worker)
            held = probe()
            now = time.monotonic()
            if not held:
                held_since = None
            elif held_since is None:
                held_since = now
            if held_since is not None and now - held_since >= steady_s:
                return held_since
            if now > deadline:
                raise BenchError(f"timed out after {timeout:.0f} s waiting for {what}{self._evidence()}")
            time.sleep(0.05)

    def _evidence(self) -> str:
        """The worker's stderr and the end of its log, for the error message."""
        parts = []
        stderr = self.stderr.read_text(errors="replace").strip() if self.stderr.exists() else ""
        if stderr:
            parts.append(f"stderr:\n{stderr[-2000:]}")
        log = self.data / "logs" / f"worker-{self.session}.log"
        if log.exists():
            parts.append(
                "log (last lines):\n" + "\n".join(log.read_text(errors="replace").splitlines()[-15:])
            )
        status = self.status()
        if status is not None:
            parts.append(f"status: state {status.get('state')}, detail {status.get('detail')!r}")
        return "\n" + "\n".join(parts) if parts else ""
