"""Compaction: the one sanctioned rebuild of the window's prefix.

When the window passes ``window.compaction_threshold`` of ``window.budget_chars``, the oldest whole passes are
folded out until it is down to ``window.compaction_floor``; the gap between the two is hysteresis, so the very
next pass does not compact again and thrash the cache. What leaves the window survives as one neutral summary
in the ledger ("established so far"): written by the model when there is one, otherwise by a deterministic
digest of the evicted observations and conclusions. A failed model call degrades to the digest, never to a
lost span.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from sbcore.observe.model import Observation
from sbcore.think.outbound import send_redacted
from sbcore.think.prompts import render_prompt
from sbcore.think.providers.base import Message, Provider, ProviderError, Request, Usage
from sbcore.think.window import Window, WindowBlock

log = logging.getLogger("sbcore.think.compaction")

SUMMARY_MAX_CHARS = 1200
"""Longest summary one compaction adds to the ledger (the ledger holds several, within 6000 chars)."""
SUMMARY_MAX_TOKENS = 600
EDIT_TOOLS = frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit"})


@dataclass(frozen=True)
class Compaction:
    """What one compaction did."""

    pass_number: int
    evicted_passes: tuple[int, ...]
    chars_before: int
    chars_after: int
    summary: str
    by_model: bool
    error: str | None = None
    usage: Usage = field(default_factory=Usage)

    def to_json(self) -> dict[str, object]:
        return {
            "pass": self.pass_number,
            "evicted_passes": list(self.evicted_passes),
            "chars_before": self.chars_before,
            "chars_after": self.chars_after,
            "by_model": self.by_model,
            "error": self.error,
            "summary": self.summary,
        }


async def compact(
    window: Window,
    pass_number: int,
    *,
    provider: Provider | None = None,
    timeout_s: float = 30.0,
) -> Compaction | None:
    """Compact ``window`` if it needs it; None when it does not (or nothing old enough can go)."""
    if not window.needs_compaction():
        return None
    evicted = window.plan_eviction()
    if not evicted:
        return None
    before = window.chars
    summary, by_model, error, usage = digest(evicted), False, None, Usage()
    if provider is not None and provider.has_model:
        try:
            summary, usage = await asyncio.wait_for(_model_summary(window, evicted, provider), timeout_s)
            by_model = True
        except (ProviderError, TimeoutError, ValueError) as exc:
            error = f"{type(exc).__name__}: {exc}"
            log.warning(
                "compaction at pass %d: model summary failed, using the digest: %s", pass_number, error
            )
    window.compact(evicted, summary)
    passes = tuple(dict.fromkeys(block.pass_number for block in evicted))
    log.info(
        "compaction at pass %d: folded passes %d-%d, %d -> %d chars",
        pass_number,
        passes[0],
        passes[-1],
        before,
        window.chars,
    )
    return Compaction(pass_number, passes, before, window.chars, summary, by_model, error, usage)


async def _model_summary(
    window: Window, evicted: Sequence[WindowBlock], provider: Provider
) -> tuple[str, Usage]:
    """Ask the model for the neutral summary of the evicted span (the ledger and the span, then the ask).

    No breakpoint and no tools: this prefix is about to disappear, so caching it would only cost a write.
    """
    messages = (
        window.messages[0],
        *(block.message for block in evicted),
        Message.user(render_prompt("compaction", max_chars=SUMMARY_MAX_CHARS)),
    )
    request = Request(
        model=provider.model, system=window.system, messages=messages, max_tokens=SUMMARY_MAX_TOKENS
    )
    response = await send_redacted(provider, request)
    text = " ".join(response.text.split())
    if not text:
        raise ValueError("the model returned no summary text")
    return _cap(text, SUMMARY_MAX_CHARS), response.usage


def digest(blocks: Sequence[WindowBlock], max_chars: int = SUMMARY_MAX_CHARS) -> str:
    """A deterministic, neutral digest of evicted blocks: what was asked, run, edited, failed, concluded."""
    observations = [o for block in blocks for o in block.observations]
    passes = sorted({block.pass_number for block in blocks})
    times = [block.when for block in blocks if block.kind == "episode" and block.when != "--:--"]
    span = f"Passes {passes[0]}-{passes[-1]}" if len(passes) > 1 else f"Pass {passes[0]}"
    if times:
        span += f" ({times[0]}-{times[-1]})" if times[0] != times[-1] else f" ({times[0]})"
    kinds: Counter[str] = Counter(o.kind for o in observations)
    parts = [f"{span}: {len(observations)} observations ({_counts(kinds)})."]
    prompts = [_quote(o.text.removeprefix("[prompt]"), 160) for o in observations if o.kind == "prompt"]
    if prompts:
        more = f" and {len(prompts) - 2} more" if len(prompts) > 2 else ""
        parts.append(f"Asked: {'; '.join(prompts[:2])}{more}.")
    commands = _commands(observations)
    if commands:
        parts.append("Ran: " + ", ".join(commands) + ".")
    edited = list(dict.fromkeys(_edit_path(o) for o in observations if _edit_path(o)))
    if edited:
        more = f" (+{len(edited) - 6} more)" if len(edited) > 6 else ""
        parts.append("Edited: " + ", ".join(str(p) for p in edited[:6]) + more + ".")
    errors = [o for o in observations if o.kind == "error"]
    if errors:
        parts.append(f"Errors: {len(errors)}, the last: {_quote(errors[-1].text, 160)}.")
    conclusions = Counter(
        _conclusion(line) for block in blocks if block.kind == "feedback" for line in block.lines
    )
    if conclusions:
        parts.append(
            "Lens conclusions: " + ", ".join(f"{k} x{n}" for k, n in sorted(conclusions.items())) + "."
        )
    return _cap(" ".join(parts), max_chars)


def _counts(kinds: Counter[str]) -> str:
    order = ("prompt", "text", "tool", "error", "report")
    return ", ".join(f"{kinds[k]} {k}" for k in order if kinds[k]) or "none"


def _commands(observations: Sequence[Observation]) -> list[str]:
    counts: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    errors = {o.tool_use_id for o in observations if o.kind == "error" and o.tool_use_id}
    for obs in observations:
        command = obs.args.get("command") if obs.kind == "tool" else None
        if isinstance(command, str) and command.strip():
            key = _quote(command.splitlines()[0], 60)
            counts[key] += 1
            if obs.tool_use_id in errors:
                failed[key] += 1
    top = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:5]
    return [f"{cmd} x{n}" + (f" ({failed[cmd]} failed)" if failed[cmd] else "") for cmd, n in top]


def _edit_path(obs: Observation) -> str | None:
    if obs.kind != "tool" or obs.tool not in EDIT_TOOLS:
        return None
    path = obs.args.get("file_path") or obs.args.get("notebook_path") or obs.args.get("path")
    return path if isinstance(path, str) and path else None


def _conclusion(line: str) -> str:
    """``repeat-failure advise`` from a merge line ``[pass 3 14:02] repeat-failure → advise "…" (…)``."""
    _, _, rest = line.partition("] ")
    detector, _, outcome = rest.partition(" → ")
    if outcome.startswith("no answer"):
        return f"{detector} no answer"
    return f"{detector} {outcome.split(' ', 1)[0] if outcome else '?'}"


def _quote(text: str, limit: int) -> str:
    return f'"{_cap(" ".join(text.split()), limit)}"'


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
