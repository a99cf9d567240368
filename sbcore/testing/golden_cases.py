"""Golden cases: what they hold and how their files load, with every problem named by file, line and key.

A golden case is one YAML file at ``goldens/<pack>/<detector>/<case>.yaml`` (schema:
``sbcore/schemas/golden.schema.json``): what the coding agent did, inline or as a range of a recorded
transcript, and a label. Inline observations are written out as the projector writes them
(:func:`inline_observations`), so a replayed fork reads the same window it would read in a session. The runner
that checks a case against its detector is :mod:`sbcore.testing.goldens`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sbcore.observe.model import Observation
from sbcore.packs.errors import ErrorChain, format_key, render_chains
from sbcore.packs.model import SourceRef
from sbcore.problems import Problem, SbcoreError
from sbcore.safefile import read_regular_text
from sbcore.safeyaml import MAX_YAML_CHARS
from sbcore.think import FEEDBACK_TOOL

if TYPE_CHECKING:
    from sbcore.schemas import yamlpos

Label = Literal["must_fire", "must_stay_silent"]
Judged = Literal["advisory", "trigger"]

LABELS: tuple[Label, ...] = ("must_fire", "must_stay_silent")

CASE_SUFFIXES = (".yaml", ".yml")
ENV_SHARED = "SBCORE_SHARED_DIR"
SHARED_PREFIX = "shared:"
_KEY_HINTS = {
    "transcript.records": 'a 1-based, inclusive range of JSONL lines: "120-180", or "120-" to the end',
    "label": "must_fire (the detector must advise) or must_stay_silent (it must not)",
    "judge": "advisory (whether the detector advises; the default) or trigger (whether its trigger runs it)",
    "split": "tuning, held-out or never-tuned",
}


class GoldenError(SbcoreError):
    """One or more golden case files are invalid; ``chains`` holds every problem found."""

    def __init__(self, chains: Iterable[ErrorChain]) -> None:
        self.chains = list(chains)
        super().__init__(render_chains(self.chains))

    @property
    def problems(self) -> list[Problem]:
        return [chain.to_problem() for chain in self.chains]


# --------------------------------------------------------------------------------------------
# The case model
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TranscriptRef:
    """A recorded transcript and the inclusive, 1-based line range to project (``None``: to the end).

    ``ranged``: the case named a range (``records``), which is judged with the lines before it as its
    history (:mod:`sbcore.testing.golden_range`); a whole transcript is one pass over all of it.
    """

    path: str
    first: int = 1
    last: int | None = None
    ranged: bool = False

    def resolve(self, case_file: Path) -> tuple[Path | None, str]:
        """The transcript's path, or None and why it is not available (only shared files may be absent)."""
        if not self.path.startswith(SHARED_PREFIX):
            return case_file.parent / self.path, ""
        relative = self.path[len(SHARED_PREFIX) :].lstrip("/")
        base = shared_dir(case_file)
        if base is None:
            return None, (
                f"shared transcript {relative} is not available: set {ENV_SHARED} or put the shared "
                "directory next to the repository (../shared)"
            )
        resolved = base / relative
        if not resolved.is_file():
            return None, f"shared transcript {resolved} does not exist"
        return resolved, ""


@dataclass(frozen=True)
class InterleaveRef:
    """Transcripts replayed together on one clock, and the directory standing in for their checkout."""

    transcripts: tuple[str, ...]
    checkout: str | None = None

    def paths(self, case_file: Path) -> list[Path]:
        return [case_file.parent / path for path in self.transcripts]


@dataclass(frozen=True)
class Expectation:
    """What a firing case must also satisfy."""

    dedup_key: str | None = None
    headline_pattern: str | None = None


