"""The observer's thinking stage: window, detector forks, model providers and tools.

Two names live here because both the production fork engine and the test fake
provider must agree on them byte for byte: the feedback tool every fork ends
with, and the marker the engine writes at the head of a fork's private tail so
that a scripted fake can tell which detector is asking.
"""

from __future__ import annotations

import re

FEEDBACK_TOOL = "second_brain_detector_feedback"
"""Name of the tool a detector fork calls to return its verdict (input schema: feedback_v1)."""

DETECTOR_MARKER = "[detector: {}]"
"""Format of the line naming the detector at the head of a fork's tail (after the cache breakpoint)."""

DETECTOR_MARKER_RE = re.compile(r"\[detector: ([a-z][a-z0-9-]{1,62})\]")
"""Finds a detector marker; group 1 is the detector id (ids follow the catalogue's id pattern)."""


def detector_marker(detector_id: str) -> str:
    """The marker line for ``detector_id``, e.g. ``[detector: repeat-failure]``."""
    if not DETECTOR_MARKER_RE.fullmatch(DETECTOR_MARKER.format(detector_id)):
        raise ValueError(f"not a detector id: {detector_id!r}")
    return DETECTOR_MARKER.format(detector_id)
