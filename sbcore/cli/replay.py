"""``second-brain replay``: recorded transcripts through observe → pacer → passes → feedback.

Offline by default: nothing leaves the machine, structural detectors answer with their fallback advisory,
model-only detectors say ``skipped: no model``, and the output depends on the input alone. ``--provider``
runs real forks against a model. ``--labels`` scores the structural detectors on labelled cases instead.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from sbcore.problems import Problem, SbcoreError, render_problems

if TYPE_CHECKING:
    from sbcore.conductor.assembly import Parts
    from sbcore.conductor.labels import CaseScope
    from sbcore.conductor.replay import Replayer, SessionReplay
    from sbcore.conductor.replay_output import Spooled
    from sbcore.config import EffectiveConfig
    from sbcore.packs.model import DetectorDef
    from sbcore.state.recall import RecallReader
    from sbcore.think.providers.base import Provider
    from sbcore.think.recording import Recordings
    from sbcore.think.tools.base import RemoteToolSource
    from sbcore.think.tools.dispatch import Toolbox

    ReplayerFactory = Callable[[Sequence[DetectorDef]], Replayer]

DEFAULT_CORPUS = Path("../shared/corpus/transcripts")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay transcripts through the observer (offline by default)",
        description=(
            "Replay Claude Code transcripts (files, or directories of *.jsonl) through projection, the "
            "pacer on the records' own timestamps, detector passes and feedback. Prints what the "
            "observer would have said (each finding: where, which detector, what the gate made of it), "
            "then a summary with a row per detector; --passes prints every pass instead. Offline by "
            "default and deterministic for the same input."
        ),
    )
    parser.add_argument("transcripts", nargs="*", type=Path, metavar="TRANSCRIPT")
    parser.add_argument(
        "--provider",
        default="offline",
        help="offline (default), auto (choose from the environment), anthropic, openai, or a pack's provider",
    )
    parser.add_argument(
        "--detectors",
        metavar="IDS",
        help="comma-separated detector ids to run instead of the enabled ones (disabled ones included)",
    )
    parser.add_argument(
        "--soak",
        metavar="IDS",
        help="comma-separated detector ids to replay in soak mode: their would-delivers are shown as "
        "`-> gate: soak (...)` and counted, never delivered (docs/soak.md)",
    )
    parser.add_argument(
        "--soak-log",
        type=Path,
        metavar="FILE",
        help="append the soaked would-delivers, and each transcript's active session-hours, to FILE "
        "(the soak log format `second-brain soak report --log` and `label --log` read)",
    )
    parser.add_argument(
        "--interleave",
        action="store_true",
        help="replay the transcripts together, as concurrent sessions of one workspace: records merged by "
        "timestamp on one clock, each transcript its own task, the tasks sharing a private cross-task index "
        "(so cross-task-collision can fire between them)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    parser.add_argument(
        "--passes",
        action="store_true",
        help="print every pass of every session (time, episode size, each detector's verdict and the gate's "
        "decision) instead of the findings alone",
    )
    parser.add_argument(
        "--debug", type=Path, metavar="DIR", help="capture each pass's prefix and each fork's loop under DIR"
    )
    parser.add_argument(
        "--labels",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="score the detectors on the labelled cases in these files (precision and recall, per detector "
        "and per split and family) instead",
    )
    parser.add_argument(
        "--checkout",
        type=Path,
        metavar="DIR",
        help="the project as the sessions found it: the triggers' read-only project reader sees it "
        "(default: none, the triggers go by what each session shows)",
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        metavar="DIR",
        help="where `corpus:` references in a labels file point (default: the file's own `corpus:` "
        f"directory, else {DEFAULT_CORPUS})",
    )
    parser.add_argument(
        "--workspace",
        type=Path,
        metavar="DIR",
        help="workspace whose configuration applies (default: the one the current directory is in)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="replay N sessions side by side (processes offline, concurrent model calls with a provider); "
        "the output is the same as a serial run's",
    )
    parser.add_argument(
        "--report",
        type=Path,
        metavar="FILE.html",
        help="with --labels: write a self-contained HTML report (scores with intervals, a chart, every "
        "false alarm and miss with the observations before it); TRANSCRIPTs given too add their rates",
    )
    parser.add_argument(
        "--markdown",
        type=Path,
        metavar="FILE.md",
        help="with --labels: write the same report as Markdown, for a pull request",
    )
    parser.add_argument(
        "--compare-workspace",
        type=Path,
        metavar="DIR",
        help="with --labels: an A/B — score the same cases again under DIR's configuration and catalogue (B) "
        "and list every verdict that changed, with per-detector deltas",
    )
    parser.add_argument(
        "--compare-checkout",
        type=Path,
        metavar="DIR",
        help="with --labels: an A/B — score the same cases again with DIR as the project the sessions found",
    )
    parser.add_argument(
        "--fail-under",
        action="append",
        metavar="[DETECTOR.]METRIC=VALUE",
        help="with --labels: exit 1 when a scored detector's precision or recall is under VALUE (every "
        "detector's, or DETECTOR's); repeatable",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="FILE",
        help="with --labels: exit 1 when a detector's precision or recall dropped below the saved result "
        "FILE (`replay --labels ... --json > FILE`), or a case right there is wrong now",
    )
    parser.add_argument(
        "--record",
        type=Path,
        metavar="DIR",
        help="with --labels and a --provider: keep every fork's model I/O and tool results, redacted, a file "
        "per case in DIR, for --recorded to replay",
    )
    parser.add_argument(
        "--recorded",
        type=Path,
        metavar="DIR",
        help="with --labels: answer every model and tool call from the recordings in DIR (offline, "
        "deterministic); a call they do not hold fails its case, naming it",
    )
    parser.add_argument(
        "--raw",
        action="store_true",
        help="with --labels: score the detectors' own verdicts instead of what the gate would deliver",
    )
    parser.add_argument("--progress", action="store_true", help="show progress on stderr even when not a TTY")
    parser.add_argument("--timings", action="store_true", help="add wall-clock times (not deterministic)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sbcore.observe.measure import transcript_files

    if args.labels is None and not args.transcripts:
        print("second-brain replay: give at least one TRANSCRIPT (or --labels FILE)", file=sys.stderr)
        return 2
    if args.checkout is not None and not args.checkout.is_dir():
        print(f"second-brain replay: --checkout {args.checkout} is not a folder", file=sys.stderr)
        return 2
    try:
        paths = transcript_files(args.transcripts)
    except FileNotFoundError as exc:
        print(f"second-brain replay: {exc}", file=sys.stderr)
        return 2
    from sbcore.cli.tracebacks import tracebacks_to_file

    try:
        with tracebacks_to_file() as log:
            args.traceback_log = log
            return asyncio.run(_main(args, paths))
    except _UsageError as exc:
        if args.json:
            print(json.dumps({"problems": [problem.to_json() for problem in exc.problems]}, indent=2))
        elif exc.located:
            print(f"second-brain replay: {exc.located}\n{render_problems(exc.problems)}", file=sys.stderr)
        else:
            print(f"second-brain replay: {exc}", file=sys.stderr)
        return 2


class _UsageError(SbcoreError):
    """A run that cannot go ahead: a message, or located problems (``located`` says what they are in)."""

    def __init__(self, message: str, problems: Sequence[Problem] = (), located: str = "") -> None:
        super().__init__(message)
        self._problems = list(problems)
        self.located = located

    @classmethod
    def of_labels(cls, error: SbcoreError, what: str = "labels") -> _UsageError:
        return cls(str(error), error.problems, f"the {what} cannot be scored:")

    @property
    def problems(self) -> list[Problem]:
        return self._problems or super().problems


async def _main(args: argparse.Namespace, paths: list[Path]) -> int:
    from sbcore.conductor.assembly import Parts
    from sbcore.config import find_workspace, load_config

    if args.jobs < 1:
        raise _UsageError(f"-j/--jobs must be at least 1 (got {args.jobs})")
    recordings = _recordings(args)
    if args.interleave and (args.labels is not None or args.jobs > 1 or len(paths) < 2):
        raise _UsageError(
            "--interleave replays two or more transcripts together in one process: "
            "give at least two, and neither --labels nor -j"
        )
    args.workspace = find_workspace(args.workspace or Path.cwd())
    config = load_config(args.workspace)
    parts = Parts.load(config, workspace=args.workspace)
    for chain in parts.catalogue.errors:
        print(f"second-brain replay: catalogue problem: {chain.problem} ({chain.source})", file=sys.stderr)
    detectors = soaking(_detectors(parts, args), args.soak)
    async with (
        _provider(config, args.provider, recordings) as provider,
        _toolbox(parts, detectors, args, provider, recordings) as box,
        _notes(config, args.workspace) as recall,
    ):
        replayer = _factory(parts, provider, box, recall, args, args.checkout)

        if args.labels is not None:
            labelled = detectors if args.detectors else soaking(parts.definitions, args.soak)
            summary = await _sessions_summary(paths, replayer(detectors)) if paths else None
            other = None
            if args.compare_workspace is not None or args.compare_checkout is not None:
                other = _other(args, parts, provider, box, recall)
            scope = None
            if recordings is not None:
                remote = box.remote if box is not None else None
                scope = functools.partial(recordings.case, provider=provider, remote=remote)
            return await _labels(args, labelled, replayer, summary, other, scope)
        if args.report is not None or args.markdown is not None:
            raise _UsageError("--report and --markdown come with --labels FILE (the scores they report)")
        return await _replay(args, paths, replayer(detectors))


def _factory(
    parts: Parts,
    provider: Provider,
    box: Toolbox | None,
    recall: RecallReader | None,
    args: argparse.Namespace,
    checkout: Path | None,
) -> ReplayerFactory:
    """Replayers of chosen detectors under ``parts``' configuration and catalogue, all else shared."""

    def replayer(chosen: Sequence[DetectorDef]) -> Replayer:
        from sbcore.conductor.replay import Replayer

        return Replayer.of(
            parts,
            chosen,
            provider,
            toolbox=box,
            debug_root=args.debug,
            recall=recall,
            keep_reports=False,  # the tally is all the CLI reads: memory stays flat however long the log
            checkout=checkout,
        )

    return replayer


