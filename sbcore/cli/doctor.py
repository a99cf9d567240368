"""``second-brain doctor`` (and ``/second-brain:doctor``): is this install able to observe, and if not, why.

One line a check (:mod:`sbcore.cli.doctor_checks`): Python and the package, the Claude Code CLI against
the supported and the tested versions, the plugin and its version, the hooks' interpreter, the data
directory, the configuration, the model provider and whether it answers, this workspace's trust, and
the last error a worker logged. Each failed or doubtful check says how to fix it. The exit status is 1
when a check fails (a CI step or a setup script can rely on it), 0 otherwise (warnings included).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sbcore.cli.doctor_checks import Scene

MARKS = {"ok": "ok  ", "warn": "warn", "fail": "FAIL"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    doctor = subparsers.add_parser(
        "doctor",
        help="check the install: Python, Claude Code, plugin, hooks, data directory, provider, trust, worker",
        description=(
            "Check everything the observer needs and say how to fix what is wrong. Exit status 1 when a "
            "check fails, 0 otherwise (warnings are not failures)."
        ),
    )
    doctor.add_argument("--claude", metavar="PATH", help="the `claude` executable (default: found on PATH)")
    doctor.add_argument("--directory", "-C", type=Path, metavar="DIR", help="the workspace (default: here)")
    doctor.add_argument(
        "--repo",
        type=Path,
        metavar="DIR",
        help="the sbcore checkout whose plugin to check (default: the one sbcore runs from)",
    )
    doctor.add_argument("--json", action="store_true", help="the checks as JSON")
    doctor.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 even when a check fails (/second-brain:doctor: Claude Code shows a failing command's "
        "output as an error instead of the report)",
    )
    doctor.set_defaults(func=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    from sbcore.cli.doctor_checks import CHECKS, Check

    scene = _scene(args)
    results: list[Check] = []
    for check in CHECKS:
        try:
            results.append(check(scene))
        except Exception as error:  # a check that breaks is a finding, not a crash of the doctor
            name = check.__name__.replace("_", " ")
            results.append(Check(name, "fail", f"the check itself failed: {type(error).__name__}: {error}"))
    failed = any(result.status == "fail" for result in results)
    if args.json:
        from sbcore.conductor.provenance import stamped

        checks = {"ok": not failed, "checks": [result.to_json() for result in results]}
        print(json.dumps(stamped(checks, scene.workspace), indent=2))
        return 1 if failed and not args.exit_zero else 0
    for result in results:
        print(f"{MARKS[result.status]}  {result.name}: {result.detail}")
        if result.fix and result.status != "ok":
            print(f"      fix: {result.fix}")
    counts = {status: sum(r.status == status for r in results) for status in MARKS}
    print(f"\n{counts['fail']} failed, {counts['warn']} to look at, {counts['ok']} fine")
    return 1 if failed and not args.exit_zero else 0


def _scene(args: argparse.Namespace) -> Scene:
    """Where the checks look: this package's checkout, the CLI, the workspace, the data directory."""
    import shutil

    from sbcore import paths
    from sbcore.cli.doctor_checks import Scene
    from sbcore.cli.install import InstallError, find_checkout
    from sbcore.config import find_workspace

    plugin_dir: Path | None = None
    plugin_id: str | None = None
    try:
        checkout = find_checkout(args.repo)
        plugin_dir, plugin_id = checkout.plugin_dir, checkout.plugin_id
    except InstallError:
        pass
    claude = shutil.which(args.claude) if args.claude else shutil.which("claude")
    claude = os.path.abspath(claude) if claude else None
    config = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return Scene(
        plugin_dir=plugin_dir,
        plugin_id=plugin_id,
        claude=claude,
        workspace=find_workspace(args.directory or Path.cwd()),
        data=paths.data_dir(),
        claude_config=Path(config),
    )
