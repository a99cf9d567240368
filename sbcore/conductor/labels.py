"""Labelled cases: precision and recall of the detectors, scored through replay.

A case is a transcript (or a line range of one, replayed with its history) and whether a detector must fire
on it or stay silent, written by a person reading the session before anything ran. What counts as firing
is what the gate would deliver, by default; ``raw=True`` scores the detectors' own verdicts. Cases carry a
``family`` (an ecosystem or a situation) and a ``split`` (tuning, held-out, never-tuned) so figures can be
read where no tuning looked.
"""

from __future__ import annotations

import asyncio
import difflib
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from sbcore import safeyaml
from sbcore.conductor.replay import Replayer, SessionReplay
from sbcore.conductor.replay_text import WIDTH, fit
from sbcore.packs.model import DetectorDef
from sbcore.problems import Problem, SbcoreError
from sbcore.safefile import read_regular_text
from sbcore.schemas import yamlpos

SPLITS = ("tuning", "held-out", "never-tuned")
"""What a case may be used for: tuning reads it; a held-out case is scored and never read for rules; a
never-tuned case belongs to a batch no detector was ever tuned on (its figures are the least flattered)."""


@dataclass(frozen=True)
class LabelCase:
    """One labelled case: does ``detector`` fire on ``transcript`` (``lines``, 1-based inclusive)?

    ``lines`` is the part of the transcript the label is about; the lines before it are replayed first as
    its history (:meth:`Replayer.replay_file`, ``scored``). ``questions`` narrows a checklist detector (one
    whose ``config.questions`` items have ids) to those items for this case, so each checklist question can
    be labelled on its own. ``family`` (an ecosystem or a situation, free text) and ``split`` group the
    figures (:func:`scores_by_family`); ``checkout`` is a directory standing in for the session's working
    tree at its start, for the readers of a project's facts. A case may also be written the way a golden
    case is (``golden``).
    """

    id: str
    transcript: Path | None
    detector: str
    expect: str
    lines: tuple[int, int] | None = None
    questions: tuple[str, ...] = ()
    why: str = ""
    family: str = ""
    split: str = ""
    checkout: Path | None = None
    file: Path | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)
    """Where the case is written, for a problem found while judging it."""
    golden: object | None = field(default=None, compare=False)
    """A case written in the golden vocabulary (inline observations, interleaved transcripts, a recorded
    model, expectations of the advisory): the golden kit's case, judged by the ``golden`` judge
    :func:`judge_cases` is given rather than replayed here. ``transcript`` is then the file it replays,
    if any."""

    def problem(self, key: str, problem: str, fix: str | None = None) -> Problem:
        """A problem with this case's ``key``, located where the case is written."""
        file = None if self.file is None else str(self.file)
        return Problem(problem, file, self.line, (f"case {self.id!r}",), key, fix)


class Recorded(Protocol):
    """A replay's recording, as judging reads it: how a detector's replay left it ("" when it did not)."""

    def problem(self, detector: str) -> str: ...


CaseScope = Callable[[str], AbstractContextManager[Recorded]]
"""Opens the recording of the cases replayed together, by name, for as long as their replay runs."""


