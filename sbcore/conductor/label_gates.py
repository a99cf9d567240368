"""What a CI job gates on when it scores labelled cases: thresholds, and a saved result to not fall below.

``--fail-under recall=0.8`` holds every scored detector to it, ``--fail-under repeat-failure.precision=0.9``
one detector. ``--baseline FILE`` compares with a result saved earlier (``replay --labels --json``): a
detector whose precision or recall dropped, or a case that was right and is now wrong, is a regression.
Each problem is one line naming what fell and by how much; the command exits non-zero when there is any.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sbcore.conductor.labels import Judged, Score
from sbcore.problems import SbcoreError

METRICS = ("precision", "recall")


class GateError(SbcoreError, ValueError):
    """A threshold or a baseline that cannot be used; the message says what to write instead."""


@dataclass(frozen=True)
class Threshold:
    """``metric`` of ``detector`` (None: of every scored detector) must be at least ``value``."""

    detector: str | None
    metric: str
    value: float

    @classmethod
    def parse(cls, text: str) -> Threshold:
        """``METRIC=VALUE`` or ``DETECTOR.METRIC=VALUE``, the value between 0 and 1."""
        name, sep, number = text.partition("=")
        detector, dot, metric = name.strip().rpartition(".")
        if not sep or metric not in METRICS or (dot and not detector):
            raise GateError(
                f"--fail-under {text}: write METRIC=VALUE or DETECTOR.METRIC=VALUE, METRIC one of "
                f"{', '.join(METRICS)} (e.g. recall=0.8, repeat-failure.precision=0.9)"
            )
        try:
            value = float(number)
        except ValueError:
            raise GateError(f"--fail-under {text}: {number!r} is not a number between 0 and 1") from None
        if not 0.0 <= value <= 1.0:
            raise GateError(f"--fail-under {text}: {value} is not between 0 and 1")
        return cls(detector or None, metric, value)


def missed(thresholds: Iterable[Threshold], scores: Mapping[str, Score]) -> list[str]:
    """One line per threshold a detector falls below (a detector named but not scored is one too)."""
    problems = []
    for threshold in thresholds:
        names = (
            [threshold.detector] if threshold.detector else [n for n, s in scores.items() if not s.unscored]
        )
        for name in names:
            score = scores.get(name)
            if score is None or score.unscored:
                why = score.unscored if score is not None else "no labelled case names it"
                problems.append(f"{name}: {threshold.metric} not measured ({why}); --fail-under needs it")
                continue
            value = getattr(score, threshold.metric)
            if math.isnan(value):
                problems.append(
                    f"{name}: {threshold.metric} undefined (no case to measure it), "
                    f"under {threshold.value:.2f}"
                )
            elif value < threshold.value:
                problems.append(f"{name}: {threshold.metric} {value:.2f} is under {threshold.value:.2f}")
    return problems


def load_baseline(path: Path) -> dict[str, Any]:
    """A result saved by ``replay --labels --json``."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise GateError(f"--baseline {path}: cannot read it: {exc}") from None
    if not isinstance(document, dict) or not isinstance(document.get("by_case"), list):
        raise GateError(
            f"--baseline {path}: not a saved labels result (write one with `second-brain replay --labels "
            "FILE --json > baseline.json`)"
        )
    return document


def regressions(
    baseline: Mapping[str, Any], scores: Mapping[str, Score], judged: Iterable[Judged]
) -> list[str]:
    """One line per metric that dropped below the baseline's, and per case right then and wrong now."""
    problems = []
    for name, score in scores.items():
        before = baseline.get(name)
        if not isinstance(before, dict) or score.unscored:
            continue
        for metric in METRICS:
            old, new = before.get(metric), getattr(score, metric)
            if isinstance(old, int | float) and not math.isnan(new) and round(new, 4) < old:
                problems.append(f"{name}: {metric} {new:.2f}, was {old:.2f} in the baseline")
    was_right = {
        str(case.get("id")): case.get("right")
        for case in baseline.get("by_case", [])
        if isinstance(case, dict)
    }
    for each in judged:
        if each.right is False and was_right.get(each.case.id) is True:
            problems.append(
                f"{each.case.id}: right in the baseline, wrong now (expected {each.case.expect}: {each.why})"
            )
    return problems
