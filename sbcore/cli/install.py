"""``second-brain install`` / ``uninstall``: the Claude Code plugin, from this checkout, bound to this Python.

Install does two things:

1. binds the plugin to an interpreter: ``plugin/lib/python-path`` holds the
   Python that has sbcore installed (``--python``, default the one running
   this command). The plugin's launchers (``bin/sb-hook``, ``bin/sb-worker``,
   ``bin/second-brain``) read it on every call; ``SBCORE_PYTHON`` overrides it;
2. registers the checkout as a directory marketplace and installs the plugin
   from it with the real CLI (``claude plugin marketplace add <checkout>``,
   ``claude plugin install second-brain@<marketplace>``). A directory
   marketplace runs the plugin in place from ``<checkout>/plugin``, so the
   binding written in step 1 is the one the hooks see.

``--statusline`` also puts Second Brain in Claude Code's status line, composed
with the user's own (:mod:`sbcore.cli.statusline_setup`).

Uninstall reverses all of it (the status line restored exactly as it was),
keeping the plugin's data directory unless ``--purge`` is given (it holds the
local configuration layer and the advice history).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sbcore import paths
from sbcore.cli.data_move import carry_over
from sbcore.problems import SbcoreError

LAUNCHERS = ("sb-hook", "sb-worker", "second-brain", "sb-statusline")
"""The plugin's executables, which must keep their execute bits."""
BINDING = "python-path"
"""The file in ``plugin/bin`` naming the bound interpreter."""
CLAUDE_TIMEOUT_S = 300
"""Longest a ``claude plugin`` call may take (a marketplace add can fetch)."""
ALREADY_DONE = frozenset({"not_installed", "not_configured"})
"""``failureCode`` values that mean an uninstall step has nothing left to do."""


class InstallError(SbcoreError):
    """Something the user must fix; the message says what."""


@dataclass(frozen=True)
class Checkout:
    """The source checkout: the marketplace at its root and the plugin inside it."""

    root: Path
    marketplace: str
    plugin: str

    @property
    def plugin_dir(self) -> Path:
        return self.root / "plugin"

    @property
    def binding(self) -> Path:
        return self.plugin_dir / "lib" / BINDING

    @property
    def plugin_id(self) -> str:
        return f"{self.plugin}@{self.marketplace}"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    install = subparsers.add_parser(
        "install",
        help="install the Claude Code plugin from this checkout, bound to this Python",
        description=(
            "Bind the plugin in this checkout to a Python interpreter (plugin/lib/python-path), register "
            "the checkout as a Claude Code marketplace and install the second-brain plugin from it with "
            "`claude plugin`. The plugin runs in place from the checkout."
        ),
    )
    _common(install)
    install.add_argument(
        "--python",
        metavar="PATH",
        help="the interpreter the hooks and the worker run under (default: the one running this command)",
    )
    install.add_argument(
        "--bind-only",
        action="store_true",
        help="only write the interpreter binding; do not call `claude`",
    )
    install.add_argument(
        "--statusline",
        action="store_true",
        help="also show Second Brain in Claude Code's status line (after your own status line, if any)",
    )
    install.set_defaults(func=_install)

    uninstall = subparsers.add_parser(
        "uninstall",
        help="uninstall the Claude Code plugin and remove this checkout's marketplace",
        description=(
            "Uninstall the second-brain plugin and remove the checkout's marketplace with `claude plugin`, "
            "and remove the interpreter binding. The plugin's data directory (local configuration, advice "
            "history) is kept unless --purge is given."
        ),
    )
    _common(uninstall)
    uninstall.add_argument(
        "--purge", action="store_true", help="also delete the plugin's data directory (Claude Code does it)"
    )
    uninstall.set_defaults(func=_uninstall)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scope",
        choices=("user", "project", "local"),
        default="user",
        help="Claude Code settings scope to install into (default: user)",
    )
    parser.add_argument("--claude", metavar="PATH", help="the `claude` executable (default: found on PATH)")
    parser.add_argument(
        "--repo",
        type=Path,
        metavar="DIR",
        help="the sbcore checkout holding .claude-plugin/ and plugin/ (default: the one sbcore runs from)",
    )


# -- the commands -------------------------------------------------------------------------------


