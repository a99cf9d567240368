"""``second-brain config``: show, set and reset configuration, layer by layer.

``show`` prints each key's effective value and the layer it came from; ``set``
validates before writing and defaults to the local layer (this user, this
workspace), because the workspace layer is committed and shared by the team;
``reset`` removes keys from a layer so the layers below show through.
Exit codes: 0 done, 1 ``show`` found configuration problems, 2 a change was
refused (nothing written) or the key is unknown.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sbcore.problems import Problem

if TYPE_CHECKING:
    from sbcore.config import EffectiveConfig, LayerName
    from sbcore.packs.catalogue import EffectiveCatalogue

_VALUE_WIDTH = 60


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "config",
        help="show, set and reset configuration",
        description=(
            "Show, set and reset Second Brain configuration. Layers, lowest first: defaults, global, "
            "workspace (committed, shared by the team), local (this user in this workspace). "
            "Without an action, shows the effective configuration."
        ),
    )
    _directory_option(parser)
    parser.set_defaults(func=_show, key=None, json=False)
    actions = parser.add_subparsers(dest="config_action", metavar="ACTION")

    show = actions.add_parser(
        "show",
        help="effective values and the layer each comes from",
        description=(
            "Print every key's effective value and the layer it came from. With KEY, print that key's "
            "description, default, range and the value each layer gives it; with a GROUP, its keys. "
            "Exits 1 when a layer file has problems (it is skipped) or knobs contradict each other."
        ),
    )
    show.add_argument("key", nargs="?", metavar="KEY|GROUP", help="one key or group (default: everything)")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    _directory_option(show)
    show.set_defaults(func=_show)

    set_ = actions.add_parser(
        "set",
        help="set one key in one layer (validated first)",
        description=(
            "Set KEY to VALUE (read as YAML, so JSON works too) in one layer, the local layer unless told "
            "otherwise. The value is checked against the key's type and range, the rest of the file and "
            "related keys before anything is written; a refused value changes nothing and exits 2."
        ),
    )
    set_.add_argument("key", metavar="KEY", help="dotted key, e.g. gate.rate_per_hour")
    set_.add_argument("value", metavar="VALUE", help="the value, e.g. 2, true, '[error, prompt]'")
    _layer_options(set_)
    _directory_option(set_)
    set_.set_defaults(func=_set)

    reset = actions.add_parser(
        "reset",
        help="remove a key, a group or everything from one layer",
        description=(
            "Remove KEY, a whole GROUP, or `all` from one layer (the local layer unless told otherwise), "
            "so the layers below show through. Other keys and the file's comments are kept."
        ),
    )
    reset.add_argument("target", metavar="GROUP|KEY|all")
    reset.add_argument(
        "--yes",
        action="store_true",
        help="remove more than one key without asking (otherwise asked at a terminal, refused elsewhere)",
    )
    _layer_options(reset)
    _directory_option(reset)
    reset.set_defaults(func=_reset)


def _directory_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-C",
        dest="directory",
        type=Path,
        default=argparse.SUPPRESS,
        metavar="DIR",
        help="act on the workspace containing DIR (default: the current directory)",
    )


def _layer_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--global",
        dest="layer",
        action="store_const",
        const="global",
        help="the user's global layer (every workspace)",
    )
    group.add_argument(
        "--workspace",
        dest="layer",
        action="store_const",
        const="workspace",
        help="the workspace layer, .second-brain/config.yaml in the repository (shared by the team)",
    )
    group.add_argument(
        "--local",
        dest="layer",
        action="store_const",
        const="local",
        help="the local layer: this user in this workspace, outside the repository (default)",
    )
    parser.set_defaults(layer="local")


def _workspace(args: argparse.Namespace) -> Path:
    """The workspace to act on; also takes over reporting from the library's log.

    ``load_config`` logs every problem it finds (a worker's log is where they
    belong); here each one is printed once, by the command, so the log
    records would only repeat them on stderr.
    """
    from sbcore.config import find_workspace

    quiet_library_log()
    return find_workspace(getattr(args, "directory", None) or Path.cwd())


def quiet_library_log() -> None:
    """Leave configuration problems to the command, which prints each once (the log would repeat it)."""
    library_log = logging.getLogger("sbcore.config")
    if not any(isinstance(handler, logging.NullHandler) for handler in library_log.handlers):
        library_log.addHandler(logging.NullHandler())


# -- show -------------------------------------------------------------------------------------


def _show(args: argparse.Namespace) -> int:
    from sbcore.config import UnknownKeyError, load_config, resolve_key

    config = load_config(_workspace(args))
    prefix: tuple[str, ...] = ()
    if args.key:
        try:
            prefix = resolve_key(args.key).path
        except UnknownKeyError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    rows = [row for row in config.rows() if tuple(_split(row[0], prefix)) == prefix]
    dropped = _dropped_overrides(config) if prefix[:1] in ((), ("detectors",)) else []
    shows_model = prefix[:1] in ((), ("model",))
    if args.json:
        document = _as_json(config, rows, whole=not prefix)
        document["problems"] += [Problem(text).to_json() for text in dropped]
        if shows_model:
            document["provider_choice"] = _provider_choice(config)
        from sbcore.conductor.provenance import stamped

        print(json.dumps(stamped(document, config.workspace), indent=2, ensure_ascii=False))
        return 1 if config.problems or dropped else 0
    _print_problems(config, dropped)
    if len(prefix) > 1 and len(rows) <= 1:
        _print_key(config, args.key)
    else:
        if not prefix:
            _print_layers(config)
        if shows_model:
            choice = _provider_choice(config)
            print(f"model provider in force: {choice.get('line') or choice.get('error')}\n")
        _print_rows(rows)
    _print_trust(config, ".".join(prefix))
    return 1 if config.problems or dropped else 0


def _provider_choice(config: EffectiveConfig) -> dict[str, Any]:
    """What ``model.provider`` resolves to here and now (``auto`` asks the environment and the claude CLI)."""
    from sbcore.think.providers.base import ProviderConfigError
    from sbcore.think.providers.choose import choose

    try:
        choice = choose(config.group("model"), os.environ)
    except ProviderConfigError as error:
        return {"error": f"model: {error}"}
    return {**choice.to_json(), "line": choice.describe()}


def _print_problems(config: EffectiveConfig, dropped: list[str]) -> None:
    """Every problem on stderr, before any table: a skipped layer first, with what it costs and the fix."""
    for layer in config.layers:
        if layer.status == "skipped":
            print(
                f"error: the {layer.name} layer ({layer.path}) is skipped: none of its values apply until "
                f"{'this is' if len(layer.problems) == 1 else 'these are'} fixed",
                file=sys.stderr,
            )
        elif layer.held:
            print(
                f"error: the {layer.name} layer ({layer.path}) has keys held back; the rest of it applies:",
                file=sys.stderr,
            )
            for line in layer.held_lines():
                print(f"  {line}", file=sys.stderr)
        else:
            continue
        for problem in layer.problems:
            shown = problem.to_problem()
            if problem.key:
                reset = f"second-brain config reset {problem.key} --{layer.name}"
                reset = f"correct the value in the file, or remove it: {reset}"
                shown = dataclasses.replace(shown, fix=f"{shown.fix}; or {reset}" if shown.fix else reset)
            print(textwrap.indent(shown.render(), "  "), file=sys.stderr)
    for problem in config.conflicts:
        print(f"problem: {problem}", file=sys.stderr)
    for text in dropped:
        print(f"error: {text}", file=sys.stderr)
    if config.problems or dropped:
        print(file=sys.stderr)


def _dropped_overrides(config: EffectiveConfig) -> list[str]:
    """Overrides the catalogue refuses (and with them every override of that detector), as sentences.

    The schema accepts them, so only the catalogue can tell: it is assembled
    only when some layer overrides a detector.
    """
    if not config.get("detectors", {}):
        return []
    catalogue = _catalogue(config)
    return [
        f"{chain.source}: {chain.key}: {chain.problem}"
        + (
            f"\n  hint: {chain.hint}".replace("\n", "\n  ").replace("\n    hint", "\n  hint")
            if chain.hint
            else ""
        )
        for chain in catalogue.errors
        if (chain.key or "").startswith("detectors.")
    ]


def _print_trust(config: EffectiveConfig, prefix: str) -> None:
    """The workspace keys held back or log-only until ``second-brain trust``, under ``prefix``."""
    from sbcore.cli.trust_view import render_trust, under

    if config.trust is None:
        return
    lines = render_trust(config.trust.to_json(), under(prefix))
    if lines:
        print()
        print("\n".join(lines))


def _split(key: str, prefix: tuple[str, ...]) -> list[str]:
    """The first ``len(prefix)`` path segments of a row's key (map keys may hold dots)."""
    from sbcore.config import resolve_key

    return list(resolve_key(key).path[: len(prefix)])


