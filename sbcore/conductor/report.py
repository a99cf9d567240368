"""A report of labelled scores people read: one self-contained HTML file, and Markdown for a pull request.

The JSON result is for machines and baselines; a reviewer deciding whether a detector change may land wants
to look: each detector's precision and recall with an interval (a figure over nine cases is not a figure
over ninety), the confusion counts, the rates over the replayed sessions, the cost when a model ran, and —
the part that decides — every false alarm and every miss with the observations around it, as the model
saw them (projected, so redacted and capped), and what decided it.

The HTML page has no script and loads nothing: its chart is inline SVG and its style inline, so it opens
from disk, offline, in any browser. Both forms are rendered from one dictionary (:func:`report_data`), the
one the tests compare with the ``--json`` result.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2

from sbcore.conductor.labels import Judged, Score
from sbcore.observe.blocks import LineBlocks
from sbcore.observe.project import Projector

EXCERPT_OBSERVATIONS = 8
"""Observations shown before the deciding line of a wrong case."""

EXCERPT_CHARS = 700
"""Each observation's text is cut to this many characters in the excerpt."""

_Z = 1.959964
"""The normal quantile of a two-sided 95 % interval."""


def wilson(hits: int, total: int) -> tuple[float, float] | None:
    """The 95 % Wilson score interval of ``hits / total`` (None: nothing to measure)."""
    if total <= 0:
        return None
    p = hits / total
    denominator = 1 + _Z * _Z / total
    centre = (p + _Z * _Z / (2 * total)) / denominator
    spread = _Z * math.sqrt(p * (1 - p) / total + _Z * _Z / (4 * total * total)) / denominator
    return round(max(0.0, centre - spread), 4), round(min(1.0, centre + spread), 4)


def excerpt(transcript: Path, upto: int | None, count: int = EXCERPT_OBSERVATIONS) -> list[dict[str, Any]]:
    """The last ``count`` observations projected from ``transcript`` up to line ``upto`` (None: its end),
    each with the line it came from, as the observer's window holds them."""
    projector = Projector()
    kept: deque[dict[str, Any]] = deque(maxlen=count)
    try:
        for number, line in enumerate(LineBlocks(transcript).lines(), start=1):
            if upto is not None and number > upto:
                break
            for observation in projector.feed_lines([line]):
                text = observation.text
                if len(text) > EXCERPT_CHARS:
                    text = text[:EXCERPT_CHARS] + f"…[+{len(text) - EXCERPT_CHARS} chars]"
                kept.append({"line": number, "text": text})
    except OSError as exc:
        return [{"line": None, "text": f"(transcript unreadable: {exc.strerror or exc})"}]
    return list(kept)


def _detector(name: str, score: Score) -> dict[str, Any]:
    if score.unscored:
        return {"detector": name, "cases": score.cases, "scored": False, "reason": score.unscored}
    body = score.to_json()
    precision = wilson(score.tp, score.tp + score.fp)
    recall = wilson(score.tp, score.tp + score.fn)
    return {
        "detector": name,
        "cases": score.tp + score.fp + score.fn + score.tn,
        "scored": True,
        **{key: body[key] for key in ("tp", "fp", "fn", "tn", "precision", "recall")},
        "precision_interval": list(precision) if precision else None,
        "recall_interval": list(recall) if recall else None,
    }


def report_data(
    scores: Mapping[str, Score],
    families: Sequence[Mapping[str, Any]],
    judged: Sequence[Judged],
    *,
    head: Mapping[str, Any],
    sources: Sequence[str],
    summary: Mapping[str, Any] | None = None,
    compared: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything the report shows, as JSON-ready data."""
    wrong = []
    for each in judged:
        if each.right is not False:
            continue
        case = each.case
        upto = each.line if each.line is not None else (case.lines[1] if case.lines else None)
        wrong.append(
            {
                "id": case.id,
                "detector": case.detector,
                "kind": "false alarm" if case.expect == "silent" else "miss",
                "expect": case.expect,
                "why": each.why,
                "label_why": case.why,
                "family": case.family or None,
                "split": case.split or None,
                "transcript": (case.transcript or case.file or Path(case.id)).name,
                "line": upto,
                "excerpt": (
                    excerpt(case.transcript, upto)
                    if case.transcript is not None
                    else [{"line": None, "text": text} for text in each.window[-EXCERPT_OBSERVATIONS:]]
                ),
            }
        )
    return {
        **head,
        "sources": list(sources),
        "detectors": [_detector(name, score) for name, score in scores.items()],
        "families": list(families),
        "wrong": wrong,
        "summary": dict(summary) if summary is not None else None,
        "compared": dict(compared) if compared is not None else None,
    }


def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent),
        # the HTML page escapes everything it shows (a transcript, a label's `why` may hold markup); the
        # Markdown report keeps text as written, inside fences where it quotes a session
        autoescape=jinja2.select_autoescape(["html", "html.j2"], default_for_string=False),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["ratio"] = lambda v: "n/a" if v is None else f"{v:.2f}"
    return environment


def render_html(data: Mapping[str, Any]) -> str:
    return _environment().get_template("report.html.j2").render(report=data)


def render_markdown(data: Mapping[str, Any]) -> str:
    return _environment().get_template("report.md.j2").render(report=data)
