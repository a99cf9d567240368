"""Prompt-cache accounting the way the real APIs report it, over deterministic token estimates.

The point of a fake cache is to make the design's cost claims testable: that
every detector fork of a pass shares a byte-identical prefix, that a pilot
warms it so the fan-out reads instead of writes, that a prefix below the
provider's minimum is never cached, and that passes further apart than the TTL
pay again. So the model follows the published rules rather than a convenient
approximation:

Anthropic (explicit breakpoints)
    The cache key is a prefix over tools → system → messages, in that order,
    ending at a block carrying ``cache_control``. A request reads the longest
    committed entry found by looking back up to 20 blocks from each of its
    breakpoints, writes entries at its breakpoints beyond that (only where the
    prefix reaches the minimum cacheable length), and pays full price for the
    rest. ``tool_choice`` is part of the key of the messages tier only, as on
    the real API. A hit refreshes the entry's TTL (5 minutes, or 1 hour for
    ``"ttl": "1h"``).

OpenAI (automatic prefix caching)
    No breakpoints: the longest previously seen prefix (tools, then messages)
    counts as cached once it reaches the minimum, in 128-token increments above
    it, and every prefix of at least the minimum is remembered for the TTL.

Entries become readable only when the request that wrote them completes
(:meth:`Charge.commit`), so N forks fired together at a cold prefix all pay to
write it — exactly the race the pilot fork exists to avoid.

Tokens are estimated as ``ceil(bytes / 4)`` of each segment's compact JSON
(key order as sent, so a reordered schema is a different prefix, as it would be
for the real tokenizer).
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

DEFAULT_MIN_CACHEABLE_TOKENS = 1024
DEFAULT_TTL_S = 300.0
LOOKBACK_BLOCKS = 20
OPENAI_INCREMENT = 128

Clock = Callable[[], float]


def compact(value: Any) -> bytes:
    """Compact JSON, key order as given, UTF-8 as is."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def estimate_tokens(data: bytes | str) -> int:
    """The fake's tokenizer: a quarter of the UTF-8 byte length, rounded up."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return math.ceil(len(raw) / 4)


@dataclass(frozen=True)
class Segment:
    """One cacheable unit of a prompt: a tool definition, a system block or a message block.

    ``ttl_s`` is set when the unit carries a cache breakpoint. A ``block`` is
    false only for the zero-token key component that stands for ``tool_choice``.
    """

    data: bytes
    tokens: int
    ttl_s: float | None = None
    block: bool = True


@dataclass(frozen=True)
class CacheUsage:
    """What a request is billed for, in the API's terms."""

    input_tokens: int
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cache_write_1h_tokens: int = 0

    @property
    def prompt_tokens(self) -> int:
        return self.input_tokens + self.cache_read_tokens + self.cache_write_tokens


@dataclass
class Charge:
    """A request's cache usage, plus the entries it will make readable once it completes."""

    usage: CacheUsage
    _pending: list[tuple[str, float]] = field(default_factory=list)
    _cache: _Store | None = None

    def commit(self) -> None:
        """The request completed: its written prefixes are now readable by later requests."""
        if self._cache is not None:
            self._cache.put(self._pending)
            self._pending = []


def _strip_cache_control(block: Any) -> Any:
    if isinstance(block, dict) and "cache_control" in block:
        return {key: value for key, value in block.items() if key != "cache_control"}
    return block


def _ttl_of(block: Any, default_ttl_s: float) -> float | None:
    marker = block.get("cache_control") if isinstance(block, dict) else None
    if not isinstance(marker, dict):
        return None
    return 3600.0 if marker.get("ttl") == "1h" else default_ttl_s


def anthropic_segments(body: dict[str, Any], default_ttl_s: float = DEFAULT_TTL_S) -> list[Segment]:
    """The Messages request as cache segments, in key order: tools → system → tool_choice → messages."""
    segments: list[Segment] = []

    def add(data: bytes, raw: Any) -> None:
        segments.append(Segment(data, estimate_tokens(data), _ttl_of(raw, default_ttl_s)))

    for tool in body.get("tools") or []:
        add(compact(_strip_cache_control(tool)), tool)
    system = body.get("system")
    if isinstance(system, str):
        system = [{"type": "text", "text": system}]
    for block in system or []:
        add(compact(_strip_cache_control(block)), block)
    segments.append(Segment(b"tool_choice:" + compact(body.get("tool_choice")), 0, None, block=False))
    for message in body.get("messages") or []:
        role = str(message.get("role", "")).encode("utf-8")
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        for block in content or []:
            add(role + b":" + compact(_strip_cache_control(block)), block)
    return segments


def openai_segments(body: dict[str, Any]) -> list[Segment]:
    """The chat request as prefix segments: each tool, then each message."""
    parts = [*(body.get("tools") or []), *(body.get("messages") or [])]
    return [Segment(data, estimate_tokens(data)) for data in map(compact, parts)]