def _as_json(
    config: EffectiveConfig, rows: list[tuple[str, Any, LayerName]], *, whole: bool
) -> dict[str, Any]:
    document: dict[str, Any] = {
        "workspace": str(config.workspace) if config.workspace else None,
        "observed": config.is_enabled(),
        "layers": [
            {
                "name": layer.name,
                "path": str(layer.path) if layer.path else None,
                "status": layer.status,
                "problems": [problem.to_problem().to_json() for problem in layer.problems],
            }
            for layer in config.layers
        ],
        "values": [{"key": key, "value": value, "layer": layer} for key, value, layer in rows],
        "problems": [problem.to_problem().to_json() for problem in config.problems],
        "trust": config.trust.to_json() if config.trust is not None and config.trust.needed else None,
    }
    if whole:
        document["effective"] = config.as_dict()
    return document


def _print_layers(config: EffectiveConfig) -> None:
    if config.workspace is not None:
        state = "observed" if config.is_enabled() else "not observed (enable.default / enable.workspaces)"
        print(f"workspace  {config.workspace}  [{state}]")
    print("layers, lowest first:")
    print("  default    the schema's defaults")
    width = max((len(str(layer.path)) for layer in config.layers if layer.path), default=0)
    for layer in config.layers:
        if layer.path is None:
            continue
        if layer.status == "ok":
            count = _count_keys(layer.data)
            state = f"{count} key{'s' if count != 1 else ''}"
            if layer.held:
                state += f", {len(layer.held)} HELD BACK (problems above)"
        elif layer.status == "missing":
            state = "no file"
        else:
            count = len(layer.problems)
            state = f"SKIPPED: {count} problem{'s' if count != 1 else ''}"
        print(f"  {layer.name:<10} {layer.path!s:<{width}}  {state}")
    print()


