"""Tool-less detectors for the benches: N identical lenses, so a pass's cost is the fan-out's alone."""

from __future__ import annotations

from sbcore.packs.loader import validate_detector_data
from sbcore.packs.model import DetectorDef, SourceRef


def bench_detectors(count: int) -> list[DetectorDef]:
    """``count`` tool-less detectors, ``bench-00`` onwards, that each answer once."""
    return [
        validate_detector_data(
            {
                "schema_version": 1,
                "id": f"bench-{index:02d}",
                "description": "A tool-less benchmark lens.",
                "enabled": True,
                "prompt": "You are the {{ detector.id }} lens. Say whether anything here needs saying.",
                "schema": "feedback_v1",
                "max_iterations": 1,
            },
            source=SourceRef("<bench>"),
            pack="bench",
        )
        for index in range(count)
    ]
