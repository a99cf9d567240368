"""``second-brain measure``: what the projection keeps, against the built-in digest.

Prints the design's tables for the given transcripts (files, or directories searched
for ``*.jsonl``): share of content and kept volume per segment, args kept per tool,
the built-in observer's digest of the same records beside ours, locators in and kept,
and throughput against a bare ``json.loads``. ``--json`` prints the same figures as one
object. Every figure is defined in docs/observation.md.
"""

from __future__ import annotations

import argparse
import sys

from sbcore.cli.project import add_projection_options, projection_config


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "measure",
        help="measure the projection on transcripts (volume, locators, throughput)",
        description=(
            "Measure the observation contract on real transcripts, beside the built-in "
            "observer's digest of the same records."
        ),
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="transcript files or directories")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--repeat",
        type=int,
        default=5,
        metavar="N",
        help="throughput runs; the median is reported (default 5)",
    )
    add_projection_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json

    from sbcore.observe.measure import measure, render_tables

    try:
        config = projection_config(args)
    except ValueError as error:
        print(f"second-brain measure: {error}", file=sys.stderr)
        return 2
    if args.repeat < 1:
        print("second-brain measure: --repeat must be at least 1", file=sys.stderr)
        return 2
    try:
        result = measure(args.paths, config, repeat=args.repeat)
    except FileNotFoundError as error:
        print(f"second-brain measure: {error}", file=sys.stderr)
        return 2
    if not result["files"]:
        print("second-brain measure: no *.jsonl transcript found", file=sys.stderr)
        return 2
    if args.json:
        from sbcore.conductor.provenance import stamped

        print(json.dumps(stamped(result, None), ensure_ascii=False, sort_keys=True))
    else:
        print(render_tables(result))
    return 0
