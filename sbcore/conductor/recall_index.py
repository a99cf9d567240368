"""Keeping a workspace's recall index in step with its notes: incremental, off the hot path, notes read-only.

The worker calls :func:`refresh` between passes, at most every ``recall.refresh_s`` (never a hook, never
inside a pass); the golden runner calls it once on a case's notes. Per source it compares the size and
modification time stored with the index first, reads the file only when either moved, hashes what it read,
and re-chunks only when the hash changed (a touched or copied-back file costs one read and no write of its
chunks). Sources that vanished, or that the globs no longer name, are dropped from the index.

The notes are opened for reading only (through the jail for workspace notes); the chunks are redacted before
they are stored, so the index in the data directory holds no secret the notes happened to contain.

Sources:

- ``recall.sources`` inside the workspace and ``recall.extra_sources`` outside it
  (:mod:`sbcore.think.recall_sources`);
- the observer's own resolved advisories for this workspace (``recall.advisories``): each advisory with an
  outcome (adopted, rejected, already handled, ...) becomes a chunk ``advice:<id>``, read from the advice
  history files (``<data>/history/*.jsonl``, :mod:`sbcore.gate.history`). The history stays their source:
  it has the advisory's headline and body, where the ledger keeps only the verdict of adjudicated advice;
- with them, the ledgers of this workspace's other tasks (:mod:`sbcore.conductor.recall_ledgers`): a chunk
  ``task:<id>`` with the task's goal, its compaction summaries and the verdicts of its adjudicated advice.
  Never the current task's own (recall is about the past; the window already holds it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import logging
import os
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore.conductor.recall_ledgers import LEDGER_PREFIX, refresh_ledgers
from sbcore.config import EffectiveConfig
from sbcore.jail import Jail, JailError, NotFound
from sbcore.observe.redact import redact
from sbcore.paths import data_dir
from sbcore.safefile import read_regular_bytes
from sbcore.state.recall import Entry, RecallReader, RecallStore, RecallWindow, Stamp, index_path
from sbcore.state.recall_chunks import chunk_note
from sbcore.think.recall_sources import NoteFile, extra_notes, read_note, stat_note, workspace_notes

log = logging.getLogger("sbcore.recall")

ADVISORY_REGION = "advisories"
HISTORY_PREFIX = "history:"
CLOSED_OUTCOMES = frozenset({"adopted", "partially_adopted", "rejected", "already_handled", "contradicted"})
MAX_HISTORY_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class RecallSettings:
    """The ``recall.*`` knobs the indexer and the session read."""

    enabled: bool = True
    sources: tuple[str, ...] = ("CLAUDE.md", "AGENTS.md", "docs/adr/**/*.md", "docs/decisions/**/*.md")
    extra_sources: tuple[str, ...] = ()
    advisories: bool = True
    refresh_s: float = 120.0
    max_files: int = 2000
    max_file_bytes: int = 1024 * 1024
    offered_window: int = 64

    @classmethod
    def from_config(cls, config: EffectiveConfig) -> RecallSettings:
        group = config.group("recall")
        return cls(
            enabled=bool(group["enabled"]),
            sources=tuple(group["sources"]),
            extra_sources=tuple(group["extra_sources"]),
            advisories=bool(group["advisories"]),
            refresh_s=float(group["refresh_s"]),
            max_files=int(group["max_files"]),
            max_file_bytes=int(group["max_file_bytes"]),
            offered_window=int(group["offered_window"]),
        )


@dataclass
class Refreshed:
    """What one refresh did, for the worker log and the tests."""

    indexed: list[str] = field(default_factory=list)
    restamped: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"recall index: {len(self.indexed)} indexed, {len(self.restamped)} touched, "
            f"{self.unchanged} unchanged, {len(self.removed)} removed"
            + (f"; {len(self.problems)} problem(s)" if self.problems else "")
        )


def refresh(
    store: RecallStore,
    workspace: Path,
    settings: RecallSettings,
    *,
    data: Path | None = None,
    current_task: str | None = None,
) -> Refreshed:
    """Bring ``store`` in step with the sources ``settings`` name for ``workspace`` (see the module doc);
    ``current_task``'s own ledger is never a source."""
    done = Refreshed()
    try:
        jail = Jail(workspace)
    except ValueError as exc:  # the filesystem root, or not a directory: no workspace notes to read
        done.problems.append(f"recall.sources: {exc}")
        return done
    listing = workspace_notes(jail, list(settings.sources), max_files=settings.max_files)
    done.problems.extend(listing.problems)
    notes = listing.files
    if settings.extra_sources:
        extra = extra_notes(list(settings.extra_sources), max_files=settings.max_files - len(notes))
        done.problems.extend(extra.problems)
        notes = [*notes, *extra.files]
    stamps = store.stamps()
    present: set[str] = set()
    for note in notes:
        if _refresh_note(store, jail, note, stamps.get(note.source), settings.max_file_bytes, done):
            present.add(note.source)
    if settings.advisories and data is not None:
        present.update(_refresh_advisories(store, data, str(workspace), stamps, done))
        ledgers = refresh_ledgers(store, data, str(workspace), current_task, stamps)
        present.update(ledgers.present)
        done.indexed += ledgers.indexed
        done.unchanged += ledgers.unchanged
        done.problems += ledgers.problems
    for source in sorted(set(stamps) - present):
        store.drop(source)
        done.removed.append(source)
    return done


