"""How long a session was actively worked on, from its records' own timestamps.

Rates such as "advisories per session-hour" need a denominator that does not count the night a
session sat open: the active time is the sum of the gaps between consecutive timestamped records,
leaving out every gap longer than :data:`IDLE_GAP_S` (the user was away; nothing was happening).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sbcore.pace.clock import epoch_seconds

IDLE_GAP_S = 600.0
"""A gap between two records longer than this (10 minutes) is idle time, not work."""

_STAMP = re.compile(rb'"timestamp":"([^"\\]+)"')


def active_seconds(lines: Iterable[bytes], idle_gap_s: float = IDLE_GAP_S) -> float:
    """The active time of the transcript ``lines``: gaps of at most ``idle_gap_s`` between records, summed."""
    total = 0.0
    previous: float | None = None
    for line in lines:
        found = _STAMP.search(line)
        if found is None:
            continue
        try:
            now = epoch_seconds(found.group(1).decode())
        except ValueError:
            continue
        if previous is not None and 0 <= now - previous <= idle_gap_s:
            total += now - previous
        previous = now if previous is None else max(previous, now)
    return total
