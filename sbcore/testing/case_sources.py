"""One vocabulary of labelled cases, whichever file holds them: labels files, golden cases, folders of both.

A team states "this detector must fire here" in one of two shapes, and the runner
(``second-brain replay --labels``) scores both together:

* a **labels file** — a ``cases:`` list, each case naming its ``id`` and ``detector``, most of them a
  transcript or a range of one (:mod:`sbcore.conductor.labels`);
* a **golden case file** — one case at ``<pack>/<detector>/<name>.yaml`` (:mod:`.golden_cases`).

A case in a labels file may be written in the golden vocabulary as well (inline ``observations``,
``interleave``, a ``label``, ``provider_io``, ``expect`` of the advisory, ...): it is validated against
the golden schema, with each problem located in the labels file. So any case can live in either file,
with paths relative to the file that holds it, ``corpus:`` in a labels file and ``shared:`` in a golden
file. A folder given as a source is read for both kinds, every ``.yaml`` in it: a file holding a
``cases`` list is a labels file, any other a golden case. A transcript a case needs and cannot find is an
error naming the case, never a case dropped.

Cases written as a golden case are judged by the golden kit (:class:`GoldenJudge`), one pass or one
replay as ``pytest`` checks them; the rest are replayed together by the label runner.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sbcore.conductor.labels import CaseReader, Judged, LabelCase, LabelError, load_labels
from sbcore.packs.errors import ErrorChain
from sbcore.packs.model import SourceRef
from sbcore.safefile import read_regular_text
from sbcore.safeyaml import MAX_YAML_CHARS
from sbcore.schemas import yamlpos
from sbcore.testing.golden_cases import (
    CASE_SUFFIXES,
    SHARED_PREFIX,
    GoldenCase,
    GoldenError,
    build_case,
    case_problems,
    load_case,
)

if TYPE_CHECKING:
    from sbcore.packs.manager import PackManager

_LABELS_ONLY = ("questions", "checkout")
"""Keys of the labels vocabulary a case written as a golden case cannot have: its replay is the golden
kit's, which narrows no checklist and reads no checkout but an interleaved case's own."""


def load_sources(
    paths: Sequence[Path], corpus: Path | None = None, *, default_corpus: Path | None = None
) -> list[LabelCase]:
    """Every case of the labels files, golden case files and folders ``paths`` name, in that order.

    ``corpus`` and ``default_corpus`` are as :func:`~sbcore.conductor.labels.load_labels` takes them. A
    case id names one case across every source: an id two of them share is an error naming both.

    :raises LabelError: a labels file's first problem.
    :raises GoldenError: every problem of the golden case files.
    """
    cases: list[LabelCase] = []
    origin: dict[str, Path] = {}
    for path in _files(paths):
        for case in _read(path, corpus, default_corpus):
            if case.id in origin:
                raise LabelError(
                    case.problem(
                        "id", f"case id {case.id!r} is also a case of {origin[case.id]}", "rename one"
                    )
                )
            origin[case.id] = path
            cases.append(case)
    return cases


def _files(paths: Sequence[Path]) -> list[Path]:
    """The files ``paths`` name: a file as given, a folder's ``.yaml`` files below it (sorted, hidden and
    ``_``-prefixed folders left out, as the golden kit leaves them)."""
    found: list[Path] = []
    for path in paths:
        if not path.is_dir():
            found.append(path)
            continue
        for file in sorted(path.rglob("*")):
            hidden = any(part.startswith((".", "_")) for part in file.relative_to(path).parts[:-1])
            if file.suffix in CASE_SUFFIXES and file.is_file() and not hidden:
                found.append(file)
    return found


def _read(path: Path, corpus: Path | None, default_corpus: Path | None) -> list[LabelCase]:
    if _is_labels_file(path):
        return load_labels(path, corpus, default_corpus=default_corpus, golden=read_golden_style)
    return [_from_golden(load_case(path), path, None)]


def _is_labels_file(path: Path) -> bool:
    """Whether ``path`` holds a ``cases`` list (a labels file) rather than one golden case. A file that
    cannot be read or parsed is taken for a labels file, whose loader names the problem."""
    try:
        document = yamlpos.load(read_regular_text(path, max_bytes=MAX_YAML_CHARS)).data
    except (OSError, UnicodeDecodeError, yamlpos.YamlSyntaxError):
        return True
    return not isinstance(document, dict) or "cases" in document


def read_golden_style(reader: CaseReader, raw: dict[str, Any]) -> LabelCase:
    """A labels file's case written in the golden vocabulary, validated as a golden case is.

    The labels spellings it may still use are read as the golden ones: ``expect: fire|silent`` as the
    ``label``, ``why`` as the ``description``, a ``transcript`` string (``corpus:`` too) and ``lines`` as
    ``transcript.path`` and ``records``."""
    at: yamlpos.PathKey = ("cases", reader.index)
    case_id = str(raw.get("id", ""))
    for key in ("id", "detector"):
        if key not in raw:
            raise LabelError(
                reader.problem(None, f"missing {key}", "every case has id and detector", case_id)
            )
    for key in _LABELS_ONLY:
        if key in raw:
            raise LabelError(
                reader.problem(
                    key,
                    f"{key!r} is a key of the labels vocabulary; this case is written as a golden case",
                    "drop it, or write the case as a replayed transcript (transcript, lines, expect)",
                    case_id,
                )
            )
    detector = str(raw["detector"])
    data = {key: value for key, value in raw.items() if key not in ("id", "detector", "why", "lines")}
    if "why" in raw and "description" not in data:
        data["description"] = str(raw["why"])
    if raw.get("expect") in ("fire", "silent"):
        data.pop("expect")
        data.setdefault("label", "must_fire" if raw["expect"] == "fire" else "must_stay_silent")
    transcript = data.get("transcript")
    if isinstance(transcript, str):
        transcript = data["transcript"] = {"path": transcript}
    if isinstance(transcript, dict):
        lines = raw.get("lines")
        if isinstance(lines, list) and len(lines) == 2 and "records" not in transcript:
            transcript = data["transcript"] = {**transcript, "records": f"{lines[0]}-{lines[1]}"}
        reference = transcript.get("path")
        if isinstance(reference, str) and reference.startswith("corpus:"):

            def fail(key: str, problem: str, fix: str | None = None) -> LabelError:
                return LabelError(reader.problem(key, problem, fix, case_id))

            data["transcript"] = {**transcript, "path": str(reader.transcript(reference, fail).resolve())}
    problems = case_problems(data, reader.located, reader.path, detector, at)
    if problems:
        raise GoldenError(problems)
    golden = build_case(reader.path, "", detector, case_id, data, reader.located, at)
    from_corpus = isinstance(transcript, dict) and str(transcript.get("path", "")).startswith("corpus:")
    _read_inside(reader, golden, case_id, from_corpus)
    return _from_golden(golden, reader.path, reader.located.line_of(at), case_id)


def _read_inside(reader: CaseReader, golden: GoldenCase, case_id: str, from_corpus: bool) -> None:
    """Refuse a golden-style case that names a file outside the labels file's repository (its transcript,
    interleaved transcripts, checkout or notes); the corpus and the shared directory are read by name."""

    def fail(key: str, problem: str, fix: str | None = None) -> LabelError:
        return LabelError(reader.problem(key, problem, fix, case_id))

    base = golden.path.parent
    shared = golden.transcript is not None and golden.transcript.path.startswith(SHARED_PREFIX)
    if golden.transcript is not None and not from_corpus and not shared:
        reader.inside(base / golden.transcript.path, "transcript", fail)
    if golden.interleave is not None:
        for path in golden.interleave.paths(golden.path):
            reader.inside(path, "interleave", fail)
        if golden.interleave.checkout is not None:
            reader.inside(base / golden.interleave.checkout, "interleave", fail)
    if golden.notes is not None:
        reader.inside(base / golden.notes, "notes", fail)


def _from_golden(golden: GoldenCase, file: Path, line: int | None, case_id: str = "") -> LabelCase:
    """The runner's case for a golden case: its label as ``expect``; the transcript it replays, which must
    be there (a shared corpus file too: a case is never skipped for want of one)."""
    transcript = None
    lines = None
    if golden.transcript is not None:
        transcript, unavailable = golden.transcript.resolve(golden.path)
        if transcript is None or not transcript.is_file():
            raise _missing(
                golden, file, line, unavailable or f"no transcript at {transcript}", "transcript.path"
            )
        if golden.transcript.ranged and golden.transcript.last is not None:
            lines = (golden.transcript.first, golden.transcript.last)
    if golden.interleave is not None:
        for path in golden.interleave.paths(golden.path):
            if not path.is_file():
                raise _missing(golden, file, line, f"no transcript at {path}", "interleave.transcripts")
    return LabelCase(
        id=case_id or golden.id,
        transcript=transcript,
        detector=golden.detector,
        expect="fire" if golden.label == "must_fire" else "silent",
        lines=lines,
        why=golden.description,
        family=golden.family,
        split=golden.split,
        file=file,
        line=line,
        golden=golden,
    )


def _missing(golden: GoldenCase, file: Path, line: int | None, problem: str, key: str) -> GoldenError:
    fix = "a path relative to the case's file; a shared: one needs the shared directory beside the repository"
    return GoldenError([ErrorChain(SourceRef(str(file), line), problem, golden.detector, key, fix)])


class GoldenJudge:
    """Judges the cases written as golden cases, as the golden kit checks them: fired or silent, and why.

    A case the kit cannot decide without a model (no recorded answers) is not scored; one whose detector
    fired as labelled but whose advisory broke an expectation (its ``dedup_key``, its headline, its schema)
    or whose replay left its recording is a failure, which the runner reports and exits non-zero on.
    """

    def __init__(self, manager: PackManager | None = None, *, workspace: Path | None = None) -> None:
        from sbcore.testing.goldens import GoldenRunner

        self.runner = GoldenRunner(manager, workspace=workspace)

    def __call__(self, case: LabelCase) -> Judged:
        golden = case.golden
        if not isinstance(golden, GoldenCase):
            raise TypeError(f"case {case.id} is not written as a golden case")
        result = self.runner.run(golden)
        window = tuple(observation.text for observation in golden.observations or ())
        decision = result.decision
        if result.outcome == "pending":
            return Judged(case, None, result.reason, window=window)
        if decision is None:  # it could not be evaluated: no such detector, an unreadable input
            return Judged(case, None, result.reason, failure=result.reason or result.outcome, window=window)
        fired = bool(decision["fired"])
        decided = f"decided by {decision['decided_by']}"
        why = f"{decided}: {decision['note']}" if decision.get("note") else decided
        if result.outcome == "passed":
            return Judged(case, fired, why, window=window)
        if fired == (case.expect == "fire"):
            return Judged(case, fired, why, failure=result.reason, window=window)
        return Judged(case, fired, result.reason, window=window)
