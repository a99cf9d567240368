"""The ``second-brain`` command.

Each subcommand lives in its own module ``sbcore.cli.<name>`` exposing
``register(subparsers)``, which adds its parser and sets ``func`` to a callable
taking the parsed namespace and returning an exit code. Heavy imports belong
inside those callables, so ``second-brain --help`` stays fast.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import TextIO

from sbcore import __version__

# Subcommand modules, in the order ``--help`` lists them.
COMMANDS: tuple[str, ...] = (
    # the session
    "install",
    "doctor",
    "run_now",
    "forget",
    "stats",
    "why",
    "config",
    "statusline",
    "trust",
    # evaluating on recorded sessions
    "replay",
    "soak",
    "project",
    "measure",
    # detectors and packs
    "detectors",
    "pack",
    # running the plugin's processes, and measuring them
    "worker",
    "bench",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="second-brain",
        description="Second Brain: a quiet observer for Claude Code sessions.",
    )
    parser.add_argument("--version", action="version", version=f"sbcore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"sbcore.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    given = list(sys.argv[1:] if argv is None else argv)
    unknown = _unknown_command(parser, given)
    if unknown is not None:
        print(unknown, file=sys.stderr)
        return 2
    args = parser.parse_args(given)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        with warnings.catch_warnings():
            warnings.showwarning = functools.partial(_show_warning, warnings.showwarning)
            return int(func(args) or 0)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        from sbcore.packs.manager import PackError

        if isinstance(error, PackError):  # strict mode: a broken pack is fatal, and named
            print(f"second-brain: {error}", file=sys.stderr)
            return 1
        raise


def _unknown_command(parser: argparse.ArgumentParser, argv: Sequence[str]) -> str | None:
    """A clear refusal for a command this installed version does not have, or None.

    The plugin's slash commands run ``second-brain <command>`` under whatever
    sbcore the plugin is bound to, which may be older than the plugin's files
    (a checkout updated without reinstalling the package): the user gets the
    version they run and what it offers, not argparse's usage dump.
    """
    if not argv or argv[0].startswith("-"):
        return None  # options first (--version, --help): argparse's business
    command = argv[0]
    choices = next(
        (action.choices for action in parser._actions if isinstance(action, argparse._SubParsersAction)),
        None,
    )
    if not choices or command in choices:
        return None
    return (
        f"second-brain: sbcore {__version__} has no command {command!r} "
        f"(it has: {', '.join(sorted(choices))}). If the plugin is newer than the package, "
        "reinstall the package in the environment `second-brain install` bound, then run install again."
    )


def _show_warning(
    show: Callable[..., None],
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A skipped pack is reported as its message alone (pack, step, error, fix), not as Python code.

    Other warnings go to ``show``, the display in force when the command
    started. ``PackWarning`` is looked up only if the pack manager was
    imported, so ``--help`` still loads nothing heavy.
    """
    manager = sys.modules.get("sbcore.packs.manager")
    if manager is not None and issubclass(category, manager.PackWarning):
        print(message, file=file or sys.stderr)
        return
    show(message, category, filename, lineno, file, line)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
