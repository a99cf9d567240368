"""Golden cases: a detector's must-fire and must-stay-silent examples, and the runner that checks them.

A golden case (:mod:`sbcore.testing.golden_cases`: the model and the loading) is what the coding agent
did and a label. It is to a detector what semgrep's ``# ruleid:`` / ``# ok:`` lines are to a rule.

The runner evaluates a case the way the observer would in one pass, using the
installed packs (so a detector file missing from a pack's package data is a
failing case, not a silently shorter catalogue):

1. the detector as the installed packs define it, with the case's
   ``config`` overrides applied and nothing from the user's own configuration;
2. its cadence: a ``turn_end`` detector is not due unless the case ends a turn
   (every other cadence is taken to be due: a case is one pass where it is);
3. its structural trigger, on the case's observations; no match means the
   detector never runs, which settles silence without a model;
4. a match with a ``fallback`` gives the advisory the offline provider would
   deliver; a match without one, or a detector with no trigger at all, needs
   the model. When the case records the model's side (``provider_io``: its
   responses, and what its tool calls returned), the fork runs through the
   pass engine against sbcore.testing's fake provider answering with the
   recording (:mod:`sbcore.testing.golden_replay`); a case with no recording
   is reported *pending*, with the reason, and never as passed.

A case with ``judge: trigger`` stops after step 3: for a model detector whose
trigger decides when a pass is worth it, it asserts that the pass would run
(``must_fire``: the cadence admits it and the trigger matches) or would not,
which needs no model and no recording.

The result carries a normalised decision (ids and times replaced by stable
placeholders, floats rounded) for syrupy snapshots; see
:mod:`sbcore.testing.pytest_plugin`.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sbcore.observe.model import Observation
from sbcore.packs.errors import ErrorChain, format_key, render_chains
from sbcore.packs.model import SourceRef
from sbcore.testing.golden_cases import GoldenCase, GoldenError
from sbcore.timebound import PatternTimeout, time_bound

if TYPE_CHECKING:
    from sbcore.packs.catalogue import EffectiveCatalogue
    from sbcore.packs.manager import PackManager
    from sbcore.packs.model import DetectorDef
    from sbcore.packs.registry import Registry
    from sbcore.state.recall import RecallWindow
    from sbcore.think.feedback import FeedbackResult

Outcome = Literal["passed", "failed", "pending", "skipped"]

HEADLINE_BOUND_S = 1.0
"""Wall-time bound on matching one ``headline_pattern``, or on validating a case's feedback against the
detector's schema (see :mod:`sbcore.timebound`)."""
FLOAT_DIGITS = 3
MODEL_ONLY = "model-only detector: the case records no provider I/O (provider_io) to replay its fork"
NO_TRIGGER = (
    "the case judges the trigger (judge: trigger), but this detector has none: its cadence alone runs it"
)
MODEL_DECIDES = (
    "the trigger matched and this detector has no fallback, so whether it advises is the model's call: "
    "the case records no provider I/O (provider_io) to replay its fork"
)
_ISO_TIME = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b")
_UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")


# --------------------------------------------------------------------------------------------
# Running cases
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Evaluation:
    """What one pass of the detector made of the observations.

    ``by`` says what decided: ``cadence`` (not due), ``trigger`` (no match, so
    the detector never ran), ``fallback`` (the offline advisory), ``provider``
    (the fork, replayed against recorded provider I/O), or None when nothing
    available can decide (``pending`` says why).
    """

    by: Literal["cadence", "trigger", "fallback", "provider"] | None
    fired: bool = False
    match: Mapping[str, Any] | None = None
    feedback: Mapping[str, Any] | None = None
    note: str = ""
    pending: str = ""
    problem: str = ""  # the evaluation itself went wrong (a replay that diverged from its recording)
    replay: Mapping[str, Any] | None = None  # by "provider": the model and tool calls the fork made


