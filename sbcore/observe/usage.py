"""The primary agent's own token use, read from its transcript's ``usage`` fields.

The design promises to keep the observer's spend small beside the agent's, and to measure the ratio rather
than quote it: the agent's usage is in the transcript already. Claude Code writes one record per content
block of a reply, each repeating the reply's ``message.usage``; a reply is counted once, by its
``message.id``. Sidechain (subagent) replies count too: they are the agent's spend as much as its own turns.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

KINDS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")
_FIELDS = {
    "input_tokens": "input_tokens",
    "output_tokens": "output_tokens",
    "cache_read_input_tokens": "cache_read_tokens",
    "cache_creation_input_tokens": "cache_write_tokens",
}


@dataclass
class AgentUsage:
    """Tokens by kind and by model, over the replies counted."""

    replies: int = 0
    by_model: dict[str, dict[str, int]] = field(default_factory=dict)


def transcript_usage(paths: Iterable[Path], *, since: float | None = None) -> AgentUsage:
    """The usage of every assistant reply in ``paths`` (stamped at or after ``since``, when given)."""
    found = AgentUsage()
    seen: set[str] = set()
    for path in paths:
        try:
            with open(path, "rb") as handle:
                for line in handle:
                    _count(line, found, seen, since)
        except OSError:
            continue
    return found


def _count(line: bytes, found: AgentUsage, seen: set[str], since: float | None) -> None:
    if b'"usage"' not in line:
        return
    try:
        record = json.loads(line)
    except ValueError:
        return
    message = record.get("message") if isinstance(record, dict) else None
    if not isinstance(message, dict) or record.get("type") != "assistant":
        return
    usage, ident = message.get("usage"), message.get("id")
    if not isinstance(usage, dict) or not isinstance(ident, str) or ident in seen:
        return
    if since is not None and _epoch(record.get("timestamp")) < since:
        return
    seen.add(ident)
    found.replies += 1
    tokens = found.by_model.setdefault(str(message.get("model") or "unknown"), dict.fromkeys(KINDS, 0))
    for source, kind in _FIELDS.items():
        value = usage.get(source)
        if isinstance(value, int):
            tokens[kind] += value


def _epoch(stamp: object) -> float:
    if not isinstance(stamp, str):
        return float("-inf")
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return float("-inf")
