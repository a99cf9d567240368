"""``second-brain pack``: start a detector pack, and test one as installed.

``pack new NAME`` scaffolds a complete pack (see :mod:`sbcore.testing.scaffold`).
``pack test [NAME ...]`` runs golden cases through pytest against the packs as
installed, from a scratch working directory, so the test sees exactly what
users get: a detector file missing from a wheel's package data is a failing
case here, not a detector that silently never runs. ``pack test --workspace``
runs a workspace's own cases (``.second-brain/goldens/<detector>/``) against
its detectors, in this process: they have no package to install.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sbcore.packs.manager import PackManager

NO_TESTS_COLLECTED = 5  # pytest's exit code


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "pack",
        help="create a detector pack, or run a pack's golden cases",
        description="Create a detector pack from the template, or run installed packs' golden cases.",
    )
    parser.set_defaults(func=lambda _args: _usage(parser))
    actions = parser.add_subparsers(dest="pack_action", metavar="ACTION")

    new = actions.add_parser(
        "new",
        help="scaffold a new pack whose tests pass as generated",
        description=(
            "Create ./NAME: a pack with pyproject (the sbcore entry point and package data), one structural "
            "trigger, one detector, a must_fire and a must_stay_silent golden case, their snapshots and a "
            "test file using the sbcore pytest plugin. Refuses to write into a non-empty directory."
        ),
    )
    new.add_argument("name", metavar="NAME", help="pack and distribution name, e.g. acme-checks")
    new.add_argument(
        "--directory", type=Path, default=Path("."), metavar="DIR", help="create the pack in DIR (default: .)"
    )
    new.set_defaults(func=_new)

    test = actions.add_parser(
        "test",
        help="run installed packs' golden cases through pytest",
        description=(
            "Run golden cases (GOLDENS/<pack>/<detector>/<case>.yaml) with pytest against the installed "
            "packs. Without NAME: every installed pack except the built-in ones. Pending cases (those that "
            "need a model) are reported as skipped, with the reason. Exits with pytest's status."
        ),
    )
    test.add_argument("names", nargs="*", metavar="NAME", help="pack names (entry point names)")
    test.add_argument(
        "--workspace",
        nargs="?",
        const=Path("."),
        type=Path,
        metavar="DIR",
        help="instead, run the workspace's cases (DIR/.second-brain/goldens/<detector>/<case>.yaml) against "
        "its detectors (DIR/.second-brain/detectors/); DIR defaults to the current directory",
    )
    test.add_argument(
        "--goldens",
        type=Path,
        default=Path("goldens"),
        metavar="DIR",
        help="the directory holding <pack>/<detector>/<case>.yaml (default: ./goldens)",
    )
    test.add_argument(
        "-k",
        dest="keyword",
        metavar="EXPRESSION",
        help="only cases matching (pytest -k; with --workspace, a part of <detector>/<case>)",
    )
    test.add_argument("-v", "--verbose", action="store_true", help="list every case (pytest -v)")
    test.add_argument(
        "--strict", action="store_true", help="a broken pack is fatal (as SBCORE_STRICT_PACKS=1)"
    )
    test.set_defaults(func=_test)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _new(args: argparse.Namespace) -> int:
    from sbcore.testing.scaffold import ScaffoldError, scaffold_pack

    try:
        result = scaffold_pack(args.name, args.directory)
    except ScaffoldError as exc:
        print(f"second-brain pack new: {exc}", file=sys.stderr)
        return 1
    names = result.names
    print(
        f"Created pack {names.name!r} in {result.root} ({len(result.files) + len(result.snapshots)} files):"
    )
    for path in [*result.files, *result.snapshots]:
        print(f"  {path.relative_to(result.root)}")
    print(
        "\nNext:\n"
        f"  cd {result.root}\n"
        "  pip install -e '.[test]'\n"
        "  pytest                                   # golden cases and their snapshots\n"
        f"  second-brain detectors list              # {names.detector} under pack {names.name}\n"
        f"  second-brain pack test {names.name:<17} # goldens against the installed pack"
    )
    return 0


def _test(args: argparse.Namespace) -> int:
    from sbcore.packs.manager import PackError
    from sbcore.testing.golden_cases import case_files

    if args.workspace is not None:
        return _test_workspace(args)
    try:
        manager = _manager(strict=args.strict)
    except PackError as exc:
        print(f"second-brain pack test: {exc}", file=sys.stderr)
        return 1
    infos = {info.name: info for info in manager.list_packs()}
    broken = {pack.name: pack for pack in manager.broken}
    if args.names:
        unknown = [name for name in args.names if name not in infos]
        for name in unknown:
            reason = f"it failed to load: {broken[name]}" if name in broken else "no such pack is installed"
            print(f"second-brain pack test: cannot test pack {name!r}: {reason}", file=sys.stderr)
        if unknown:
            print(f"installed packs: {', '.join(sorted(infos)) or 'none'}", file=sys.stderr)
            return 1
        names = list(args.names)
    else:
        names = sorted(name for name, info in infos.items() if not info.builtin)
        if not names:
            print(
                "second-brain pack test: no third-party pack is installed (name one to test it)",
                file=sys.stderr,
            )
            return 1
    root = args.goldens.resolve()
    with_cases = [name for name in names if case_files(root, [name])]
    for name in names:
        if name not in with_cases:
            print(
                f"second-brain pack test: no golden cases for pack {name!r} under {root / name}",
                file=sys.stderr,
            )
    if not with_cases or (args.names and len(with_cases) < len(names)):
        return 1
    return _run_pytest(root, with_cases, args)


def _test_workspace(args: argparse.Namespace) -> int:
    """The workspace's cases through the golden runner; exit 1 when one fails (pending ones are listed)."""
    from sbcore.packs.manager import PackError
    from sbcore.testing.golden_cases import GoldenError
    from sbcore.testing.goldens import GoldenRunner
    from sbcore.testing.workspace_goldens import load_workspace_cases, workspace_goldens_dir

    if args.names:
        print(
            "second-brain pack test: --workspace tests the workspace's detectors: name no pack",
            file=sys.stderr,
        )
        return 2
    workspace = args.workspace.resolve()
    if not workspace.is_dir():
        print(f"second-brain pack test: {workspace} is not a directory", file=sys.stderr)
        return 1
    try:
        cases = load_workspace_cases(workspace)
    except GoldenError as exc:
        print(exc, file=sys.stderr)
        return 1
    cases = [case for case in cases if not args.keyword or args.keyword in f"{case.detector}/{case.name}"]
    if not cases:
        where = workspace_goldens_dir(workspace)
        print(
            f"second-brain pack test: no golden cases under {where}/<detector>/<case>.yaml", file=sys.stderr
        )
        return 1
    try:
        runner = GoldenRunner(_manager(strict=args.strict), workspace=workspace)
    except PackError as exc:
        print(f"second-brain pack test: {exc}", file=sys.stderr)
        return 1
    counts: dict[str, int] = {}
    for case in cases:
        result = runner.run(case)
        counts[result.outcome] = counts.get(result.outcome, 0) + 1
        if result.outcome == "passed" and not args.verbose:
            continue
        print(f"{result.outcome.upper()} {case.detector}/{case.name}")
        if result.outcome != "passed":
            print(result.report(), end="\n\n")
    print(
        ", ".join(
            f"{counts[outcome]} {outcome}"
            for outcome in ("passed", "failed", "pending", "skipped")
            if outcome in counts
        )
    )
    return 1 if counts.get("failed") else 0


