"""``second-brain statusline``: the status-bar line (Claude Code's statusline JSON on stdin).

The plugin's ``bin/sb-statusline`` runs :mod:`sbcore.hooks.statusline` directly, without this CLI's
start-up; this subcommand is the same line from a terminal, for trying it out or scripting.
"""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "statusline",
        help="one status-bar line: observer state, last turn's outcome, budget (statusline JSON on stdin)",
        description=(
            "Read Claude Code's statusline JSON on stdin and print one short line from the status file: "
            "the observer's state, the last turn's outcome or advisory, the hourly budget left. Prints "
            "nothing and exits 0 on any problem. `second-brain install --statusline` sets it up."
        ),
    )
    parser.set_defaults(func=_statusline)


def _statusline(args: argparse.Namespace) -> int:
    from sbcore.hooks.statusline import main

    return main()