@dataclass(frozen=True)
class GoldenResult:
    """A case's outcome: passed, failed, pending (needs a model) or skipped (input unavailable)."""

    case: GoldenCase
    outcome: Outcome
    reason: str = ""
    decision: dict[str, Any] | None = None  # normalised; set once the case was evaluated

    @property
    def snapshot_value(self) -> dict[str, Any] | None:
        """What the case's snapshot holds: the decision, or for the shared corpus only its digest.

        Corpus transcripts are not ours to copy into a repository, and a
        decision quotes them (commands, error lines), so those snapshots keep
        the outline and a SHA-256 of the normalised decision instead.
        """
        if self.decision is None or not self.case.uses_shared_corpus:
            return self.decision
        import hashlib
        import json

        canonical = json.dumps(self.decision, sort_keys=True, ensure_ascii=False).encode()
        outline = ("detector", "pack", "label", "observations", "decided_by", "fired")
        return {
            **{key: self.decision[key] for key in outline},
            "decision_sha256": hashlib.sha256(canonical).hexdigest(),
        }

    def report(self) -> str:
        """What a failing or pending case prints: the case file, its label and what happened."""
        head = f"{self.case.path} ({self.case.label}): {self.case.description}"
        return f"{head}\n  {self.outcome}: {self.reason}" if self.reason else f"{head}\n  {self.outcome}"