def _manager(*, strict: bool) -> PackManager:
    """The installed packs; a skipped one is reported on stderr by name (unless strict, where it raises)."""
    import warnings

    from sbcore.packs.manager import PackWarning, get_plugin_manager

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PackWarning)
        manager = get_plugin_manager(strict=True) if strict else get_plugin_manager()
    for broken in manager.broken:
        print(f"sbcore: skipped {broken}", file=sys.stderr)
    return manager


def _run_pytest(root: Path, packs: list[str], args: argparse.Namespace) -> int:
    """pytest over ``root/<pack>`` in a scratch directory, with no project configuration or conftest.

    ``-P`` and the scratch working directory keep the checkout off
    ``sys.path``; ``-c os.devnull`` keeps a pack repository's own pytest
    configuration out; ``--noconftest`` and a ``python_files`` no file is named keep
    its Python out (``./goldens`` is only a folder of the repository: a ``conftest.py``
    or a ``test_*.py`` in it would run as soon as pytest collected it); the cases then
    see only what is installed.
    """
    command = [
        sys.executable,
        "-P",
        "-m",
        "pytest",
        "-c",
        os.devnull,
        "--rootdir",
        str(root),
        "--confcutdir",
        str(root),
        "--noconftest",
        "-o",
        "python_files=",
        "-p",
        "no:cacheprovider",
        "-o",
        f"sbcore_goldens={root}",
        "--sbcore-goldens",
        "-rs",
        *(arg for pack in packs for arg in ("--sbcore-pack", pack)),
        *(["-k", args.keyword] if args.keyword else []),
        "-v" if args.verbose else "-q",
        *(str(root / pack) for pack in packs),
    ]
    env = dict(os.environ)
    if args.strict:
        env["SBCORE_STRICT_PACKS"] = "1"
    with tempfile.TemporaryDirectory(prefix="sbcore-pack-test-") as scratch:
        code = subprocess.call(command, cwd=scratch, env=env)
    if code == NO_TESTS_COLLECTED:
        print("second-brain pack test: no golden case was selected", file=sys.stderr)
    return code
