"""Configuration problems in the catalogue's error style, for the commands that show both.

A layer file with one bad value is skipped whole (``sbcore.config.layers``),
so every ``detectors.<id>.*`` override in it silently stops applying. The
detector commands print these problems as error chains next to the
catalogue's own, first, each naming file, line and key, what it costs (the
whole layer) and the fix.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sbcore.packs.errors import ErrorChain
from sbcore.packs.model import SourceRef

if TYPE_CHECKING:
    from sbcore.config import ConfigProblem, EffectiveConfig
    from sbcore.packs.manager import PackManager


def config_chains(config: EffectiveConfig) -> list[ErrorChain]:
    """One error per problem of a layer (skipped whole, or a key held back); one warning per pair of knobs
    that contradict each other."""
    chains = []
    for layer in config.layers:
        if layer.status == "skipped":
            cost = (
                f"so the whole {layer.name} layer is skipped: none of its values apply, its "
                "detectors.<id>.* overrides included"
            )
        elif layer.held:
            cost = "so this key is held back (the rest of the layer applies)"
        else:
            continue
        for problem in layer.problems:
            chains.append(
                ErrorChain(
                    _source(problem, layer.path),
                    f"{problem.message}; {cost}",
                    key=problem.key,
                    hint=_fix(problem, layer.name),
                )
            )
    for problem in config.conflicts:
        chains.append(
            ErrorChain(_source(problem, None), problem.message, key=problem.key, severity="warning")
        )
    return chains


def _source(problem: ConfigProblem, fallback: object) -> SourceRef:
    where = problem.file if problem.file is not None else fallback
    return SourceRef(str(where) if where is not None else "configuration", problem.line)


def _fix(problem: ConfigProblem, layer: str) -> str:
    """The problem's own hint, then how to get the layer back."""
    fix = (
        f"fix the value in the file, or remove it: second-brain config reset {problem.key} --{layer}"
        if problem.key
        else "fix the file by hand; `second-brain config show` checks it again"
    )
    return f"{problem.hint}; {fix}" if problem.hint else fix


def layer_override_chains(manager: PackManager, config: EffectiveConfig) -> list[ErrorChain]:
    """Each layer's ``detectors.<id>.*`` overrides checked on their own, as the catalogue checks them.

    The effective catalogue sees only the merged overrides, so one hidden by a
    higher layer, or held back until the workspace is trusted, goes unchecked
    there; it would break the detector the day that layer stops hiding it.
    ``detectors validate`` adds these to what the effective catalogue reports.
    """
    from sbcore.config.effective import EffectiveConfig, merge
    from sbcore.packs.catalogue import assemble_catalogue

    chains = []
    for layer in config.layers:
        if not layer.used or not layer.data.get("detectors"):
            continue
        alone = EffectiveConfig(config.workspace, [layer], merge([(layer.name, layer.data)]))
        catalogue = assemble_catalogue(manager, workspace=config.workspace, config=alone)
        chains += [chain for chain in catalogue.errors if (chain.key or "").startswith("detectors.")]
    return chains
