"""Catalogue errors as context chains, in the style of pre-commit's config errors.

A chain narrows from the file (and line) to the detector, then the key, then
says what is wrong and, where we can tell, what to do about it::

    ==> File catalogue/bad.yaml:12
    ==> At detector 'repeat-failure'
    ==> At key: confidence_floor
    =====> 1.5 is greater than the maximum of 1
    hint: confidence floors are probabilities between 0 and 1

The rendered text is the interface (tests snapshot it); it is
:class:`sbcore.problems.Problem`'s, the one renderer every command's problems go through.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from sbcore.packs.model import SourceRef
from sbcore.problems import Problem, SbcoreError, render_problems

if TYPE_CHECKING:
    from sbcore.packs.model import DetectorDef

Severity = Literal["error", "warning"]
KeyPath = Sequence[str | int]


def format_key(path: KeyPath) -> str:
    """``('tools', 1, 'run', 0)`` -> ``tools[1].run[0]``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


@dataclass(frozen=True)
class ErrorChain:
    """One problem in a detector file, with its context."""

    source: SourceRef
    problem: str
    detector: str | None = None
    key: str | None = None
    hint: str | None = None
    severity: Severity = "error"

    def to_problem(self) -> Problem:
        return Problem(
            self.problem,
            file=self.source.path,
            line=self.source.line,
            context=(f"detector {self.detector!r}",) if self.detector else (),
            key=self.key,
            fix=self.hint,
            severity=self.severity,
        )

    def render(self) -> str:
        return self.to_problem().render()

    def as_warning(self) -> ErrorChain:
        return ErrorChain(self.source, self.problem, self.detector, self.key, self.hint, "warning")

    def as_error(self) -> ErrorChain:
        return ErrorChain(self.source, self.problem, self.detector, self.key, self.hint, "error")

    def __str__(self) -> str:
        return self.render()


class CatalogueError(SbcoreError):
    """One or more detector files are invalid; ``chains`` holds every problem found, and ``loaded`` the
    detectors of the files that were fine (so a validator can still check them against other packs:
    one broken file must not hide another file's clash)."""

    def __init__(self, chains: Iterable[ErrorChain], *, loaded: Iterable[DetectorDef] = ()) -> None:
        self.chains: list[ErrorChain] = list(chains)
        self.loaded: list[DetectorDef] = list(loaded)
        super().__init__(render_chains(self.chains))

    @property
    def problems(self) -> list[Problem]:
        return [chain.to_problem() for chain in self.chains]


def render_chains(chains: Iterable[ErrorChain]) -> str:
    """Chains separated by a blank line, the way ``detectors validate`` prints them."""
    return render_problems(chain.to_problem() for chain in chains)


def duplicate_error(detector_id: str, first: DetectorDef, second: DetectorDef) -> ErrorChain:
    """The error for two definitions of one detector id, naming both places.

    Used by the loader (two files in one load) and by the plugin manager (two
    packs), so the message reads the same wherever the clash is found.
    """
    if first.pack != second.pack:
        where = f"pack {second.pack!r} defines it here and pack {first.pack!r} at {first.source}"
        hint = (
            "detector ids are unique across all installed packs: rename one of them, "
            "or uninstall one of the two packs"
        )
    else:
        where = f"also defined at {first.source}"
        hint = "detector ids are unique: rename one of the two"
    return ErrorChain(
        source=second.source,
        detector=detector_id,
        key="id",
        problem=f"duplicate detector id {detector_id!r}: {where}",
        hint=hint,
    )