class GoldenRunner:
    """Runs golden cases against the installed packs (or the manager it is given).

    The catalogue is assembled from the packs alone: defaults-only
    configuration, no ``catalogue.file``, no workspace detectors, so a case
    means the same on every machine. Detectors are evaluated whether or not
    they are enabled by default. Given a ``workspace``, its own detector files
    (``.second-brain/detectors/``, pack ``workspace``) join the catalogue,
    still with defaults-only configuration.
    """

    def __init__(self, manager: PackManager | None = None, *, workspace: Path | None = None) -> None:
        self._manager = manager
        self._base: EffectiveCatalogue | None = None
        self.workspace = workspace

    @property
    def manager(self) -> PackManager:
        if self._manager is None:
            from sbcore.packs.manager import get_plugin_manager

            self._manager = get_plugin_manager()
        return self._manager

    def run(self, case: GoldenCase) -> GoldenResult:
        definition, problem = self._definition(case)
        if definition is None:
            return GoldenResult(case, "failed", problem)
        if case.interleave is not None:
            return self._run_interleaved(case, definition)
        try:
            observations, unavailable = case.load_observations()
        except GoldenError as exc:
            return GoldenResult(case, "failed", str(exc))
        if observations is None:
            return GoldenResult(case, "skipped", unavailable)
        if case.transcript is not None and case.transcript.ranged:
            return self._run_ranged(case, definition, observations)
        try:
            evaluation = self.evaluate(definition, observations, case)
        except GoldenError as exc:  # a case naming a notes directory that is not there
            return GoldenResult(case, "failed", str(exc))
        decision = normalise(_decision(case, definition, observations, evaluation), observations)
        if evaluation.by is None and not evaluation.problem:
            return GoldenResult(case, "pending", evaluation.pending, decision)
        failure = _judge(case, definition, evaluation)
        return GoldenResult(case, "failed" if failure else "passed", failure, decision)

    def evaluate(
        self, definition: DetectorDef, observations: Sequence[Observation], case: GoldenCase
    ) -> Evaluation:
        """One pass of ``definition`` over ``observations`` (see the module docstring for the steps)."""
        if definition.cadence.kind == "turn_end" and not case.turn_end:
            return Evaluation(
                "cadence", note="cadence turn_end: the detector is not due before the turn ends"
            )
        if case.provider_io:
            return self._replay(definition, observations, case)
        trigger = definition.trigger
        if trigger is None:
            if case.judge == "trigger":
                return Evaluation(None, problem=NO_TRIGGER)
            return Evaluation(None, pending=MODEL_ONLY)
        registry: Registry = self.manager.registry
        spec = registry.triggers.get(trigger.name)
        if spec is None:
            return Evaluation(
                None,
                pending=f"trigger {trigger.name!r} is not registered by any installed pack, "
                "so this detector cannot run in this version",
            )
        result = self._offline_pass(definition, observations, case)
        if result.status == "untriggered" and (result.error or "").startswith(
            f"trigger {trigger.name} failed:"
        ):
            # The live engine logs a broken trigger and goes on; a golden case must fail on it.
            return Evaluation(None, problem=f"the detector's {result.error}")
        if result.status == "untriggered" or result.match is None:
            return Evaluation(
                "trigger",
                note=f"trigger {trigger.name!r} found no match in {len(observations)} observation(s)",
            )
        match = result.match.as_template_input()
        if case.judge == "trigger":
            return _trigger_fired(match)
        if not definition.fallback:
            return Evaluation(None, match=match, pending=MODEL_DECIDES)
        feedback = dict(result.feedback or {"verdict": "silent"})
        fired = feedback.get("verdict") == "advise"
        return Evaluation("fallback", fired=fired, match=match, feedback=feedback, note=match["summary"])

    def _run_interleaved(self, case: GoldenCase, definition: DetectorDef) -> GoldenResult:
        """Replay the case's transcripts together through the whole observer (offline) and judge that.

        Like ``second-brain replay --interleave``: each transcript its own task, one clock, a private
        cross-task index. The detector fires when it advised in any pass of any of the sessions.
        """
        from sbcore.testing.golden_interleave import replay_interleaved

        assert case.interleave is not None
        missing = [path for path in case.interleave.paths(case.path) if not path.is_file()]
        if missing:
            return GoldenResult(case, "failed", f"no transcript at {missing[0]}")
        if case.provider_io:
            return GoldenResult(case, "failed", "an interleaved case replays offline: drop its provider_io")
        spec = case.interleave
        checkout = case.path.parent / spec.checkout if spec.checkout else None
        replayed = replay_interleaved(definition, spec.paths(case.path), checkout, manager=self.manager)
        where = f"of {replayed.sessions} interleaved session(s)"
        return _replayed(case, definition, replayed.observations, replayed.result, where)

    def _run_ranged(
        self, case: GoldenCase, definition: DetectorDef, observations: Sequence[Observation]
    ) -> GoldenResult:
        """Replay the transcript through the whole observer (offline), the records before the range as its
        history, and judge what the detector answered in the passes within the range."""
        from sbcore.testing.golden_range import replay_range

        ref = case.transcript
        assert ref is not None
        if case.provider_io:
            return GoldenResult(
                case, "failed", "a range (transcript.records) is replayed offline: drop its provider_io"
            )
        if not case.turn_end:
            return GoldenResult(
                case, "failed", "a range's turn ends are the transcript's own: drop its turn_end"
            )
        path, _ = ref.resolve(case.path)
        assert path is not None  # load_observations found it
        ranged = replay_range(definition, path, ref.first, ref.last, manager=self.manager)
        where = f"of lines {ref.first}-{ref.last or 'end'} ({ranged.passes} pass(es), with the lines before)"
        return _replayed(case, definition, observations, ranged.result, where)

    def _offline_pass(
        self, definition: DetectorDef, observations: Sequence[Observation], case: GoldenCase
    ) -> FeedbackResult:
        """The detector's one pass through the pipeline with no model: its trigger, then its fallback.

        A case with ``notes`` gets a scratch recall index of them (see :func:`case_recall`).
        """
        from sbcore.conductor.scratch import detector_case

        with case_recall(case) as recall:
            return asyncio.run(
                detector_case(
                    definition,
                    observations,
                    turn_end=case.turn_end,
                    triggers=self.manager.registry.triggers,
                    environment=self.manager.template_environment(),
                    recall=recall,
                )
            )

    def _replay(
        self, definition: DetectorDef, observations: Sequence[Observation], case: GoldenCase
    ) -> Evaluation:
        """Run the detector's fork through the pass engine against the recorded replies.

        See :mod:`sbcore.testing.golden_replay`: a replay that leaves its
        recording fails the case instead of passing it for the wrong reason.
        """
        from sbcore.testing.golden_replay import replay

        with case_recall(case) as recall:
            replayed = replay(
                definition,
                observations,
                case.provider_io,
                manager=self.manager,
                turn_end=case.turn_end,
                recall=recall,
                trusted=case.trusted,
            )
        result = replayed.result
        match = result.match.as_template_input() if result.match is not None else None
        if result.status == "untriggered":
            return Evaluation("trigger", match=match, note=f"the trigger did not match: {result.error}")
        if replayed.problem:
            return Evaluation(None, match=match, problem=replayed.problem)
        if result.status not in ("answered", "prose", "invalid"):
            return Evaluation(
                None, match=match, problem=f"the replayed fork ended {result.status}: {result.error}"
            )
        feedback = dict(result.feedback or {"verdict": "silent"})
        note = (
            "the model answered" if result.status == "answered" else f"the model's reply was {result.status}"
        )
        if result.status != "answered":
            note += ", which the engine reads as silence"
        return Evaluation(
            "provider",
            fired=feedback.get("verdict") == "advise",
            match=match,
            feedback=feedback,
            note=note,
            replay=replayed.summary(),
        )

    def _definition(self, case: GoldenCase) -> tuple[DetectorDef | None, str]:
        """The detector under test as installed, with the case's overrides; or None and why not."""
        from sbcore.packs.catalogue import assemble_catalogue

        unavailable = self._pack_problem(case.pack) if case.pack else ""
        if unavailable:
            return None, unavailable
        if self._base is None:
            self._base = assemble_catalogue(self.manager, config=_defaults_config(self.workspace))
        catalogue = self._base
        if case.overrides:
            overrides = {case.detector: case.overrides}
            catalogue = assemble_catalogue(
                self.manager, config=_defaults_config(self.workspace), overrides=overrides
            )
        found = catalogue.get(case.detector)
        if found is None:
            return None, _not_in_pack(case, catalogue)
        definition = found.definition
        if case.pack and definition.pack != case.pack:
            return None, (
                f"detector {case.detector!r} comes from pack {definition.pack!r}, but this case is filed "
                f"under pack {case.pack!r}: move it to goldens/{definition.pack}/{case.detector}/"
            )
        refused = [
            ErrorChain(
                SourceRef(str(case.path), case.line_of_config),
                chain.problem.removesuffix("; this detector's overrides are ignored"),
                chain.detector,
                "config" + (chain.key or "").removeprefix(f"detectors.{case.detector}"),
                chain.hint,
            )
            for chain in catalogue.problems
            if case.overrides
            and chain.detector == case.detector
            and (chain.key or "").startswith("detectors.")
        ]
        if refused:
            return None, "the case's config overrides are refused:\n" + render_chains(refused)
        return definition, ""

    def _pack_problem(self, pack: str) -> str:
        """Why ``pack`` cannot be tested here (failed to load, or not installed), or ""."""
        from sbcore.packs.catalogue import WORKSPACE_PACK

        if pack == WORKSPACE_PACK and self.workspace is not None:
            return ""
        manager = self.manager
        broken = [b for b in manager.broken if b.name == pack]
        if broken:
            return f"pack {pack!r} failed to load: {broken[0]}"
        loaded = {info.name for info in manager.list_packs()}
        if pack not in loaded:
            return (
                f"no pack named {pack!r} is installed (installed: {', '.join(sorted(loaded)) or 'none'})"
                "; the directory under goldens/ must be the pack's entry point name"
            )
        return ""


