"""The recall index: the team's notes cut into chunks, in an SQLite FTS5 table ranked by BM25.

Where it lives: its own file per workspace, ``<data>/recall/<workspace key>.db`` (0600 in a 0700 directory,
through :func:`sbcore.state.db.connect`), not a table of ``sbcore.db``. The index is a cache of files the user
already has, rebuilt from them at will, and it can be large (every note's text); the ledger, the cross-task
index and the uptake records are the observer's own small records. Keeping them apart means a workspace's
pass can only ever open that workspace's notes (another workspace's index is another file), ``forget`` or a
full rebuild is one unlink that cannot touch a ledger, the file a pass reads can be hashed before and after
it without other rooms' writes in the way, and a corrupt index costs a re-index, never the ledger.

Who writes: only :class:`RecallStore`, which the worker's indexer opens between passes (never a hook, never
inside a pass). Who reads: :class:`RecallReader`, whose every connection is opened ``mode=ro`` by
:func:`sbcore.state.db.connect`; SQLite itself refuses a write through it, so a pass cannot change the index
(tests/think/test_recall_readonly.py writes through one and hashes the file around a pass).

Standard library only, like the rest of the state room.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections import OrderedDict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sbcore.paths import data_dir, workspace_key
from sbcore.state import db

SCHEMA = db.Schema(
    name="recall",
    version=1,
    rebuildable=True,  # read again from its sources (the notes; the live sessions) when rebuilt
    ddl="""
