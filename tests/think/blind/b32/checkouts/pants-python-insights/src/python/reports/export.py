from __future__ import annotations

from analytics.frames import to_rows
from reports.templates import render_csv


def export_weekly(frame) -> str:
    return render_csv(to_rows(frame))
