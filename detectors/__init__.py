"""The built-in detector pack.

It registers through the same ``sbcore`` entry point group as any third-party
pack (``builtin = "sbcore.detectors"``), so the core has no private path to its
own detectors: the catalogue directory (the ``sbcore.catalogue`` package data)
and the structural triggers its detectors name.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from sbcore.api import RegisterCatalogue, RegisterTrigger, hookimpl

from . import crosstask, flow, recall, standard_questions, triggers


def catalogue_dir() -> Path:
    """The directory holding the built-in detector files (a real directory in wheel and editable installs)."""
    return Path(str(resources.files("sbcore.catalogue")))


@hookimpl
def register_catalogues(register: RegisterCatalogue) -> None:
    register(catalogue_dir())


@hookimpl
def register_triggers(register: RegisterTrigger) -> None:
    register("repeat_failure", triggers.repeat_failure, triggers.REPEAT_FAILURE_PARAMS)
    register(
        "standard_questions",
        standard_questions.standard_questions,
        standard_questions.STANDARD_QUESTIONS_PARAMS,
    )
    register("cross_task_collision", crosstask.cross_task_collision, crosstask.CROSS_TASK_COLLISION_PARAMS)
    register("recall_offers", recall.recall_offers, recall.RECALL_PARAMS)
    register("drift", flow.drift, flow.DRIFT_PARAMS)
    register("stall", flow.stall, flow.STALL_PARAMS)