def _other(
    args: argparse.Namespace,
    parts: Parts,
    provider: Provider,
    box: Toolbox | None,
    recall: RecallReader | None,
) -> tuple[str, list[DetectorDef], ReplayerFactory]:
    """The B side of an A/B: another workspace's configuration and catalogue, and/or another checkout."""
    from sbcore.conductor.assembly import Parts
    from sbcore.config import load_config

    workspace = args.compare_workspace or args.workspace
    if not workspace.is_dir():
        raise _UsageError(f"--compare-workspace {workspace} is not a folder")
    checkout = args.compare_checkout or args.checkout
    if checkout is not None and not checkout.is_dir():
        raise _UsageError(f"--compare-checkout {checkout} is not a folder")
    other = Parts.load(load_config(workspace), parts.manager, workspace=workspace)
    chosen = soaking(_detectors(other, args) if args.detectors else other.definitions, args.soak)
    sides = []
    if args.compare_workspace is not None:
        sides.append(f"the configuration and catalogue of {workspace}")
    if args.compare_checkout is not None:
        sides.append(f"checkout {checkout}")
    return " and ".join(sides), chosen, _factory(other, provider, box, recall, args, checkout)


def soaking(detectors: list[DetectorDef], ids: str | None) -> list[DetectorDef]:
    """``detectors``, with those named in ``ids`` (comma-separated) switched to soak."""
    import dataclasses

    names = {part.strip() for part in (ids or "").split(",") if part.strip()}
    unknown = names - {d.id for d in detectors}
    if unknown:
        raise _UsageError(f"--soak: no detector {', '.join(sorted(unknown))} among those replayed")
    return [dataclasses.replace(d, mode="soak") if d.id in names else d for d in detectors]


