"""The recall trigger: a failing run whose error line the team's own notes already talk about.

Structural, like the other triggers: it reads the observations and the session's recall window (the
read-only index of the workspace's notes and the observer's resolved advisories, see docs/recall.md) and
either finds an offer or stays silent. It never calls a model and never writes.

When the latest failed command's error line shares enough of its distinctive words with one chunk of the
notes (``min_shared`` words and ``min_share`` of them), that chunk is a **past fix**. Around it, at most one
each of:

- **contradicts**: a decision (an ADR, a decision record, CLAUDE.md or AGENTS.md) with a prohibition
  ("never", "do not", "must not", "avoid", "instead of", "deprecated") in a sentence that names what the
  agent is doing (a word of the failing command, of an edited file's name, or of the error);
- **analogous**: another note naming the same error type (``KeyError``, ``ECONNREFUSED``) that is not
  itself a match for this error;
- **tangent**: the forced outsider. The region of a chunk is the directory of its note (or ``advisories``);
  the dominant region is where the matches for this error concentrate. When no offer above comes from
  outside it, the best chunk from any other region that shares a word with the error or the work is added,
  so an offer is never all one cluster (when the index holds matches from one region only, there is none).

Chunks the session was offered before (the window's FIFO) are never offered again, so the same note does
not come back for the next failure of the same error; nor is a note the session has read (a read tool's
path, a ``cat`` of it): the agent already knows what it says. A failure offered on is not looked up again.

Match data: ``error`` (the error line), ``command``, ``offers`` (``kind``, ``label``, ``handle``,
``region``, ``why``, ``excerpt``), ``dominant_region``.
"""

from __future__ import annotations

import math
import re
from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sbcore.api import Observation, RecallHit, RecallWindow, TriggerMatch, recall_terms, report_once
from sbcore.observe.history import history_of

from .roles import COMMAND_TOOLS
from .triggers import error_headline

KIND_LABELS = {
    "past_fix": "Past fix",
    "contradicts": "Contradicts",
    "analogous": "Analogous",
    "tangent": "Tangent",
}
GENERIC_WORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "from",
        "that",
        "this",
        "not",
        "was",
        "were",
        "are",
        "has",
        "have",
        "had",
        "but",
        "into",
        "onto",
        "its",
        "his",
        "her",
        "you",
        "your",
        "our",
        "their",
        "there",
        "then",
        "than",
        "when",
        "what",
        "which",
        "who",
        "will",
        "would",
        "could",
        "should",
        "can",
        "cannot",
        "can't",
        "did",
        "does",
        "done",
        "use",
        "used",
        "using",
        "error",
        "errors",
        "failed",
        "fail",
        "fails",
        "failure",
        "exception",
        "traceback",
        "exit",
        "code",
        "line",
        "file",
        "most",
        "recent",
        "call",
        "last",
        "status",
        "returned",
        "non",
        "zero",
        "run",
        "running",
        "see",
        "also",
    ]
)
"""Words too common in error output to say which error it is."""
_ERROR_TYPE = re.compile(r"\b([A-Z][A-Za-z0-9]*(?:Error|Exception|Failure)|E[A-Z]{4,})\b")
_PROHIBITION = re.compile(
    r"\b(?:never|do not|don't|must not|mustn't|should not|avoid|instead of|deprecated|no longer|"
    r"we decided against|rejected)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n")
EDIT_TOOLS = ("Edit", "MultiEdit", "Write", "NotebookEdit")
WHY_CHARS = 100
EXCERPT_CHARS = 300
"""How much of each offered chunk the fork's prompt shows (the fallback shows none)."""
SEARCH_LIMIT = 12

RECALL_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "min_shared": {
            "type": "integer",
            "minimum": 1,
            "maximum": 20,
            "default": 3,
            "description": "Distinctive words of the error line a note's chunk must share to be a past fix.",
        },
        "min_share": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "default": 0.5,
            "description": "Share of the error line's distinctive words the chunk must hold (higher: fewer, "
            "surer past fixes).",
        },
        "max_offers": {
            "type": "integer",
            "minimum": 2,
            "maximum": 4,
            "default": 4,
            "description": "Most offer lines (the past fix first; room is kept for the outsider).",
        },
        "tools": {
            "type": "array",
            "items": {"type": "string", "minLength": 1},
            "default": list(COMMAND_TOOLS),
            "description": "Tools whose failures are looked up in the notes.",
        },
    },
}


