"""Replay's output, written pass by pass: a transcript's passes go to a spool file as they conclude.

``second-brain replay`` must not keep every pass of a long transcript in memory to print them at the end
(each pass report holds its episode's observations), yet the text output names a session's pass count
before its passes, and the JSON document nests the passes inside the session's object. So each pass is
rendered the moment it concludes into a temporary file of the replay's own (:class:`PassSpool`), and the
session is written when it ends: its header, then the spool copied through. The bytes are those the
non-streamed renderers (:func:`~sbcore.conductor.replay.render_session`,
:meth:`~sbcore.conductor.replay.SessionReplay.to_json`) give for the same replay, with memory that does
not grow with the transcript. The spool is a file, not a pipe, so a forked ``-j`` worker can hand it back.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

from sbcore.conductor.pipeline import PassReport
from sbcore.think.providers.offline import SKIPPED_NO_MODEL

_ERRORS = "surrogatepass"
"""A lone surrogate (a ``\\ud800`` escape in a transcript) goes through the spool unchanged, so the output
behaves exactly as if it had been printed at once."""

_PASSES = object()
"""Where a session's spooled passes go in its JSON object (see :meth:`JsonDocument.session`)."""


class ReplayedSession(Protocol):
    """What the writers read of a replayed session (:class:`sbcore.conductor.replay.SessionReplay`)."""

    path: Path
    session: str
    lines: int
    observations: int

    def json_fields(self, passes: object) -> dict[str, Any]: ...


def render_pass(report: PassReport, *, timings: bool = False) -> list[str]:
    """One pass as text: time, reason, episode size, cache tokens, then each detector's verdict, headline
    and gate decision (nothing for a pass that failed)."""
    p = report.result
    if p is None:
        return []
    stamp = p.timestamp[:19].replace("T", " ") if p.timestamp else "time unknown"
    head = (
        f"pass {p.number:<3} {stamp}  {p.reason or '-':<9} {p.observations:>4} obs {p.chars:>7,} chars  "
        f"cache r/w {p.usage.cache_read_tokens:,}/{p.usage.cache_write_tokens:,}"
    )
    if timings:
        head += f"  {p.wall_s:.2f}s"
    lines = [head]
    for verdict in report.verdicts:
        result = verdict.result
        if result.label == SKIPPED_NO_MODEL:
            continue  # folded into the summary, which says how to give the observer a model
        headline = f"  {result.headline}" if result.headline and result.verdict != "silent" else ""
        error = f"  ({result.error})" if result.error and result.status in ("failed", "invalid") else ""
        gate = ""
        shown = verdict.to_json().get("gate") if result.verdict == "advise" or verdict.delivered else None
        if shown is not None:
            gate = f"  -> gate: {shown['action']} ({shown['reason']})"
        lines.append(f"  {result.detector:<22} {result.label}{headline}{error}{gate}")
    if p.compaction is not None:
        c = p.compaction
        lines.append(f"  [compaction: passes {c.evicted_passes[0]}-{c.evicted_passes[-1]} folded]")
    lines.extend(f"  [{step}]" for step in p.steps)
    return lines


def pass_json(report: PassReport, *, timings: bool = False) -> dict[str, Any] | None:
    """One pass as ``--json`` shows it, with the gate's decision on each answer it judged (None: the pass
    failed and shows nothing)."""
    if report.result is None:
        return None
    body = report.result.to_json(timings=timings)
    for item, verdict in zip(body["results"], report.verdicts, strict=True):
        if verdict.result.verdict == "advise" or verdict.delivered:
            gate = verdict.to_json().get("gate")
            if gate is not None:
                item["gate"] = gate
    return body


def header(session: ReplayedSession, passes: int) -> str:
    """The text output's first line for a session."""
    return (
        f"== {session.path.name} (session {session.session}): {passes} passes, "
        f"{session.observations:,} observations from {session.lines:,} lines"
    )


def _nested(value: Any, level: int) -> str:
    """``value`` as ``json.dump(..., indent=1)`` writes it ``level`` containers deep."""
    return json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + " " * level)


@dataclass(frozen=True)
class Spooler:
    """How a replay spools its passes: where, in which form, with wall-clock times or not, and whether the
    soak records of would-delivers are kept too (for a soak log)."""

    directory: Path
    json: bool = False
    timings: bool = False
    soak: bool = False
    render: bool = True
    """Whether passes are rendered at all (the default text output lists findings, not passes)."""

    def open(self) -> PassSpool:
        return PassSpool(self)