def _detectors(parts: Parts, args: argparse.Namespace) -> list[DetectorDef]:
    """The enabled detectors, or exactly those ``--detectors`` names (enabled or not)."""
    if not args.detectors:
        return parts.enabled
    chosen = []
    for name in (part.strip() for part in args.detectors.split(",") if part.strip()):
        found = parts.catalogue.get(name)
        if found is None:
            known = ", ".join(d.id for d in parts.catalogue.detectors)
            raise _UsageError(f"--detectors: no detector {name!r} (known: {known})")
        if not found.available:
            raise _UsageError(f"--detectors: {name} cannot run: {found.unavailable_reason}")
        chosen.append(found.definition)
    return chosen


def _recordings(args: argparse.Namespace) -> Recordings | None:
    """The run's tapes when it records (``--record``) or replays them (``--recorded``)."""
    from sbcore.think.recording import Recordings

    directory = args.record or args.recorded
    if directory is None:
        return None
    flag = "--record" if args.record is not None else "--recorded"
    if args.record is not None and args.recorded is not None:
        raise _UsageError("--record keeps a run's model answers and --recorded replays them: give one")
    if args.labels is None:
        raise _UsageError(f"{flag} comes with --labels FILE: recordings are kept per labelled case")
    if args.compare_workspace is not None or args.compare_checkout is not None:
        raise _UsageError(f"{flag} records or replays one side: run the A/B without it")
    if args.recorded is not None and args.provider != "offline":
        raise _UsageError("--recorded answers every model call from its recordings: drop --provider")
    if args.recorded is not None and not args.recorded.is_dir():
        raise _UsageError(f"--recorded {args.recorded} is not a folder")
    return Recordings(directory, replaying=args.recorded is not None)


