"""Building the plugin manager: every pack loaded in its own guard.

:func:`get_plugin_manager` is a factory (nothing happens at import), so tests
and tools build a fresh manager with exactly the packs they want. Each entry
point of the ``sbcore`` group goes through the same steps, and a failure at any
step marks that one pack broken, names it, and skips it:

1. import the entry point's object;
2. register it with pluggy (which rejects hookimpls whose arguments the spec
   does not have);
3. ``check_pending()``: a function marked ``@hookimpl`` whose name is not a
   hook (a misspelling) is an error, not silence;
4. call each of its hooks on its own, with callbacks that validate every
   registration, and its ``prepare_jinja2_environment`` on a scratch
   environment;
5. merge what it registered, unless a name is already taken by another pack
   (the message names both).

A broken pack is a :class:`PackWarning` and an entry in ``broken``; with
``strict`` it is a :class:`PackError` instead. The built-in packs (entry points
of the ``sbcore`` distribution itself) load first, then the others in name
order, so which of two clashing packs is skipped does not depend on install
order.

Switches (each argument wins over its environment variable):

- ``strict`` / ``SBCORE_STRICT_PACKS=1``: a broken pack is fatal;
- ``autoload`` / ``SBCORE_DISABLE_PLUGIN_AUTOLOAD=1``: with autoload off only
  the built-in packs load, plus any third-party pack named in ``only``;
- ``only`` / ``SBCORE_PACKS=a,b``: load the built-in packs and, of the
  third-party packs, only these. Built-in packs always load: to replace their
  detectors use ``catalogue.file``, to turn one off ``detectors.<id>.enabled``.
"""

from __future__ import annotations

import difflib
import os
import re
import traceback
import warnings
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from importlib import metadata

import pluggy
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedEnvironment

from sbcore.packs import hookspecs
from sbcore.packs.hookspecs import PROJECT_NAME
from sbcore.packs.registry import Contributions, Registry
from sbcore.packs.templates import make_environment
from sbcore.problems import SbcoreError

ENTRY_POINT_GROUP = PROJECT_NAME
BUILTIN_DISTRIBUTION = "sbcore"
ENV_STRICT = "SBCORE_STRICT_PACKS"
ENV_DISABLE_AUTOLOAD = "SBCORE_DISABLE_PLUGIN_AUTOLOAD"
ENV_PACKS = "SBCORE_PACKS"

_TRUE = frozenset({"1", "true", "yes", "on"})
HOOK_NAMES: list[str] = sorted(
    name
    for name, value in vars(hookspecs).items()
    if callable(value) and hasattr(value, f"{PROJECT_NAME}_spec")
)
"""The hooks a pack may implement (for a did-you-mean under a misspelt one)."""
_REGISTER_HOOKS: tuple[tuple[str, str], ...] = (
    ("register_catalogues", "register_catalogue"),
    ("register_triggers", "register_trigger"),
    ("register_tools", "register_tool"),
    ("register_providers", "register_provider"),
    ("register_mcp_servers", "register_mcp_server"),
)


class PackError(SbcoreError):
    """A pack could not be loaded and strict mode is on; ``pack`` names it."""

    def __init__(self, pack: str, message: str) -> None:
        self.pack = pack
        super().__init__(message)


class PackWarning(UserWarning):
    """A pack was skipped because it is broken (non-strict mode)."""