def _replayed(
    case: GoldenCase,
    definition: DetectorDef,
    observations: Sequence[Observation],
    result: FeedbackResult | None,
    where: str,
) -> GoldenResult:
    """Judge a case replayed through the whole observer on the detector's answer (``result``: its first
    advising one, else its first triggered one; None when its trigger never matched)."""
    trigger = definition.trigger
    if trigger is None:
        evaluation = (
            Evaluation(None, problem=NO_TRIGGER)
            if case.judge == "trigger"
            else Evaluation(None, pending=MODEL_ONLY)
        )
    elif result is None or result.match is None:
        evaluation = Evaluation(
            "trigger",
            note=f"trigger {trigger.name!r} found no match in {len(observations)} observation(s) " + where,
        )
    elif case.judge == "trigger":
        evaluation = _trigger_fired(result.match.as_template_input())
    elif not definition.fallback:
        evaluation = Evaluation(None, match=result.match.as_template_input(), pending=MODEL_DECIDES)
    else:
        match = result.match.as_template_input()
        feedback = dict(result.feedback or {"verdict": "silent"})
        fired = feedback.get("verdict") == "advise"
        evaluation = Evaluation(
            "fallback", fired=fired, match=match, feedback=feedback, note=match["summary"]
        )
    decision = normalise(_decision(case, definition, observations, evaluation), observations)
    if evaluation.by is None and not evaluation.problem:
        return GoldenResult(case, "pending", evaluation.pending, decision)
    failure = _judge(case, definition, evaluation)
    return GoldenResult(case, "failed" if failure else "passed", failure, decision)


