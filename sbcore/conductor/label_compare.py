"""Two settings scored on the same labelled cases, side by side: which verdicts changed, and by how much.

An A/B is how a detector change is argued for: the same cases replayed under two configurations, two
catalogues (a workspace's overrides and detectors come with its configuration) or two checkouts, every
case whose verdict moved listed with both explanations, and each detector's precision and recall before
and after. Nothing else differs between the two runs: same cases, same replay, same provider.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from sbcore.conductor.labels import Judged, Score
from sbcore.conductor.replay_text import WIDTH, fit


def changed_verdicts(a: Sequence[Judged], b: Sequence[Judged]) -> list[dict[str, Any]]:
    """Every case whose verdict differs between ``a`` and ``b`` (cases are matched by id)."""
    before = {each.case.id: each for each in a}
    changed = []
    for after in b:
        first = before.get(after.case.id)
        if first is None or first.fired == after.fired:
            continue
        changed.append(
            {
                "id": after.case.id,
                "detector": after.case.detector,
                "expect": after.case.expect,
                "a_fired": first.fired,
                "b_fired": after.fired,
                "b_right": after.right,
                "a_why": first.why,
                "b_why": after.why,
            }
        )
    return sorted(changed, key=lambda item: (item["detector"], item["id"]))


def deltas(a: Mapping[str, Score], b: Mapping[str, Score]) -> dict[str, dict[str, float | None]]:
    """Per detector scored in both, B's precision and recall minus A's (None where either is undefined)."""
    out: dict[str, dict[str, float | None]] = {}
    for name in sorted(set(a) & set(b)):
        if a[name].unscored or b[name].unscored:
            continue
        out[name] = {}
        for metric in ("precision", "recall"):
            old, new = getattr(a[name], metric), getattr(b[name], metric)
            out[name][metric] = None if math.isnan(old) or math.isnan(new) else round(new - old, 4)
    return out


def _fired(value: bool | None) -> str:
    return "not scored" if value is None else ("fired" if value else "silent")


def render_compare(
    a: Mapping[str, Score],
    b: Mapping[str, Score],
    changed: Sequence[Mapping[str, Any]],
    names: tuple[str, str],
) -> list[str]:
    """The A/B as text: what A and B are, the per-detector figures, then each changed verdict."""
    lines = ["", f"A/B: A = {names[0]}; B = {names[1]}"]
    lines.append(f"{'detector':<22}{'precision A → B':>24}{'recall A → B':>24}")
    for name, change in deltas(a, b).items():
        cells = []
        for metric in ("precision", "recall"):
            old, new, delta = getattr(a[name], metric), getattr(b[name], metric), change[metric]
            shown = "n/a" if delta is None else f"{delta:+.2f}"
            cells.append(f"{_ratio(old)} → {_ratio(new)} ({shown})")
        lines.append(f"{name:<22}{cells[0]:>24}{cells[1]:>24}")
    lines.append(f"Changed verdicts: {len(changed)}")
    for item in changed:
        verdict = "right" if item["b_right"] else "wrong"
        head = (
            f"  {item['id']} ({item['detector']}, expected {item['expect']}): A {_fired(item['a_fired'])}, "
            f"B {_fired(item['b_fired'])}, now {verdict}: "
        )
        lines.append(fit(head + item["b_why"], WIDTH))
    return lines


def _ratio(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.2f}"
