"""ACME's detector pack for sbcore: destructive git commands and edits to generated files.

sbcore loads this module through the ``acme`` entry point and calls each hook
marked ``@hookimpl`` once, with a ``register`` callback (or the template
environment) to contribute to.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path, PurePosixPath

from jinja2 import Environment

from sbcore.api import RegisterCatalogue, RegisterTrigger, hookimpl

from . import triggers


@hookimpl
def register_catalogues(register: RegisterCatalogue) -> None:
    register(Path(str(resources.files(__name__) / "catalogue")))


@hookimpl
def register_triggers(register: RegisterTrigger) -> None:
    register("acme_destructive_command", triggers.destructive_command, triggers.DESTRUCTIVE_COMMAND_PARAMS)
    register("acme_generated_edit", triggers.generated_edit, triggers.GENERATED_EDIT_PARAMS)


@hookimpl
def prepare_jinja2_environment(env: Environment) -> None:
    env.filters["acme_basename"] = lambda path: PurePosixPath(str(path)).name
