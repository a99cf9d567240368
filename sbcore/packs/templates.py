"""The one Jinja environment detector templates are checked and rendered with.

Templates come from third-party packs and from workspaces, so they run in
Jinja's immutable sandbox (no unsafe attribute access, no mutating the config
dicts shared across passes) with StrictUndefined (a typo is an error, not an
empty string in a prompt). The loader checks templates against the same
environment that renders them, so pack filters count in both places.

The sandbox keeps a template away from Python's internals, not from the CPU or
memory: ``{{ 9 ** 9 ** 9 }}`` is folded by Jinja's optimizer while the template
compiles (loading a catalogue hangs), ``{{ 'x' * 10 ** 10 }}`` or a width given
to ``center`` asks for gigabytes, nested loops over ``range`` run for hours. So
:class:`BoundedSandbox` also bounds what a template computes: powers and
repetitions whose result would be too large are refused (and, being
intercepted, never folded at compile time), so is a size argument over
:data:`MAX_SIZE_ARGUMENT` to a filter that builds text from it, and
:func:`render` stops a rendering that outlives :data:`RENDER_SECONDS` or
produces more than :data:`MAX_OUTPUT_CHARS`. Each refusal is a Jinja
``SecurityError`` naming what was refused, reported like any template error
(file, line, key).
"""

from __future__ import annotations

import difflib
import math
import re
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from string import Formatter
from typing import Any

from jinja2 import StrictUndefined, Template, TemplateSyntaxError, meta, nodes
from jinja2.exceptions import SecurityError
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedEnvironment

from sbcore.timebound import PatternTimeout, time_bound

# The only variables a template may use (see docs/detector-authoring.md).
PROMPT_INPUTS = frozenset({"detector", "config", "budget", "grant", "open_advisories", "match"})
FALLBACK_INPUTS = frozenset({"detector", "config", "match"})

Prepare = Callable[[SandboxedEnvironment], object]

MAX_RESULT_BITS = 4096
"""The largest number a power may produce (about 1,200 digits): far past any count a prompt needs."""
MAX_REPEAT_SIZE = 100_000
"""The longest string or list a ``*`` repetition may produce."""
MAX_SIZE_ARGUMENT = 10_000
"""The largest width, count or length a template may pass to a filter that builds text or lists from it."""
MAX_OUTPUT_CHARS = 200_000
"""The longest text one rendering may produce (a prompt is a few thousand characters)."""
RENDER_SECONDS = 1.0
"""How long one rendering may run."""

# Built-in filters whose numeric arguments size what they build (`center(width)`, `indent(width)`, ...).
_SIZED_FILTERS = frozenset(
    {"center", "indent", "truncate", "wordwrap", "batch", "slice", "replace", "format"}
)


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """The immutable sandbox, with what a template computes bounded (see the module docstring)."""

    intercepted_binops = frozenset({"**", "*", "%"})

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        if operator == "**":
            _check_power(left, right)
        elif operator == "*":
            _check_repeat(left, right)
        elif operator == "%":
            _check_printf(left, right)
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        # A string's or a list's own method sized by a number (`ljust`, `zfill`, `expandtabs`, `center`)
        # builds its result in one C call, which no time bound interrupts: the number is bounded instead.
        if isinstance(getattr(__obj, "__self__", None), str | bytes | list | tuple):
            _check_sizes(f"method {getattr(__obj, '__name__', '?')!r}", args, kwargs)
        return super().call(__context, __obj, *args, **kwargs)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        wrapper = super().wrap_str_format(value)
        if wrapper is None:
            return None
        template: str = value.__self__
        is_format_map = value.__name__ == "format_map"

        def bounded(*args: Any, **kwargs: Any) -> str:
            fields = args[0] if is_format_map and len(args) == 1 else kwargs
            _check_format_fields(template, args if not is_format_map else (), fields)
            return wrapper(*args, **kwargs)

        return bounded


def _check_power(base: Any, exponent: Any) -> None:
    if isinstance(base, bool) or isinstance(exponent, bool) or not isinstance(base, int | float):
        return
    if not isinstance(exponent, int | float) or exponent <= 1 or abs(base) <= 1:
        return
    if exponent * math.log2(abs(base)) > MAX_RESULT_BITS:
        raise SecurityError(f"the power {base!r} ** {exponent!r} is too large for a template to compute")


def _check_repeat(left: Any, right: Any) -> None:
    for sequence, count in ((left, right), (right, left)):
        counted = isinstance(count, int) and not isinstance(count, bool)
        if isinstance(sequence, str | list | tuple) and counted and len(sequence) * count > MAX_REPEAT_SIZE:
            raise SecurityError(
                f"repeating a {type(sequence).__name__} of {len(sequence)} {count} times is too large "
                f"for a template (over {MAX_REPEAT_SIZE:,})"
            )
    both_ints = isinstance(left, int) and isinstance(right, int)
    if both_ints and left.bit_length() + right.bit_length() > MAX_RESULT_BITS:
        raise SecurityError("a product too large for a template to compute")


