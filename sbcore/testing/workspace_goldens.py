"""Golden cases for a workspace's own detectors: ``.second-brain/goldens/<detector>/<case>.yaml``.

A team that writes detectors in its repository (``.second-brain/detectors/``, no package) tests them the
way a pack tests its own: must-fire and must-stay-silent cases, run by the same :class:`GoldenRunner`
against the workspace's detectors (``second-brain pack test --workspace``). There is no pack level in the
path: every case is the ``workspace`` pack's.

The repository is untrusted input, so its cases may read only inside it: a case file, or a case's
``transcript``, that resolves outside the workspace (a ``../`` path, an absolute one, a symbolic link, the
``shared:`` corpus) is an error naming the case and the key, and nothing is read.
"""

from __future__ import annotations

from pathlib import Path

from sbcore.jail import Jail
from sbcore.packs.catalogue import WORKSPACE_PACK
from sbcore.packs.errors import ErrorChain
from sbcore.packs.model import SourceRef
from sbcore.testing.golden_cases import CASE_SUFFIXES, SHARED_PREFIX, GoldenCase, GoldenError, load_case

GOLDENS_DIR = (".second-brain", "goldens")


def workspace_goldens_dir(workspace: Path) -> Path:
    """Where a workspace keeps the golden cases of its detectors."""
    return workspace.joinpath(*GOLDENS_DIR)


def workspace_case_files(workspace: Path) -> list[Path]:
    """``<workspace>/.second-brain/goldens/<detector>/<case>.yaml``, sorted."""
    root = workspace_goldens_dir(workspace)
    if not root.is_dir():
        return []
    found: list[Path] = []
    for detector_dir in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        found.extend(sorted(p for p in detector_dir.iterdir() if p.suffix in CASE_SUFFIXES))
    return found


def load_workspace_cases(workspace: Path) -> list[GoldenCase]:
    """Every case of the workspace; one :class:`GoldenError` lists every bad or escaping file."""
    jail = Jail(workspace)
    cases: list[GoldenCase] = []
    chains: list[ErrorChain] = []
    for path in workspace_case_files(workspace):
        if not jail.contains(path):
            chains.append(
                _outside(path, None, "this case file leads outside the workspace (a symbolic link?)")
            )
            continue
        try:
            case = load_case(path, pack=WORKSPACE_PACK)
        except GoldenError as exc:
            chains.extend(exc.chains)
            continue
        problem = _transcript_problem(case, jail)
        if problem:
            chains.append(_outside(path, case.detector, problem, "transcript.path"))
            continue
        problem, key = _interleave_problem(case, jail)
        if problem:
            chains.append(_outside(path, case.detector, problem, key))
            continue
        if case.notes is not None and not jail.contains(case.path.parent / case.notes):
            problem = f"notes {case.notes!r} are outside the workspace: a workspace's case reads only it"
            chains.append(_outside(path, case.detector, problem, "notes"))
            continue
        cases.append(case)
    if chains:
        raise GoldenError(chains)
    return cases


def _transcript_problem(case: GoldenCase, jail: Jail) -> str:
    if case.transcript is None:
        return ""
    if case.transcript.path.startswith(SHARED_PREFIX):
        return "a workspace's case cannot read the shared corpus: copy the range it needs into the repository"
    if not jail.contains(case.path.parent / case.transcript.path):
        return (
            f"transcript {case.transcript.path!r} is outside the workspace: a workspace's case reads only it"
        )
    return ""


def _interleave_problem(case: GoldenCase, jail: Jail) -> tuple[str, str]:
    spec = case.interleave
    if spec is None:
        return "", ""
    for index, transcript in enumerate(spec.transcripts):
        if not jail.contains(case.path.parent / transcript):
            return (
                f"transcript {transcript!r} is outside the workspace: a workspace's case reads only it",
                f"interleave.transcripts[{index}]",
            )
    if spec.checkout is not None and not jail.contains(case.path.parent / spec.checkout):
        return (
            f"checkout {spec.checkout!r} is outside the workspace: a workspace's case reads only it",
            "interleave.checkout",
        )
    return "", ""


def _outside(path: Path, detector: str | None, problem: str, key: str | None = None) -> ErrorChain:
    return ErrorChain(
        SourceRef(str(path)),
        problem,
        detector,
        key,
        hint="keep the case and its transcript as regular files under .second-brain/goldens/",
    )