def recall_offers(
    observations: Sequence[Observation],
    params: Mapping[str, Any],
    state: dict[str, Any],
    recall: RecallWindow | None = None,
) -> TriggerMatch | None:
    """Offer what the notes hold about the latest failure (see the module docstring)."""
    if recall is None:
        return None
    failure = _latest_failure(observations, frozenset(params.get("tools", COMMAND_TOOLS)))
    if failure is None:
        return None
    call, error = failure
    line = _error_line(error)
    key = error.tool_use_id or error.uuid or line
    if key in state.get("reported", ()):  # this failure was offered on already: no search, every pass
        return None
    words = distinctive(line)
    needed = max(
        int(params.get("min_shared", 3)), math.ceil(float(params.get("min_share", 0.5)) * len(words))
    )
    if len(words) < needed:
        return None
    read = _read_paths(observations)
    hits = [hit for hit in recall.search(words, limit=SEARCH_LIMIT) if not _was_read(hit.source, read)]
    past = next((hit for hit in hits if len(shared(words, hit)) >= needed), None)
    if past is None:
        return None
    report_once(state, key)
    command = str(call.args.get("command") or "")
    context = distinctive(" ".join([command, *_edited_names(observations)]))
    dominant = _dominant(hits, past)
    offers = [_offer("past_fix", past, f"names this error: {', '.join(shared(words, past)[:4])}")]
    chosen = {past.handle}
    contradicting = _contradicting(recall, words, context, chosen, read)
    if contradicting is not None:
        offers.append(contradicting)
        chosen.add(contradicting["handle"])
    analogous = _analogous(recall, line, words, needed, chosen, read)
    if analogous is not None:
        offers.append(analogous)
        chosen.add(analogous["handle"])
    limit = int(params.get("max_offers", 4))
    offers = offers[:limit]
    if all(offer["region"] == dominant for offer in offers):
        outsider = _outsider(recall, [*words, *context], dominant, chosen, read)
        if outsider is not None:
            offers = [*offers[: limit - 1], outsider]
    recall.remember(offer["handle"] for offer in offers)
    return TriggerMatch(
        key=f"recall:{key}",
        summary=f"the team's notes hold a past fix for `{line}`: {past.handle}",
        evidence=tuple(f"{o['label']} {o['handle']} why: {o['why']}" for o in offers),
        data={
            "error": line,
            "command": command,
            "offers": offers,
            "dominant_region": dominant,
        },
    )


def distinctive(text: str) -> list[str]:
    """The words of ``text`` that say which error (or which work) it is: no numbers, no generic words."""
    return [
        word
        for word in recall_terms(text)
        if len(word) >= 3 and not word.isdigit() and word not in GENERIC_WORDS and not _hexish(word)
    ]


def shared(words: Sequence[str], hit: RecallHit) -> list[str]:
    """The ``words`` a chunk holds (a word matches one with the same first six letters: fixes, fixed)."""
    held = recall_terms(f"{hit.heading} {hit.body}")
    stems = {word[:6] for word in held}
    exact = set(held)
    return [word for word in words if word in exact or (len(word) >= 6 and word[:6] in stems)]


def _hexish(word: str) -> bool:
    return len(word) >= 8 and all(c in "0123456789abcdef" for c in word)


def _latest_failure(
    observations: Sequence[Observation], tools: frozenset[str]
) -> tuple[Observation, Observation] | None:
    """The latest call of ``tools`` whose result was an error, with that error."""
    failures = history_of(observations).fold("recall-failures", _Failures)
    for error in reversed(failures.errors):
        call = failures.calls.get(error.tool_use_id or "")
        if call is not None and call.tool in tools:
            return call, error
    return None


class _Failures:
    """A fold of the calls by id (the latest call per id) and of the errors answering a call, in order: the
    latest failure is found from the last error back, not by walking the history on every pass."""

    def __init__(self) -> None:
        self.calls: dict[str, Observation] = {}
        self.errors: deque[Observation] = deque()
        self._order: deque[tuple[int, Observation]] = deque()  # every call and error kept, oldest first

    def add(self, index: int, obs: Observation) -> None:
        if not obs.tool_use_id:
            return
        if obs.kind == "tool":
            self.calls[obs.tool_use_id] = obs
        elif obs.kind == "error":
            self.errors.append(obs)
        else:
            return
        self._order.append((index, obs))

    def forget(self, before: int) -> None:
        while self._order and self._order[0][0] < before:
            _, obs = self._order.popleft()
            if obs.kind == "error":
                self.errors.popleft()
            elif self.calls.get(obs.tool_use_id or "") is obs:
                del self.calls[obs.tool_use_id or ""]


