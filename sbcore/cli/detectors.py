"""``second-brain detectors``: check and inspect detector definitions.

One function per action, each registered on the ``detectors`` sub-parser by
its own ``_register_<action>``; adding an action is one more pair. Heavy
imports (YAML, Jinja, jsonschema) happen inside the actions.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jinja2.sandbox import SandboxedEnvironment

    from sbcore.config import EffectiveConfig
    from sbcore.packs.catalogue import EffectiveCatalogue
    from sbcore.packs.errors import ErrorChain
    from sbcore.packs.manager import PackManager
    from sbcore.packs.model import DetectorDef

CLI_PACK = "cli"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "detectors",
        help="validate and inspect detector definitions",
        description="Validate and inspect the detector catalogue.",
    )
    parser.set_defaults(func=lambda _args: _usage(parser))
    actions = parser.add_subparsers(dest="detectors_action", metavar="ACTION")
    _register_validate(actions)
    _register_schema(actions)
    _register_list(actions)
    _register_show(actions)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


# -- validate -------------------------------------------------------------------


def _register_validate(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = actions.add_parser(
        "validate",
        help="check detector files against the schema and cross-checks",
        description=(
            "Validate detector definitions: the schema, templates, tools, triggers and ids. "
            "Without PATH, validates everything `detectors list` loads for the workspace: the installed "
            "packs' catalogues (or catalogue.file), the workspace's own detector files, and the "
            "detectors.<id>.* overrides of every configuration layer. With PATH, also reports an id an "
            "installed pack already uses. Prints every problem found; exits 1 if there is an error."
        ),
    )
    _workspace_argument(parser)
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        type=Path,
        help="detector YAML files or directories of them (default: the effective catalogue)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="treat warnings as errors (e.g. a disabled detector naming a trigger no pack registers)",
    )
    parser.set_defaults(func=_validate)


@dataclass
class ValidationContext:
    """What detectors may refer to, as the installed packs define it.

    The defaults are the built-ins only (Read/Grep/Glob/Run, no pack tools,
    no triggers, MCP servers unchecked); :func:`validation_context` fills it
    from the installed packs.
    """

    known_tools: Collection[str] = ()
    triggers: Mapping[str, dict[str, Any] | None] = field(default_factory=dict)
    mcp_servers: Collection[str] | None = None
    environment: SandboxedEnvironment | None = None


@dataclass
class ValidationReport:
    detectors: list[DetectorDef] = field(default_factory=list)
    errors: list[ErrorChain] = field(default_factory=list)
    warnings: list[ErrorChain] = field(default_factory=list)


def effective_sources() -> list[tuple[str, Path]]:
    """(pack, path) pairs of the catalogues the installed packs register (the built-in pack among them)."""
    return [(source.pack, source.path) for source in _plugin_manager().registry.catalogues]


def validation_context() -> ValidationContext:
    """What the installed packs register: their tools, triggers, MCP servers and template filters."""
    return installed_context()


def installed_context() -> ValidationContext:
    """The installed packs' registrations (``validation_context`` is what files given by path are
    checked against; tests replace it, while the installed catalogues are always read with this one)."""
    manager = _plugin_manager()
    registry = manager.registry
    return ValidationContext(
        known_tools=registry.known_tools(),
        triggers=registry.trigger_schemas(),
        mcp_servers=None,  # configured servers come from the workspace configuration, not checked here
        environment=manager.template_environment(),
    )


@cache
def _plugin_manager() -> PackManager:
    """One manager per command run; broken packs are reported on stderr once, by name."""
    import warnings

    from sbcore.packs.manager import PackWarning, get_plugin_manager

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PackWarning)
        manager = get_plugin_manager()
    for broken in manager.broken:
        print(f"sbcore: skipped {broken}", file=sys.stderr)
    return manager


def validate_sources(sources: Sequence[tuple[str, Path]], context: ValidationContext) -> ValidationReport:
    """Load every (pack, path) source, collecting all errors and warnings (cross-pack duplicates too)."""
    from sbcore.packs.errors import CatalogueError, duplicate_error
    from sbcore.packs.loader import load_catalogue

    report = ValidationReport()
    by_pack: dict[str, list[Path]] = {}
    for pack, path in sources:
        by_pack.setdefault(pack, []).append(path)
    first_of: dict[str, DetectorDef] = {}
    for pack, paths in by_pack.items():
        if pack == CLI_PACK:
            report.errors.extend(_empty_directories(paths))
        try:
            loaded = load_catalogue(
                paths,
                pack=pack,
                known_tools=context.known_tools,
                triggers=context.triggers,
                mcp_servers=context.mcp_servers,
                environment=context.environment,
                on_warning=report.warnings.append,
            )
        except CatalogueError as exc:
            report.errors.extend(exc.chains)
            loaded = exc.loaded  # the good files are still checked: their clashes are errors too
        for detector in loaded:
            if detector.id in first_of:
                report.errors.append(duplicate_error(detector.id, first_of[detector.id], detector))
                continue
            first_of[detector.id] = detector
            report.detectors.append(detector)
    return report


def _empty_directories(paths: Sequence[Path]) -> list[ErrorChain]:
    """A directory named on the command line that holds no detector file is a mistake worth saying."""
    from sbcore.packs.errors import ErrorChain
    from sbcore.packs.loader import catalogue_files
    from sbcore.packs.model import SourceRef

    return [
        ErrorChain(SourceRef(str(path)), "no detector files (*.yaml, *.yml) in this directory")
        for path in paths
        if path.is_dir() and not catalogue_files([path])
    ]


def _validate(args: argparse.Namespace) -> int:
    from sbcore.packs.errors import render_chains

    if args.paths:
        report = validate_sources([(CLI_PACK, path) for path in args.paths], validation_context())
        report.errors += installed_clashes(report.detectors)
        count, skipped = len(report.detectors), 0
    else:
        report, skipped = _validate_workspace(args)
        count = len(report.detectors)
    errors = list(report.errors)
    warnings = report.warnings
    if args.strict:
        errors += [chain.as_error() for chain in warnings]
        warnings = []
    shown = [*errors, *warnings]
    if shown:
        print(render_chains(shown), end="\n\n")
    if errors or skipped:
        files = len({chain.source.path for chain in errors})
        summary = [f"{_count(len(errors), 'error')} in {_count(files, 'file')}"] if errors else []
        if skipped:
            summary.append(f"{_count(skipped, 'pack')} skipped (named on stderr)")
        print("; ".join(summary))
        return 1
    suffix = f" ({_count(len(warnings), 'warning')})" if warnings else ""
    print(f"{_count(count, 'detector')} OK{suffix}")
    return 0


def _validate_workspace(args: argparse.Namespace) -> tuple[ValidationReport, int]:
    """What ``detectors list`` loads, as one report: (report, number of packs that failed to load).

    Layer problems and override refusals are errors here (``list`` degrades
    past them; ``validate`` exists to catch them), and so is an override that a
    higher layer hides today or that waits for the workspace to be trusted.
    A broken ``catalogue.file`` is an error too, where the running observer
    only warns and falls back.
    """
    from sbcore.packs.layer_problems import layer_override_chains

    manager, config, catalogue = _effective(args)
    report = ValidationReport(detectors=[detector.definition for detector in catalogue.detectors])
    replacement = config.catalogue_file()
    fell_back = replacement is not None and catalogue.source == "packs"
    problems = _problems(config, catalogue)
    seen = {(str(chain.source), chain.key, chain.problem) for chain in problems}
    for chain in layer_override_chains(manager, config):
        if (str(chain.source), chain.key, chain.problem) not in seen:
            seen.add((str(chain.source), chain.key, chain.problem))
            problems.append(chain)
    for chain in problems:
        in_replacement = fell_back and (
            chain.key == "catalogue.file" or chain.source.path.startswith(str(replacement))
        )
        if chain.severity == "error" or in_replacement:
            report.errors.append(chain.as_error())
        else:
            report.warnings.append(chain)
    return report, len(manager.broken)


def installed_clashes(detectors: Sequence[DetectorDef]) -> list[ErrorChain]:
    """An id in the files given by path that an installed pack already defines (in another file)."""
    from sbcore.packs.errors import ErrorChain

    installed = {
        detector.id: detector
        for detector in validate_sources(effective_sources(), installed_context()).detectors
    }
    clashes = []
    for detector in detectors:
        other = installed.get(detector.id)
        if other is None or _same_file(Path(other.source.path), Path(detector.source.path)):
            continue
        clashes.append(
            ErrorChain(
                source=detector.source,
                detector=detector.id,
                key="id",
                problem=(
                    f"detector id {detector.id!r} is already used by installed pack {other.pack!r} "
                    f"at {other.source}"
                ),
                hint=(
                    "ids are unique across installed packs and the workspace: rename this detector; "
                    f"to change pack {other.pack!r}'s detector instead, override its fields "
                    f"(second-brain config set detectors.{detector.id}.<field> VALUE)"
                ),
            )
        )
    return clashes


def _same_file(installed: Path, given: Path) -> bool:
    """Whether ``given`` is the installed file itself, or its source in the pack's checkout.

    A pack installed without ``-e`` is a copy in site-packages; its source then
    ends in the same package directory, catalogue directory and file name.
    """
    installed, given = installed.resolve(), given.resolve()
    return installed == given or installed.parts[-3:] == given.parts[-3:]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# -- schema ---------------------------------------------------------------------


def _register_schema(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = actions.add_parser(
        "schema",
        help="print a published JSON Schema (for editors and CI)",
        description=(
            "Print the JSON Schema of detector files (or of feedback_v1). With --path, print where the "
            "file is installed, for the yaml-language-server modeline."
        ),
    )
    parser.add_argument("name", nargs="?", default="detector", choices=["detector", "feedback_v1"])
    parser.add_argument("--path", action="store_true", help="print the schema file's path instead")
    parser.set_defaults(func=_schema)


def _schema(args: argparse.Namespace) -> int:
    import json

    from sbcore.schemas import load_schema, schema_path

    if args.path:
        print(schema_path(args.name))
    else:
        print(json.dumps(load_schema(args.name), indent=2))
    return 0


# -- list / show (the effective catalogue: packs, catalogue.file, workspace detectors, overrides) ------


def _register_list(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = actions.add_parser(
        "list",
        help="list the detectors in force: pack, enabled, status, source",
        description=(
            "List the effective catalogue for a workspace: every detector with its pack, whether it is "
            "enabled (and which configuration layer decided), its status and where it is defined. "
            "Problems (broken packs, invalid files or overrides) go to stderr; exits 1 if there is an error."
        ),
    )
    _workspace_argument(parser)
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object (detectors, packs, problems)"
    )
    parser.add_argument(
        "--packs", action="store_true", help="list the installed packs (version, hooks) instead of detectors"
    )
    parser.set_defaults(func=_list)


def _register_show(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = actions.add_parser(
        "show",
        help="show one detector's effective definition and the layer each field came from",
        description=(
            "Print a detector's effective definition as YAML, each field annotated with its layer: "
            "the pack, catalogue.file, workspace detectors, or the global/workspace/local configuration."
        ),
    )
    parser.add_argument("detector_id", metavar="ID", help="detector id, e.g. repeat-failure")
    _workspace_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the fields and their layers as JSON")
    parser.set_defaults(func=_show)


def _workspace_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workspace",
        type=Path,
        metavar="DIR",
        help="the workspace whose configuration applies (default: the one the current directory is in)",
    )


def _effective(args: argparse.Namespace) -> tuple[PackManager, EffectiveConfig, EffectiveCatalogue]:
    """(manager, config, catalogue) for the workspace the arguments name."""
    from sbcore.cli.config import quiet_library_log
    from sbcore.config import find_workspace, load_config
    from sbcore.packs.catalogue import assemble_catalogue

    quiet_library_log()
    workspace = args.workspace or find_workspace(Path.cwd())
    manager = _plugin_manager()
    config = load_config(workspace)
    return manager, config, assemble_catalogue(manager, workspace=workspace, config=config)


def _problems(config: EffectiveConfig, catalogue: EffectiveCatalogue) -> list[ErrorChain]:
    """Everything wrong with what the workspace loads: skipped configuration layers, then the catalogue."""
    from sbcore.packs.layer_problems import config_chains
    from sbcore.packs.listing import shown_problems

    return config_chains(config) + shown_problems(catalogue)


def _print_problems(problems: Sequence[ErrorChain]) -> bool:
    """Problems on stderr, before anything else is printed; whether any is an error."""
    from sbcore.packs.errors import render_chains

    if problems:
        print(render_chains(problems), end="\n\n", file=sys.stderr)
    return any(chain.severity == "error" for chain in problems)


def _list(args: argparse.Namespace) -> int:
    import json

    from sbcore.packs.listing import catalogue_report, detector_row, render_packs, render_table

    if args.packs and not args.json:
        manager = _plugin_manager()
        print(render_packs(manager))
        return 1 if manager.broken else 0
    from sbcore.cli.trust_view import about_detector, render_trust

    manager, config, catalogue = _effective(args)
    problems = _problems(config, catalogue)
    failed = any(chain.severity == "error" for chain in problems) or bool(manager.broken)
    trust = config.trust.to_json() if config.trust is not None and config.trust.needed else None
    if args.json:
        from sbcore.conductor.provenance import provenance

        shown = [item.definition for item in catalogue.detectors]
        report = provenance(shown, config) | catalogue_report(catalogue, manager, problems) | {"trust": trust}
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 1 if failed else 0
    _print_problems(problems)
    print(render_table([detector_row(detector) for detector in catalogue.detectors]))
    if catalogue.source != "packs":
        print(f"(catalogue in force: {catalogue.source})")
    for line in render_trust(trust, about_detector()):
        print(line)
    if problems:
        print(f"({_count(len(problems), 'problem')}: printed above the table)", file=sys.stderr)
    return 1 if failed else 0


def _show(args: argparse.Namespace) -> int:
    import difflib

    from sbcore.packs.listing import definition_json, field_values, render_definition

    _manager, config, catalogue = _effective(args)
    from sbcore.packs.layer_problems import config_chains

    layer_problems = config_chains(config)
    detector = catalogue.get(args.detector_id)
    related = [chain for chain in catalogue.problems if chain.detector == args.detector_id]
    failed = any(chain.severity == "error" for chain in [*layer_problems, *related])
    if not args.json:
        _print_problems([*layer_problems, *related])
    if detector is None:
        ids = [d.id for d in catalogue.detectors]
        close = difflib.get_close_matches(args.detector_id, ids, n=1)
        hint = f"did you mean {close[0]!r}?" if close else "`second-brain detectors list` shows the ids"
        print(f"no detector {args.detector_id!r} in the catalogue in force; {hint}", file=sys.stderr)
        return 1
    fields = field_values(detector, lambda knob: config.get(knob, None))
    print(definition_json(detector, fields) if args.json else render_definition(detector, fields))
    if not args.json and config.trust is not None:
        from sbcore.cli.trust_view import about_detector, render_trust

        for line in render_trust(config.trust.to_json(), about_detector(detector.id)):
            print(line)
    return 1 if failed else 0