@contextlib.asynccontextmanager
async def _provider(
    config: EffectiveConfig, name: str, recordings: Recordings | None = None
) -> AsyncIterator[Provider]:
    from sbcore.think.providers import OfflineProvider, ProviderConfigError, select_provider
    from sbcore.think.providers.claude_code import ClaudeCodeProvider
    from sbcore.think.recording import RecordedProvider, RecordingProvider

    if recordings is not None and recordings.replaying:
        yield RecordedProvider(recordings.model())
        return
    if name == "offline":
        if recordings is not None:
            raise _UsageError("--record keeps a model's answers: give a --provider that has one")
        yield OfflineProvider()
        return
    model = dict(config.group("model"))
    model["provider"] = name
    try:
        provider = select_provider(model)
    except ProviderConfigError as exc:
        raise _UsageError(f"--provider {name}: {exc}") from None
    if recordings is not None and (isinstance(provider, ClaudeCodeProvider) or not provider.has_model):
        await provider.aclose()
        raise _UsageError(
            f"--record: provider {provider.name} runs no model calls of its own to keep (claude-code runs "
            "whole forks in the CLI); record with anthropic, openai or a pack's API provider"
        )
    try:
        yield RecordingProvider(provider) if recordings is not None else provider
    finally:
        await provider.aclose()


@contextlib.asynccontextmanager
async def _notes(config: EffectiveConfig, workspace: Path) -> AsyncIterator[RecallReader | None]:
    """The workspace's notes, indexed in a scratch directory for this replay (docs/recall.md)."""
    from sbcore.conductor.recall_index import RecallSettings, scratch_index

    with scratch_index(workspace, RecallSettings.from_config(config)) as reader:
        yield reader


@contextlib.asynccontextmanager
async def _toolbox(
    parts: Parts,
    detectors: Sequence[DetectorDef],
    args: argparse.Namespace,
    provider: Provider,
    recordings: Recordings | None = None,
) -> AsyncIterator[Toolbox | None]:
    """Tools only when a model runs and some detector is granted any; MCP servers only when one is named.

    A replay of recordings starts no server: it offers the MCP tools each recording holds, and every call
    dispatch allows is answered from the recording."""
    if not provider.has_model or not any(d.tools for d in detectors):
        yield None
        return
    from sbcore.think.recording import RecordedRemote, ToolAnswers
    from sbcore.think.tools.mcp_adapter import McpHub

    root = args.workspace.resolve()
    answers = ToolAnswers(replaying=recordings.replaying) if recordings is not None else None
    servers = parts.mcp_servers(detectors)
    if recordings is not None and recordings.replaying:
        yield parts.toolbox(root, remote=RecordedRemote(), answers=answers)
        return
    if not servers:
        yield parts.toolbox(root, answers=answers)
        return
    async with McpHub(servers, cwd=root) as hub:
        # McpHub.tools() returns list[McpTool]; list invariance hides that McpTool is a RemoteTool.
        yield parts.toolbox(root, remote=cast("RemoteToolSource", hub), answers=answers)