def _refresh_note(
    store: RecallStore, jail: Jail, note: NoteFile, old: Stamp | None, max_bytes: int, done: Refreshed
) -> bool:
    """Index one note if it changed; False when it is not there (any more) or cannot be read."""
    try:
        st = stat_note(jail, note)
        if old is not None and (old.mtime_ns, old.size) == (st.st_mtime_ns, st.st_size):
            done.unchanged += 1
            return True
        st, raw = read_note(jail, note, max_bytes=max_bytes)
    except (JailError, OSError) as exc:
        if not isinstance(exc, FileNotFoundError | NotFound):  # gone since the listing: not a problem
            done.problems.append(f"{note.label}: {exc}")
        return False
    if b"\x00" in raw:
        done.problems.append(f"{note.label}: a binary file, not indexed")
        return False
    stamp = Stamp(st.st_mtime_ns, st.st_size, hashlib.sha256(raw).hexdigest())
    if old is not None and old.sha256 == stamp.sha256:
        store.restamp(note.source, stamp)
        done.restamped.append(note.source)
        return True
    text = redact(raw.decode("utf-8", "replace"))  # whole, so a secret spanning lines is caught too
    entries = [
        Entry(chunk.handle(note.label), note.region, note.kind, chunk.heading, chunk.body)
        for chunk in chunk_note(note.label, text)
    ]
    store.replace(note.source, stamp, entries)
    done.indexed.append(note.source)
    return True


def _refresh_advisories(
    store: RecallStore, data: Path, workspace: str, stamps: dict[str, Stamp], done: Refreshed
) -> set[str]:
    """Index the resolved advisories of ``workspace`` found in the advice history files under ``data``."""
    present: set[str] = set()
    directory = data / "history"
    if not directory.is_dir():
        return present
    for path in sorted(directory.glob("*.jsonl")):
        source = HISTORY_PREFIX + path.name
        try:
            st = path.stat()
            old = stamps.get(source)
            if old is not None and (old.mtime_ns, old.size) == (st.st_mtime_ns, st.st_size):
                done.unchanged += 1
                present.add(source)
                continue
            raw = read_regular_bytes(path, max_bytes=MAX_HISTORY_BYTES)
        except OSError as exc:
            done.problems.append(f"{path.name}: {exc}")
            continue
        present.add(source)
        stamp = Stamp(st.st_mtime_ns, st.st_size, hashlib.sha256(raw).hexdigest())
        store.replace(source, stamp, _advisory_entries(_records(raw), workspace))
        done.indexed.append(source)
    return present


def _records(raw: bytes) -> Iterable[dict[str, Any]]:
    for line in raw.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value


