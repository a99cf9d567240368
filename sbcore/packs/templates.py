"""The one Jinja environment detector templates are checked and rendered with.

Templates come from third-party packs and from workspaces, so they run in
Jinja's immutable sandbox (no unsafe attribute access, no mutating the config
dicts shared across passes) with StrictUndefined (a typo is an error, not an
empty string in a prompt). The loader checks templates against the same
environment that renders them, so pack filters count in both places.
"""

from __future__ import annotations

import difflib
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from jinja2 import StrictUndefined, Template, TemplateSyntaxError, meta, nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedEnvironment

# The only variables a template may use (see docs/detector-authoring.md).
PROMPT_INPUTS = frozenset({"detector", "config", "budget", "grant", "open_advisories", "match"})
FALLBACK_INPUTS = frozenset({"detector", "config", "match"})

Prepare = Callable[[SandboxedEnvironment], object]


def make_environment(prepare: Prepare | None = None) -> ImmutableSandboxedEnvironment:
    """A fresh sandboxed environment; ``prepare`` lets packs add filters, tests and globals.

    The plugin manager passes a callback that calls the
    ``prepare_jinja2_environment`` hook of every pack.
    """
    env = ImmutableSandboxedEnvironment(
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    if prepare is not None:
        prepare(env)
    return env


@cache
def default_environment() -> ImmutableSandboxedEnvironment:
    """The environment without any pack additions, built once."""
    return make_environment()


@dataclass(frozen=True)
class TemplateProblem:
    """A template that cannot be used: ``line`` counts from the template's first line."""

    line: int
    message: str
    hint: str | None = None


def check_template(
    source: str, allowed: Iterable[str], environment: SandboxedEnvironment | None = None
) -> list[TemplateProblem]:
    """Problems that would make ``source`` fail or misbehave at render time.

    Checks that it parses, that every filter and test exists (Jinja defers
    those inside conditionals to render time), and that it reads only the
    ``allowed`` inputs or the environment's globals.
    """
    env = environment or default_environment()
    try:
        ast = env.parse(source)
    except TemplateSyntaxError as exc:
        return [TemplateProblem(exc.lineno, f"template syntax error: {exc.message}")]
    unknown = list(_unknown_callables(ast, env))
    problems = [
        TemplateProblem(
            line,
            f"no {kind} named {name!r}",
            _typo(name, known)
            or f"{kind}s come from Jinja and from installed packs (prepare_jinja2_environment)",
        )
        for kind, name, line, known in unknown
    ]
    if unknown:
        # find_undeclared_variables compiles the template, which fails on an
        # unknown filter; stand-ins in an overlay (never the real environment)
        # let the variable check run anyway.
        probe = env.overlay()
        probe.filters, probe.tests = dict(env.filters), dict(env.tests)  # overlays share these dicts
        for kind, name, _, _ in unknown:
            (probe.filters if kind == "filter" else probe.tests)[name] = _stand_in
        ast = probe.parse(source)
    for node in ast.find_all((nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport)):
        problems.append(
            TemplateProblem(
                node.lineno,
                "templates cannot extend, include or import other templates",
                "detector templates are self-contained; a pack can add shared helpers as filters or "
                "globals through the prepare_jinja2_environment hook",
            )
        )
    allowed_names = sorted(set(allowed))
    try:
        undeclared = meta.find_undeclared_variables(ast) - set(allowed_names) - set(env.globals)
    except TemplateSyntaxError as exc:
        problems.append(TemplateProblem(exc.lineno, f"template error: {exc.message}"))
        undeclared = set()
    for name in sorted(undeclared):
        hint = _typo(name, allowed_names) or "templates may use only: " + ", ".join(allowed_names)
        problems.append(
            TemplateProblem(_first_use(ast, name), f"undeclared template variable {name!r}", hint)
        )
    return sorted(problems, key=lambda p: (p.line, p.message))


def _typo(name: str, choices: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(name, sorted(choices), n=1, cutoff=0.75)
    return f"Typo? did you mean {close[0]!r}?" if close else None


def _stand_in(value: Any, *args: Any, **kwargs: Any) -> Any:
    return value


def _unknown_callables(
    ast: nodes.Template, env: SandboxedEnvironment
) -> Iterator[tuple[str, str, int, Iterable[str]]]:
    """(kind, name, line, known names) for each filter or test the environment lacks."""
    for kind, node_type, known in (("filter", nodes.Filter, env.filters), ("test", nodes.Test, env.tests)):
        for node in ast.find_all(node_type):
            if node.name not in known:
                yield kind, node.name, node.lineno, known


def _first_use(ast: nodes.Template, name: str) -> int:
    lines = [node.lineno for node in ast.find_all(nodes.Name) if node.name == name and node.ctx == "load"]
    return min(lines, default=1)


_compiled: weakref.WeakKeyDictionary[SandboxedEnvironment, dict[str, Template]] = weakref.WeakKeyDictionary()


def render(template_source: str, /, *, environment: SandboxedEnvironment | None = None, **inputs: Any) -> str:
    """Render a detector template in the sandbox; compiled templates are cached per environment."""
    env = environment or default_environment()
    cache_for_env = _compiled.setdefault(env, {})
    template = cache_for_env.get(template_source)
    if template is None:
        template = env.from_string(template_source)
        if len(cache_for_env) >= 512:
            cache_for_env.clear()
        cache_for_env[template_source] = template
    return template.render(**inputs)