async def _replay(args: argparse.Namespace, paths: list[Path], replayer: Replayer) -> int:
    """Replay ``paths`` and print each session, then the summary, in bounded memory: every pass is
    written to a private spool file as it concludes, and only the tally of each session is kept."""
    import dataclasses
    import tempfile

    from sbcore.conductor.provenance import provenance
    from sbcore.conductor.replay import ReplayFailure, replay_many
    from sbcore.conductor.replay_output import JsonDocument, Spooler, write_text_session
    from sbcore.conductor.replay_summary import Summary
    from sbcore.conductor.replay_text import FindingsWriter, render_raised, render_summary

    show = args.progress or sys.stderr.isatty()
    summary = Summary(
        model=replayer.provider.model if replayer.provider.has_model else "", detectors=replayer.detectors
    )
    findings = None if args.json or args.passes else FindingsWriter()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="sbcore-replay-out-") as spool:
        spooler = Spooler(
            Path(spool),
            json=args.json,
            timings=args.timings,
            soak=args.soak_log is not None,
            render=args.json or args.passes,
        )
        replayer = dataclasses.replace(replayer, spooler=spooler, keep_reports=False)
        if args.interleave:
            outcomes = await _interleaved(replayer, paths)
        else:
            outcomes = await replay_many(
                replayer, paths, jobs=args.jobs, progress=_progress if show else None
            )
        head = provenance(replayer.detectors, replayer.config)
        document = JsonDocument(sys.stdout, head) if args.json else None
        for session in outcomes:
            if isinstance(session, ReplayFailure):
                print(f"\nsecond-brain replay: {session.path}: {session.message}", file=sys.stderr)
                failed += 1
                continue
            summary.add(session)
            if session.spooled is None:
                raise AssertionError("a spooling replayer always spools")
            if args.soak_log is not None:
                _write_soak(args.soak_log, session, session.spooled)
            if document is not None:
                document.session(session, session.spooled)
            elif findings is not None:
                session.spooled.discard()
                for line in findings.session(session.path, session.tally.findings):
                    print(line)
            else:
                write_text_session(sys.stdout, session, session.spooled)
    if show:
        print(file=sys.stderr)
    if document is not None:
        document.close(summary.to_json())
    else:
        for line in findings.close() if findings is not None else []:
            print(line)
        print("\n".join(render_summary(summary)))
    raised = render_raised(summary.raised, summary.raised_why, args.traceback_log.path)
    for line in raised:
        print(line, file=sys.stderr)
    return 1 if failed or raised else 0


async def _interleaved(replayer: Replayer, paths: list[Path]) -> list[Any]:
    """The transcripts replayed together on one clock (a transcript that cannot be read fails them all)."""
    from sbcore.conductor.replay import ReplayFailure

    try:
        return list(await replayer.replay_interleaved(paths))
    except OSError as exc:
        where = Path(exc.filename) if exc.filename else paths[0]
        return [ReplayFailure(where, str(exc.strerror or exc))]


def _write_soak(path: Path, session: SessionReplay, spooled: Spooled) -> None:
    """Append ``session``'s would-delivers (from its spool) and its active time to the soak log ``path``."""
    from sbcore.conductor.soaklog import SoakLog, hours_record

    log = SoakLog(path, max_bytes=1 << 62)  # a file the user named: never rotated
    for record in spooled.soaked():
        log.write(record)
    log.write(hours_record(session.session, session.active_s, transcript=str(session.path)))


def _progress(index: int, total: int, path: Path) -> None:
    width = 30
    done = width * index // max(total, 1)
    sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {index}/{total} {path.name[:40]:<40}")
    sys.stderr.flush()


async def _sessions_summary(paths: list[Path], replayer: Replayer) -> dict[str, Any]:
    """The summary of replaying ``paths`` (for a report's rates), nothing printed."""
    from sbcore.conductor.replay import ReplayFailure, replay_many
    from sbcore.conductor.replay_summary import Summary

    summary = Summary(
        model=replayer.provider.model if replayer.provider.has_model else "", detectors=replayer.detectors
    )
    for session in await replay_many(replayer, paths):
        if isinstance(session, ReplayFailure):
            raise _UsageError(f"{session.path}: {session.message}")
        summary.add(session)
    return summary.to_json()