@dataclass(frozen=True)
class GoldenCase:
    """One parsed golden case; ``id`` (``pack/detector/name``) names it in reports."""

    pack: str
    """The pack whose detector it checks; empty for a case of a labels file, which checks the detector of
    that id whichever pack defines it."""
    detector: str
    name: str
    path: Path
    description: str
    label: Label
    observations: tuple[Observation, ...] | None
    transcript: TranscriptRef | None
    interleave: InterleaveRef | None = None
    turn_end: bool = True
    trusted: bool = False
    """The workspace is trusted: a recorded Run of repository code is answered, not refused."""
    overrides: Mapping[str, Any] = field(default_factory=dict)
    expect: Expectation = field(default_factory=Expectation)
    provider_io: tuple[Mapping[str, Any], ...] = ()
    line_of_config: int | None = None
    notes: str | None = None
    """A directory of notes (relative to the case file) the recall index holds for this case."""
    judge: Judged = "advisory"
    """``trigger``: the case judges whether the detector's trigger would run it, not what it advises."""
    family: str = ""
    """The ecosystem or situation the case comes from (free text), as in a labels file."""
    split: str = ""
    """``tuning``, ``held-out`` or ``never-tuned`` (empty: not said), as in a labels file."""

    @property
    def id(self) -> str:
        return f"{self.pack}/{self.detector}/{self.name}" if self.pack else self.name

    @property
    def uses_shared_corpus(self) -> bool:
        return self.transcript is not None and self.transcript.path.startswith(SHARED_PREFIX)

    def __str__(self) -> str:
        return self.id

    def load_observations(self) -> tuple[tuple[Observation, ...] | None, str]:
        """The observations this case describes, or None and the reason they are unavailable."""
        if self.observations is not None:
            return self.observations, ""
        assert self.transcript is not None  # the schema requires one of the two
        path, reason = self.transcript.resolve(self.path)
        if path is None:
            return None, reason
        if not path.is_file():
            raise GoldenError(
                [
                    ErrorChain(
                        SourceRef(str(self.path)),
                        f"no transcript at {path}",
                        self.detector,
                        "transcript.path",
                    )
                ]
            )
        return project_transcript(path, self.transcript.first, self.transcript.last), ""


def project_transcript(path: Path, first: int = 1, last: int | None = None) -> tuple[Observation, ...]:
    """Lines ``first``..``last`` (1-based, inclusive) of a JSONL transcript, projected like the observer."""
    from sbcore.observe.project import Projector

    lines = path.read_bytes().splitlines()
    return tuple(Projector().feed_lines(lines[first - 1 : last]))


def shared_dir(case_file: Path) -> Path | None:
    """``$SBCORE_SHARED_DIR``, else the ``shared`` directory beside the repository holding ``case_file``.

    The repository is the directory above the nearest ``goldens/`` in the
    case's path; None when there is no such directory or no ``shared`` beside it.
    """
    configured = os.environ.get(ENV_SHARED)
    if configured:
        return Path(configured) if Path(configured).is_dir() else None
    parents = case_file.resolve().parents
    for index, parent in enumerate(parents):
        if parent.name == "goldens" and index + 1 < len(parents):
            candidate = parents[index + 1].parent / "shared"
            return candidate if candidate.is_dir() else None
    return None


# --------------------------------------------------------------------------------------------
# Finding and loading cases
# --------------------------------------------------------------------------------------------


def case_files(root: Path, packs: Collection[str] | None = None) -> list[Path]:
    """``root/<pack>/<detector>/<case>.yaml`` files, sorted; only the named packs when given."""
    if not root.is_dir():
        return []
    found = []
    for pack_dir in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        if packs is not None and pack_dir.name not in packs:
            continue
        for detector_dir in sorted(
            p for p in pack_dir.iterdir() if p.is_dir() and not p.name.startswith(".")
        ):
            found.extend(
                sorted(p for p in detector_dir.iterdir() if p.suffix in CASE_SUFFIXES and p.is_file())
            )
    return found


def is_case_file(path: Path, root: Path) -> bool:
    """Whether ``path`` sits where a golden case does: exactly ``root/<pack>/<detector>/<file>.yaml``."""
    try:
        relative = path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    if len(relative.parts) != 3 or path.suffix not in CASE_SUFFIXES:
        return False
    return not (relative.parts[0].startswith((".", "_")) or relative.parts[1].startswith("."))