CREATE TABLE IF NOT EXISTS recall_files (
    source TEXT PRIMARY KEY,
    mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS recall_chunks USING fts5(
    handle UNINDEXED,
    source UNINDEXED,
    region UNINDEXED,
    kind UNINDEXED,
    heading,
    body,
    tokenize = 'porter unicode61'
);
""",
    tables=("recall_files", "recall_chunks"),
)
HEADING_WEIGHT = 2.0
"""BM25 weight of a chunk's heading against its body (1.0): a heading naming the error is the best sign."""
MAX_QUERY_TERMS = 32
SEARCHES_REMEMBERED = 256
"""How many answers a frozen reader keeps (:class:`RecallReader`)."""
_TERM = re.compile(r"[^\W_]+")
"""A word as FTS5's unicode61 tokenizer cuts one: letters and digits (an underscore separates)."""


def index_path(workspace: str | Path, data: Path | None = None) -> Path:
    """The index file of ``workspace``: in the observer's data directory, never in the repository."""
    return (data if data is not None else data_dir()) / "recall" / f"{workspace_key(workspace)}.db"


def query_terms(text: str) -> list[str]:
    """The words of ``text`` as the index's tokenizer cuts them, in order, without repeats (case folded)."""
    seen: dict[str, None] = {}
    for word in _TERM.findall(text.lower()):
        seen.setdefault(word, None)
    return list(seen)


@dataclass(frozen=True)
class Stamp:
    """What the indexer compares to decide whether a source changed: cheap fields first, then the hash."""

    mtime_ns: int
    size: int
    sha256: str


@dataclass(frozen=True)
class Entry:
    """One chunk to store: its handle (``path#anchor`` or ``advice:<id>``), region, kind, heading, body."""

    handle: str
    region: str
    kind: str
    heading: str
    body: str


@dataclass(frozen=True)
class Hit:
    """One chunk a search found; ``score`` is BM25 negated, so higher is better."""

    handle: str
    source: str
    region: str
    kind: str
    heading: str
    body: str
    score: float


class RecallStore:
    """The indexer's writable connection (the worker's, between passes). Use as a context manager."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn = db.connect(path)
        # A cache of files the user keeps: a commit lost to a power cut is re-indexed at the next refresh,
        # so the WAL need not be synced at each of the per-note commits, only at checkpoints.
        self.conn.execute("PRAGMA synchronous=NORMAL")
        db.ensure(self.conn, SCHEMA)

    def __enter__(self) -> RecallStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.close()

    def stamps(self) -> dict[str, Stamp]:
        """Every indexed source with the stamp it was indexed at."""
        rows = self.conn.execute("SELECT source, mtime_ns, size, sha256 FROM recall_files")
        return {row[0]: Stamp(row[1], row[2], row[3]) for row in rows}

    def restamp(self, source: str, stamp: Stamp) -> None:
        """A source whose content hash is unchanged (touched, copied back): only its stamp moves."""
        with self.conn:
            self.conn.execute(
                "UPDATE recall_files SET mtime_ns = ?, size = ? WHERE source = ?",
                (stamp.mtime_ns, stamp.size, source),
            )

    def replace(self, source: str, stamp: Stamp, entries: Iterable[Entry]) -> None:
        """Put ``source``'s chunks in place of what it had, in one transaction."""
        with self.conn:
            self._delete_chunks(source)
            self.conn.executemany(
                "INSERT INTO recall_chunks (handle, source, region, kind, heading, body) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(e.handle, source, e.region, e.kind, e.heading, e.body) for e in entries],
            )
            self.conn.execute(
                "INSERT INTO recall_files (source, mtime_ns, size, sha256) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(source) DO UPDATE SET mtime_ns = excluded.mtime_ns, size = excluded.size, "
                "sha256 = excluded.sha256",
                (source, stamp.mtime_ns, stamp.size, stamp.sha256),
            )

    def drop(self, source: str) -> None:
        """Forget a source that is gone, or no longer named by ``recall.sources``."""
        with self.conn:
            self._delete_chunks(source)
            self.conn.execute("DELETE FROM recall_files WHERE source = ?", (source,))

    def _delete_chunks(self, source: str) -> None:
        """Delete ``source``'s chunks, if it has any: the FTS table can only find them by a full scan, so a
        source the index has never seen (every note of a first index) skips it."""
        known = self.conn.execute("SELECT 1 FROM recall_files WHERE source = ?", (source,)).fetchone()
        if known is not None:
            self.conn.execute("DELETE FROM recall_chunks WHERE source = ?", (source,))


class RecallReader:
    """Read-only searches of one index file; every connection is ``mode=ro`` (see the module docstring).

    :param frozen: the index will not change while this reader is in use (a replay's scratch index, built
        once before the first pass). Its answers are then remembered, the latest ``SEARCHES_REMEMBERED``
        of them: a replay asks about the same unsolved failure on pass after pass, and each answer would
        otherwise cost a connection and a query. A live index is never frozen, so a note the indexer adds
        between passes is found on the next one.
    """

    def __init__(self, path: Path, *, frozen: bool = False) -> None:
        self.path = path
        self._answers: OrderedDict[tuple[tuple[str, ...], int], tuple[Hit, ...]] | None = (
            OrderedDict() if frozen else None
        )

    def connect(self) -> sqlite3.Connection:
        """A read-only connection to the index (``sqlite3.OperationalError`` when there is none yet)."""
        return db.connect(self.path, readonly=True)

    def search(self, terms: Sequence[str], *, limit: int = 8) -> list[Hit]:
        """The chunks matching any of ``terms``, best BM25 first; [] when there is no index yet."""
        words = [term for term in terms if term][:MAX_QUERY_TERMS]
        if not words or limit < 1:
            return []
        if self._answers is None:
            return self._search(words, limit)
        key = (tuple(words), limit)
        answer = self._answers.get(key)
        if answer is None:
            answer = self._answers[key] = tuple(self._search(words, limit))
            while len(self._answers) > SEARCHES_REMEMBERED:
                self._answers.popitem(last=False)
        else:
            self._answers.move_to_end(key)
        return list(answer)

    def _search(self, words: list[str], limit: int) -> list[Hit]:
        if not self.path.is_file():
            return []
        match = " OR ".join('"' + word.replace('"', '""') + '"' for word in words)
        try:
            with contextlib.closing(self.connect()) as conn:
                rows = conn.execute(
                    "SELECT handle, source, region, kind, heading, body, "
                    f"bm25(recall_chunks, 0, 0, 0, 0, {HEADING_WEIGHT}, 1.0) AS rank "
                    "FROM recall_chunks WHERE recall_chunks MATCH ? ORDER BY rank LIMIT ?",
                    (match, limit),
                ).fetchall()
        except sqlite3.Error:  # no index yet, or one being rebuilt: nothing to recall this time
            return []
        return [Hit(r[0], r[1], r[2], r[3], r[4], r[5], -float(r[6])) for r in rows]


class RecallWindow:
    """What a session's passes recall through: the read-only reader, and the chunks already offered.

    The offered handles are a first-in, first-out window of ``size`` (``recall.offered_window``): a chunk in
    it is never offered again, so a note does not return pass after pass; one that has left it may.
    """

    def __init__(self, reader: RecallReader, size: int = 64) -> None:
        self.reader = reader
        self.size = size
        self._offered: deque[str] = deque(maxlen=size)

    def search(self, terms: Sequence[str], *, limit: int = 8) -> list[Hit]:
        """:meth:`RecallReader.search`, without the chunks this session was already offered."""
        hits = self.reader.search(terms, limit=limit + len(self._offered))
        return [hit for hit in hits if hit.handle not in self._offered][:limit]

    def remember(self, handles: Iterable[str]) -> None:
        """Record ``handles`` as offered (the oldest leave the window first)."""
        for handle in handles:
            if handle not in self._offered:
                self._offered.append(handle)

    @property
    def offered(self) -> tuple[str, ...]:
        """The handles in the window, oldest first."""
        return tuple(self._offered)

    def scratch(self) -> RecallWindow:
        """A copy over the same reader whose offers are its own: a trigger asked between passes (a probe)
        offers nothing to the session."""
        copy = RecallWindow(self.reader, self.size)
        copy._offered.extend(self._offered)
        return copy