class LabelError(SbcoreError, ValueError):
    """A labels file or case that cannot be used, as one located :class:`Problem`."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.render())
        self.problem = problem

    @property
    def problems(self) -> list[Problem]:
        return [self.problem]


GoldenReader = Callable[["CaseReader", dict[str, Any]], LabelCase]
"""Reads a case written in the golden vocabulary (:data:`GOLDEN_KEYS`) out of a labels file."""

LABEL_KEYS: tuple[str, ...] = ("id", "transcript", "detector", "expect", "lines", "questions", "why")
LABEL_KEYS += ("family", "split", "checkout", "headline", "dedup_key", "session", "source")
"""The keys of a case in the labels vocabulary; the last four are what ``second-brain label`` records of the
advisory it asked about, kept for the reader and read by no rule."""
GOLDEN_KEYS: tuple[str, ...] = ("label", "description", "observations", "interleave", "provider_io")
GOLDEN_KEYS += ("config", "judge", "turn_end", "trusted", "notes")
"""Keys only a case in the golden vocabulary has: such a case is read by the golden kit."""


def load_labels(
    path: Path,
    corpus: Path | None = None,
    *,
    default_corpus: Path | None = None,
    golden: GoldenReader | None = None,
) -> list[LabelCase]:
    """Read a labels file. ``transcript`` is relative to the labels file, or ``corpus:<name>`` for a file of
    the shared corpus, found in ``corpus`` if given, else in the file's own top-level ``corpus:`` directory
    (relative to the file, so the file scores the same from any directory), else in ``default_corpus``.
    A transcript that is not there is an error naming the case: a case is never dropped. A case written
    in the golden vocabulary (inline observations, interleaved transcripts, a recorded model, ...) is read
    by ``golden``.

    :raises LabelError: the first problem, located by file, line, case and key."""
    try:
        located = yamlpos.load(read_regular_text(path, max_bytes=safeyaml.MAX_YAML_CHARS))
    except (OSError, UnicodeDecodeError) as exc:
        raise LabelError(Problem(f"cannot read labels: {exc}", str(path))) from None
    except yamlpos.YamlSyntaxError as exc:
        raise LabelError(Problem(f"not YAML: {exc.message}", str(path), exc.line)) from None
    if located.problems:
        first = located.problems[0]
        raise LabelError(Problem(first.message, str(path), first.line, key=_dotted(first.path)))
    document = located.data
    raw_cases = document.get("cases") if isinstance(document, dict) else None
    if not isinstance(raw_cases, list):
        raise LabelError(
            Problem("expected a mapping with a `cases` list", str(path), located.start_line, key="cases")
        )
    declared = document.get("corpus")
    if declared is not None and not isinstance(declared, str):
        raise LabelError(
            Problem(
                f"a directory (relative to the file), not {declared!r}",
                str(path),
                located.line_of(("corpus",)),
                key="corpus",
            )
        )
    if corpus is None:
        corpus = path.parent / declared if declared is not None else default_corpus
    # the corpus may be kept beside the repository (its files are read by name, and only from it); any
    # other file a case names is the repository's own
    root = repository_of(path)
    cases: list[LabelCase] = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_cases):
        reader = CaseReader(path, located, index, corpus, golden, root)
        case = reader.read(raw)
        if case.id in seen:
            raise LabelError(
                reader.problem("id", f"duplicate case id {case.id!r}", "give each case its own id")
            )
        seen.add(case.id)
        cases.append(case)
    return cases


def is_golden_style(raw: Mapping[str, Any]) -> bool:
    """Whether a case of a labels file is written in the golden vocabulary (:data:`GOLDEN_KEYS`, or a
    ``transcript`` or ``expect`` that is a mapping, as a golden case writes them)."""
    return (
        any(key in raw for key in GOLDEN_KEYS)
        or isinstance(raw.get("transcript"), Mapping)
        or isinstance(raw.get("expect"), Mapping)
    )


def _dotted(key: yamlpos.PathKey) -> str | None:
    return ".".join(f"[{part}]" if isinstance(part, int) else part for part in key).replace(".[", "[") or None


def repository_of(path: Path) -> Path | None:
    """The repository a labels file is in: the nearest folder above it holding ``.git`` or ``.second-brain``
    (None when there is none: a file of the user's own, outside any repository)."""
    folder = path.resolve().parent
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists() or (candidate / ".second-brain").is_dir():
            return candidate
    return None


def _within(root: Path | None, path: Path) -> bool:
    """Whether ``path`` resolves (links followed) to ``root`` or below it; anything does without a root."""
    if root is None:
        return True
    real, root = path.resolve(), root.resolve()
    return real == root or root in real.parents


@dataclass(frozen=True)
class CaseReader:
    """Reads the case at ``cases[index]`` of a labels file, each problem located by its line and key."""

    path: Path
    located: yamlpos.Located
    index: int
    corpus: Path | None
    golden: GoldenReader | None = None
    root: Path | None = None
    """The repository the labels file is in (None: a file in no repository, the user's own): what its
    cases may read, besides the corpus."""

    def inside(self, path: Path, key: str, fail: Callable[..., LabelError]) -> Path:
        """``path`` when it is inside the labels file's repository; a case naming a file outside it fails: a
        repository's labels file is untrusted (a pull request's), and what it reads goes into reports."""
        if not _within(self.root, path):
            raise fail(key, f"{path} is outside the repository this labels file is in", "a path inside it")
        return path

    def problem(self, key: str | None, problem: str, fix: str | None = None, case_id: str = "") -> Problem:
        at: yamlpos.PathKey = ("cases", self.index, key) if key else ("cases", self.index)
        context = f"case {case_id!r} (cases[{self.index}])" if case_id else f"cases[{self.index}]"
        return Problem(problem, str(self.path), self.located.line_of(at), (context,), key, fix)

    def read(self, raw: object) -> LabelCase:
        if not isinstance(raw, dict):
            raise LabelError(
                self.problem(None, "a case is a mapping", "give it id, transcript, detector, expect")
            )
        if is_golden_style(raw):
            if self.golden is None:
                raise LabelError(
                    self.problem(
                        None,
                        "a case in the golden vocabulary (observations, interleave, label, ...) needs the "
                        "golden kit to read it",
                        "score it with `second-brain replay --labels`",
                    )
                )
            return self.golden(self, raw)
        for key in sorted(set(raw) - set(LABEL_KEYS), key=str):
            # Another key is a note of the author's, as it always was; one spelt like a key is a typo that
            # would otherwise drop what it says without a word.
            close = difflib.get_close_matches(str(key), LABEL_KEYS, n=1, cutoff=0.8)
            if close:
                raise LabelError(
                    self.problem(
                        str(key),
                        f"unknown key {key!r}",
                        f"Typo? did you mean {close[0]!r}?",
                        str(raw.get("id", "")),
                    )
                )
        missing = [key for key in ("id", "transcript", "detector", "expect") if key not in raw]
        if missing:
            raise LabelError(
                self.problem(
                    None,
                    f"missing {', '.join(missing)}",
                    "every case has id, transcript, detector and expect",
                )
            )
        case_id = str(raw["id"])

        def fail(key: str, problem: str, fix: str | None = None) -> LabelError:
            return LabelError(self.problem(key, problem, fix, case_id))

        if raw["expect"] not in ("fire", "silent"):
            raise fail("expect", f"must be fire or silent, not {raw['expect']!r}")
        transcript = self.transcript(str(raw["transcript"]), fail)
        span = raw.get("lines")
        if span is not None and not (
            isinstance(span, list) and len(span) == 2 and all(isinstance(n, int) and n >= 1 for n in span)
        ):
            raise fail("lines", f"must be [first, last], 1-based, not {span!r}")
        questions = raw.get("questions") or []
        if not isinstance(questions, list) or not all(isinstance(q, str) for q in questions):
            raise fail("questions", "must be a list of checklist ids", "for example: questions: [tests_run]")
        split = raw.get("split", "")
        if split and split not in SPLITS:
            raise fail("split", f"must be one of {', '.join(SPLITS)}, not {split!r}")
        family = raw.get("family", "")
        if not isinstance(family, str):
            raise fail("family", f"a name (text), not {family!r}")
        checkout = None
        if raw.get("checkout") is not None:
            checkout = self.inside(self.path.parent / str(raw["checkout"]), "checkout", fail)
            if not checkout.is_dir():
                raise fail(
                    "checkout", f"{checkout} is not a directory", "a folder relative to the labels file"
                )
        return LabelCase(
            id=case_id,
            transcript=transcript,
            detector=str(raw["detector"]),
            expect=str(raw["expect"]),
            lines=(span[0], span[1]) if span else None,
            questions=tuple(questions),
            why=str(raw.get("why", "")),
            family=family,
            split=split,
            checkout=checkout,
            file=self.path,
            line=self.located.line_of(("cases", self.index)),
        )

    def transcript(self, reference: str, fail: Callable[..., LabelError]) -> Path:
        """The transcript a case names: relative to the labels file, or ``corpus:<name>``."""
        if not reference.startswith("corpus:"):
            transcript = self.inside(self.path.parent / reference, "transcript", fail)
            if not transcript.is_file():
                raise fail("transcript", f"no transcript {transcript}", "a path relative to the labels file")
            return transcript
        if self.corpus is None:
            raise fail(
                "transcript",
                f"{reference} is a corpus file, but no corpus directory is known",
                "add `corpus: DIR` (relative to this file) at its top, or pass --corpus DIR",
            )
        transcript = self.corpus / reference.removeprefix("corpus:")
        if not _within(self.corpus, transcript):
            raise fail("transcript", f"{reference} leads out of the corpus", "name a file of the corpus")
        if not transcript.is_file():
            raise fail(
                "transcript",
                f"no transcript {transcript} (the corpus is {self.corpus})",
                "pass --corpus DIR if it is elsewhere",
            )
        return transcript


@dataclass
class Score:
    """Confusion counts of one detector over the labelled cases."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    misses: list[str] = field(default_factory=list)
    why: dict[str, str] = field(default_factory=dict)
    """Per wrong case, what decided it (:func:`explain`)."""
    cases: int = 0
    pending: int = 0
    """Cases only a model could decide, with none to ask (a model-only detector replayed offline, a golden
    case recording no model answers): counted here, not as silent."""

    @property
    def unscored(self) -> str:
        """Why the cases were not scored (every one of them needed a model); empty when some were."""
        return "not scored (no model)" if self.pending and self.pending == self.cases else ""

    def add(self, judged: Judged) -> None:
        """Count one case in."""
        self.cases += 1
        if judged.fired is None:
            self.pending += 1
            return
        if judged.case.expect == "fire":
            self.tp += judged.fired
            self.fn += not judged.fired
        else:
            self.fp += judged.fired
            self.tn += not judged.fired
        if not judged.right:
            self.misses.append(judged.case.id)
            self.why[judged.case.id] = f"expected {judged.case.expect}: {judged.why}"

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else math.nan

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else math.nan

    def to_json(self) -> dict[str, Any]:
        if self.unscored:
            return {"cases": self.cases, "scored": False, "reason": self.unscored}
        counts = {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "precision": None if math.isnan(self.precision) else round(self.precision, 4),
            "recall": None if math.isnan(self.recall) else round(self.recall, 4),
            "wrong": self.misses,
        }
        return {**counts, "pending": self.pending} if self.pending else counts


def restrict_questions(detector: DetectorDef, ids: Sequence[str]) -> DetectorDef:
    """``detector`` asking only the checklist questions ``ids`` (each must exist and be enabled)."""
    questions = detector.config.get("questions")
    if not isinstance(questions, list):
        raise LabelError(Problem(f"detector {detector.id} has no checklist (config.questions) to narrow"))
    by_id = {q.get("id"): q for q in questions if isinstance(q, Mapping)}
    for ident in ids:
        if ident not in by_id:
            raise LabelError(Problem(f"detector {detector.id} has no checklist question {ident!r}"))
        if by_id[ident].get("enabled", True) is False:
            raise LabelError(Problem(f"detector {detector.id}: checklist question {ident!r} is disabled"))
    kept = [q for q in questions if isinstance(q, Mapping) and q.get("id") in ids]
    return replace(detector, config={**detector.config, "questions": kept})


@dataclass(frozen=True)
class Judged:
    """A labelled case and whether its detector fired on it (None: not scored, a model-only detector
    replayed offline), with what decided it in one line."""

    case: LabelCase
    fired: bool | None
    why: str = ""
    failure: str = ""
    """The first error of the case's detector in its replay (its trigger raised, its fork failed)."""
    line: int | None = None
    """The transcript line the detector's first finding was decided at (None: it gave none)."""
    window: tuple[str, ...] = ()
    """The observations the detector read, for a case judged on observations its file holds (a golden
    case's inline ones) rather than on a transcript a report can quote."""

    @property
    def right(self) -> bool | None:
        return None if self.fired is None else self.fired == (self.case.expect == "fire")

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "detector": self.case.detector,
            "expect": self.case.expect,
            "fired": self.fired,
            "right": self.right,
            "why": self.why,
            "failure": self.failure or None,
            "line": self.line,
            "family": self.case.family or None,
            "split": self.case.split or None,
        }