@contextlib.contextmanager
def case_recall(case: GoldenCase) -> Iterator[RecallWindow | None]:
    """A read-only recall window over the case's ``notes`` directory, indexed into a scratch data directory
    the way a workspace's notes are (every Markdown file under it); None for a case without notes."""
    if case.notes is None:
        yield None
        return
    from sbcore.conductor.recall_index import RecallSettings, scratch_index
    from sbcore.state.recall import RecallWindow

    root = (case.path.parent / case.notes).resolve()
    if not root.is_dir():
        raise GoldenError(
            [ErrorChain(SourceRef(str(case.path)), f"no notes directory at {root}", case.detector, "notes")]
        )
    settings = RecallSettings(sources=("**/*.md",))
    with scratch_index(root, settings) as reader:
        yield None if reader is None else RecallWindow(reader, settings.offered_window)


def _not_in_pack(case: GoldenCase, catalogue: EffectiveCatalogue) -> str:
    ids = sorted(d.id for d in catalogue.detectors if d.definition.pack == case.pack)
    message = (
        f"pack {case.pack!r} as installed defines no detector {case.detector!r} "
        f"(it defines: {', '.join(ids) or 'none'}). If the file is in your checkout, check that it is "
        "package data: a detector file missing from the wheel is missing here too"
    )
    related = [c for c in catalogue.problems if c.detector == case.detector or case.detector in c.source.path]
    return message + ("\n" + render_chains(related) if related else "")


def _defaults_config(workspace: Path | None = None) -> Any:
    """The configuration with nothing but the schema's defaults: cases must not depend on a user's files.

    With ``workspace``, that workspace's detector directory is in the catalogue (none of its layers are).
    """
    from sbcore.config.effective import EffectiveConfig, merge

    return EffectiveConfig(workspace, [], merge([]))


def _judge(case: GoldenCase, definition: DetectorDef, evaluation: Evaluation) -> str:
    """Why the evaluation contradicts the case, or "" when it agrees."""
    if evaluation.problem:
        return evaluation.problem
    feedback = evaluation.feedback or {}
    if feedback:
        problem = _feedback_problem(definition, feedback)
        if problem:
            return problem
    if case.judge == "trigger":
        if case.label == "must_stay_silent" and evaluation.fired:
            return f"expected the detector not to run, but its trigger matched: {evaluation.note}"
        if case.label == "must_fire" and not evaluation.fired:
            return f"expected the trigger to run the detector, but it did not: {evaluation.note}"
        return ""
    if case.label == "must_stay_silent":
        if evaluation.fired:
            return f"expected silence, but the detector advised: {feedback.get('headline', '')!r}"
        return ""
    if not evaluation.fired:
        return f"expected the detector to fire, but it stayed silent: {evaluation.note}"
    expect = case.expect
    if expect.dedup_key is not None and feedback.get("dedup_key") != expect.dedup_key:
        return f"expected dedup_key {expect.dedup_key!r}, got {feedback.get('dedup_key')!r}"
    if expect.headline_pattern is not None and not _headline_matches(
        expect.headline_pattern, feedback.get("headline", "")
    ):
        return f"headline {feedback.get('headline')!r} does not match {expect.headline_pattern!r}"
    return ""


