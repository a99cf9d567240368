"""Second Brain core: a quiet, cheap observer for Claude Code sessions.

The package is laid out in floors, each importing only the floors below it
(``docs/architecture.md``; ``lint-imports`` checks them): ``paths``, ``schemas``
and ``state`` at the bottom, then ``observe``, ``config``, ``pace``, ``packs``,
``think`` and ``gate``, the hook process (``hooks``) and the pack authors'
face (``api``), the one pipeline (``conductor``), the drivers (``worker``,
``testing``), ``bench`` and ``cli``.

Importing ``sbcore`` loads nothing but this file: the hooks import
``sbcore.hooks`` on every tool call and must stay free of every dependency.
The names of :mod:`sbcore.api` (``from sbcore import hookimpl``) are therefore
reached lazily, on first use.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sbcore.api import *  # noqa: F403  (the public names are listed once, in sbcore.api)

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """``sbcore.hookimpl`` and the other names of :mod:`sbcore.api` (and ``__all__``): imported on first use.

    Two sorts of name are answered without importing it, since importing it loads pluggy: a submodule
    not imported yet (``from sbcore import hooks`` asks for the attribute before importing the module)
    and a dunder name a tool probes for (``__wrapped__``)."""
    if (name.startswith("__") and name != "__all__") or _is_submodule(name):
        raise AttributeError(f"module 'sbcore' has no attribute {name!r}")
    from sbcore import api

    if name == "__all__":
        return ["__version__", *api.__all__]
    if name in api.__all__:
        return getattr(api, name)
    raise AttributeError(f"module 'sbcore' has no attribute {name!r}")


def _is_submodule(name: str) -> bool:
    where = os.path.join(os.path.dirname(__file__), name)
    return os.path.isfile(where + ".py") or os.path.isfile(os.path.join(where, "__init__.py"))