def _count_keys(data: Any) -> int:
    if isinstance(data, dict) and data:
        return sum(_count_keys(value) for value in data.values())
    return 1 if not isinstance(data, dict) else 0


def _render(value: Any, width: int | None = _VALUE_WIDTH) -> str:
    text = json.dumps(value, ensure_ascii=False)
    if width is not None and len(text) > width:
        text = text[: width - 1] + "…"
    return text


def _print_rows(rows: list[tuple[str, Any, LayerName]]) -> None:
    if not rows:
        return
    key_width = max(len("KEY"), *(len(key) for key, _, _ in rows))
    values = [_render(value) for _, value, _ in rows]
    value_width = max(len("VALUE"), *(len(text) for text in values))
    print(f"{'KEY':<{key_width}}  {'VALUE':<{value_width}}  LAYER")
    for (key, _, layer), text in zip(rows, values, strict=True):
        print(f"{key:<{key_width}}  {text:<{value_width}}  {layer}")


def _print_key(config: EffectiveConfig, key: str) -> None:
    from sbcore.config import resolve_key
    from sbcore.config.effective import MISSING, lookup
    from sbcore.config.schema import describe_range, knob

    ref = resolve_key(key)
    value = config.get(key, None)
    try:
        origin: str = config.layer_of(key)
    except KeyError:
        origin = "not set"
    print(f"{ref.key} = {_render(value, None)}   ({origin})")
    described = knob(ref.key)
    schema = described.schema if described else ref.schema
    if described is not None:
        print(f"  default: {_render(described.default, None)}")
    if schema is not None:
        print(f"  allowed: {describe_range(schema)}")
        if schema.get("description"):
            print(_wrap(schema["description"]))
        if schema.get("x-warning"):
            print(_wrap("warning: " + schema["x-warning"]))
    for layer in config.layers:
        if layer.path is None:
            continue
        found = lookup(layer.data, ref.path)
        if layer.status == "skipped":
            shown = "(layer skipped)"
        elif found is MISSING:
            shown = "-"
        else:
            shown = _render(found, None)
        print(f"  {layer.name:<10} {shown}")