@dataclass(frozen=True)
class BrokenPack:
    """A pack that was skipped: which pack (entry point, distribution), at which step, why, and the fix.

    ``str()`` is what a person reads (the CLI and the :class:`PackWarning`
    print it): the pack, the step in words, the error, and what to do, with
    no Python source line. ``stage`` stays the short machine name.
    """

    name: str
    stage: str  # import | register | hookimpl | hook <name> | conflict | not installed
    error: str
    entry_point: str | None = None  # the entry point's value, ``module:object``
    distribution: str | None = None  # "name version" of the installed distribution declaring it
    frame: str | None = None  # ``file:line in function``: the pack's own code where it raised
    missing: str | None = None  # the module a ModuleNotFoundError named

    @property
    def step(self) -> str:
        """The loading step that failed, in words."""
        if self.stage == "import":
            target = f" {self.entry_point}" if self.entry_point else ""
            return f"importing its entry point module{target}"
        if self.stage.startswith("hook "):
            return f"calling its hook {self.stage.removeprefix('hook ')}"
        return _STEPS.get(self.stage, self.stage)

    @property
    def hint(self) -> str:
        """What to do about it."""
        check = f"then check it with `second-brain pack test {self.name}`"
        if self.stage == "import":
            module = (self.entry_point or "").split(":")[0]
            if self.missing is not None and not (
                module == self.missing or module.startswith(f"{self.missing}.")
            ):
                return (
                    f"the pack imports {self.missing}, which is not installed: install it, and list it "
                    f"among the pack's dependencies in its pyproject.toml; {check}"
                )
            if self.missing is None:
                where = f" at {self.frame}" if self.frame else ""
                return f"the pack's own code raised this while it was imported{where}: fix it there; {check}"
            dist = (self.distribution or "").split(" ")[0]
            reinstall = f"pip install --force-reinstall {dist}" if dist else "reinstall the pack"
            return (
                f"{reinstall} (or fix the entry point `{self.name} = {self.entry_point or '...'}` "
                f'under [project.entry-points."{ENTRY_POINT_GROUP}"] in its pyproject.toml); {check}'
            )
        if self.stage in ("register", "hookimpl"):
            unknown = re.search(r"unknown hook '([^']+)'", self.error)
            close = (
                difflib.get_close_matches(unknown.group(1), HOOK_NAMES, n=1, cutoff=0.8) if unknown else []
            )
            return (
                (f"did you mean {close[0]!r}? " if close else "")
                + "each @hookimpl function must be named like a hook of sbcore.api and take only its "
                f"arguments (docs/pack-authoring.md lists them); {check}"
            )
        if self.stage.startswith("hook "):
            return f"fix the error the pack's {self.stage.removeprefix('hook ')} raises; {check}"
        if self.stage == "conflict":
            return "names are unique across installed packs: rename one, or uninstall one of the two packs"
        return f"install the pack, or remove its name from {ENV_PACKS}"

    def __str__(self) -> str:
        origin = f" (distribution {self.distribution})" if self.distribution else ""
        at = f"\n  at: {self.frame}" if self.frame else ""
        return f"pack {self.name!r}{origin}: {self.step} failed: {self.error}{at}\n  fix: {self.hint}"


_STEPS: dict[str, str] = {
    "register": "registering it with pluggy",
    "hookimpl": "checking its @hookimpl functions against sbcore's hooks",
    "conflict": "merging what it registered with the other packs",
    "not installed": "finding it among the installed packs",
}


@dataclass(frozen=True)
class PackInfo:
    """A loaded pack, as ``detectors list --packs`` and ``list_packs()`` report it."""

    name: str
    version: str | None
    distribution: str | None
    builtin: bool
    hooks: tuple[str, ...]
    registered: dict[str, int]


@dataclass(frozen=True)
class _Origin:
    distribution: str | None
    version: str | None
    builtin: bool