def explain(session: SessionReplay, detector: DetectorDef) -> str:
    """What decided ``detector``'s outcome in a replayed case: the finding it gave, what the gate made of
    its advice, its own verdicts, its failure, or its trigger never matching."""
    tally = session.tally
    name = detector.id
    for found in tally.findings:
        if found.detector == name:
            return f"{found.outcome} at line {found.line}: {found.headline}"
    if tally.gate.get(name):
        dropped = ", ".join(f"{n} {reason}" for reason, n in sorted(tally.gate[name].items()))
        return f"advised, but the gate dropped it ({dropped})"
    if tally.raised.get(name):
        return f"failed in {tally.raised[name]} passes: {tally.raised_why.get(name, '')}"
    verdicts = tally.verdicts.get(name)
    if verdicts:
        return "answered " + ", ".join(f"{label} in {n} passes" for label, n in sorted(verdicts.items()))
    if detector.trigger is not None:
        return f"its trigger {detector.trigger.name} never matched"
    return "never asked (no pass selected it)"


async def evaluate_labels(
    cases: Sequence[LabelCase],
    detectors: Mapping[str, DetectorDef],
    make_replayer: Callable[[Sequence[DetectorDef]], Replayer],
    *,
    raw: bool = False,
) -> dict[str, Score]:
    """The cases judged (:func:`judge_cases`) and scored per detector."""
    return scores_by_detector(await judge_cases(cases, detectors, make_replayer, raw=raw))


