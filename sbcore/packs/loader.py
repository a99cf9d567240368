"""Load detector YAML files into DetectorDefs, reporting every problem at once.

Validation runs in three steps, each feeding the same list of error chains:

1. YAML: syntax, one mapping, string keys, JSON-compatible values, no
   duplicate keys (yamlpos), then the schema_version gate — a file written for
   another format version is not checked further, since the rest would be noise.
2. The published JSON Schema (schemas/detector.schema.json): every error, in
   jsonschema's best_match order, each mapped back to its key's line.
3. Cross-checks the schema cannot express: templates compile in the sandbox
   and use only declared inputs; prompt_file exists; granted tools exist;
   the trigger is registered and its params validate; a schema extension adds
   to feedback_v1 without redefining it; config satisfies config_schema.
   Keys that already failed the schema are not cross-checked again.

This module reads the files and does step 1; steps 2 and 3 are :mod:`sbcore.packs.detector_checks`.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from jinja2.sandbox import SandboxedEnvironment

from sbcore.packs.detector_checks import DETECTOR_SUFFIXES, CheckContext, DetectorChecker, Warn
from sbcore.packs.errors import CatalogueError, ErrorChain, duplicate_error, format_key
from sbcore.packs.model import DetectorDef, SourceRef
from sbcore.packs.templates import default_environment
from sbcore.safefile import read_regular_text
from sbcore.safeyaml import MAX_YAML_CHARS, YamlLimitError
from sbcore.schemas import yamlpos

__all__ = [
    "CatalogueError",
    "catalogue_files",
    "load_catalogue",
    "load_detector_file",
    "validate_detector_data",
]

log = logging.getLogger(__name__)


def _log_warning(chain: ErrorChain) -> None:
    log.warning("%s", chain.render())


def _context(
    pack: str,
    known_tools: Collection[str],
    triggers: Mapping[str, dict[str, Any] | None] | None,
    mcp_servers: Collection[str] | None,
    environment: SandboxedEnvironment | None,
    on_warning: Warn | None,
) -> CheckContext:
    return CheckContext(
        pack=pack,
        known_tools=frozenset(known_tools),
        triggers=dict(triggers or {}),
        mcp_servers=None if mcp_servers is None else frozenset(mcp_servers),
        environment=environment or default_environment(),
        on_warning=on_warning or _log_warning,
    )


def load_detector_file(
    path: Path | str,
    *,
    pack: str,
    known_tools: Collection[str] = (),
    triggers: Mapping[str, dict[str, Any] | None] | None = None,
    mcp_servers: Collection[str] | None = None,
    environment: SandboxedEnvironment | None = None,
    on_warning: Warn | None = None,
) -> DetectorDef:
    """Load and fully validate one detector file; raises CatalogueError with every problem found.

    ``known_tools`` are tool ids registered by packs (Read/Grep/Glob/Run are always
    known); ``triggers`` maps registered trigger names to their params schema (or
    None); ``mcp_servers``, when given, are the configured MCP server names a grant
    may name. ``on_warning`` receives problems that do not stop the detector from
    loading (by default they are logged).
    """
    ctx = _context(pack, known_tools, triggers, mcp_servers, environment, on_warning)
    detector, chains = _load_file(Path(path), ctx)
    if detector is None:
        raise CatalogueError(chains)
    return detector


def load_catalogue(
    paths: Iterable[Path | str],
    *,
    pack: str,
    known_tools: Collection[str] = (),
    triggers: Mapping[str, dict[str, Any] | None] | None = None,
    mcp_servers: Collection[str] | None = None,
    environment: SandboxedEnvironment | None = None,
    on_warning: Warn | None = None,
) -> list[DetectorDef]:
    """Load every detector file under ``paths`` (files, or directories of ``*.yaml``/``*.yml``).

    All files are checked before anything is raised, so one CatalogueError
    carries every problem of every file, duplicate ids included.
    """
    ctx = _context(pack, known_tools, triggers, mcp_servers, environment, on_warning)
    chains: list[ErrorChain] = []
    loaded: list[DetectorDef] = []
    first_of: dict[str, DetectorDef] = {}
    for path in _expand(paths, chains):
        detector, problems = _load_file(path, ctx)
        chains.extend(problems)
        if detector is None:
            continue
        if detector.id in first_of:
            chains.append(duplicate_error(detector.id, first_of[detector.id], detector))
            continue
        first_of[detector.id] = detector
        loaded.append(detector)
    if chains:
        raise CatalogueError(chains, loaded=loaded)
    return loaded


def catalogue_files(paths: Iterable[Path | str]) -> list[Path]:
    """The detector files ``load_catalogue`` would read: files as given, directories' YAML sorted by name."""
    return list(_expand(paths, []))


def validate_detector_data(
    data: Mapping[str, Any],
    *,
    source: SourceRef,
    pack: str,
    known_tools: Collection[str] = (),
    triggers: Mapping[str, dict[str, Any] | None] | None = None,
    mcp_servers: Collection[str] | None = None,
    environment: SandboxedEnvironment | None = None,
    on_warning: Warn | None = None,
) -> DetectorDef:
    """Validate an already-parsed document (e.g. a definition with configuration overrides applied).

    ``source`` names the file the document came from; prompt_file resolves
    against its directory. Without the YAML text there are no key lines, so
    chains point at ``source``.
    """
    ctx = _context(pack, known_tools, triggers, mcp_servers, environment, on_warning)
    located = yamlpos.Located(data=copy.deepcopy(dict(data)), start_line=source.line or 1)
    detector, chains = DetectorChecker(Path(source.path), located, ctx).run()
    if detector is None:
        raise CatalogueError(chains)
    return detector


def _expand(paths: Iterable[Path | str], chains: list[ErrorChain]) -> Iterator[Path]:
    for entry in paths:
        path = Path(entry)
        if path.is_dir():
            yield from sorted(p for p in path.iterdir() if p.suffix in DETECTOR_SUFFIXES and p.is_file())
        elif path.exists():
            yield path
        else:
            chains.append(ErrorChain(SourceRef(str(path)), "no such file or directory"))


def _load_file(path: Path, ctx: CheckContext) -> tuple[DetectorDef | None, list[ErrorChain]]:
    here = SourceRef(str(path))
    try:
        text = read_regular_text(path, max_bytes=MAX_YAML_CHARS)  # a FIFO is refused, never opened
    except UnicodeDecodeError as exc:
        return None, [ErrorChain(here, f"not UTF-8 text ({exc.reason} at byte {exc.start})")]
    except OSError as exc:
        return None, [ErrorChain(here, f"cannot read: {exc.strerror or exc}")]
    try:
        located = yamlpos.load(text)
    except yamlpos.YamlSyntaxError as exc:
        return None, [
            ErrorChain(
                SourceRef(str(path), exc.line),
                f"invalid YAML: {exc.message}",
                hint="detector files are small: use fewer anchors and aliases, or write the values out"
                if isinstance(exc.__cause__, YamlLimitError)
                else "check the indentation and quoting on this line and the ones just above it",
            )
        ]
    if located.problems:
        return None, [
            ErrorChain(
                SourceRef(str(path), problem.line),
                problem.message,
                detector=located.top_scalars.get("id") or None,
                key=format_key(problem.path) or None,
                hint=problem.hint,
            )
            for problem in located.problems
        ]
    return DetectorChecker(path, located, ctx).run()