def _install(args: argparse.Namespace) -> int:
    try:
        checkout = find_checkout(args.repo)
        python = interpreter(args.python)
        check_interpreter(python)
        bind(checkout, python)
        print(f"bound the plugin to {python} ({checkout.binding})")
        if args.bind_only:
            return 0
        claude = find_claude(args.claude)
        _step(claude, ["plugin", "marketplace", "add", str(checkout.root), "--scope", args.scope])
        _step(claude, ["plugin", "install", checkout.plugin_id, "--scope", args.scope])
        previous = paths.data_dir()
        data = record_data_dir(checkout)
        carried = carry_over(previous, data)
        if args.statusline:
            print(_statusline_add(checkout))
    except InstallError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"installed {checkout.plugin_id} (scope {args.scope}); it runs in place from {checkout.plugin_dir}")
    print(f"state lives in {data} (recorded for terminal commands in {paths.config_dir()})")
    if carried:
        print(f"copied your state from {previous} (left there as it was): {', '.join(carried)}")
    print("start a new Claude Code session (or run /reload-plugins) to load it")
    print(f"its commands there: {', '.join(plugin_commands(checkout))}")
    return 0


def _uninstall(args: argparse.Namespace) -> int:
    try:
        checkout = find_checkout(args.repo)
        restored = _statusline_remove()
        if restored is not None:
            print(restored)
        claude = find_claude(args.claude)
        keep = [] if args.purge else ["--keep-data"]
        _step(claude, ["plugin", "uninstall", checkout.plugin_id, "--scope", args.scope, *keep])
        _step(claude, ["plugin", "marketplace", "remove", checkout.marketplace, "--scope", args.scope])
        unbind(checkout)
        forget_data_dir(checkout)
    except InstallError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"removed the interpreter binding ({checkout.binding})")
    if not args.purge:
        print("the plugin's data directory was kept; `second-brain uninstall --purge` removes it")
    return 0


# -- the pieces ---------------------------------------------------------------------------------


def _statusline_add(checkout: Checkout) -> str:
    from sbcore.cli import statusline_setup

    try:
        return statusline_setup.add(checkout.plugin_dir / "bin" / "sb-statusline")
    except (statusline_setup.StatuslineError, OSError) as error:
        raise InstallError(f"the status line was not added: {error}") from error


def _statusline_remove() -> str | None:
    from sbcore.cli import statusline_setup

    try:
        return statusline_setup.remove()
    except (statusline_setup.StatuslineError, OSError) as error:
        raise InstallError(f"the status line was not restored: {error}") from error


def plugin_commands(checkout: Checkout) -> list[str]:
    """The plugin's slash commands as they run in Claude Code (``/second-brain:NAME``), from its files."""
    from sbcore.deliver.framing import slash_command

    return [slash_command(path.stem) for path in sorted((checkout.plugin_dir / "commands").glob("*.md"))]


def plugin_data_dir(checkout: Checkout) -> Path:
    """The installed plugin's data directory: ``<claude config>/plugins/data/<plugin>-<marketplace>``."""
    config = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return Path(config) / "plugins" / "data" / f"{checkout.plugin}-{checkout.marketplace}"


def record_data_dir(checkout: Checkout) -> Path:
    """Point terminal commands and monitors at the plugin's data directory (see ``paths.data_dir``)."""
    data = plugin_data_dir(checkout)
    paths.write_private(paths.config_dir() / paths.DATA_DIR_POINTER, f"{data}\n".encode())
    return data


def forget_data_dir(checkout: Checkout) -> None:
    """Remove the pointer written by :func:`record_data_dir`, if it still names this plugin."""
    pointer = paths.config_dir() / paths.DATA_DIR_POINTER
    try:
        if pointer.read_text(encoding="utf-8").strip() == str(plugin_data_dir(checkout)):
            pointer.unlink()
    except OSError:
        pass