def _wrap(text: str) -> str:
    return textwrap.fill(text, width=100, initial_indent="  ", subsequent_indent="  ")


# -- set / reset ------------------------------------------------------------------------------


def _set(args: argparse.Namespace) -> int:
    from sbcore.config import ConfigRejected, set_value

    try:
        outcome = set_value(
            args.key,
            args.value,
            layer=args.layer,
            workspace=_workspace(args),
            provider_names=_provider_names,
            check_detectors=_check_detectors,
        )
    except ConfigRejected as exc:
        return _refused(exc.reasons)
    for note in outcome.notes:
        print(note)
    for warning in outcome.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    # Even an unchanged value refreshes the snapshot: the layers may have been edited by hand.
    _refresh_hot_snapshot(_workspace(args))
    return 0


def _check_detectors(candidate: EffectiveConfig) -> tuple[list[str], list[str]]:
    """What the catalogue would say about the detector overrides of ``candidate``: (refusals, warnings).

    The same check ``detectors list`` and the observer apply: an override the
    catalogue refuses is refused here, with the catalogue's reason, instead
    of being written and then silently dropped with every other override of
    that detector.
    """
    from sbcore.packs.catalogue import DROPPED

    catalogue = _catalogue(candidate)
    refusals = [
        f"{chain.key}: {chain.problem.removesuffix(_IGNORED)}; the catalogue would refuse this override "
        f"and drop every override of detector {chain.detector!r} with it" + _hint_of(chain.hint, DROPPED)
        for chain in catalogue.errors
        if (chain.key or "").startswith("detectors.")
    ]
    warned = [
        f"{chain.key}: {chain.problem}" + _hint_of(chain.hint, DROPPED)
        for chain in catalogue.warnings
        if (chain.key or "").startswith("detectors.")
    ]
    return refusals, warned


_IGNORED = "; this detector's overrides are ignored"


def _hint_of(hint: str | None, dropped: str) -> str:
    """The catalogue's own hint, without its list of dropped overrides (nothing is written, so none is)."""
    own = (hint or "").split(dropped)[0].strip()
    return f" (hint: {own})" if own else ""


def _catalogue(config: EffectiveConfig) -> EffectiveCatalogue:
    """The effective catalogue for ``config``; broken packs are left to `detectors list` to name."""
    import warnings

    from sbcore.packs.catalogue import assemble_catalogue
    from sbcore.packs.manager import PackWarning, get_plugin_manager

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PackWarning)
        manager = get_plugin_manager()
    return assemble_catalogue(manager, workspace=config.workspace, config=config)


def _provider_names() -> list[str]:
    """The providers the installed packs register (the built-ins are a pack too)."""
    from sbcore.think.providers.choose import registered_factories

    return list(registered_factories())


def _reset(args: argparse.Namespace) -> int:
    from sbcore.config import ConfigRejected, reset_value

    try:
        outcome = reset_value(
            args.target,
            layer=args.layer,
            workspace=_workspace(args),
            confirm=None if args.yes else _confirm_removal,
        )
    except ConfigRejected as exc:
        return _refused(exc.reasons)
    if outcome.changed:
        what = "every key" if outcome.key == "all" else outcome.key
        print(f"removed {what} from the {outcome.layer} layer ({outcome.path})")
    for note in outcome.notes:
        print(note)
    for warning in outcome.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    _refresh_hot_snapshot(_workspace(args))
    return 0


def _confirm_removal(count: int, path: Path) -> bool:
    """Ask before removing several keys at once (a team's workspace file, a whole group); no terminal, no."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            f"error: this would remove {count} keys from {path}; pass --yes to do it without a terminal",
            file=sys.stderr,
        )
        return False
    answer = input(f"Remove {count} keys from {path}? [y/N] ").strip().lower()
    return answer in ("y", "yes")


def _refresh_hot_snapshot(workspace: Path) -> None:
    """Tell the hooks: they read the hot keys from a snapshot, not from the YAML layers."""
    from sbcore.config.hot import write_hot_snapshot

    try:
        write_hot_snapshot(workspace)
    except OSError as exc:
        print(f"warning: the hooks' configuration snapshot was not updated: {exc}", file=sys.stderr)


def _refused(reasons: list[str]) -> int:
    for reason in reasons:
        print(f"error: {reason}", file=sys.stderr)
    print("nothing was written", file=sys.stderr)
    return 2