def _error_line(error: Observation) -> str:
    line = (error.outcome or {}).get("line")
    return line if isinstance(line, str) and line else error_headline(error.text)


def _edited_names(observations: Sequence[Observation]) -> list[str]:
    """The file names (without directories) of the files this task edited, most recent last."""
    names = []
    for obs in observations:
        if obs.kind == "tool" and obs.tool in EDIT_TOOLS:
            path = obs.args.get("file_path") or obs.args.get("notebook_path")
            if isinstance(path, str) and path:
                names.append(path.rsplit("/", 1)[-1])
    return names[-5:]


def _dominant(hits: Sequence[RecallHit], past: RecallHit) -> str:
    """The region most of this error's matches come from (the past fix's region on a tie)."""
    counts = Counter(hit.region for hit in hits)
    top = max(counts.values())
    return past.region if counts[past.region] == top else counts.most_common(1)[0][0]


# Commands that show a file's text: the agent has read what they name.
_READERS = frozenset({"cat", "head", "tail", "less", "more", "bat", "sed", "view"})


def _read_paths(observations: Sequence[Observation]) -> set[str]:
    """The files the session has read (a read tool's ``file_path``, a ``cat``-like command's arguments): a
    note among them is one the agent already knows, so offering it again adds nothing."""
    found: set[str] = set()
    for obs in observations:
        if obs.kind != "tool":
            continue
        path = obs.args.get("file_path") or obs.args.get("notebook_path")
        if isinstance(path, str) and obs.tool not in ("Edit", "MultiEdit", "Write", "NotebookEdit"):
            found.add(path)
        command = obs.args.get("command")
        if isinstance(command, str):
            words = command.split()
            if words and words[0].rsplit("/", 1)[-1] in _READERS:
                found.update(word for word in words[1:] if not word.startswith("-"))
    return found


def _was_read(source: str, read: set[str]) -> bool:
    """Whether the note ``source`` (relative to the workspace) is one of the ``read`` paths, however spelt."""
    plain = source.removeprefix("./")
    return any(path.removeprefix("./") == plain or path.endswith("/" + plain) for path in read)


def _offer(kind: str, hit: RecallHit, why: str) -> dict[str, Any]:
    return {
        "kind": kind,
        "label": KIND_LABELS[kind],
        "handle": hit.handle,
        "region": hit.region,
        "why": _one_line(why),
        "excerpt": " ".join(hit.body.split())[:EXCERPT_CHARS],
    }


def _one_line(text: str) -> str:
    flat = " ".join(text.split()).replace("\u2014", "-").replace("\u2013", "-")
    return flat if len(flat) <= WHY_CHARS else flat[: WHY_CHARS - 3].rstrip() + "..."


def _contradicting(
    recall: RecallWindow, words: Sequence[str], context: Sequence[str], chosen: set[str], read: set[str]
) -> dict[str, Any] | None:
    """A decision whose prohibition names what the agent is doing."""
    about = set(context) | set(words)
    if not about:
        return None
    for hit in recall.search([*context, *words], limit=SEARCH_LIMIT):
        if hit.kind != "decision" or hit.handle in chosen or _was_read(hit.source, read):
            continue
        for sentence in _SENTENCE_END.split(hit.body):
            if _PROHIBITION.search(sentence) and about & set(recall_terms(sentence)):
                return _offer("contradicts", hit, f"a decision says: {sentence.strip()}")
    return None


def _analogous(
    recall: RecallWindow, line: str, words: Sequence[str], needed: int, chosen: set[str], read: set[str]
) -> dict[str, Any] | None:
    """Another note naming the same error type that is not itself about this error."""
    found = _ERROR_TYPE.search(line)
    if found is None:
        return None
    kind = found.group(1).lower()
    for hit in recall.search([kind], limit=SEARCH_LIMIT):
        if hit.handle in chosen or len(shared(words, hit)) >= needed or _was_read(hit.source, read):
            continue
        return _offer("analogous", hit, f"the same error type ({found.group(1)}) in other work")
    return None


def _outsider(
    recall: RecallWindow, words: Iterable[str], dominant: str, chosen: set[str], read: set[str]
) -> dict[str, Any] | None:
    """The best chunk from outside the dominant region that shares a word with the error or the work."""
    terms = list(dict.fromkeys(words))
    for hit in recall.search(terms, limit=SEARCH_LIMIT * 2):
        if hit.region == dominant or hit.handle in chosen or _was_read(hit.source, read):
            continue
        common = shared(terms, hit)
        if common:
            return _offer("tangent", hit, f"from {hit.region}, outside {dominant}: {', '.join(common[:3])}")
    return None