class PackManager(pluggy.PluginManager):
    """A pluggy manager that knows what each pack registered, and which packs it skipped."""

    def __init__(self, *, strict: bool = False) -> None:
        super().__init__(PROJECT_NAME)
        self.add_hookspecs(hookspecs)
        self.strict = strict
        self.registry = Registry()
        self.broken: list[BrokenPack] = []
        self._origins: dict[str, _Origin] = {}

    # -- loading -----------------------------------------------------------------

    def load_entry_points(
        self,
        entry_points: Iterable[metadata.EntryPoint],
        *,
        autoload: bool = True,
        only: Collection[str] | None = None,
    ) -> None:
        """Load the built-in entry points, then the selected third-party ones, each in its own guard."""
        points = list(entry_points)
        builtin = sorted((ep for ep in points if _is_builtin(ep)), key=lambda ep: ep.name)
        others = sorted((ep for ep in points if not _is_builtin(ep)), key=lambda ep: ep.name)
        wanted = None if only is None else set(only)
        if wanted is None and not autoload:
            wanted = set()
        for ep in builtin:
            self._load_entry_point(ep, builtin=True)
        for ep in others:
            if wanted is None or ep.name in wanted:
                self._load_entry_point(ep, builtin=False)
        available = {ep.name for ep in points}
        for name in sorted((wanted or set()) - available):
            self._fail(
                name, "not installed", f"{ENV_PACKS} (or only=) names it, but no such pack is installed"
            )

    def _load_entry_point(self, ep: metadata.EntryPoint, *, builtin: bool) -> None:
        dist = getattr(ep, "dist", None)
        origin = _Origin(dist.name if dist else None, dist.version if dist else None, builtin)
        if ep.name in self._origins:
            first = self._origins[ep.name].distribution or "an earlier entry point"
            self._fail(
                ep.name,
                "register",
                f"the pack name is declared by both {first} and {origin.distribution or ep.value}",
            )
            return
        self._admit(ep.name, ep.load, origin, ep.value)

    def add_pack(self, name: str, plugin: object, *, builtin: bool = False) -> bool:
        """Load an already imported pack object in a guard; returns whether it loaded.

        Tests and embedders use this to add a pack that has no installed
        distribution; entry points go through the same path.
        """
        return self._admit(name, lambda: plugin, _Origin(None, None, builtin))

    def _admit(
        self, name: str, load: Callable[[], object], origin: _Origin, entry_point: str | None = None
    ) -> bool:
        def fail(stage: str, error: str, cause: BaseException | None = None) -> None:
            dist = f"{origin.distribution} {origin.version or ''}".strip() if origin.distribution else None
            missing = cause.name if isinstance(cause, ModuleNotFoundError) else None
            frame = _pack_frame(cause) if cause is not None and stage != "hookimpl" else None
            self._report(BrokenPack(name, stage, error, entry_point, dist, frame, missing), cause)

        if name in self._origins or self.has_plugin(name):
            fail("register", "a pack of this name is already loaded")
            return False
        stage = "import"
        try:
            plugin = load()
            stage = "register"
            self.register(plugin, name=name)
        except Exception as exc:  # whatever a pack's import raises is that pack's failure
            fail(stage, _describe(exc), exc)
            return False
        contributions = Contributions(pack=name)
        try:
            stage = "hookimpl"
            self.check_pending()
            for hook_name, method in _REGISTER_HOOKS:
                stage = f"hook {hook_name}"
                self._own_caller(hook_name, plugin)(register=getattr(contributions, method))
            stage = "hook prepare_jinja2_environment"
            self._own_caller("prepare_jinja2_environment", plugin)(env=make_environment())
        except Exception as exc:
            self.unregister(plugin)
            fail(stage, _describe(exc), exc)
            return False
        clashes = self.registry.conflicts(contributions)
        if clashes:
            self.unregister(plugin)
            fail("conflict", "; ".join(clashes))
            return False
        self.registry.merge(contributions)
        self._origins[name] = origin
        return True

    def _own_caller(self, hook_name: str, plugin: object) -> pluggy.HookCaller:
        """A caller of ``hook_name`` limited to ``plugin``'s implementation."""
        others = [other for other in self.get_plugins() if other is not plugin]
        return self.subset_hook_caller(hook_name, remove_plugins=others)

    def _fail(self, name: str, stage: str, error: str, cause: BaseException | None = None) -> None:
        self._report(BrokenPack(name, stage, error), cause)

    def _report(self, broken: BrokenPack, cause: BaseException | None = None) -> None:
        """Raise (strict) or record and warn. The warning is attributed to the pack, not to a line of
        sbcore, so Python's warning display prints no source line of ours under the message."""
        if self.strict:
            raise PackError(broken.name, f"sbcore: {broken}") from cause
        self.broken.append(broken)
        warnings.warn_explicit(
            f"sbcore: skipping {broken}", PackWarning, filename=f"<sbcore pack {broken.name}>", lineno=0
        )

    # -- using it ----------------------------------------------------------------

    def prepare_environment(self, env: SandboxedEnvironment) -> None:
        """Let every loaded pack add filters/tests/globals to a template environment."""
        self.hook.prepare_jinja2_environment(env=env)

    def template_environment(self) -> ImmutableSandboxedEnvironment:
        """A fresh sandboxed environment with every pack's additions: the one templates use."""
        return make_environment(self.prepare_environment)

    def list_packs(self) -> list[PackInfo]:
        """The loaded packs, built-ins first, each with its version and the hooks it implements."""
        infos = []
        for name, origin in self._origins.items():
            plugin = self.get_plugin(name)
            callers = self.get_hookcallers(plugin) or []
            infos.append(
                PackInfo(
                    name=name,
                    version=origin.version,
                    distribution=origin.distribution,
                    builtin=origin.builtin,
                    hooks=tuple(sorted(caller.name for caller in callers)),
                    registered=self.registry.counts(name),
                )
            )
        return infos


def get_plugin_manager(
    *,
    strict: bool | None = None,
    autoload: bool | None = None,
    only: Collection[str] | None = None,
) -> PackManager:
    """A fresh manager with the installed packs loaded (see the module docstring for the switches)."""
    if strict is None:
        strict = _env_flag(ENV_STRICT)
    if autoload is None:
        autoload = not _env_flag(ENV_DISABLE_AUTOLOAD)
    if only is None:
        only = _env_list(ENV_PACKS)
    manager = PackManager(strict=strict)
    manager.load_entry_points(metadata.entry_points(group=ENTRY_POINT_GROUP), autoload=autoload, only=only)
    manager.check_pending()
    return manager


def _is_builtin(ep: metadata.EntryPoint) -> bool:
    dist = getattr(ep, "dist", None)
    return dist is not None and _canonical(dist.name) == BUILTIN_DISTRIBUTION


def _canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _pack_frame(exc: BaseException) -> str | None:
    """``file:line in function`` of the innermost frame of ``exc`` in the pack's code: not Python's
    import machinery, not sbcore, not pluggy; None when it never reached the pack's code."""
    ours = (os.path.dirname(os.path.dirname(__file__)), os.path.dirname(pluggy.__file__))
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        name = frame.filename
        if name.startswith("<frozen") or name.startswith(ours) or "importlib" in name:
            continue
        return f"{name}:{frame.lineno} in {frame.name}"
    return None


def _describe(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in _TRUE


def _env_list(name: str) -> list[str] | None:
    raw = os.environ.get(name, "")
    names = [part.strip() for part in raw.split(",") if part.strip()]
    return names or None
