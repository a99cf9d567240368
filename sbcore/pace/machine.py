"""Machine-wide pacing: what every worker on the machine shares — pass slots, provider backoff, hourly tokens.

Each worker paces its own task (:class:`sbcore.pace.pacer.Pacer`), but several sessions at once share one
machine and, usually, one provider account. Three things bind them together, all through small files under
``<data>/pace/`` and ``flock`` (no service, never a wait: a worker that cannot get what it needs holds the
pass and keeps every observation buffered for the next one):

- **slots** (``loop.max_concurrent_passes``): a pass in flight holds one of N slot files locked. The kernel
  drops a ``flock`` when its holder dies, so a SIGKILLed worker's slot frees itself — stale-owner recovery
  with no pid guessing; the pid and start time written inside are only for people reading the file.
- **pressure**: a provider answering 429 or 529 (overloaded) tells every worker to back off, by a jittered
  delay that doubles from ``loop.pressure_backoff_min_s`` (1 s) up to ``loop.pressure_backoff_max_s`` (5 min)
  and resets after a pass that reached the model without pressure.
- **hourly budget** (``budget.machine_tokens_per_hour``): the tokens every worker's passes used in the last
  hour, summed in one file, so many sessions cannot multiply the per-worker ceiling.

The hooks never touch any of this; it runs only in workers, between passes.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from sbcore import paths
from sbcore.pace.budget import HOUR_S

if TYPE_CHECKING:
    from sbcore.config import EffectiveConfig

PRESSURE_MARKS = ("RateLimited", "HTTP 429", "HTTP 529", "overloaded")
"""What a fork's error says when the provider is under pressure (429, 529, ``overloaded_error``)."""
USAGE_KEPT = 4096
"""Charges kept in the shared usage file at most (older ones have left the hour anyway at any sane rate)."""


def is_pressure(error: str | None) -> bool:
    """Whether a fork's error is the provider asking everyone to slow down (not a fault of this request)."""
    return bool(error) and any(mark in str(error) for mark in PRESSURE_MARKS)


def backoff_delay(level: int, low: float, high: float, rng: random.Random) -> float:
    """The wait after ``level`` pushbacks in a row: ``low`` doubling to ``high``, with half-to-full jitter."""
    ceiling = min(high, low * (2 ** max(0, level - 1)))
    return rng.uniform(ceiling / 2, ceiling)


@dataclass(frozen=True)
class MachineSettings:
    """The machine-wide knobs, as plain values."""

    max_concurrent_passes: int = 2
    backoff_min_s: float = 1.0
    backoff_max_s: float = 300.0
    tokens_per_hour: int = 10_000_000

    @classmethod
    def from_config(cls, config: EffectiveConfig) -> MachineSettings:
        loop = config.group("loop")
        return cls(
            max_concurrent_passes=int(loop["max_concurrent_passes"]),
            backoff_min_s=float(loop["pressure_backoff_min_s"]),
            backoff_max_s=float(loop["pressure_backoff_max_s"]),
            tokens_per_hour=int(config.get("budget.machine_tokens_per_hour")),
        )


class Lease:
    """One held pass slot; :meth:`release` (or the holder's death) frees it."""

    def __init__(self, fd: int, slot: int) -> None:
        self.fd: int | None = fd
        self.slot = slot

    def release(self) -> bool:
        """Free the slot; False when it was already released."""
        fd, self.fd = self.fd, None
        if fd is None:
            return False
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # closing the descriptor drops the flock
        return True


class Slots:
    """``count`` pass slots shared by every process that opens the same directory."""

    def __init__(self, directory: Path, count: int) -> None:
        if count < 1:
            raise ValueError(f"loop.max_concurrent_passes must be at least 1 (got {count})")
        self.directory = directory
        self.count = count

    def try_acquire(self) -> Lease | None:
        """A free slot, taken at once; None when all are held (never waits)."""
        paths.ensure_private_dir(self.directory)
        for slot in random.sample(range(self.count), self.count):
            fd = paths.open_private(self.directory / f"slot-{slot}.lock", os.O_RDWR | os.O_CREAT)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            owner = json.dumps({"pid": os.getpid(), "start": _start_time(), "since": time.time()})
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
                os.pwrite(fd, owner.encode(), 0)
            return Lease(fd, slot)
        return None


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[int]:
    """``path`` opened and exclusively locked for a read-modify-write (a few microseconds)."""
    paths.ensure_private_dir(path.parent)
    fd = paths.open_private(path, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)


def _read_json(fd: int) -> dict[str, object]:
    os.lseek(fd, 0, os.SEEK_SET)
    raw = b""
    while chunk := os.read(fd, 65536):
        raw += chunk
    try:
        body = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _write_json(fd: int, body: dict[str, object]) -> None:
    data = json.dumps(body, separators=(",", ":")).encode()
    os.ftruncate(fd, 0)
    os.pwrite(fd, data, 0)