def case_test_id(path: Path) -> str:
    """A case file's test id, ``<pack>.<detector>.<case>``.

    Not ``/``-separated: syrupy drops ``/`` from snapshot file names, which
    could make two ids share one snapshot.
    """
    return f"{path.parent.parent.name}.{path.parent.name}.{path.stem}"


def load_cases(root: Path, packs: Collection[str] | None = None) -> list[GoldenCase]:
    """Every case under ``root`` (only ``packs`` when given); one GoldenError lists every bad file."""
    cases: list[GoldenCase] = []
    chains: list[ErrorChain] = []
    for path in case_files(root, packs):
        try:
            cases.append(load_case(path))
        except GoldenError as exc:
            chains.extend(exc.chains)
    if chains:
        raise GoldenError(chains)
    return cases


def load_case(path: Path, pack: str | None = None) -> GoldenCase:
    """Parse and validate one case file; the detector is its directory's name, the pack (unless given)
    the one above (a workspace's cases, ``.second-brain/goldens/<detector>/``, are given ``workspace``)."""
    from sbcore.schemas import yamlpos

    detector, pack = path.parent.name, pack or path.parent.parent.name
    here = SourceRef(str(path))
    try:
        text = read_regular_text(path, max_bytes=MAX_YAML_CHARS)
        located = yamlpos.load(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise GoldenError([ErrorChain(here, f"cannot read the case file: {exc}", detector)]) from exc
    except yamlpos.YamlSyntaxError as exc:
        raise GoldenError(
            [ErrorChain(SourceRef(str(path), exc.line), f"invalid YAML: {exc.message}")]
        ) from exc
    if located.problems:
        raise GoldenError(
            ErrorChain(SourceRef(str(path), p.line), p.message, detector, format_key(p.path) or None, p.hint)
            for p in located.problems
        )
    problems = case_problems(located.data, located, path, detector)
    if not re.fullmatch(r"[a-z][a-z0-9-]{1,62}", detector):
        problems.append(
            ErrorChain(
                here,
                f"the case's directory {detector!r} is not a detector id",
                hint="golden cases live at goldens/<pack>/<detector-id>/<case>.yaml",
            )
        )
    if problems:
        raise GoldenError(problems)
    return build_case(path, pack, detector, path.stem, located.data, located, ())


def case_problems(
    data: Any, located: yamlpos.Located, path: Path, detector: str, at: tuple[str | int, ...] = ()
) -> list[ErrorChain]:
    """Every problem of the case mapping ``data``, which sits at key path ``at`` of ``located`` (a case
    file is a case on its own; a labels file holds cases under ``cases``), each located by its line."""

    def chain(key: tuple[str | int, ...], message: str, hint: str | None = None) -> ErrorChain:
        source = SourceRef(str(path), located.line_of((*at, *key)))
        return ErrorChain(source, message, detector, format_key(key) or None, hint)

    chains = [chain(key, message, hint) for key, message, hint in _schema_problems(data)]
    records = (data.get("transcript") or {}).get("records", "") if not chains else ""
    first, _, last = records.partition("-")
    if last and int(last) < int(first):
        chains.append(chain(("transcript", "records"), f"the range {records!r} ends before it starts"))
    chains.extend(
        chain(key, message, hint) for key, message, hint in ([] if chains else _judge_problems(data))
    )
    chains.extend(chain(key, message) for key, message in ([] if chains else _recording_problems(data)))
    return chains


def _schema_problems(data: Any) -> list[tuple[tuple[str | int, ...], str, str | None]]:
    """(key path, message, hint) per schema violation, the clearest wording first.

    A misspelt key is reported once, as unknown with its correction, not a
    second time as the required key it was meant to be.
    """
    from jsonschema.exceptions import relevance

    if not isinstance(data, dict):
        return [
            ((), "a golden case is a mapping (description, label, observations or transcript, ...)", None)
        ]
    problems: list[tuple[tuple[str | int, ...], str, str | None]] = []
    missing: list[tuple[tuple[str | int, ...], str]] = []
    corrected: set[tuple[tuple[str | int, ...], str]] = set()
    for error in sorted(_case_validator().iter_errors(data), key=relevance):
        path = tuple(error.absolute_path)
        if error.validator == "oneOf" and not path:
            given = [f"'{key}'" for key in ("observations", "transcript", "interleave") if key in data]
            which = " and ".join(given) + " given" if given else "none given"
            message = f"give exactly one of 'observations', 'transcript' and 'interleave' ({which})"
            problems.append(((), message, None))
        elif error.validator == "not" and not path:
            problems.append(
                (("expect",), "'expect' applies only to must_fire cases", "drop it, or label it must_fire")
            )
        elif error.validator == "required":
            missing.extend((path, key) for key in error.validator_value if key not in error.instance)
        elif error.validator == "additionalProperties":
            allowed = sorted(error.schema.get("properties", {}))
            patterns = [re.compile(p) for p in error.schema.get("patternProperties", {})]
            extra = {key for key in error.instance if not any(p.search(key) for p in patterns)}
            for key in sorted(extra - set(allowed)):
                close = _closest(key, allowed)
                if close:
                    corrected.add((path, close))
                hint = f"Typo? did you mean {close!r}?" if close else f"allowed keys: {', '.join(allowed)}"
                problems.append(((*path, key), f"unknown key {key!r}", hint))
        elif "propertyNames" in error.schema_path:
            allowed = error.schema.get("enum", [])
            close = _closest(error.instance, allowed)
            hint = f"Typo? did you mean {close!r}?" if close else "overridable: " + ", ".join(allowed)
            message = f"{error.instance!r} cannot be overridden in a golden case"
            problems.append(((*path, error.instance), message, hint))
        else:
            problems.append((path, error.message, _KEY_HINTS.get(format_key(path))))
    problems.extend(
        (path, f"{key!r} is a required property", None)
        for path, key in missing
        if (path, key) not in corrected
    )
    return problems


def _judge_problems(data: Mapping[str, Any]) -> list[tuple[tuple[str | int, ...], str, str]]:
    """(key path, message, hint) per key a case judged on its trigger cannot have: both are about the
    advisory, which such a case never asks for."""
    if data.get("judge") != "trigger":
        return []
    hint = "drop it, or judge the advisory (leave 'judge' out) in a case of its own"
    return [
        (
            (key,),
            f"{key!r} is about the advisory, but this case judges only the trigger (judge: trigger)",
            hint,
        )
        for key in ("provider_io", "expect")
        if key in data
    ]


def _recording_problems(data: Mapping[str, Any]) -> list[tuple[tuple[str | int, ...], str]]:
    """(key path, message) per recorded response whose tool results do not pair up with its tool calls."""
    recording = data.get("provider_io") or ()
    if not recording:
        return []
    from sbcore.testing.golden_replay import expected_tool_results

    problems: list[tuple[tuple[str | int, ...], str]] = []
    for index, item in enumerate(recording):
        wanted, given = expected_tool_results(item["response"]), len(item.get("tool_results") or ())
        if wanted == given:
            continue
        names = [b.get("name") for b in item["response"]["content"] if b.get("type") == "tool_use"]
        if wanted:
            message = f"the response makes {wanted} tool call(s), but {given} tool result(s) are recorded: "
            message += "record one per call, in order"
        elif FEEDBACK_TOOL in names:
            message = f"the response calls {FEEDBACK_TOOL}, which ends the fork before any tool runs: "
            message += f"drop its tool_results ({given} recorded)"
        else:
            message = f"the response makes no tool call: drop its tool_results ({given} recorded)"
        problems.append((("provider_io", index, "tool_results"), message))
    return problems


@cache
def _case_validator() -> Any:
    from jsonschema import Draft202012Validator

    from sbcore.schemas import load_schema

    schema = load_schema("golden")
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def _closest(word: str, choices: Sequence[str]) -> str | None:
    import difflib

    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return close[0] if close else None


def build_case(
    path: Path,
    pack: str,
    detector: str,
    name: str,
    data: dict[str, Any],
    located: yamlpos.Located,
    at: tuple[str | int, ...],
) -> GoldenCase:
    """The case of a mapping :func:`case_problems` found nothing wrong with (``at``: where it sits)."""
    observations = None
    if "observations" in data:
        observations = inline_observations(data["observations"])
    transcript = None
    if "transcript" in data:
        first, _, last = data["transcript"].get("records", "1-").partition("-")
        transcript = TranscriptRef(
            data["transcript"]["path"],
            int(first),
            int(last) if last else None,
            ranged="records" in data["transcript"],
        )
    interleave = None
    if "interleave" in data:
        spec = data["interleave"]
        interleave = InterleaveRef(tuple(spec["transcripts"]), spec.get("checkout"))
    expect = data.get("expect") or {}
    return GoldenCase(
        pack=pack,
        detector=detector,
        name=name,
        path=path,
        description=data["description"],
        label=data["label"],
        observations=observations,
        transcript=transcript,
        interleave=interleave,
        turn_end=data.get("turn_end", True),
        trusted=data.get("trusted", False),
        overrides=dict(data.get("config") or {}),
        expect=Expectation(expect.get("dedup_key"), expect.get("headline_pattern")),
        provider_io=tuple(data.get("provider_io") or ()),
        line_of_config=located.line_of((*at, "config")) if "config" in data else None,
        notes=data.get("notes"),
        judge=data.get("judge", "advisory"),
        family=data.get("family", ""),
        split=data.get("split", ""),
    )


def inline_observations(items: Sequence[Mapping[str, Any]]) -> tuple[Observation, ...]:
    """A case's inline observations, with ``text`` written the way the projector writes it.

    ``text`` is what a detector's model reads in its window. The projector
    starts it with the observation's tag (``[prompt] ``, ``[text] ``,
    ``[error] Bash: ``, ``[report] Task: ``) and renders a tool call from its
    name and arguments. A case may leave both out so that it reads naturally;
    they are filled in here, or a replayed fork would see bare sentences and
    blank lines where the agent's tool calls were. Text a case does give with
    its tag is kept as it is; ``args`` and ``locators`` are never changed
    (triggers read them), except that a tool call without locators gets the
    projector's.
    """
    from sbcore.observe.anchors import AnchorResolver
    from sbcore.observe.calls import CallProjector
    from sbcore.observe.config import ProjectionConfig

    class NoAnchors(AnchorResolver):
        """A case's paths name files of a workspace that is not here: never read this machine's files."""

        def resolve(self, file_path: str, cwd: str | None, new: str, old: str) -> tuple[int, int] | None:
            return None

    calls = CallProjector(ProjectionConfig())
    calls.anchors = NoAnchors()
    observations = []
    for item in items:
        kind, tool = item["kind"], item.get("tool")
        args = dict(item.get("args") or {})
        locators = tuple(item.get("locators") or ())
        text = item.get("text", "")
        if kind == "tool" and not text:
            projected = calls.project(tool or "tool", args, None)
            text, locators = projected.text, locators or projected.locators
        elif kind != "tool" and not text.startswith((f"[{kind}]", "[sub] ")):
            tag = f"[{kind}] {tool or 'tool'}: " if kind in ("error", "report") else f"[{kind}] "
            text = tag + text
        observations.append(
            Observation(
                kind=kind,
                text=text,
                timestamp=item.get("timestamp"),
                uuid=item.get("uuid"),
                tool=tool,
                tool_use_id=item.get("tool_use_id"),
                args=args,
                locators=locators,
            )
        )
    return tuple(observations)
