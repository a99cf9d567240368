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
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jinja2.sandbox import SandboxedEnvironment

    from sbcore.packs.errors import ErrorChain
    from sbcore.packs.model import DetectorDef

CLI_PACK = "cli"
BUILTIN_PACK = "builtin"


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
            "Without PATH, validates the catalogue in force. Prints every problem found; "
            "exits 1 if there is any."
        ),
    )
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

    Until the plugin manager supplies registrations this is the built-ins
    only: Read/Grep/Glob/Run, no pack tools, no triggers, MCP servers unchecked.
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
    """(pack, path) pairs of the catalogue in force: for now the built-in catalogue directory."""
    from importlib import resources

    root = resources.files("sbcore.catalogue")
    if not isinstance(root, Path):  # a zipped install: YAML files are not on disk
        raise RuntimeError("the built-in catalogue is not on the filesystem; install sbcore unzipped")
    return [(BUILTIN_PACK, root)]


def validation_context() -> ValidationContext:
    return ValidationContext()


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
            continue
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

    sources = [(CLI_PACK, path) for path in args.paths] if args.paths else effective_sources()
    report = validate_sources(sources, validation_context())
    errors = list(report.errors)
    warnings = report.warnings
    if args.strict:
        errors += [chain.as_error() for chain in warnings]
        warnings = []
    shown = [*errors, *warnings]
    if shown:
        print(render_chains(shown), end="\n\n")
    if errors:
        files = len({chain.source.path for chain in errors})
        print(f"{_count(len(errors), 'error')} in {_count(files, 'file')}")
        return 1
    suffix = f" ({_count(len(warnings), 'warning')})" if warnings else ""
    print(f"{_count(len(report.detectors), 'detector')} OK{suffix}")
    return 0


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