def _prefix_keys(model: str, segments: list[Segment]) -> tuple[list[str], list[int]]:
    """Digest and cumulative tokens of the prefix ending after each segment."""
    digest = hashlib.sha256(b"model:" + model.encode("utf-8"))
    keys: list[str] = []
    totals: list[int] = []
    running = 0
    for segment in segments:
        digest.update(len(segment.data).to_bytes(8, "big"))
        digest.update(segment.data)
        running += segment.tokens
        keys.append(digest.copy().hexdigest())
        totals.append(running)
    return keys, totals


class _Store:
    """Committed cache entries: prefix digest → (expiry, ttl)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._entries: dict[str, tuple[float, float]] = {}
        self.lock = threading.Lock()

    def live(self, key: str) -> bool:
        entry = self._entries.get(key)
        return entry is not None and entry[0] > self._clock()

    def refresh(self, key: str) -> None:
        expiry, ttl = self._entries[key]
        self._entries[key] = (max(expiry, self._clock() + ttl), ttl)

    def put(self, pending: list[tuple[str, float]]) -> None:
        with self.lock:
            now = self._clock()
            for key, ttl in pending:
                old = self._entries.get(key)
                self._entries[key] = (
                    max(now + ttl, old[0] if old else 0.0),
                    max(ttl, old[1] if old else 0.0),
                )

    def clear(self) -> None:
        with self.lock:
            self._entries.clear()

    def __len__(self) -> int:
        now = self._clock()
        return sum(1 for expiry, _ in self._entries.values() if expiry > now)


class _PrefixCache:
    """One provider's cache: its minimum cacheable prefix, its default TTL and the committed entries."""

    def __init__(
        self,
        *,
        min_cacheable_tokens: int = DEFAULT_MIN_CACHEABLE_TOKENS,
        ttl_s: float = DEFAULT_TTL_S,
        clock: Clock,
    ) -> None:
        self.min_cacheable_tokens = min_cacheable_tokens
        self.ttl_s = ttl_s
        self._store = _Store(clock)

    def clear(self) -> None:
        self._store.clear()

    def __len__(self) -> int:
        return len(self._store)


class AnthropicCache(_PrefixCache):
    """Explicit-breakpoint prompt caching (see the module docstring for the rules)."""

    def charge(self, body: dict[str, Any]) -> Charge:
        segments = anthropic_segments(body, self.ttl_s)
        keys, totals = _prefix_keys(str(body.get("model", "")), segments)
        total = totals[-1] if totals else 0
        breakpoints = [index for index, segment in enumerate(segments) if segment.ttl_s is not None]
        blocks = [index for index, segment in enumerate(segments) if segment.block]
        with self._store.lock:
            hit = self._best_hit(breakpoints, blocks, keys)
            read = totals[hit] if hit >= 0 else 0
            if hit >= 0:
                self._store.refresh(keys[hit])
            pending: list[tuple[str, float]] = []
            written = written_1h = 0
            covered = read
            for index in breakpoints:
                if index <= hit or totals[index] < self.min_cacheable_tokens:
                    continue
                ttl = segments[index].ttl_s or self.ttl_s
                pending.append((keys[index], ttl))
                increment = totals[index] - covered
                written += increment
                written_1h += increment if ttl >= 3600 else 0
                covered = totals[index]
        usage = CacheUsage(total - read - written, read, written, written_1h)
        return Charge(usage, pending, self._store)

    def _best_hit(self, breakpoints: list[int], blocks: list[int], keys: list[str]) -> int:
        """The furthest committed prefix reachable by looking back from any breakpoint."""
        best = -1
        for breakpoint in breakpoints:
            position = blocks.index(breakpoint)
            for index in reversed(blocks[max(0, position - LOOKBACK_BLOCKS + 1) : position + 1]):
                if index <= best:
                    break
                if self._store.live(keys[index]):
                    best = index
                    break
        return best


class OpenAICache(_PrefixCache):
    """Automatic prefix caching (see the module docstring for the rules)."""

    def charge(self, body: dict[str, Any]) -> Charge:
        segments = openai_segments(body)
        keys, totals = _prefix_keys(str(body.get("model", "")), segments)
        total = totals[-1] if totals else 0
        with self._store.lock:
            longest = 0
            for index in reversed(range(len(keys))):
                if self._store.live(keys[index]):
                    longest = totals[index]
                    self._store.refresh(keys[index])
                    break
        cached = 0
        if longest >= self.min_cacheable_tokens:
            steps = (longest - self.min_cacheable_tokens) // OPENAI_INCREMENT
            cached = self.min_cacheable_tokens + steps * OPENAI_INCREMENT
        pending = [
            (key, self.ttl_s)
            for key, tokens in zip(keys, totals, strict=True)
            if tokens >= self.min_cacheable_tokens
        ]
        return Charge(CacheUsage(total - cached, cached), pending, self._store)