def _trigger_fired(match: Mapping[str, Any]) -> Evaluation:
    """A case judged on its trigger, whose trigger matched: the pass would run the detector."""
    return Evaluation(
        "trigger",
        fired=True,
        match=match,
        note=f"the trigger matched, so the detector runs: {match['summary']}",
    )


def _headline_matches(pattern: str, headline: str) -> bool:
    """``re.search`` under a time bound: the pattern is the pack's, the headline the detector's."""
    try:
        with time_bound(HEADLINE_BOUND_S, f"headline_pattern {pattern!r}"):
            return re.search(pattern, headline) is not None
    except PatternTimeout:
        return False


def _feedback_problem(definition: DetectorDef, feedback: Mapping[str, Any]) -> str:
    """The advisory must be valid feedback for this detector, as a model's tool call would have to be."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    try:
        with time_bound(HEADLINE_BOUND_S, f"validating detector {definition.id!r}'s feedback"):
            error = best_match(Draft202012Validator(definition.schema).iter_errors(dict(feedback)))
    except PatternTimeout as exc:
        return str(exc)
    if error is None:
        return ""
    where = format_key(tuple(error.absolute_path)) or "(top level)"
    return f"the fallback renders feedback that breaks the detector's schema at {where}: {error.message}"


def _decision(
    case: GoldenCase, definition: DetectorDef, observations: Sequence[Observation], evaluation: Evaluation
) -> dict[str, Any]:
    return {
        "detector": definition.id,
        "pack": definition.pack,
        "label": case.label,
        "observations": len(observations),
        "decided_by": evaluation.by or "pending",
        "fired": evaluation.fired,
        "trigger": None
        if definition.trigger is None
        else {"name": definition.trigger.name, "match": evaluation.match},
        "feedback": evaluation.feedback,
        "note": evaluation.note or evaluation.pending,
        **({"replay": evaluation.replay} if evaluation.replay is not None else {}),
    }


def normalise(value: Any, observations: Sequence[Observation]) -> Any:
    """``value`` with the case's ids and times replaced by placeholders and floats rounded.

    Ids (``tool_use_id``, ``uuid``) and timestamps found in the observations
    become ``<id1>``, ``<id2>``, ``<time1>``… in order of first appearance, so
    two mentions of one id stay recognisably the same; any other ISO-8601 time
    or UUID left in a string becomes ``<time>`` / ``<uuid>``. List order is
    kept: triggers produce it deterministically, and it carries meaning
    (evidence is oldest first).
    """
    replacements: dict[str, str] = {}
    counts = {"id": 0, "time": 0}
    for obs in observations:
        for raw, prefix in ((obs.tool_use_id, "id"), (obs.uuid, "id"), (obs.timestamp, "time")):
            if raw and raw not in replacements:
                counts[prefix] += 1
                replacements[raw] = f"<{prefix}{counts[prefix]}>"
    ordered = sorted(replacements, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(raw) for raw in ordered)) if ordered else None

    def clean(item: Any) -> Any:
        if isinstance(item, Mapping):
            return {str(key): clean(sub) for key, sub in item.items()}
        if isinstance(item, list | tuple):
            return [clean(sub) for sub in item]
        if isinstance(item, float):
            return round(item, FLOAT_DIGITS)
        if isinstance(item, str):
            text = pattern.sub(lambda m: replacements[m.group(0)], item) if pattern else item
            return _UUID.sub("<uuid>", _ISO_TIME.sub("<time>", text))
        return item

    return clean(value)


@cache
def default_runner() -> GoldenRunner:
    """One runner per process over the installed packs (what ``GoldenCase.check`` uses)."""
    return GoldenRunner()