@dataclass(frozen=True)
class Spooled:
    """A session's spooled passes: the file, how many passes it holds, and the file of its soak records if
    any detector soaked (picklable, for ``-j`` workers)."""

    path: Path
    passes: int
    soak_path: Path | None = None

    def copy_to(self, out: TextIO) -> None:
        """Write the spool through to ``out`` and remove it."""
        with open(self.path, encoding="utf-8", errors=_ERRORS) as spool:
            shutil.copyfileobj(spool, out)
        self.path.unlink()

    def discard(self) -> None:
        """Remove the spool unread (and the soak records, once read)."""
        for path in (self.path, self.soak_path):
            if path is not None:
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()

    def soaked(self) -> Iterator[dict[str, Any]]:
        """The soak log records of the session's would-delivers, in order, one at a time."""
        if self.soak_path is None:
            return
        with open(self.soak_path, encoding="utf-8", errors=_ERRORS) as records:
            for line in records:
                yield json.loads(line)


class PassSpool:
    """One transcript's passes, rendered into a private temporary file as each concludes."""

    def __init__(self, spooler: Spooler) -> None:
        self._spooler = spooler
        descriptor, name = tempfile.mkstemp(prefix="passes-", suffix=".spool", dir=spooler.directory)
        self.path = Path(name)
        self._file = os.fdopen(descriptor, "w", encoding="utf-8", errors=_ERRORS)
        self._soak: TextIO | None = None
        self.soak_path: Path | None = None
        self.passes = 0

    def add(self, report: PassReport) -> None:
        """Render one concluded pass (a failed pass shows nothing, as in the non-streamed output), and keep
        its soak records if the spooler keeps them (they already name their transcript line)."""
        for verdict in report.verdicts:
            if verdict.soak is not None and self._spooler.soak:
                self._soaked(verdict.soak)
        if report.result is None:
            return
        if self._spooler.render and self._spooler.json:
            body = pass_json(report, timings=self._spooler.timings)
            self._file.write(("," if self.passes else "") + "\n    " + _nested(body, 4))
        elif self._spooler.render:
            self._file.writelines(line + "\n" for line in render_pass(report, timings=self._spooler.timings))
        self.passes += 1

    def _soaked(self, record: dict[str, Any]) -> None:
        if self._soak is None:
            descriptor, name = tempfile.mkstemp(
                prefix="soaked-", suffix=".jsonl", dir=self._spooler.directory
            )
            self.soak_path = Path(name)
            self._soak = os.fdopen(descriptor, "w", encoding="utf-8", errors=_ERRORS)
        self._soak.write(json.dumps(record, ensure_ascii=False) + "\n")

    def close(self) -> Spooled:
        self._file.close()
        if self._soak is not None:
            self._soak.close()
        return Spooled(self.path, self.passes, self.soak_path)

    def discard(self) -> None:
        """The replay failed: nothing of it is shown."""
        self.close()
        for path in (self.path, self.soak_path):
            if path is not None:
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()


def write_text_session(out: TextIO, session: ReplayedSession, spooled: Spooled) -> None:
    """A session's text output: its header line, then its passes from the spool."""
    out.write(header(session, spooled.passes) + "\n")
    spooled.copy_to(out)
    out.flush()


class JsonDocument:
    """The ``--json`` document ``{<head>, "sessions": [...], "summary": {...}}``, written one session at a
    time (the head: :func:`sbcore.conductor.provenance.provenance`).

    Byte for byte what ``json.dump(document, indent=1, ensure_ascii=False)`` followed by a newline writes,
    without holding the sessions.
    """

    def __init__(self, out: TextIO, head: dict[str, Any] | None = None) -> None:
        self._out = out
        self._sessions = 0
        out.write("{")
        for key, value in (head or {}).items():
            out.write("\n " + json.dumps(key, ensure_ascii=False) + ": " + _nested(value, 1) + ",")
        out.write('\n "sessions": [')

    def session(self, session: ReplayedSession, spooled: Spooled) -> None:
        out = self._out
        out.write(("," if self._sessions else "") + "\n  {")
        for index, (key, value) in enumerate(session.json_fields(_PASSES).items()):
            out.write(("," if index else "") + "\n   " + json.dumps(key, ensure_ascii=False) + ": ")
            if value is not _PASSES:
                out.write(_nested(value, 3))
            elif spooled.passes:
                out.write("[")
                spooled.copy_to(out)
                out.write("\n   ]")
            else:
                spooled.copy_to(out)  # empty: only removes it
                out.write("[]")
        out.write("\n  }")
        self._sessions += 1

    def close(self, summary: dict[str, Any]) -> None:
        """End the document with ``summary`` (:meth:`sbcore.conductor.replay_summary.Summary.to_json`)."""
        self._out.write(("\n ]" if self._sessions else "]") + ',\n "summary": ' + _nested(summary, 1))
        self._out.write("\n}\n")
