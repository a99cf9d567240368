"""``second-brain project``: show what the observer would see of a transcript.

The observations are printed the way the observer model reads them (one blank line
between them), or with ``--json`` one ``Observation.to_json()`` object per line, the
spool's format. The projection knobs are the defaults of ``ProjectionConfig``; ``--set``
overrides one for this run (``--set bash_cap=250``).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields

from sbcore.observe.config import ProjectionConfig


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "project",
        help="print the projected observations of a transcript",
        description="Project a Claude Code transcript (JSONL) into the observations the observer reads.",
    )
    parser.add_argument("transcript", metavar="TRANSCRIPT", help="a transcript file (*.jsonl)")
    parser.add_argument("--json", action="store_true", help="one JSON object per observation")
    add_projection_options(parser)
    parser.set_defaults(func=run)


def add_projection_options(parser: argparse.ArgumentParser) -> None:
    """``--include-sidechain`` and ``--set NAME=VALUE``, shared with ``measure``."""
    parser.add_argument(
        "--include-sidechain",
        action="store_true",
        help="observe subagent (sidechain) records too (projection.include_sidechain)",
    )
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one projection knob for this run, e.g. bash_cap=250 (repeatable)",
    )


def projection_config(args: argparse.Namespace) -> ProjectionConfig:
    """The ``ProjectionConfig`` the options describe; ``ValueError`` names a bad override."""
    known = {f.name: f for f in fields(ProjectionConfig)}
    values: dict[str, object] = {}
    for item in args.overrides:
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or name not in known:
            raise ValueError(
                f"--set {item!r}: expected NAME=VALUE with NAME one of {', '.join(sorted(known))}"
            )
        if name == "include_sidechain":
            if raw.strip().lower() not in ("true", "false"):
                raise ValueError(f"--set {item!r}: include_sidechain is true or false")
            values[name] = raw.strip().lower() == "true"
            continue
        try:
            number = int(raw)
        except ValueError:
            raise ValueError(f"--set {item!r}: {name} takes a whole number") from None
        if number < 0:
            raise ValueError(f"--set {item!r}: {name} cannot be negative")
        values[name] = number
    if args.include_sidechain:
        values["include_sidechain"] = True
    return ProjectionConfig.from_mapping(values)


def run(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from sbcore.observe.blocks import LineBlocks
    from sbcore.observe.project import Projector

    try:
        config = projection_config(args)
    except ValueError as error:
        print(f"second-brain project: {error}", file=sys.stderr)
        return 2
    path = Path(args.transcript)
    projector = Projector(config)
    blocks = LineBlocks(path)
    out = sys.stdout
    first = True
    half_written = False
    try:
        for block in blocks:
            before = projector.stats.invalid_lines
            for obs in projector.feed_bytes(block):
                if args.json:
                    out.write(json.dumps(obs.to_json(), ensure_ascii=False) + "\n")
                else:
                    out.write(("" if first else "\n") + obs.text + "\n")
                first = False
            # the unterminated last line comes as a block of its own
            half_written = blocks.incomplete_tail and projector.stats.invalid_lines > before
    except OSError as error:
        print(f"second-brain project: {path}: {error.strerror or error}", file=sys.stderr)
        return 2
    stats = projector.stats
    listed = [n for n in stats.invalid_line_numbers if not (half_written and n == stats.lines)]
    for number in listed:
        print(f"second-brain project: {path}:{number}: not a JSON object; skipped", file=sys.stderr)
    unlisted = stats.invalid_lines - len(listed) - half_written
    if unlisted:
        print(f"second-brain project: {path}: {unlisted} more lines skipped", file=sys.stderr)
    if half_written:
        print(
            f"second-brain project: {path}:{stats.lines}: the last line is incomplete "
            "(the transcript is still being written?); skipped",
            file=sys.stderr,
        )
    if blocks.oversize_lines:
        print(
            f"second-brain project: {path}: {blocks.oversize_lines} lines longer than "
            f"{blocks.max_line_bytes} bytes skipped",
            file=sys.stderr,
        )
    return 0
