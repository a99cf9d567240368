"""The per-session mailbox: where gated advice waits, and the only place it is taken from.

Standard library only: the drain hooks import this, and their import time is
part of every tool call's latency.

Layout, under the data directory (``mailbox/`` is 0700, every file 0600):

* ``mailbox/<session>.json`` — ``{"v": 1, "entries": [<advice>, ...]}``, oldest
  first. It exists only while something waits, so "nothing to deliver" is one
  failed ``stat`` (the hook launcher's fast path can test for the file);
* ``mailbox/<session>.lock`` — the lock file. The mailbox itself is replaced on
  every change, so a lock held on it would be held on an inode that is about to
  vanish; the sibling file never changes, so everyone locks the same inode;
* ``mailbox/<session>.rejected.jsonl`` — entries that could not be read, moved
  aside rather than lost; ``mailbox/<session>.corrupt.<ns>`` — a whole mailbox
  that could not be read, likewise.

Exactly once: every change is a read-modify-write of the whole file made while
holding an exclusive ``flock`` on the lock file, and the write is a temp file
plus ``os.replace``, so a reader sees either the state before a change or the
state after it, never a mix. A claim removes what it takes in the same atomic
replace, before it returns: no later lock holder can see it again. A crash
after the replace but before the hook prints loses that advisory, which is the
right trade for a channel where late is worse than never.

The drain never waits: :meth:`Mailbox.claim` tries the lock once
(``LOCK_EX | LOCK_NB``) and on contention returns nothing at once — whoever
holds the lock is the worker posting or another drain delivering, and the next
hook call will look again. Nothing in ``claim`` raises; a corrupt or missing
mailbox is an empty result, and :attr:`Mailbox.problem` says what went wrong
for the caller to log.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sbcore import paths
from sbcore.gate.advice import Advice, Clock, normalise_key
from sbcore.gate.history import Action, History, Reason, Stage, make_record
from sbcore.problems import SbcoreError

VERSION = 1

Recheck = Callable[[Advice], "str | None"]
"""Given an advisory about to be claimed, why it is no longer true (``None``: still valid)."""

PostOutcome = Literal["posted", "superseded", "target_gone"]


class MailboxBusy(SbcoreError, OSError):
    """The worker could not get the mailbox lock within its timeout (a drain held it throughout).

    An ``OSError``, as the lock's own ``EWOULDBLOCK`` is: to a poster, a busy queue and a failing disk
    are the same outcome (not queued now)."""


class _Unreadable(SbcoreError):
    """The mailbox file exists but is not a mailbox."""


@dataclass(frozen=True)
class PostResult:
    """What :meth:`Mailbox.post` did.

    ``posted``: added (or an entry with the same id replaced); ``superseded``:
    replaced ``replaced`` in place; ``target_gone``: the advisory named in
    ``supersedes`` was no longer waiting (claimed, expired or dropped), so
    nothing was posted — the gate decides what that means.
    """

    outcome: PostOutcome
    advice: Advice
    replaced: Advice | None = None


@dataclass(frozen=True)
class Removed:
    """An entry a claim or a sweep took out without delivering it."""

    advice: Advice
    reason: Reason
    text: str


class Mailbox:
    """One session's mailbox."""

    def __init__(self, session_id: str, data: Path | None = None) -> None:
        self.session_id = session_id
        self.data = data or paths.data_dir()
        self.directory = self.data / "mailbox"
        name = paths.safe_name(session_id)
        self.path = self.directory / f"{name}.json"
        self.lock_path = self.directory / f"{name}.lock"
        self.rejected_path = self.directory / f"{name}.rejected.jsonl"
        self.problem: str | None = None
        """What went wrong in the last operation (``None`` when nothing did); for the caller to log."""

    # -- drain side -------------------------------------------------------------------------------

    def claim(
        self,
        now: float,
        *,
        for_agent: bool = True,
        human_channel: bool = False,
        recheck: Recheck | None = None,
        select: Callable[[Advice], bool] | None = None,
    ) -> list[Advice]:
        """Take every advisory this caller may deliver, exactly once, without ever waiting.

        for_agent:
            the caller delivers to the agent (with the same text to the user):
            advisories not marked ``human_only`` are claimable.
        human_channel:
            the caller can show the user a message the model does not see —
            a synchronous hook's ``systemMessage``. Only then are ``human_only``
            advisories claimable; an async hook (whose systemMessage reaches
            the model too) or a monitor line must leave this ``False``.
        recheck:
            the staleness re-check at claim time (see
            :func:`sbcore.gate.advice.stale_reason`); an advisory it flags is
            removed, not delivered.
        select:
            claim only the advisories it accepts (the finish gate claims one).

        Expired entries (either clock) are removed whoever they were for. The
        returned advisories carry ``delivered_at = now``. On lock contention,
        a missing or corrupt mailbox, or any error, returns ``[]`` (see
        :attr:`problem`).
        """
        self.problem = None
        if not self.path.exists():
            return []
        claimed: list[Advice] = []
        removed: list[Removed] = []
        try:
            with self._locked(wait=None) as held:
                if not held:
                    self.problem = "busy: another process holds the mailbox lock"
                    return []
                entries = self._load_or_quarantine(now)
                kept: list[Advice] = []
                for advice in entries:
                    clock = advice.expired_by(now)
                    if clock is not None:
                        removed.append(_expired(advice, clock))
                        continue
                    wanted = human_channel if advice.human_only else for_agent
                    if not wanted or (select is not None and not select(advice)):
                        kept.append(advice)
                        continue
                    why = recheck(advice) if recheck is not None else None
                    if why:
                        removed.append(Removed(advice, Reason.STALE_AT_CLAIM, why))
                        continue
                    claimed.append(advice.with_changes(delivered_at=now))
                if claimed or removed:
                    self._store(kept)
        except Exception as error:  # the drain must never fail: report, deliver nothing
            self.problem = f"claim failed: {type(error).__name__}: {error}"
            return []
        self._log_claims(now, claimed, removed)
        return claimed

    def pending(self) -> list[Advice]:
        """What is waiting now (a snapshot, read without the lock; ``[]`` if unreadable)."""
        self.problem = None
        try:
            entries, rejected = self._load()
        except (OSError, _Unreadable) as error:
            self.problem = f"unreadable mailbox: {error}"
            return []
        if rejected:
            self.problem = f"{len(rejected)} unreadable entries (kept until the next change moves them aside)"
        return entries

    # -- worker side ------------------------------------------------------------------------------

    def post(self, advice: Advice, *, now: float | None = None, timeout: float = 5.0) -> PostResult:
        """Queue ``advice``, stamping ``enqueued_at`` (``now``, default the current time) if unset.

        Supersede in place: when ``advice.supersedes`` names a waiting entry,
        that entry is replaced where it stands; when it names one that is no
        longer waiting, nothing is posted (``target_gone``). Without
        ``supersedes``, a waiting entry from the same detector with the same
        normalised dedup_key is replaced likewise (and ``supersedes`` filled
        in), so two versions of one finding never queue side by side.

        Entries already past either clock are removed first (and recorded as
        expired), so an expired advisory is never superseded back to life.
        Waits up to ``timeout`` seconds for the lock, then raises
        :class:`MailboxBusy`; a corrupt mailbox is moved aside and replaced.
        """
        self.problem = None
        stamp = time.time() if now is None else now
        queued = advice if advice.enqueued_at is not None else advice.with_changes(enqueued_at=stamp)
        with self._locked(wait=timeout):
            entries = self._load_or_quarantine(stamp)
            removed = [_expired(entry, clock) for entry in entries if (clock := entry.expired_by(stamp))]
            live = [entry for entry in entries if entry.expired_by(stamp) is None]
            result = self._place(queued, live)
            if removed or result.outcome != "target_gone":
                self._store(live)
        self._log_removals(stamp, "post", removed)
        return result

    @staticmethod
    def _place(queued: Advice, entries: list[Advice]) -> PostResult:
        """Place ``queued`` among ``entries`` (changed in place; untouched when the target is gone)."""
        if queued.supersedes is not None:
            index = _find(entries, lambda entry: entry.id == queued.supersedes)
            if index is None:
                return PostResult("target_gone", queued)
        else:
            key = normalise_key(queued.dedup_key)
            index = _find(
                entries,
                lambda entry: (
                    entry.id != queued.id
                    and entry.kind == queued.kind
                    and normalise_key(entry.dedup_key) == key
                ),
            )
            if index is not None:
                queued = queued.with_changes(supersedes=entries[index].id)
        if index is not None:
            replaced = entries[index]
            entries[index] = queued
            return PostResult("superseded", queued, replaced)
        same = _find(entries, lambda entry: entry.id == queued.id)
        if same is None:
            entries.append(queued)
        else:
            entries[same] = queued
        return PostResult("posted", queued)

    def sweep_on_start(
        self,
        now: float,
        revalidate: Recheck | None = None,
        *,
        timeout: float = 5.0,
    ) -> list[Removed]:
        """A starting worker's clean-up: drop what a previous worker left that must not be delivered.

        Removes entries past either clock (older than the queue timeout, or no
        longer valid) and those ``revalidate`` flags (re-checked against the
        observations the new worker has — the same test as the staleness
        re-check; a worker that sees ``mute.all`` switched on passes a
        callable that flags everything). Also deletes temp files a crashed
        writer left behind (safe: writes only happen under the lock, which
        this holds). Returns what it removed; raises :class:`MailboxBusy`
        like :meth:`post`.
        """
        self.problem = None
        removed: list[Removed] = []
        with self._locked(wait=timeout):
            self._delete_stray_temp_files()
            entries = self._load_or_quarantine(now)
            kept: list[Advice] = []
            for advice in entries:
                clock = advice.expired_by(now)
                why = None if clock is not None or revalidate is None else revalidate(advice)
                if clock is not None:
                    removed.append(_expired(advice, clock))
                elif why:
                    removed.append(Removed(advice, Reason.REVALIDATED_OUT, why))
                else:
                    kept.append(advice)
            if removed:
                self._store(kept)
        self._log_removals(now, "sweep", removed)
        return removed

    # -- the file ---------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self, *, wait: float | None) -> Iterator[bool]:
        """Hold the exclusive lock. ``wait=None`` tries once and yields whether it got it; else polls."""
        paths.ensure_private_dir(self.directory)
        fd = paths.open_private(self.lock_path, os.O_RDWR | os.O_CREAT)
        try:
            deadline = None if wait is None else time.monotonic() + wait
            pause = 0.0005
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as error:
                    if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                        raise
                if deadline is None:
                    yield False
                    return
                if time.monotonic() >= deadline:
                    raise MailboxBusy(f"{self.lock_path}: lock still held after {wait} s")
                time.sleep(pause)
                pause = min(pause * 2, 0.02)
            yield True
        finally:
            os.close(fd)  # closing the only descriptor releases the lock

    def _load(self) -> tuple[list[Advice], list[Any]]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return [], []
        try:
            document = json.loads(raw)
        except ValueError as error:
            raise _Unreadable(f"{self.path}: not JSON ({error})") from error
        if not isinstance(document, dict) or document.get("v") != VERSION:
            raise _Unreadable(f"{self.path}: not a version-{VERSION} mailbox")
        items = document.get("entries")
        if not isinstance(items, list):
            raise _Unreadable(f"{self.path}: 'entries' is not a list")
        entries: list[Advice] = []
        rejected: list[Any] = []
        for item in items:
            try:
                entries.append(Advice.from_json(item))
            except ValueError as error:
                rejected.append({"entry": item, "problem": str(error)})
        return entries, rejected

    def _load_or_quarantine(self, now: float) -> list[Advice]:
        """The entries (lock held). A corrupt mailbox is moved aside; unreadable entries are set aside."""
        try:
            entries, rejected = self._load()
        except _Unreadable as error:
            aside = self.directory / f"{self.path.stem}.corrupt.{time.time_ns()}"
            os.replace(self.path, aside)
            self.problem = f"{error}; moved to {aside.name}"
            return []
        if rejected:
            lines = b"".join(
                json.dumps({"at": now, **item}, ensure_ascii=False, default=str).encode() + b"\n"
                for item in rejected
            )
            paths.append_private(self.rejected_path, lines, line_start=True)
            self.problem = f"{len(rejected)} unreadable entries moved to {self.rejected_path.name}"
        return entries

    def _store(self, entries: Sequence[Advice]) -> None:
        """Replace the mailbox (lock held); an empty mailbox is no file at all."""
        if not entries:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            return
        document = {"v": VERSION, "entries": [advice.to_json() for advice in entries]}
        paths.write_private(self.path, json.dumps(document, ensure_ascii=False).encode() + b"\n")

    def _delete_stray_temp_files(self) -> None:
        prefix = f".{self.path.name}."
        for leftover in self.directory.glob(f"{prefix}*.tmp"):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()

    # -- the record -------------------------------------------------------------------------------

    def _log_claims(self, now: float, claimed: Sequence[Advice], removed: Sequence[Removed]) -> None:
        for advice in claimed:
            action = Action.DELIVER_HUMAN_ONLY if advice.human_only else Action.DELIVER_AGENT
            self._log(advice, "claim", now, action, Reason.CLAIMED, "taken from the mailbox for delivery")
        self._log_removals(now, "claim", removed)

    def _log_removals(self, now: float, stage: Stage, removed: Sequence[Removed]) -> None:
        for item in removed:
            self._log(item.advice, stage, now, Action.DROP, item.reason, item.text)

    def _log(
        self,
        advice: Advice,
        stage: Stage,
        now: float,
        action: Action,
        reason: Reason,
        text: str,
    ) -> None:
        record = make_record(
            stage,
            at=now,
            task_id=advice.task_id,
            session_id=advice.session_id,
            detector=advice.kind,
            advice_id=advice.id,
            action=action,
            reason=reason,
            text=text,
            dedup_key=advice.dedup_key,
        )
        try:
            History.for_task(advice.task_id, self.data).record(record)
        except OSError as error:  # the log must not cost a delivery
            self.problem = f"history not written: {error}"


def _find(entries: Sequence[Advice], match: Callable[[Advice], bool]) -> int | None:
    return next((index for index, entry in enumerate(entries) if match(entry)), None)


def _expired(advice: Advice, clock: Clock) -> Removed:
    if clock == "advice_ttl":
        return Removed(advice, Reason.EXPIRED_TTL, f"validity clock: {advice.ttl:g} s since generation")
    return Removed(advice, Reason.EXPIRED_QUEUE, f"queue clock: {advice.queue_timeout:g} s since enqueue")
