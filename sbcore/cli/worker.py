"""``second-brain worker``: run the session worker (what the plugin's monitor starts).

Its options and what it does with them live in :mod:`sbcore.worker.command`,
so ``python -m sbcore.worker`` runs the same worker without reaching up into
the CLI.
"""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from sbcore.worker.command import DESCRIPTION, add_arguments, run

    parser = subparsers.add_parser(
        "worker",
        help="run the session worker (started by the plugin; prints nothing)",
        description=DESCRIPTION,
    )
    add_arguments(parser)
    parser.set_defaults(func=run)