def _check_sizes(what: str, args: Iterable[Any], kwargs: Mapping[str, Any]) -> None:
    """Refuse a numeric argument over :data:`MAX_SIZE_ARGUMENT` (a width, a count)."""
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_SIZE_ARGUMENT:
            raise SecurityError(f"{what}: {value:,} is over the largest size a template may ask for")


# A printf-style conversion's width and precision: digits, or `*` (taken from the arguments).
_PRINTF_SIZES = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")
_DIGITS = re.compile(r"\d+")


def _check_printf(template: Any, arguments: Any) -> None:
    """Refuse a ``%`` format whose width or precision (written, or a ``*`` argument) is too large."""
    if not isinstance(template, str | bytes):
        return
    text = template.decode("latin-1") if isinstance(template, bytes) else template
    for found in _PRINTF_SIZES.finditer(text):
        sizes = [size for size in found.groups() if size]
        if "*" in sizes:
            values = arguments if isinstance(arguments, tuple) else (arguments,)
            _check_sizes("a '%' format's '*' size", values, {})
        _check_spec(" ".join(size for size in sizes if size != "*"), "a '%' format")


def _check_format_fields(template: str, args: Iterable[Any], fields: Any) -> None:
    """Refuse a ``str.format`` field whose width or precision is too large; a size given as a nested
    field (``{:>{}}``) is checked among the arguments."""
    try:
        parsed = list(Formatter().parse(template))
    except ValueError:
        return  # the call itself raises it
    for _, _, spec, _ in parsed:
        if not spec:
            continue
        if "{" in spec:
            values = fields.values() if isinstance(fields, Mapping) else ()
            _check_sizes("a format field's nested size", (*args, *values), {})
        _check_spec(spec, "a format field")


def _check_spec(spec: str, what: str) -> None:
    for digits in _DIGITS.findall(spec):
        if len(digits) > 6 or int(digits) > MAX_SIZE_ARGUMENT:
            raise SecurityError(f"{what} asks for a size of {digits}, over what a template may ask for")


def _sized(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` refusing a numeric argument over :data:`MAX_SIZE_ARGUMENT` (a width, a count); the
    ``format`` filter's own format string is bounded as the ``%`` operator's is."""

    def bounded(*args: Any, **kwargs: Any) -> Any:
        _check_sizes(f"filter {name!r}", args[1:], kwargs)
        if name == "format" and args:
            _check_printf(args[0], tuple(args[1:]))
        return function(*args, **kwargs)

    for attribute in ("jinja_pass_arg",):  # Jinja reads how to call a filter from this marker
        if hasattr(function, attribute):
            setattr(bounded, attribute, getattr(function, attribute))
    return bounded


def make_environment(prepare: Prepare | None = None) -> ImmutableSandboxedEnvironment:
    """A fresh sandboxed environment; ``prepare`` lets packs add filters, tests and globals.

    The plugin manager passes a callback that calls the
    ``prepare_jinja2_environment`` hook of every pack.
    """
    env = BoundedSandbox(
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    sized = {name: _sized(name, env.filters[name]) for name in _SIZED_FILTERS if name in env.filters}
    env.filters.update(sized)
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
    problems.extend(_oversized_constants(ast))
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


def _oversized_constants(ast: nodes.Template) -> Iterator[TemplateProblem]:
    """A power, repetition or ``%`` format of constants that rendering would refuse, found while loading,
    at its line."""
    for node in ast.find_all((nodes.Pow, nodes.Mul, nodes.Mod)):
        try:
            _bounded_const(node)
        except SecurityError as exc:
            yield TemplateProblem(node.lineno, f"template computes too much: {exc.message}", _TOO_MUCH)
        except nodes.Impossible:
            continue


_TOO_MUCH = (
    "a template builds text for a prompt or an advisory; compute large values in a pack's filter instead"
)


def _bounded_const(node: nodes.Node) -> Any:
    """The value of a constant expression of powers, products and ``%`` formats, computed under the render
    bounds."""
    if isinstance(node, nodes.Const):
        return node.value
    if isinstance(node, nodes.Pow | nodes.Mul | nodes.Mod):
        left, right = _bounded_const(node.left), _bounded_const(node.right)
        if isinstance(node, nodes.Pow):
            _check_power(left, right)
            return left**right
        if isinstance(node, nodes.Mod):
            _check_printf(left, right)
            return left % right
        _check_repeat(left, right)
        return left * right
    raise nodes.Impossible()


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
    return render_bounded(template, inputs)


def render_bounded(template: Template, inputs: dict[str, Any]) -> str:
    """Render ``template``, stopping it past :data:`RENDER_SECONDS` or :data:`MAX_OUTPUT_CHARS`."""
    parts: list[str] = []
    size = 0
    try:
        with time_bound(RENDER_SECONDS, "a detector template"):
            for part in template.generate(**inputs):
                size += len(part)
                if size > MAX_OUTPUT_CHARS:
                    raise SecurityError(f"the template produced more than {MAX_OUTPUT_CHARS:,} characters")
                parts.append(part)
    except PatternTimeout:
        raise SecurityError(f"the template ran longer than {RENDER_SECONDS:g} s and was stopped") from None
    return "".join(parts)