def _advisory_entries(records: Iterable[dict[str, Any]], workspace: str) -> list[Entry]:
    """One chunk per advisory of ``workspace`` that has a closing outcome: what was advised, and its fate."""
    advised: dict[str, dict[str, Any]] = {}
    outcomes: dict[str, dict[str, Any]] = {}
    for record in records:
        advice_id = record.get("advice_id")
        if not isinstance(advice_id, str):
            continue
        envelope = record.get("advice")
        if isinstance(envelope, dict) and envelope.get("workspace") == workspace:
            advised[advice_id] = {**envelope, "detector": record.get("detector")}
        elif record.get("stage") == "outcome" and record.get("verdict") in CLOSED_OUTCOMES:
            outcomes[advice_id] = record
    entries = []
    for advice_id, outcome in outcomes.items():
        advice = advised.get(advice_id)
        if advice is None:
            continue
        evidence = "; ".join(str(item) for item in outcome.get("evidence") or ())
        body = f"{advice.get('body') or ''}\noutcome: {outcome['verdict']}" + (
            f" ({evidence})" if evidence else ""
        )
        entries.append(
            Entry(
                handle=f"advice:{advice_id}",
                region=ADVISORY_REGION,
                kind="advisory",
                heading=redact(f"{advice.get('detector') or 'advisory'}: {advice.get('headline') or ''}"),
                body=redact(body.strip()),
            )
        )
    return entries


def refresh_workspace(
    workspace: Path, settings: RecallSettings, *, data: Path | None = None, current_task: str | None = None
) -> Refreshed:
    """Open ``workspace``'s index in the data directory (creating it), refresh it, close it.

    The index file is touched each time: the sweep (:mod:`sbcore.worker.retention`) removes the indexes no
    refresh used for ``ledger.files_ttl_days``, and a refresh that changed nothing writes nothing.
    """
    root = data if data is not None else data_dir()
    path = index_path(workspace, root)
    with RecallStore(path) as store:
        done = refresh(store, workspace, settings, data=root, current_task=current_task)
    with contextlib.suppress(OSError):
        os.utime(path)
    return done


def source_task(source: str) -> str | None:
    """The task an index source of the observer's own came from (None for a note): a history file's name
    (the task id as a file name, :func:`sbcore.paths.safe_name`) or a ledger's task id."""
    if source.startswith(HISTORY_PREFIX):
        return source.removeprefix(HISTORY_PREFIX).removesuffix(".jsonl")
    if source.startswith(LEDGER_PREFIX):
        return source.removeprefix(LEDGER_PREFIX)
    return None


@contextlib.contextmanager
def scratch_index(workspace: Path, settings: RecallSettings) -> Iterator[RecallReader | None]:
    """A read-only reader of an index of ``workspace``'s notes built in a scratch data directory, removed
    on exit; None when recall is off.

    For drivers that must not depend on, or touch, the user's data directory (replay, golden cases): the
    observer's own advisories are left out, so the same notes and transcript replay the same way.
    """
    if not settings.enabled:
        yield None
        return
    scoped = dataclasses.replace(settings, advisories=False)
    with tempfile.TemporaryDirectory(prefix="sbcore-recall-") as scratch:
        try:
            refresh_workspace(workspace, scoped, data=Path(scratch))
        except sqlite3.Error as error:  # an SQLite built without FTS5: recall is unavailable, not fatal
            log.warning("recall index not built: %s", error)
            yield None
            return
        yield RecallReader(index_path(workspace, Path(scratch)), frozen=True)  # nothing writes it again


def recall_window(
    workspace: Path,
    settings: RecallSettings,
    *,
    data: Path | None = None,
    previous: RecallWindow | None = None,
) -> RecallWindow | None:
    """The read-only window a session's passes recall through (None when recall is off).

    ``previous`` keeps what the session was already offered across a configuration reload.
    """
    if not settings.enabled:
        return None
    path = index_path(workspace, data)
    if previous is not None and previous.reader.path == path and previous.size == settings.offered_window:
        return previous
    window = RecallWindow(RecallReader(path), settings.offered_window)
    if previous is not None:
        window.remember(previous.offered)
    return window