async def _labels(
    args: argparse.Namespace,
    detectors: Sequence[DetectorDef],
    replayer: ReplayerFactory,
    summary: dict[str, Any] | None = None,
    other: tuple[str, list[DetectorDef], ReplayerFactory] | None = None,
    scope: CaseScope | None = None,
) -> int:
    """Score the labelled detectors (they run whether enabled or not); ``scope`` opens each case's
    recording when the run records or replays them."""
    from sbcore.conductor.label_compare import changed_verdicts, deltas, render_compare
    from sbcore.conductor.label_gates import GateError, Threshold, load_baseline, missed, regressions
    from sbcore.conductor.labels import (
        LabelError,
        family_scores_json,
        judge_cases,
        render_family_scores,
        render_scores,
        scores_by_detector,
        scores_by_family,
    )
    from sbcore.conductor.provenance import provenance
    from sbcore.testing.case_sources import GoldenJudge, load_sources
    from sbcore.think.recording import RecordingError

    files = ", ".join(str(path) for path in args.labels)
    try:
        cases = load_sources(args.labels, args.corpus, default_corpus=DEFAULT_CORPUS)
    except SbcoreError as exc:
        raise _UsageError.of_labels(exc) from None
    golden = GoldenJudge(workspace=args.workspace)
    try:
        judged = await judge_cases(
            cases, {d.id: d for d in detectors}, replayer, raw=args.raw, scope=scope, golden=golden
        )
    except LabelError as exc:
        raise _UsageError.of_labels(exc) from None
    except RecordingError as exc:
        raise _UsageError(str(exc)) from None
    scores, families = scores_by_detector(judged), scores_by_family(judged)
    compared = None
    if other is not None:
        name, chosen, factory = other
        try:
            judged_b = await judge_cases(
                cases, {d.id: d for d in chosen}, factory, raw=args.raw, golden=golden
            )
        except LabelError as exc:
            raise _UsageError.of_labels(exc, f"labels (B: {name})") from None
        scores_b = scores_by_detector(judged_b)
        compared = {
            "a": "this workspace" + (f" and checkout {args.checkout}" if args.checkout else ""),
            "b": name,
            "b_fingerprint": provenance(chosen, factory(()).config)["fingerprint"],
            "b_scores": {key: score.to_json() for key, score in scores_b.items()},
            "deltas": deltas(scores, scores_b),
            "changed": changed_verdicts(judged, judged_b),
        }
    try:
        thresholds = [Threshold.parse(text) for text in args.fail_under or ()]
        baseline = load_baseline(args.baseline) if args.baseline is not None else None
    except GateError as exc:
        raise _UsageError(str(exc)) from None
    if args.json:
        document: dict[str, Any] = provenance(detectors, replayer(()).config)
        document.update((name, score.to_json()) for name, score in scores.items())
        document["by_family"] = family_scores_json(families)  # no detector id has an underscore
        document["by_case"] = [each.to_json() for each in judged]
        if compared is not None:
            document["compare"] = compared
        json.dump(document, sys.stdout, indent=1)
        print()
    else:
        scored = "the detectors' own verdicts (--raw)" if args.raw else "what the gate would deliver"
        print(f"{len(cases)} labelled cases from {files}; scoring {scored}")
        print("\n".join(render_scores(scores)))
        if families:
            print()
            print("\n".join(render_family_scores(families)))
        if compared is not None:
            print("\n".join(render_compare(scores, scores_b, compared["changed"], (compared["a"], name))))
    if args.report is not None or args.markdown is not None:
        from sbcore.conductor.report import render_html, render_markdown, report_data

        data = report_data(
            scores,
            family_scores_json(families),
            judged,
            head=provenance(detectors, replayer(()).config),
            sources=[path.name for path in args.labels],
            summary=summary,
            compared=compared,
        )
        for target, render in ((args.report, render_html), (args.markdown, render_markdown)):
            if target is not None:
                try:
                    target.write_text(render(data), encoding="utf-8")
                except OSError as exc:
                    raise _UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    failures: dict[str, list[str]] = {}
    for each in judged:
        if each.failure:
            failures.setdefault(each.case.detector, []).append(each.failure)
    problems = [
        f"Error: {name} failed in {len(errors)} case{'s' if len(errors) != 1 else ''}: {errors[0]}"
        for name, errors in sorted(failures.items())
    ]
    if problems and args.traceback_log.path is not None:
        problems.append(f"  Tracebacks (each once): {args.traceback_log.path}")
    problems += [f"Below threshold: {line}" for line in missed(thresholds, scores)]
    if baseline is not None:
        problems += [f"Regression: {line}" for line in regressions(baseline, scores, judged)]
    for line in problems:
        print(line, file=sys.stderr)
    return 1 if problems else 0