def find_checkout(given: Path | None) -> Checkout:
    """The checkout to install from: ``given``, else the one this package was imported from."""
    root = (given if given is not None else Path(__file__).resolve().parents[2]).resolve()
    marketplace_file = root / ".claude-plugin" / "marketplace.json"
    if not marketplace_file.is_file() or not (root / "plugin" / ".claude-plugin" / "plugin.json").is_file():
        raise InstallError(
            f"{root} is not an sbcore checkout (no .claude-plugin/marketplace.json and plugin/); "
            "install from a source checkout, or pass --repo DIR"
        )
    document = _read_json(marketplace_file)
    name = document.get("name")
    if not isinstance(name, str) or not name:
        raise InstallError(f"{marketplace_file}: no marketplace 'name'")
    plugin = _read_json(root / "plugin" / ".claude-plugin" / "plugin.json").get("name")
    listed = [entry.get("name") for entry in document.get("plugins", []) if isinstance(entry, dict)]
    if not isinstance(plugin, str) or plugin not in listed:
        raise InstallError(f"{marketplace_file}: does not list the plugin {plugin!r} of {root / 'plugin'}")
    return Checkout(root, name, plugin)


def interpreter(given: str | None) -> Path:
    """The interpreter to bind: ``given`` (a path, or a name looked up on PATH), else this one.

    Made absolute but not resolved: a virtual environment's ``python`` is a
    symlink, and resolving it would bind the base interpreter without the
    environment's packages.
    """
    if not given:
        return Path(sys.executable)
    if os.sep not in given:
        found = shutil.which(given)
        if found is None:
            raise InstallError(f"no {given!r} on PATH")
        given = found
    return Path(os.path.abspath(os.path.expanduser(given)))


def check_interpreter(python: Path) -> None:
    """Refuse an interpreter that cannot run the hooks (sbcore not importable from it)."""
    if not (python.is_file() and os.access(python, os.X_OK)):
        raise InstallError(f"{python} is not an executable file")
    probe = subprocess.run(
        [str(python), "-P", "-c", "import sbcore.hooks.dispatch, sbcore.cli"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if probe.returncode != 0:
        detail = probe.stderr.strip().splitlines()[-1:] or ["no error output"]
        raise InstallError(f"{python} cannot import sbcore ({detail[0]}); install sbcore into it first")


def bind(checkout: Checkout, python: Path) -> None:
    """Write ``plugin/lib/python-path`` and make sure the launchers are executable.

    The binding lived in ``plugin/bin/`` before, where Claude Code's validator lists every file as a
    program; an old one left there is removed (the launchers read only the new place)."""
    binding = checkout.binding
    tmp = binding.with_name(f".{BINDING}.tmp")
    tmp.write_text(f"{python}\n", encoding="utf-8")
    os.replace(tmp, binding)
    (checkout.plugin_dir / "bin" / BINDING).unlink(missing_ok=True)
    for name in LAUNCHERS:
        launcher = checkout.plugin_dir / "bin" / name
        mode = launcher.stat().st_mode
        if mode & 0o111 != 0o111:
            os.chmod(launcher, mode | 0o755)


def unbind(checkout: Checkout) -> None:
    """Remove the interpreter binding (nothing to do when there is none)."""
    checkout.binding.unlink(missing_ok=True)


def find_claude(given: str | None) -> str:
    """The ``claude`` executable: ``given``, else the first on PATH."""
    found = shutil.which(given) if given else shutil.which("claude")
    if found is None:
        where = given or "`claude` on PATH"
        raise InstallError(
            f"cannot find {where}. Install Claude Code, or pass --claude PATH; to bind the interpreter "
            "alone, run `second-brain install --bind-only`"
        )
    return found


def _step(claude: str, arguments: list[str]) -> None:
    """Run one ``claude`` step with ``--json``; an uninstall step that finds nothing to undo is fine."""
    command = [claude, *arguments, "--json"]
    shown = " ".join(["claude", *arguments])
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=CLAUDE_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise InstallError(f"`{shown}` did not run: {error}") from error
    report = _last_json_line(result.stdout)
    message = str(report.get("message") or result.stderr.strip() or f"exit status {result.returncode}")
    if result.returncode == 0:
        print(f"{shown}: {message}")
        return
    if report.get("failureCode") in ALREADY_DONE:
        print(f"{shown}: nothing to do ({message})")
        return
    raise InstallError(f"`{shown}` failed: {message}")


def _last_json_line(text: str) -> dict[str, Any]:
    for line in reversed(text.strip().splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return {}


def _read_json(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InstallError(f"{path}: unreadable ({error})") from error
    if not isinstance(value, dict):
        raise InstallError(f"{path}: not a JSON object")
    return value
