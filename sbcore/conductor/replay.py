"""Replay: a recorded transcript through the whole observer, gate included, on the records' own clock.

For each transcript: project its lines in order and feed them to the one pipeline
(:class:`~sbcore.conductor.pipeline.Pipeline`) with a simulated clock that follows the records' timestamps;
every pass the pacer asks for runs, and every answer goes through the gate into a mailbox, exactly
as in a live worker. The gate, its history and the mailbox live in a scratch directory of the replay's own,
never in the user's data directory, and at each replayed tool call the drain hook's claim is stood in for,
so dedup, supersession, cooldown and the rate limit see deliveries when a live session would have. Turn ends
are read from the transcript: the harness's ``turn_duration`` and ``stop_hook_summary`` records, an
assistant message that ended its turn, a new user prompt after the agent has been working (the previous
turn is over, interrupted or not), and the end of the file.

Several transcripts of one workspace can be replayed together (:meth:`Replayer.replay_interleaved`,
``--interleave``): their records merged by timestamp on one clock, each transcript its own task with its own
pipeline, the tasks sharing a private cross-task index in memory (never the user's), so what one session
publishes another hears, as concurrent live sessions would. A transcript replayed alone has no index.

Offline (the default) nothing leaves the machine and the output is a function of the input alone: no wall
clock, no randomness, ordered output. With a provider, forks really run; the policy's budget is charged with
what they spend.

Labelled cases are scored through this replay by :mod:`sbcore.conductor.labels`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import heapq
import itertools
import json
import multiprocessing
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sbcore.conductor import assembly, prices
from sbcore.conductor.activity import active_seconds
from sbcore.conductor.listings import listed_in_file
from sbcore.conductor.new_goal import GoalJudge, GoalSplit, NewGoalSettings
from sbcore.conductor.pipeline import PassReport, Verdict
from sbcore.conductor.presence import IndexSettings, Presence
from sbcore.conductor.replay_driver import Clockwork, Driver
from sbcore.conductor.replay_output import PassSpool, Spooled, Spooler, header, pass_json, render_pass
from sbcore.conductor.replay_text import Finding, finding
from sbcore.gate.settings import GateSettings
from sbcore.observe.anchors import AnchorResolver
from sbcore.observe.blocks import LineBlocks
from sbcore.observe.config import ProjectionConfig
from sbcore.observe.project import Projector
from sbcore.observe.project_facts import UNKNOWN, read_project
from sbcore.pace.clock import SimulatedClock, epoch_seconds
from sbcore.pace.pacer import Pacer
from sbcore.packs.model import DetectorDef
from sbcore.packs.registry import TriggerSpec
from sbcore.state.recall import RecallReader, RecallWindow
from sbcore.state.taskindex import TaskIndex, Whereabouts
from sbcore.think.debug import DebugCapture
from sbcore.think.pass_ import PassEngine, PassResult
from sbcore.think.providers.base import Provider, Usage
from sbcore.think.tools.dispatch import Toolbox

if TYPE_CHECKING:
    from jinja2.sandbox import SandboxedEnvironment

    from sbcore.config import EffectiveConfig

_TURN_MARKERS = (b"turn_duration", b"stop_hook_summary", b'"end_turn"', b'"stop_sequence"')
_TURN_SUBTYPES = frozenset({"turn_duration", "stop_hook_summary"})

Progress = Callable[[int, int, Path], None]


# -- prices -----------------------------------------------------------------------------------------------


def estimate_cost(usage: Usage, model: str) -> float | None:
    """Dollars for ``usage`` on ``model`` at list prices (:mod:`sbcore.conductor.prices`), or None when the
    model is not listed."""
    return prices.cost(
        model,
        {
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "cache_read_tokens": usage.cache_read_tokens,
            "cache_write_tokens": usage.cache_write_tokens,
        },
    )


# -- one transcript ---------------------------------------------------------------------------------------


@dataclass
class Tally:
    """What one transcript's passes add up to, folded pass by pass as each concludes.

    The summary and label scoring read this instead of the passes themselves, so a replay need not keep
    its passes (each holds its episode's observations): memory stays the same however long the transcript
    is (docs/engine.md, "second-brain replay").
    """

    passes: int = 0
    turn_ends: int = 0
    usage: Usage = field(default_factory=Usage)
    verdicts: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    """Per detector, how many of its answers carried each label."""
    gate: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    """Per detector, what became of its ``advise`` verdicts: ``delivered``, ``soaked`` (a soaking detector's
    would-deliver), ``log_only`` or the gate's drop reason."""
    advised_at_turn_end: Counter[str] = field(default_factory=Counter)
    """Per detector, how many turn-end passes it advised in."""
    fired: set[str] = field(default_factory=set)
    """Detectors that advised in some pass (their own verdict, before the gate)."""
    delivered: set[str] = field(default_factory=set)
    """Detectors the gate delivered an advisory of (to the agent or the user)."""
    would_deliver: set[str] = field(default_factory=set)
    """Detectors delivered, or — soaking — that would have been."""
    findings: list[Finding] = field(default_factory=list)
    """What the replay would have said (delivered, soaked or logged), in order."""
    raised: Counter[str] = field(default_factory=Counter)
    """Per detector, how many passes its trigger raised or its fork crashed in (a bug, never a verdict)."""
    raised_why: dict[str, str] = field(default_factory=dict)
    """Per detector that raised, the first error, in one line."""

    def add(self, report: PassReport, line: int | None = None) -> None:
        """Fold one concluded pass in, decided at transcript ``line``."""
        stamp = report.result.timestamp if report.result is not None else None
        for verdict in report.verdicts:
            result = verdict.result
            if verdict.delivered:
                self.delivered.add(result.detector)
            if verdict.delivered or verdict.soak is not None:
                self.would_deliver.add(result.detector)
            outcome = _gate_outcome(verdict)
            if outcome is not None:
                self.gate[result.detector][outcome] += 1
            found = finding(verdict, outcome, stamp, line)
            if found is not None:
                self.findings.append(found)
        p = report.result
        if p is None:
            return
        self.passes += 1
        self.usage = self.usage + p.usage
        crashes = [
            (name, why) for name, why in p.skipped if why.startswith("trigger ") and " failed: " in why
        ]
        crashes += [(r.detector, r.error or "failed") for r in p.results if r.status == "failed"]
        for name, why in crashes:
            self.raised[name] += 1
            self.raised_why.setdefault(name, why)
        advised = {r.detector for r in p.results if r.verdict == "advise"}
        self.fired |= advised
        if p.reason == "turn end":
            self.turn_ends += 1
            self.advised_at_turn_end.update(advised)
        for result in p.results:
            self.verdicts[result.detector][result.label] += 1


def _gate_outcome(verdict: Verdict) -> str | None:
    """What became of an ``advise`` verdict (None: not an advise, or it never reached the gate)."""
    if verdict.result.verdict != "advise":
        return None
    if verdict.held is not None:
        return "log_only"
    if verdict.decision is None:
        return None
    if verdict.soak is not None:
        return "soaked"
    return "delivered" if verdict.delivered else str(verdict.decision.reason)


@dataclass
class SessionReplay:
    """One transcript replayed: what its passes add up to, and the passes themselves if they were kept.

    A :class:`Replayer` with ``keep_reports`` (the default) keeps every pass report; ``second-brain
    replay`` does not: it spools each pass's output as it concludes (``spooled``) and reads the rest from
    the ``tally``.
    """

    path: Path
    session: str
    lines: int
    observations: int
    tally: Tally = field(default_factory=Tally)
    reports: list[PassReport] = field(default_factory=list)
    holds: dict[str, int] = field(default_factory=dict)
    demotion: dict[str, dict[str, Any]] = field(default_factory=dict)
    active_s: float = 0.0
    """Active time by the records' clock (:func:`~sbcore.conductor.activity.active_seconds`)."""
    spooled: Spooled | None = None
    """Where each pass's output was written as it concluded, when the replayer spooled them."""
    task_starts: list[dict[str, Any]] = field(default_factory=list)
    """Each task a new goal began in the session (see :class:`~sbcore.conductor.replay_driver.Driver`)."""

    @property
    def turn_ends(self) -> int:
        return self.tally.turn_ends

    @property
    def passes(self) -> list[PassResult]:
        """The kept passes' results (empty when the replayer did not keep its reports)."""
        return [report.result for report in self.reports if report.result is not None]

    @property
    def usage(self) -> Usage:
        return self.tally.usage

    def fired(self, detector: str) -> bool:
        """Whether ``detector`` advised in any pass (its own verdict, before the gate)."""
        return detector in self.tally.fired

    def delivered(self, detector: str) -> bool:
        """Whether the gate delivered an advisory of ``detector`` in any pass (to the agent or the user)."""
        return detector in self.tally.delivered

    def would_deliver(self, detector: str) -> bool:
        """Whether ``detector`` was delivered, or — soaking — would have been, in any pass."""
        return detector in self.tally.would_deliver

    @property
    def soaked(self) -> list[dict[str, Any]]:
        """The soak log records of this replay's would-delivers, in order (each with its transcript line),
        from the kept reports (a spooling replay spools them: :meth:`Spooled.soaked`)."""
        return [v.soak for r in self.reports for v in r.verdicts if v.soak is not None]

    def to_json(self, *, timings: bool = False) -> dict[str, Any]:
        """The session's JSON object, its passes from the kept reports."""
        passes = [body for report in self.reports if (body := pass_json(report, timings=timings)) is not None]
        return self.json_fields(passes)

    def json_fields(self, passes: object) -> dict[str, Any]:
        """The session's JSON object with ``passes`` as given (a streamed writer splices its spool there)."""
        return {
            "path": str(self.path),
            "session": self.session,
            "lines": self.lines,
            "observations": self.observations,
            "passes": passes,
            "demotion": self.demotion,
            "turn_ends": self.turn_ends,
            "active_s": round(self.active_s, 1),
        } | ({"task_starts": self.task_starts} if self.task_starts else {})


@dataclass
class Replayer:
    """Replays transcripts with one set of detectors and one provider (a fresh task per transcript)."""

    config: EffectiveConfig
    detectors: Sequence[DetectorDef]
    provider: Provider
    triggers: Mapping[str, TriggerSpec]
    environment: SandboxedEnvironment | None = None
    toolbox: Toolbox | None = None
    debug_root: Path | None = None
    log_only: Mapping[str, str] = field(default_factory=dict)
    """Detectors an untrusted workspace added or shaped: their answers are logged, never delivered."""
    anchors: AnchorResolver | None = None
    """How an edit is placed in its file (default: reading the file on disk, as a live session does)."""
    recall: RecallReader | None = None
    """The workspace's notes index (read-only) for triggers that recall; each transcript gets its own window
    of offered chunks, as each session does."""
    keep_reports: bool = True
    """Keep every pass report in :attr:`SessionReplay.reports` (False: only the tally, and the spool if any,
    so memory does not grow with the transcript)."""
    spooler: Spooler | None = None
    """Render each pass into a spool file as it concludes (:mod:`~sbcore.conductor.replay_output`)."""
    checkout: Path | None = None
    """The project as the sessions found it (``--checkout``, a labelled case's ``checkout``): what the
    triggers' project reader sees. None: no checkout, the triggers go by what each session shows up to
    each record, never later ones."""

    @classmethod
    def of(
        cls, parts: assembly.Parts, detectors: Sequence[DetectorDef], provider: Provider, **rest: Any
    ) -> Replayer:
        """A replayer of ``detectors`` on ``provider`` with ``parts``' configuration, triggers, templates and
        log-only detectors; ``rest`` sets the other fields (tools, recall, a checkout…)."""
        return cls(
            config=parts.config,
            detectors=detectors,
            provider=provider,
            triggers=parts.triggers,
            environment=parts.environment,
            log_only=parts.log_only,
            **rest,
        )

    def _recall_window(self) -> RecallWindow | None:
        if self.recall is None:
            return None
        return RecallWindow(self.recall, int(self.config.get("recall.offered_window")))

    async def replay_file(self, path: Path, *, scored: tuple[int, int | None] | None = None) -> SessionReplay:
        """Replay ``path``; with ``scored``, count only what its 1-based lines ``first..last`` brought
        (``last`` None: to the end).

        The lines before ``first`` are the range's history: they are replayed first, through the same
        pipeline on the same clock, so the gate's memory, the pacer, the trigger history and the window
        are what a live observer's were when line ``first`` arrived. What was decided before it is not
        counted: the outcome's tally, passes, spool and line and observation counts hold only the passes
        that concluded from line ``first`` to line ``last`` (the replay stops there).
        """
        first, last = scored if scored is not None else (1, None)
        with tempfile.TemporaryDirectory(prefix="sbcore-replay-") as scratch:
            replayed = await self._replay([_Source(path, first, last)], Path(scratch), shared=False)
        return replayed[0]

    async def replay_interleaved(self, paths: Sequence[Path]) -> list[SessionReplay]:
        """Replay several transcripts of one workspace on one clock, each its own task (``--interleave``).

        Their records are merged by timestamp, and every session feeds its own pipeline, as concurrent
        workers would; the tasks share a private cross-task index (in memory, never the user's), so a
        collision between them is seen as a live session would see it. The outcomes come back in the
        order of ``paths``.
        """
        with tempfile.TemporaryDirectory(prefix="sbcore-replay-") as scratch:
            return await self._replay([_Source(path) for path in paths], Path(scratch), shared=True)

    async def _replay(
        self, sources: Sequence[_Source], scratch: Path, *, shared: bool
    ) -> list[SessionReplay]:
        identities = []
        for source in sources:
            with contextlib.closing(_chosen(source.path, 1, source.last)) as head:
                identities.append(_identity(line for _, line in head))
        clock = SimulatedClock(min(start for _, _, start in identities))
        index_settings = IndexSettings.from_config(self.config)
        index = TaskIndex.private() if shared and index_settings.enabled else None
        taken: set[str] = set()
        feeds = []
        for source, (session, cwd, _) in zip(sources, identities, strict=True):
            task = session if session not in taken else f"{session}#{len(taken) + 1}"
            taken.add(task)
            presence = None
            if index is not None:
                where = Whereabouts(session, cwd or self._root(cwd), cwd)
                presence = Presence(index, where, index_settings)
            feeds.append(self._feed(source, session, task, cwd, clock, scratch, presence))
        clockwork = Clockwork(clock, [feed.driver for feed in feeds])
        try:
            for feed, number, line, final in _merged(feeds, keyed=len(feeds) > 1):
                feed.number = number
                observations = feed.projector.feed_lines([line])
                turn_over = _ends_turn(line)
                stamp = next((o.timestamp for o in reversed(observations) if o.timestamp), None)
                if stamp is None and turn_over:
                    stamp = _timestamp(line)
                if stamp is not None:
                    await clockwork.advance_to(stamp)
                    for each in feeds:  # passes the clock ran are decided at no line of their own
                        each.emit()
                await feed.driver.arriving(observations)
                observations = feed.driver.read(observations, number, turn_end=turn_over, at=stamp)
                if not feed.scoring and number >= feed.source.first:
                    feed.emit()  # what the clock ran, or the turn a prompt at ``first`` ended: history's
                    feed.scoring = True
                if feed.scoring:
                    feed.seen += 1
                    feed.count += len(observations)
                await feed.driver.offer()
                feed.emit(number)
                if final:
                    await feed.finish()
            for feed in feeds:
                if not feed.finished:  # a range with no lines in it
                    await feed.finish()
        except BaseException:
            for feed in feeds:
                feed.discard()
            raise
        finally:
            if index is not None:
                index.close()
        return [feed.outcome() for feed in feeds]

    def _root(self, cwd: str | None) -> str:
        return str(self.toolbox.root) if self.toolbox is not None else (cwd or "")

    def _feed(
        self,
        source: _Source,
        session: str,
        task: str,
        cwd: str | None,
        clock: SimulatedClock,
        scratch: Path,
        presence: Presence | None,
    ) -> _Feed:
        """One transcript's own pipeline: pacer, engine, gate and mailbox, on the replay's clock (and a new
        pacer and engine for each task a new goal begins)."""

        def fresh() -> tuple[PassEngine, Pacer]:
            policy = assembly.policy(self.config, clock, muted=False)  # what would be said, muted or not
            engine = assembly.engine(
                self.config,
                self.detectors,
                self.provider,
                triggers=self.triggers,
                toolbox=self.toolbox,
                environment=self.environment,
                clock=clock,
                workspace=self._root(cwd),
                cwd=cwd,
                session=session,
                debug=DebugCapture(self.debug_root, session) if self.debug_root is not None else None,
                recall=self._recall_window(),
            )
            return engine, policy

        engine, policy = fresh()
        numbers = itertools.count(1)
        prefix = "replay" if task == session else f"replay-{task}"
        pipeline = assembly.pipeline(
            engine,
            policy=policy,
            gate=self._gate_settings(),
            data=scratch,
            clock=clock,
            session_id=task,
            task_id=task,
            workspace=self._root(cwd),
            new_id=lambda: f"{prefix}-{next(numbers):04d}",  # deterministic output
            log_only=self.log_only,
            presence=presence,
        )
        pipeline.transcript = str(source.path.resolve())  # a label case names it from wherever its file is
        if self.checkout is not None:
            facts = read_project(self.checkout)  # the state at the session's start: read once, never again
            pipeline.project = lambda: facts
        elif cwd and (listed := listed_in_file(source.path, cwd, source.last)) is not UNKNOWN:
            pipeline.project = lambda: listed  # no checkout: the project as the session's listings showed it
        projector = Projector(
            ProjectionConfig.from_mapping(self.config.group("projection")), anchors=self.anchors
        )
        spool = self.spooler.open() if self.spooler is not None else None
        return _Feed(
            source,
            session,
            Driver(pipeline, GoalSplit(GoalJudge(NewGoalSettings.from_config(self.config))), fresh),
            projector,
            scoring=source.first <= 1,
            keep=self.keep_reports,
            spool=spool,
        )

    def _gate_settings(self) -> GateSettings:
        """The configuration's gate, with every detector this replay was asked to run switched on.

        Replaying a detector by name (``--detectors``, a labelled case) asks what it would have said; a
        ``detectors.<id>.enabled: false`` would otherwise drop each of its answers as ``detector_muted``.
        """
        settings = GateSettings.from_config(self.config, self.detectors)
        chosen = {detector.id for detector in self.detectors}
        return dataclasses.replace(settings, disabled_detectors=settings.disabled_detectors - chosen)


def _mark_lines(report: PassReport, number: int) -> None:
    """Name the transcript line a soaked would-deliver was decided at (a label case ends there)."""
    for verdict in report.verdicts:
        if verdict.soak is not None:
            verdict.soak["line"] = number


@dataclass(frozen=True)
class _Source:
    """A transcript, replayed from its first line to ``last`` (None: to the end), and the 1-based line
    ``first`` from which what it brings is counted (the lines before it are history)."""

    path: Path
    first: int = 1
    last: int | None = None


@dataclass
class _Feed:
    """One transcript being replayed: its lines, its projector, the driver of its pipeline, and where its
    concluded passes go (the tally, the spool, the kept reports) once it is ``scoring``: before the line
    its source is counted from, concluded passes are the history's and go nowhere."""

    source: _Source
    session: str
    driver: Driver
    projector: Projector
    number: int = 1
    seen: int = 0
    count: int = 0
    finished: bool = False
    scoring: bool = True
    keep: bool = True
    spool: PassSpool | None = None
    tally: Tally = field(default_factory=Tally)
    reports: list[PassReport] = field(default_factory=list)

    def emit(self, number: int | None = None) -> None:
        """Hand on the passes concluded since the last call, marked as decided at line ``number`` if any."""
        for report in self.driver.take():
            if not self.scoring:
                continue  # history: its verdicts already moved the gate's memory, and are not counted
            if number is not None:
                _mark_lines(report, number)
            self.tally.add(report, number if number is not None else self.number)
            if self.spool is not None:
                self.spool.add(report)
            if self.keep:
                self.reports.append(report)

    async def finish(self) -> None:
        self.emit()
        await self.driver.finish()
        self.emit(self.number)
        self.finished = True

    def discard(self) -> None:
        """The replay failed: remove what was spooled."""
        if self.spool is not None:
            self.spool.discard()

    def outcome(self) -> SessionReplay:
        source = self.source
        with contextlib.closing(_chosen(source.path, source.first, source.last)) as again:  # never held whole
            active = active_seconds(line for _, line in again)
        engine = self.driver.pipeline.engine
        return SessionReplay(
            path=source.path,
            session=self.session,
            lines=self.seen,
            observations=self.count,
            tally=self.tally,
            reports=self.reports,
            holds=dict(self.driver.policy.status().holds),
            demotion=engine.ladder.status(),
            active_s=active,
            spooled=self.spool.close() if self.spool is not None else None,
            task_starts=self.driver.task_starts,
        )


def _merged(feeds: Sequence[_Feed], *, keyed: bool) -> Iterator[tuple[_Feed, int, bytes, bool]]:
    """Every feed's lines, merged by the records' timestamps (one feed: in file order, nothing parsed).

    Yields the feed, the line's number, the line, and whether it is the feed's last. A record without a
    timestamp keeps the place of the one before it in its file; ties keep the order of ``feeds``.
    """

    def lines(order: int, feed: _Feed) -> Iterator[tuple[float, int, int, bytes, bool]]:
        source = feed.source
        moment = 0.0
        previous: tuple[int, bytes] | None = None
        for number, line in _chosen(source.path, 1, source.last):
            if previous is not None:
                yield (moment, order, previous[0], previous[1], False)
            if keyed:
                stamp = _timestamp(line)
                with contextlib.suppress(ValueError):
                    moment = epoch_seconds(stamp) if stamp is not None else moment
            previous = (number, line)
        if previous is not None:
            yield (moment, order, previous[0], previous[1], True)

    streams = [lines(order, feed) for order, feed in enumerate(feeds)]
    for _, order, number, line, final in heapq.merge(*streams, key=lambda item: (item[0], item[1])):
        yield feeds[order], number, line, final


def _chosen(path: Path, first: int, last: int | None) -> Generator[tuple[int, bytes], None, None]:
    """The 1-based numbered lines ``first..last`` of ``path`` (to the end when ``last`` is None), read
    block by block (:class:`~sbcore.observe.blocks.LineBlocks`), so a long transcript is never held whole.
    A final line without a line break is yielded too, as reading the whole file would."""
    for number, line in enumerate(LineBlocks(path).lines(), start=1):
        if last is not None and number > last:
            return
        if number >= first:
            yield number, line


def _identity(lines: Iterable[bytes]) -> tuple[str, str | None, float]:
    """The session id, the working directory and the first timestamp (epoch seconds) of a transcript."""
    session: str | None = None
    cwd: str | None = None
    start: float | None = None
    for line in lines:
        if session is not None and cwd is not None and start is not None:
            break
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(record, dict):
            continue
        if session is None and isinstance(record.get("sessionId"), str):
            session = record["sessionId"]
        if cwd is None and isinstance(record.get("cwd"), str):
            cwd = record["cwd"]
        if start is None and isinstance(record.get("timestamp"), str):
            with contextlib.suppress(ValueError):
                start = epoch_seconds(record["timestamp"])
    return session or "session", cwd, start if start is not None else 0.0


def _ends_turn(line: bytes) -> bool:
    """Whether a transcript line marks the end of the agent's turn (cheap byte test, then parsed)."""
    if not any(marker in line for marker in _TURN_MARKERS):
        return False
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return False
    if not isinstance(record, dict) or record.get("isSidechain"):
        return False
    if record.get("type") == "system":
        return record.get("subtype") in _TURN_SUBTYPES
    message = record.get("message")
    return (
        record.get("type") == "assistant"
        and isinstance(message, dict)
        and message.get("stop_reason") in ("end_turn", "stop_sequence")
    )


def _timestamp(line: bytes) -> str | None:
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    stamp = record.get("timestamp") if isinstance(record, dict) else None
    return stamp if isinstance(stamp, str) else None


# -- many transcripts -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayFailure:
    """A transcript that could not be read; the caller reports it and goes on."""

    path: Path
    message: str


Outcome = SessionReplay | ReplayFailure

_FORKED: Replayer | None = None
"""The replayer a forked worker process inherits from its parent (see :func:`replay_many`)."""


def _replay_forked(path: Path) -> Outcome:
    assert _FORKED is not None
    return asyncio.run(_replay_one(_FORKED, path))


async def _replay_one(replayer: Replayer, path: Path) -> Outcome:
    try:
        return await replayer.replay_file(path)
    except OSError as exc:
        return ReplayFailure(path, str(exc.strerror or exc))


async def replay_many(
    replayer: Replayer, paths: Sequence[Path], *, jobs: int = 1, progress: Progress | None = None
) -> list[Outcome]:
    """Replay every transcript in ``paths``; the outcomes come back in the order of ``paths``.

    With ``jobs`` > 1 sessions run side by side: offline in that many forked processes (each replay is
    CPU-bound and independent of the others), with a model as that many concurrent replays in this
    process (the time goes to model calls). Each session is replayed exactly as it would be alone, so
    the outcomes are the same as a serial run's.
    """
    global _FORKED
    total = len(paths)
    outcomes: list[Outcome] = []
    if jobs <= 1 or total <= 1:
        for index, path in enumerate(paths, start=1):
            if progress is not None:
                progress(index, total, path)
            outcomes.append(await _replay_one(replayer, path))
        return outcomes
    if replayer.provider.has_model:
        gate = asyncio.Semaphore(jobs)
        done = 0

        async def bounded(path: Path) -> Outcome:
            nonlocal done
            async with gate:
                outcome = await _replay_one(replayer, path)
            done += 1
            if progress is not None:
                progress(done, total, path)
            return outcome

        return list(await asyncio.gather(*(bounded(path) for path in paths)))
    _FORKED = replayer
    try:
        context = multiprocessing.get_context("fork")
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            for index, outcome in enumerate(pool.map(_replay_forked, paths), start=1):
                if progress is not None:
                    progress(index, total, outcome.path)
                outcomes.append(outcome)
    finally:
        _FORKED = None
    return outcomes


# -- text output ------------------------------------------------------------------------------------------


def render_session(session: SessionReplay, *, timings: bool = False) -> list[str]:
    """Per pass: time, episode size, each detector's verdict, headline and gate decision, cache tokens
    (from the kept reports; ``second-brain replay`` writes the same lines as each pass concludes)."""
    lines = [header(session, len(session.passes))]
    for report in session.reports:
        lines.extend(render_pass(report, timings=timings))
    return lines