def scores_by_detector(judged: Iterable[Judged]) -> dict[str, Score]:
    """Confusion counts per detector, in detector order."""
    scores: dict[str, Score] = defaultdict(Score)
    for each in judged:
        scores[each.case.detector].add(each)
    for score in scores.values():
        score.misses.sort()
    return dict(sorted(scores.items()))


def scores_by_family(judged: Iterable[Judged]) -> dict[tuple[str, str], Score]:
    """Confusion counts per (split, family), every detector's cases together: how the figures hold up on
    the ecosystems and situations tuning never read. A case without a split or a family is counted under
    ``""``."""
    scores: dict[tuple[str, str], Score] = defaultdict(Score)
    for each in judged:
        if each.fired is not None:
            scores[(each.case.split, each.case.family)].add(each)
    for score in scores.values():
        score.misses.sort()
    return dict(sorted(scores.items()))


async def judge_cases(
    cases: Sequence[LabelCase],
    detectors: Mapping[str, DetectorDef],
    make_replayer: Callable[[Sequence[DetectorDef]], Replayer],
    *,
    raw: bool = False,
    scope: CaseScope | None = None,
    golden: Callable[[LabelCase], Judged] | None = None,
) -> list[Judged]:
    """Replay each case (once per distinct transcript, range and question set) and say whether it fired.

    A case is predicted to fire when the gate delivered an advisory of its detector in any pass of the
    replay (what a user would have seen) — for a soaking detector, when it would have — or, with ``raw``,
    when the detector advised at all. Every case
    names a detector of ``detectors``; they run whether enabled or not.

    Offline, a model-only detector (no structural trigger, or no fallback advisory) can only stay
    silent: its silence says nothing about its judgment, so its cases are reported as not scored
    rather than counted as true negatives and missed fires.

    ``scope`` opens each replay's recording (:mod:`sbcore.think.recording`), named by the first id of the
    cases replayed together; how a replay left its recording is each of those cases' failure. A case
    written in the golden vocabulary (``LabelCase.golden``) is judged by ``golden``.
    """
    unknown = sorted({case.detector for case in cases} - set(detectors))
    if unknown:
        first = next(case for case in cases if case.detector in unknown)
        raise LabelError(
            first.problem(
                "detector",
                f"labelled cases name unknown detectors: {', '.join(unknown)}",
                "`second-brain detectors list` shows the ids of this workspace",
            )
        )
    judged: list[Judged] = []
    goldens = [case for case in cases if case.golden is not None]
    if goldens:
        if golden is None:
            raise LabelError(goldens[0].problem("id", "a case in the golden vocabulary needs the golden kit"))
        # The golden kit runs its own event loop for each case: off this one, in a thread.
        judged.extend([await asyncio.to_thread(golden, case) for case in goldens])
        cases = [case for case in cases if case.golden is None]
    offline = not make_replayer(()).provider.has_model
    if offline:
        mute = {name for name in {case.detector for case in cases} if model_only(detectors[name])}
        judged.extend(Judged(case, None) for case in cases if case.detector in mute)
        cases = [case for case in cases if case.detector not in mute]
    groups: dict[tuple[str, tuple[int, int], tuple[str, ...], str], list[LabelCase]] = defaultdict(list)
    for case in cases:
        checkout = str(case.checkout) if case.checkout is not None else ""
        groups[(str(case.transcript), case.lines or (0, 0), case.questions, checkout)].append(case)
    for (_, _, questions, _), members in sorted(groups.items()):
        chosen = [detectors[name] for name in sorted({case.detector for case in members})]
        if questions:
            try:
                chosen = [restrict_questions(d, questions) if "questions" in d.config else d for d in chosen]
            except LabelError as exc:
                raise LabelError(members[0].problem("questions", exc.problem.problem)) from None
        replayer = make_replayer(chosen)
        if members[0].checkout is not None:
            replayer = replace(replayer, checkout=members[0].checkout)
        transcript = members[0].transcript
        assert transcript is not None  # only a golden case has none, and those were judged above
        with scope(min(case.id for case in members)) if scope is not None else nullcontext() as tape:
            session = await replayer.replay_file(transcript, scored=members[0].lines)
        by_id = {d.id: d for d in chosen}
        for case in members:
            fired = session.fired(case.detector) if raw else session.would_deliver(case.detector)
            left = tape.problem(case.detector) if tape is not None else ""
            failure = left or session.tally.raised_why.get(case.detector, "")
            line = next((f.line for f in session.tally.findings if f.detector == case.detector), None)
            judged.append(Judged(case, fired, explain(session, by_id[case.detector]), failure, line))
    return judged


