"""A task read as a sequence of steps with topic vectors, kept incrementally in a trigger's state.

drift and stall look at the same thing: what the agent says it is doing, step after step, against
what the user asked for. A **step** is one stretch of the agent's narration (its text, and the
``description`` it gives a command or a subagent) together with the tool calls that follow it,
up to the next narration; narration too short to carry a topic (``Let me check.``) joins the
next one. A step is complete when the next one starts or a user prompt arrives; only complete
steps are judged, so a step's files and outcomes are all known when it is.

What a step carries: its vector (:mod:`sbcore.observe.topic`), the first words of its narration
(evidence), how
many paths it touched that the task had not touched before and how many outcomes it saw that
were new (an error line not seen before, a subagent's report), whether all its commands were
polling, and the prompt epoch it belongs to (a user prompt starts a new epoch).

The goal: the first user prompt with enough words is the goal; a later prompt close to the goal
or to the work so far refines it (its words join the goal); a prompt far from both is the user
changing the subject, which starts a new goal and a fresh centroid (flow repair: the user
moving on is not the agent drifting).

Cost and size: each observation is read once. The state remembers the last observation it read
(a fingerprint) and, at the next pass, reads only what came after it; when that observation has
left the history (a rebuilt window), it starts over from what the history holds. Everything kept
is capped: the document frequencies by the hash space, vectors by their heaviest terms, the
recent steps, the paths and the outcomes by count.

This reader lives in the core because two rooms use it: the built-in pack's ``drift`` and ``stall``
triggers (through :mod:`sbcore.api`) and the worker's new-goal judge. What only a pack knows — which
paths a call names, which commands are polling — comes in as a :class:`CallReading`.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sbcore.observe.model import Observation
from sbcore.observe.topic import (
    CENTROID_TERMS,
    DocumentFrequencies,
    Vector,
    add_into,
    cap,
    cosine,
    embedded,
    installed_embedder,
    term_counts,
    words,
)

RECENT_STEPS = 12
"""Complete steps kept for judging (stall's window and drift's run are at most this long)."""
PATHS_CAP = 1024
OUTCOMES_CAP = 256
PENDING_CHARS = 4000
EVIDENCE_CHARS = 160
GOAL_TEXT_CHARS = 240

_DIGITS = re.compile(r"\d+")
_RENDERED = re.compile(r"^(?:\[sub\] )?\[[a-z]+\]\s*")  # the kind label of an observation's rendering


_PATH_ARGS = ("file_path", "notebook_path", "path")


def _named_paths(obs: Observation) -> tuple[str, ...]:
    """The paths a call's arguments name and those the projection found in it (line numbers dropped)."""
    named = [value.rstrip("/") for key in _PATH_ARGS if isinstance(value := obs.args.get(key), str) and value]
    return (*named, *(locator.split(":", 1)[0] for locator in obs.locators))


def _never(command: str) -> bool:
    return False


@dataclass(frozen=True)
class CallReading:
    """How a tool call is read into a step: what it touched, whether it edits, whether it only polls.

    The default reads the paths a call's arguments name and the projection's locators, the usual
    edit tools, and counts no command as polling; the built-in pack passes its own readers (every
    path a command names, its work identity's probe flag).
    """

    paths_of: Callable[[Observation], Iterable[str]] = _named_paths
    is_probe: Callable[[str], bool] = _never
    edit_tools: Collection[str] = ("Edit", "MultiEdit", "Write", "NotebookEdit")


def fingerprint(obs: Observation) -> str:
    """What identifies an observation in the history (stable across processes)."""
    return f"{obs.kind}|{obs.uuid}|{obs.tool_use_id}|{zlib.crc32(obs.text.encode())}"


def unread(observations: Sequence[Observation], state: dict[str, Any]) -> Sequence[Observation]:
    """The observations after the last one ``state`` read; all of them (and a fresh state, keeping what
    was reported) when that one is no longer in the history."""
    mark = state.get("cursor")
    if mark is not None:
        for index in range(len(observations) - 1, -1, -1):
            if fingerprint(observations[index]) == mark:
                return observations[index + 1 :]
        reported = state.get("reported", [])
        state.clear()
        state["reported"] = reported
    return observations


