"""``second-brain trust``: let this workspace's committed layer do what only the user may allow.

The workspace layer (``.second-brain/config.yaml`` and ``.second-brain/detectors/``)
comes with the repository. Its safe keys always apply; its capabilities (run a
process, open a connection, choose where data goes or which secret is sent)
and its voice (detectors and settings that deliver advice) apply only after
this command recorded the user's approval of that exact content. Any later
change to the layer, or to a repository file a capability names, withdraws it.

``--show`` prints what would be granted, ``--revoke`` forgets the approval;
neither needs a terminal. Granting does: it refuses inside a Claude Code
session and without an interactive terminal (:mod:`sbcore.config.user_act`).

Exit codes: 0 granted, shown or revoked; 1 nothing to trust, declined, or
nothing to revoke; 2 refused (not the user's own act).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sbcore.config.trust import WorkspaceTrust


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "trust",
        help="let this workspace's .second-brain/ layer run, connect and speak (after review)",
        description=(
            "Review what this workspace's committed .second-brain/ layer asks for (model endpoints, MCP "
            "servers, Run grants, its own detectors ...) and approve that exact content. Until then those "
            "keys are ignored and the workspace's detectors only log. Any change to the layer, or to a "
            "file of the repository one of them runs, needs approving again."
        ),
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--show", action="store_true", help="print what would be granted, change nothing")
    action.add_argument("--revoke", action="store_true", help="withdraw the approval of this workspace")
    parser.add_argument(
        "--yes", action="store_true", help="do not ask for confirmation (a terminal is still needed)"
    )
    parser.add_argument(
        "-C",
        dest="directory",
        type=Path,
        default=None,
        metavar="DIR",
        help="act on the workspace containing DIR (default: the current directory)",
    )
    parser.set_defaults(func=_trust)


def _trust(args: argparse.Namespace) -> int:
    from sbcore.config import find_workspace, load_config
    from sbcore.config.trust import revoke
    from sbcore.config.user_act import refusal

    workspace = find_workspace(args.directory or Path.cwd())
    if args.revoke:
        if revoke(workspace):
            _refresh_hot_snapshot(workspace)
            print(f"trust withdrawn: {workspace}'s capabilities are ignored again and its detectors only log")
            return 0
        print(f"{workspace} was not trusted", file=sys.stderr)
        return 1
    state = load_config(workspace).trust
    assert state is not None
    if not state.needed:
        print(f"{workspace}: its .second-brain/ layer asks for nothing that needs trust")
        return 0 if args.show else 1
    _describe(state)
    if args.show:
        return 0
    if state.refusals:
        print("second-brain trust: refused: this content cannot be trusted as it is:", file=sys.stderr)
        for reason in state.refusals:
            print(f"  {reason}", file=sys.stderr)
        return 1
    why = refusal()
    if why is not None:
        print(f"second-brain trust: refused: {why}", file=sys.stderr)
        return 2
    if not args.yes:
        answer = input(f"Trust exactly this content of {workspace}? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            print("not trusted; nothing changed")
            return 1
    from sbcore.config.trust import grant

    path = grant(state)
    _refresh_hot_snapshot(workspace)
    print(f"trusted: recorded in {path}; any change to the files above needs `second-brain trust` again")
    return 0


def _refresh_hot_snapshot(workspace: Path) -> None:
    """The hooks read ``headless.observe`` and the finish-gate knobs from a snapshot: bring it up to date."""
    from sbcore.config.hot import write_hot_snapshot

    try:
        write_hot_snapshot(workspace)
    except OSError as exc:
        print(f"warning: the hooks' configuration snapshot was not updated: {exc}", file=sys.stderr)


def _describe(state: WorkspaceTrust) -> None:
    status = (
        "trusted" if state.trusted else ("changed since you trusted it" if state.recorded else "not trusted")
    )
    print(f"workspace {state.workspace}: {status}")
    print("it asks for:")
    for request in state.requests:
        effect = "ignored until trusted" if request.effect == "ignored" else "logs only until trusted"
        print(f"  {request.key}  [{request.klass}; {effect}]  {request.where}")
    if state.files:
        print("repository files this approval covers besides .second-brain/ (a change withdraws it):")
        for path in state.files:
            print(f"  {path}")
    if state.refusals:
        print("what keeps it from being trusted as it is:")
        for why in state.refusals:
            print(f"  {why}")