class Pressure:
    """The shared backoff: when the provider last pushed back, how hard, and until when everyone waits."""

    def __init__(self, path: Path, low: float, high: float, rng: random.Random | None = None) -> None:
        self.path = path
        self.low = low
        self.high = high
        self.rng = rng or random.Random()

    def until(self) -> float:
        """The wall-clock time before which no pass should start (0 when there is no backoff)."""
        try:
            with open(self.path, "rb") as handle:
                body = json.loads(handle.read() or b"{}")
        except (OSError, ValueError):
            return 0.0
        value = body.get("until") if isinstance(body, dict) else None
        return float(value) if isinstance(value, int | float) else 0.0

    def push(self, now: float) -> float:
        """The provider pushed back: raise the level, and return how long everyone now waits."""
        with _locked(self.path) as fd:
            body = _read_json(fd)
            raw = body.get("level")
            level = (raw if isinstance(raw, int) else 0) + 1
            delay = backoff_delay(level, self.low, self.high, self.rng)
            _write_json(fd, {"level": level, "until": now + delay, "at": now, "delay": delay})
        return delay

    def relieve(self) -> None:
        """A pass reached the model with no pressure: the ladder starts again from the bottom."""
        if not self.path.exists():
            return
        with _locked(self.path) as fd:
            if _read_json(fd).get("level"):
                _write_json(fd, {"level": 0, "until": 0})


class SharedBudget:
    """Tokens every worker on the machine used in the last hour, against one ceiling."""

    def __init__(self, path: Path, limit: int) -> None:
        self.path = path
        self.limit = limit

    def used(self, now: float) -> int:
        try:
            with open(self.path, "rb") as handle:
                body = json.loads(handle.read() or b"{}")
        except (OSError, ValueError):
            return 0
        return sum(amount for at, amount in _charges(body) if now - at < HOUR_S)

    def charge(self, now: float, tokens: int) -> None:
        if tokens <= 0:
            return
        with _locked(self.path) as fd:
            kept = [(at, amount) for at, amount in _charges(_read_json(fd)) if now - at < HOUR_S]
            kept.append((now, tokens))
            _write_json(fd, {"charges": kept[-USAGE_KEPT:]})

    def frees_at(self, now: float) -> float | None:
        """When the shared total drops below the ceiling with nothing added (None: it already is)."""
        try:
            body = json.loads(self.path.read_bytes() or b"{}")
        except (OSError, ValueError):
            return None
        live = sorted((at, amount) for at, amount in _charges(body) if now - at < HOUR_S)
        total = sum(amount for _, amount in live)
        for at, amount in live:
            if total < self.limit:
                break
            total -= amount
            if total < self.limit:
                return at + HOUR_S
        return None


def _charges(body: object) -> list[tuple[float, int]]:
    items = body.get("charges") if isinstance(body, dict) else None
    found: list[tuple[float, int]] = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, list) and len(item) == 2 and all(isinstance(v, int | float) for v in item):
            found.append((float(item[0]), int(item[1])))
    return found


RefusalReason = Literal["backoff", "machine budget", "slots busy"]


@dataclass(frozen=True)
class Refusal:
    """Why the machine holds a pass that this worker's own pacer would start, and until when."""

    reason: RefusalReason
    detail: str
    until: float | None


class MachinePace:
    """The three shared limits, as one unit the pacer asks before a pass and tells after it.

    Wall-clock time throughout (``time.time``): the files are shared by processes whose monotonic clocks
    have nothing in common.
    """

    def __init__(self, directory: Path, settings: MachineSettings, rng: random.Random | None = None) -> None:
        self.directory = directory
        self.settings = settings
        self.slots = Slots(directory / "slots", settings.max_concurrent_passes)
        self.pressure = Pressure(
            directory / "pressure.json", settings.backoff_min_s, settings.backoff_max_s, rng
        )
        self.budget = SharedBudget(directory / "usage.json", settings.tokens_per_hour)

    @classmethod
    def for_data(cls, data: Path, settings: MachineSettings) -> MachinePace:
        """The machine's pace files under ``<data>/pace``."""
        return cls(data / "pace", settings)

    def reconfigure(self, settings: MachineSettings) -> None:
        self.settings = settings
        self.slots = Slots(self.directory / "slots", settings.max_concurrent_passes)
        self.pressure.low, self.pressure.high = settings.backoff_min_s, settings.backoff_max_s
        self.budget.limit = settings.tokens_per_hour

    def admit(self) -> Lease | Refusal:
        """A slot for a pass starting now, or why not (backoff, shared budget spent, every slot busy)."""
        now = time.time()
        until = self.pressure.until()
        if until > now:
            return Refusal(
                "backoff", f"provider pressure: every worker waits {until - now:,.1f} s more", until
            )
        used = self.budget.used(now)
        if used >= self.settings.tokens_per_hour:
            detail = (
                f"machine budget spent: {used:,} of {self.settings.tokens_per_hour:,} tokens in the last hour"
            )
            return Refusal("machine budget", detail, self.budget.frees_at(now))
        lease = self.slots.try_acquire()
        if lease is None:
            detail = f"all {self.settings.max_concurrent_passes} machine-wide pass slots are busy"
            return Refusal("slots busy", detail, now + 1.0)
        return lease

    def finished(self, lease: Lease | None, tokens: int, *, pressure: bool | None) -> None:
        """A pass is over: free its slot, charge the shared hour, and push or relieve the backoff.

        ``pressure``: True when the provider pushed back, False when the pass reached the model without it,
        None when it never asked the model (offline), which says nothing either way.
        """
        if lease is not None:
            lease.release()
        now = time.time()
        self.budget.charge(now, tokens)
        if pressure:
            self.pressure.push(now)
        elif pressure is False:
            self.pressure.relieve()


def _start_time() -> str | None:
    """This process's start time (field 22 of ``/proc/self/stat``): a reader tells a reused pid apart."""
    try:
        stat = Path("/proc/self/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None