class SessionTopic:
    """The reader of one task's steps, its goal and its centroid, over a JSON-serialisable ``state``.

    :param params: the trigger's params: ``min_step_words`` (narration shorter than this joins the
        next), ``min_prompt_words`` (a prompt shorter than this carries no goal), ``refine_similarity``
        (a prompt at least this close to the goal or the centroid refines the goal instead of
        replacing it), ``max_terms`` (terms a step's vector keeps) and ``embedding`` (``installed``
        uses an installed embedding provider when there is one).
    """

    def __init__(
        self, state: dict[str, Any], params: Mapping[str, Any], reading: CallReading | None = None
    ) -> None:
        self.state = state
        self.reading = reading if reading is not None else CallReading()
        self.min_step_words = int(params.get("min_step_words", 5))
        self.min_prompt_words = int(params.get("min_prompt_words", 3))
        self.refine_similarity = float(params.get("refine_similarity", 0.1))
        self.max_terms = int(params.get("max_terms", 48))
        self.embedder = installed_embedder() if params.get("embedding") == "installed" else None
        self.df = self._prepare()
        self.completed: list[dict[str, Any]] = []
        """Steps completed by the last :meth:`read`, oldest first."""

    def _prepare(self) -> DocumentFrequencies:
        """Fill in what a fresh (or just reset) state lacks."""
        for key, empty in (("epoch", 0), ("steps", 0), ("recent", []), ("paths", {}), ("outcomes", {})):
            self.state.setdefault(key, empty)
        return DocumentFrequencies(self.state.setdefault("tfidf", {}))

    # -- reading -----------------------------------------------------------------------------------

    def read(self, observations: Sequence[Observation]) -> list[dict[str, Any]]:
        """Read what is new in ``observations``; returns the steps it completed."""
        self.completed = []
        pending = unread(observations, self.state)
        self.df = self._prepare()
        for obs in pending:
            self._one(obs)
            self.state["cursor"] = fingerprint(obs)
        return self.completed

    def read_all(self, observations: Sequence[Observation]) -> list[dict[str, Any]]:
        """Read every one of ``observations``, as a reader handed each observation once, in order, does: it
        keeps no cursor. Returns the steps it completed."""
        self.completed = []
        self.df = self._prepare()
        for obs in observations:
            self._one(obs)
        return self.completed

    def _one(self, obs: Observation) -> None:
        if obs.kind == "prompt":
            self._close()
            self._prompt(obs)
        elif obs.kind == "text":
            self._narrate(_RENDERED.sub("", obs.text), obs.timestamp)
        elif obs.kind == "tool":
            self._tool(obs)
        elif obs.kind in ("error", "report"):
            self._outcome(obs)

    def _open(self) -> dict[str, Any]:
        pending = self.state.get("open")
        if pending is None:
            pending = self.state["open"] = {
                "text": "",
                "said": "",
                "words": 0,
                "new_paths": 0,
                "new_outcomes": 0,
                "calls": 0,
                "probes": 0,
                "time": None,
            }
        return pending

    def _narrate(self, text: str, timestamp: str | None) -> None:
        current = self.state.get("open")
        if current is not None and current["words"] >= self.min_step_words and current["calls"]:
            self._close()
        self._append_text(text, timestamp)

    def _append_text(self, text: str, timestamp: str | None) -> None:
        step = self._open()
        step["text"] = (step["text"] + "\n" + text).strip()[:PENDING_CHARS]
        step["said"] = (step["said"] + " " + text).strip()[:PENDING_CHARS]
        step["words"] += len(words(text))
        step["time"] = step["time"] or timestamp

    def _tool(self, obs: Observation) -> None:
        step = self._open()
        step["calls"] += 1
        description = obs.args.get("description")
        if isinstance(description, str) and description.strip():
            self._append_text(description, obs.timestamp)
        command = obs.args.get("command")
        if isinstance(command, str) and self.reading.is_probe(command):
            step["probes"] += 1
        if obs.tool in self.reading.edit_tools:
            step["edits"] = step.get("edits", 0) + 1
        paths = self.state["paths"]
        for path in self.reading.paths_of(obs):
            if path == obs.args.get("pattern"):
                continue  # a search pattern, not a file
            if path not in paths:
                step["new_paths"] += 1
                _remember(paths, path, PATHS_CAP)
            step["text"] = (step["text"] + " " + _path_words(path))[:PENDING_CHARS]

    def _outcome(self, obs: Observation) -> None:
        if obs.kind == "error" and obs.tool in self.reading.edit_tools:
            self._open()["edits"] = max(0, self._open().get("edits", 0) - 1)  # rejected: nothing changed
        line = obs.text.splitlines()[0] if obs.kind == "error" and obs.text else obs.text[:200]
        signature = f"{obs.kind}:{_DIGITS.sub('#', line.lower())[:200]}"
        outcomes = self.state["outcomes"]
        if signature not in outcomes:
            self._open()["new_outcomes"] += 1
            _remember(outcomes, signature, OUTCOMES_CAP)

    def _close(self) -> None:
        step = self.state.pop("open", None)
        if step is None or step["words"] < self.min_step_words:
            return
        vector = self._vector(step["text"])
        if not vector:
            return
        self.state["steps"] += 1
        done = {
            "n": self.state["steps"],
            "epoch": self.state["epoch"],
            "vec": vector,
            "text": _evidence(step["said"]),
            "time": step["time"],
            "new_paths": step["new_paths"],
            "new_outcomes": step["new_outcomes"],
            "edits": step.get("edits", 0),
            "polling": bool(step["calls"]) and step["probes"] == step["calls"],
        }
        recent: list[dict[str, Any]] = self.state["recent"]
        recent.append(done)
        del recent[:-RECENT_STEPS]
        self.completed.append(done)

    def _prompt(self, obs: Observation) -> None:
        self.state["epoch"] += 1
        text = _RENDERED.sub("", obs.text)
        if len(words(text)) < self.min_prompt_words:
            return  # "continue", "yes": the user spoke, but named no subject
        vector = self._vector(text)
        goal = self.state.get("goal")
        if goal is not None and vector:
            close = max(cosine(vector, goal["vec"]), cosine(vector, self.state.get("centroid") or {}))
            if close >= self.refine_similarity:
                merged = dict(goal["vec"])
                add_into(merged, vector)
                goal["vec"] = cap(merged, CENTROID_TERMS)
                return
        if vector:
            self.state["goal"] = {
                "vec": vector,
                "text": _evidence(text, GOAL_TEXT_CHARS),
                "time": obs.timestamp,
                "id": self.state["epoch"],
                "steps_at": self.state["steps"],
            }
            self.state["centroid"] = {}

    def _vector(self, text: str) -> Vector:
        if self.embedder is not None:
            return embedded(self.embedder, text)
        counts = term_counts(text)
        self.df.count(counts)
        return self.df.weigh(counts, self.max_terms)

    # -- what the triggers read --------------------------------------------------------------------

    @property
    def goal(self) -> dict[str, Any] | None:
        return self.state.get("goal")

    def steps_since_goal(self, step: Mapping[str, Any]) -> int:
        goal = self.goal
        return int(step["n"]) - int(goal["steps_at"]) if goal is not None else 0

    def fold(self, steps: Sequence[Mapping[str, Any]]) -> None:
        """Add ``steps`` to the centroid of the work under the current goal."""
        centroid: Vector = self.state.setdefault("centroid", {})
        for step in steps:
            add_into(centroid, step["vec"])
        if self.embedder is None:
            self.state["centroid"] = cap(centroid, CENTROID_TERMS)

    @property
    def centroid(self) -> Vector:
        return self.state.get("centroid") or {}

    @property
    def recent(self) -> list[dict[str, Any]]:
        return self.state["recent"]


def _remember(seen: dict[str, int], key: str, limit: int) -> None:
    """Add ``key`` to an insertion-ordered set, forgetting the oldest past ``limit`` (a forgotten path
    looks new again: that errs towards progress, so towards silence)."""
    seen[key] = 1
    if len(seen) > limit:
        del seen[next(iter(seen))]


def _path_words(path: str) -> str:
    """A path as words for the topic vector: its directory and file names, not its extension."""
    parts = [part for part in re.split(r"[/\\]", path) if part]
    return " ".join(part.rsplit(".", 1)[0] for part in parts[-3:])


def _evidence(text: str, limit: int = EVIDENCE_CHARS) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
