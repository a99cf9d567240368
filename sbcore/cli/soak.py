"""``second-brain soak report`` and ``second-brain label``: the loop by which a detector earns its voice.

A soaking detector's would-delivers go to the soak log (docs/soak.md); ``label`` walks them and records
whether each would have been worth saying; ``soak report`` shows per detector the would-fire rate and the
labelled useful share, and says when one may advise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    soak = subparsers.add_parser("soak", help="what soaking detectors would have said (docs/soak.md)")
    actions = soak.add_subparsers(dest="soak_action", required=True)
    report = actions.add_parser(
        "report",
        help="per detector: would-fires per session-hour, labelled useful share, ready to advise?",
    )
    _log_args(report)
    report.add_argument("--labels", type=Path, metavar="FILE", help="labels file (default: `label`'s)")
    report.add_argument("--json", action="store_true", help="print one JSON document")
    report.set_defaults(func=run_report)

    label = subparsers.add_parser(
        "label",
        help="label would-fires as useful or not (u/n/s, q to quit) into a labels file",
        description="Walk the would-fires of soaking detectors, each with the observations before it and "
        "the advisory, and record useful (u), not useful (n) or skip (s); q quits. Answers go to a labels "
        "file `second-brain replay --labels` reads; cases already in it are not asked again.",
    )
    _log_args(label)
    label.add_argument(
        "--replay",
        nargs="+",
        type=Path,
        metavar="TRANSCRIPT",
        help="label the would-fires of a replay of these transcripts (every replayed detector soaks)",
    )
    label.add_argument("--detectors", metavar="IDS", help="with --replay: the detectors to replay")
    label.add_argument("--out", type=Path, metavar="FILE", help="labels file (default under the data dir)")
    label.set_defaults(func=run_label)


def _log_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--log", type=Path, metavar="FILE", help="soak log (default: this workspace's)")
    parser.add_argument("--workspace", type=Path, metavar="DIR", help="workspace (default: the current one)")


def _workspace(args: argparse.Namespace) -> Path:
    from sbcore.config import find_workspace

    return Path(find_workspace(args.workspace or Path.cwd()))


def _log_path(args: argparse.Namespace) -> Path:
    from sbcore.conductor.soaklog import soak_path

    return args.log if args.log is not None else soak_path(_workspace(args))


def _labels_path(args: argparse.Namespace, given: Path | None) -> Path:
    from sbcore import paths

    if given is not None:
        return given
    return paths.data_dir() / "labels" / f"{paths.workspace_key(_workspace(args))}.yaml"


def _records(path: Path) -> list[dict[str, Any]]:
    from sbcore.conductor.soaklog import SoakLog

    return list(SoakLog(path).read())


def run_report(args: argparse.Namespace) -> int:
    import yaml

    from sbcore.conductor.labelling import read_cases
    from sbcore.conductor.soakreport import build_report, render_report

    log = _log_path(args)
    labels = _labels_path(args, args.labels)
    try:
        report = build_report(_records(log), read_cases(labels))
    except (OSError, ValueError, yaml.YAMLError) as exc:
        print(f"second-brain soak report: {exc}", file=sys.stderr)
        return 2
    if args.json:
        from sbcore.conductor.provenance import stamped

        document = {"log": str(log), "labels": str(labels), **report.to_json()}
        print(json.dumps(stamped(document, _workspace(args)), indent=1))
    else:
        print(f"soak log {log}; labels {labels}")
        if not report.detectors:
            print("nothing has soaked yet: no detector in soak mode would have said anything here")
            return 0
        print("\n".join(render_report(report)))
    return 0


def run_label(args: argparse.Namespace) -> int:
    import yaml

    from sbcore.conductor.labelling import ANSWERS, case_id, make_case, read_cases, render, write_cases

    out = _labels_path(args, args.out)
    try:
        records, source = _walked(args)
        cases = read_cases(out)
    except (OSError, ValueError, yaml.YAMLError) as exc:
        print(f"second-brain label: {exc}", file=sys.stderr)
        return 2
    done = {str(case.get("id")) for case in cases}
    todo = [r for r in records if r.get("kind") != "hours" and r.get("transcript") and case_id(r) not in done]
    print(f"{len(todo)} would-fire(s) to label from {source}; answers go to {out}")
    labelled = 0
    for index, record in enumerate(todo, 1):
        print("\n".join(render(record, index, len(todo))))
        answer = _ask()
        if answer == "q":
            break
        if answer == "s":
            continue
        cases.append(make_case(record, ANSWERS[answer], source))
        write_cases(out, cases)
        labelled += 1
    print(f"{labelled} labelled; score them with: second-brain replay --labels {out}")
    return 0


def _ask() -> str:
    """One answer from stdin: u, n, s or q (end of input quits)."""
    while True:
        print("useful? [u]seful / [n]ot useful / [s]kip / [q]uit: ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            print()
            return "q"
        answer = line.strip().lower()[:1]
        if answer in ("u", "n", "s", "q"):
            return answer


def _walked(args: argparse.Namespace) -> tuple[list[dict[str, Any]], str]:
    """The would-fires to walk: a replay's (every replayed detector soaking), or the soak log's."""
    if not args.replay:
        log = _log_path(args)
        return _records(log), f"soak log {log}"
    return asyncio.run(_replayed(args)), "replay"


async def _replayed(args: argparse.Namespace) -> list[dict[str, Any]]:
    import dataclasses

    from sbcore.conductor.assembly import Parts
    from sbcore.conductor.replay import Replayer, ReplayFailure, replay_many
    from sbcore.config import load_config
    from sbcore.observe.measure import transcript_files
    from sbcore.think.providers import OfflineProvider

    workspace = _workspace(args)
    parts = Parts.load(load_config(workspace), workspace=workspace)
    names = [n.strip() for n in (args.detectors or "").split(",") if n.strip()]
    unknown = sorted(set(names) - {d.id for d in parts.definitions})
    if unknown:
        raise ValueError(f"--detectors: no runnable detector {', '.join(unknown)}")
    chosen = [d for d in parts.definitions if d.id in names] if names else parts.enabled
    soaked = [dataclasses.replace(d, mode="soak") for d in chosen]
    replayer = Replayer.of(parts, soaked, OfflineProvider())
    records: list[dict[str, Any]] = []
    for outcome in await replay_many(replayer, transcript_files(args.replay)):
        if isinstance(outcome, ReplayFailure):
            print(f"second-brain label: {outcome.path}: {outcome.message}", file=sys.stderr)
            continue
        records.extend(outcome.soaked)
    return records