def model_only(detector: DetectorDef) -> bool:
    """Whether ``detector`` needs a model to say anything (no trigger, or no fallback advisory)."""
    return detector.trigger is None or detector.fallback is None


def render_scores(scores: Mapping[str, Score]) -> list[str]:
    return _score_table("detector", scores)


def render_family_scores(scores: Mapping[tuple[str, str], Score]) -> list[str]:
    """The same counts per (split, family); a case with neither is shown under ``-``."""
    named = {f"{split or '-'} / {family or '-'}": score for (split, family), score in scores.items()}
    return _score_table("split / family", named)


def family_scores_json(scores: Mapping[tuple[str, str], Score]) -> list[dict[str, Any]]:
    """``--json``'s ``by_family``: one object per (split, family), with its case count."""
    return [
        {"split": split or None, "family": family or None, "cases": score.cases, **score.to_json()}
        for (split, family), score in scores.items()
    ]


def _score_table(title: str, scores: Mapping[str, Score]) -> list[str]:
    width = max([22, *(len(name) + 2 for name in scores)])
    lines = [
        f"{title:<{width}}{'cases':>7}{'tp':>5}{'fp':>5}{'fn':>5}{'tn':>5}{'precision':>11}{'recall':>8}"
    ]
    for name, s in scores.items():
        total = s.tp + s.fp + s.fn + s.tn
        if s.unscored:
            lines.append(f"{name:<{width}}{s.cases:>7}  {s.unscored}")
            continue
        lines.append(
            f"{name:<{width}}{total:>7}{s.tp:>5}{s.fp:>5}{s.fn:>5}{s.tn:>5}{_ratio(s.precision):>11}{_ratio(s.recall):>8}"
        )
        lines.extend(fit(f"  wrong: {case}: {s.why[case]}", WIDTH) for case in s.misses)
    return lines


def _ratio(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.2f}"
