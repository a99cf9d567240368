"""Labelling would-fires: turn what a soaking detector would have said into cases ``replay --labels`` reads.

``second-brain label`` shows each would-fire (from the soak log, or from a replay) with its context and
asks whether it would have been worth saying; each answer becomes one case of a labels file in the format
:func:`sbcore.conductor.replay.load_labels` reads: the transcript and the lines up to the would-fire,
``expect: fire`` for useful and ``silent`` for not useful, plus optional fields (``headline``,
``dedup_key``, ``session``, ``source``) that the reader ignores. The file is rewritten (0600) after every
answer, so quitting keeps what was labelled, and a case already in it is not asked again.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from sbcore import paths, safeyaml
from sbcore.safefile import read_regular_text

ANSWERS = {"u": "fire", "n": "silent"}
"""Key → ``expect``: useful means it should fire there, not useful that it should have stayed silent."""


def case_id(record: Mapping[str, Any]) -> str:
    """A stable id for one would-fire: detector, session and where it was decided."""
    where = record.get("line") or record.get("advice_id") or record.get("at")
    return f"{record['detector']}-{str(record.get('session', ''))[:12]}-{where}"


def make_case(record: Mapping[str, Any], expect: str, source: str) -> dict[str, Any]:
    """The label case of one answered would-fire."""
    case: dict[str, Any] = {
        "id": case_id(record),
        "transcript": str(Path(str(record["transcript"])).resolve()),
        "detector": str(record["detector"]),
        "expect": expect,
    }
    if isinstance(record.get("line"), int):
        case["lines"] = [1, record["line"]]
    case["why"] = f"second-brain label: {'useful' if expect == 'fire' else 'not useful'}"
    case["headline"] = str(record.get("headline", ""))
    case["dedup_key"] = str(record.get("dedup_key", ""))
    case["session"] = str(record.get("session", ""))
    case["source"] = source
    return case


def read_cases(path: Path) -> list[dict[str, Any]]:
    """The cases of an existing labels file (none when it does not exist yet)."""
    if not path.exists():
        return []
    document = safeyaml.safe_load(read_regular_text(path, max_bytes=safeyaml.MAX_YAML_CHARS))
    cases = document.get("cases") if isinstance(document, dict) else None
    return [case for case in cases or [] if isinstance(case, dict)]


def write_cases(path: Path, cases: list[dict[str, Any]]) -> None:
    """Rewrite the labels file with ``cases`` (0600, atomically)."""
    header = "# Written by `second-brain label`; scored by `second-brain replay --labels FILE`.\n"
    body = yaml.safe_dump({"cases": cases}, sort_keys=False, allow_unicode=True, width=110)
    paths.write_private(path, (header + body).encode())


def render(record: Mapping[str, Any], index: int, total: int) -> list[str]:
    """One would-fire as the terminal shows it: where, the observations before it, the advisory."""
    where = f"{record.get('transcript', '?')}"
    if record.get("line"):
        where += f":{record['line']}"
    lines = [
        "",
        f"[{index}/{total}] {record['detector']}  (session {record.get('session', '?')}, "
        f"{record.get('time', '')}, confidence {record.get('confidence', '?')})",
        f"  at {where}",
        "  before it:",
    ]
    for text in record.get("context") or []:
        first = " ".join(str(text).split())
        lines.append(f"    | {first[:240]}")
    lines.append(f"  would say: {record.get('headline', '')}")
    body = str(record.get("body") or "").strip()
    lines.extend(f"    {line}" for line in body.splitlines()[:12])
    return lines
