"""The soft task boundary: a user prompt that starts a different piece of work inside one session.

The design keys a task by its session, and adds one boundary no hook announces: the user setting the agent
a new goal mid-session. Carrying the first piece of work's ledger into the next one's advice is the drift
task scoping exists to prevent; splitting one piece of work in two loses its context. The second costs more
to the user (a cold observer that forgot what was decided), so the judgment here is deliberately
conservative, offline and cheap. A prompt starts a new task only when all of these hold:

- the current task has a goal and has done some work under it (``min_steps`` steps of narrated work):
  a second prompt right after the first is the user still saying what they want;
- the prompt names something (``min_words`` content words), so "continue" or "yes" never qualify;
- it reads as a new request, not a follow-up: it is not a question about the work (ends in ``?`` without
  being a "can you …" request), does not open by answering or pointing back ("yes", "it", "that", "why"),
  and says nothing additive ("also", "too", "again", "instead", "another");
- its topic vector is far from both the task's goal and the centroid of the work done under it: cosine
  below ``similarity``, or below the drift lane's refine threshold when the user says so in words
  ("something different", "switch to", "unrelated");
- and it hardly speaks the task's language: at most :data:`MAX_SHARED` of its content words (compared by
  their first :data:`STEM` letters) were ever used by the task: its prompts, narration, tool calls and
  results. Capped vectors can miss that a prompt is about a corner of the work nobody named twice; the
  task's whole vocabulary does not.

The topic vectors are the drift lane's (:mod:`sbcore.observe.steps`: hashed TF-IDF over the task's own
narration and prompts, no model); this module only adds the prompt's judgment on top of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sbcore.observe.model import Observation
from sbcore.observe.steps import SessionTopic
from sbcore.observe.topic import (
    CENTROID_TERMS,
    Vector,
    add_into,
    cap,
    cosine,
    distinct_words,
    term_counts,
    words,
)

REFINE_SIMILARITY = 0.1
"""At or above this a prompt refines the goal (the drift lane's default ``refine_similarity``)."""
MAX_TERMS = 48
MAX_SHARED = 0.25
"""Most of a new goal's content words the current task may already have used."""
STEM = 5
"""Letters of a word compared for "used by the task" (``validator`` and ``validation`` are one word here;
a coarse match only ever makes a split rarer)."""
VOCABULARY_CAP = 50_000
_UNREAD_KEPT = 512
"""Texts kept unread at most: past it they are learnt, so a long task holds a vocabulary, not its texts."""
PROMPT_WORDS_NEVER = 1_000_000
"""Given to the reader as its ``min_prompt_words``: prompts are judged here, never by the reader itself."""

_LEAD = re.compile(r"^\s*(?:\[prompt\]\s*)?")
_ACK = re.compile(
    r"^(?:ok(?:ay)?|great|thanks|thank you|perfect|good|nice|cool|awesome|done|alright|all right)"
    r"\b[\s,.!:;-]*",
    re.I,
)
_CONNECTOR = re.compile(r"^(?:now|next|so)\b[\s,:;-]*", re.I)
_FOLLOW_UP_OPENERS = re.compile(
    r"^(?:continue|go on|go ahead|carry on|keep|yes|yeah|yep|no|nope|sure|right|fine|lgtm|looks good|"
    r"and|but|or|then|same|again|retry|try again|undo|revert|wait|hmm+|oh|actually|instead|stop|don't|do not|"
    r"do it|do that|do so|it|its|it's|that|that's|this|these|those|they|them|there|here|"
    r"what|why|how|where|when|which|who|whose|is|are|was|were|does|did|has|have|should|shall|"
    r"can it|could it|will it|would it)\b",
    re.I,
)
_ADDITIVE = re.compile(
    r"\b(?:also|too|as well|again|instead|another|same|still|remaining|rest of|the other|more of)\b", re.I
)
_POINTING_BACK = re.compile(
    r"\b(?:this|these|those|it|them|so far|"
    r"(?:the|your|our) (?:changes?|fix(?:es)?|work|diff|patch|new \w+))\b",
    re.I,
)
_CHORE = re.compile(
    r"\b(?:commit|pull request|PR|changelog|release notes?|bump|rebase|squash|push|readme|docstrings?|lint|"
    r"format|document)\b",
    re.I,
)
_REQUEST_QUESTION = re.compile(r"^(?:can|could|would|will) you\b|^please\b", re.I)
_SAYS_NEW = re.compile(
    r"\b(?:something (?:else|different)|different (?:task|thing|topic)|new (?:task|topic)|switch(?:ing)? to|"
    r"moving on|move on to|unrelated|separate(?:ly)? task|change of subject|next task)\b",
    re.I,
)


@dataclass(frozen=True)
class NewGoalSettings:
    """The knobs (``ledger.new_goal*``)."""

    enabled: bool = True
    similarity: float = 0.03
    min_words: int = 4
    min_steps: int = 2

    @classmethod
    def from_config(cls, config: Any) -> NewGoalSettings:
        group: Mapping[str, Any] = config.group("ledger")
        return cls(
            enabled=bool(group.get("new_goal", True)),
            similarity=float(group.get("new_goal_similarity", cls.similarity)),
        )


@dataclass(frozen=True)
class Boundary:
    """A prompt judged to start a new task: where it is in the batch, and why, for the log."""

    index: int
    similarity: float
    why: str


def request_form(text: str) -> str | None:
    """Why ``text`` (a prompt) reads as a follow-up of the current work; None when it reads as a new
    request."""
    body = _LEAD.sub("", text).strip()
    body = _CONNECTOR.sub("", _ACK.sub("", body).strip()).strip()
    if not body:
        return "says nothing but an acknowledgement"
    opener = _FOLLOW_UP_OPENERS.match(body)
    if opener:
        return f"opens as a follow-up ({opener.group(0).lower()!r})"
    if body.rstrip().endswith("?") and not _REQUEST_QUESTION.match(body):
        return "is a question"
    additive = _ADDITIVE.search(body)
    if additive:
        return f"adds to the work ({additive.group(0).lower()!r})"
    back = _POINTING_BACK.search(body)
    if back:
        return f"points back at the work ({back.group(0).lower()!r})"
    chore = _CHORE.search(body)
    if chore:
        return f"asks for a chore on the work ({chore.group(0).lower()!r})"
    return None


class GoalJudge:
    """One task's goal, the work done under it, and the judgment of each new prompt against both.

    Fed every observation the worker reads, in order (:meth:`split`); reset at every task boundary
    (:meth:`reset`, seeded with the ledger's goal when a task is taken up again).
    """

    def __init__(self, settings: NewGoalSettings) -> None:
        self.settings = settings
        self.reset()

    def reset(self, goal: str | None = None, history: Sequence[Observation] = ()) -> None:
        """Start a task: nothing read yet. A task taken up again (a restart, a resume, a fork) gives the
        ledger's ``goal`` and the observations its window was rebuilt with, read as its work so far."""
        self.state: dict[str, Any] = {}
        self.topic = SessionTopic(
            self.state, {"min_prompt_words": PROMPT_WORDS_NEVER, "max_terms": MAX_TERMS}
        )
        self.goal: Vector | None = None
        self.steps = 0
        self._waiting: list[Observation] = []  # not read into the topic yet (see _catch_up)
        self.vocabulary: set[str] = set()
        self._unread: list[str | Observation] = []  # not learnt yet: read only to judge a prompt
        self._learnt = 0  # texts learnt so far (the unread ones follow them)
        if goal:
            self._learn(goal)
            self.goal = self._vector(goal) or None
        self.split(history, judging=False)

    def split(self, observations: Sequence[Observation], *, judging: bool = True) -> Boundary | None:
        """Read ``observations``; the first prompt among them that starts a new task, if any.

        The judge moves on to the new goal at once and reads the rest of the batch under it.
        ``judging=False`` only reads (what a task taken up again had already done).
        """
        found: Boundary | None = None
        for index, obs in enumerate(observations):
            self._waiting.append(obs)
            if len(self._waiting) >= _UNREAD_KEPT:
                self._catch_up()
            if obs.kind != "prompt":
                self._learn(obs)
                continue
            verdict = self._prompt(obs.text, judging)
            if verdict is not None and found is None:
                found = Boundary(index, *verdict)
        return found

    def _catch_up(self) -> None:
        """Read the observations given since the last catch-up into the task's steps and their centroid.

        Only a prompt's judgement reads those, so they are read when one needs them (or when too many wait):
        the same steps, in the same order, as reading each observation as it comes, and none for the
        stretch after a task's last prompt."""
        for step in self.topic.read_all(self._waiting):
            self.topic.fold([step])  # one at a time: the centroid is capped after each
            self.steps += 1
        self._waiting = []

    def _prompt(self, text: str, judging: bool) -> tuple[float, str] | None:
        """Judge one prompt, updating the goal; (similarity, why) when it starts a new task."""
        if len(words(text)) < self.settings.min_words:
            return None  # names no subject: neither a goal nor a boundary
        self._catch_up()
        stems = {word[:STEM] for word in words(text)}
        known = self._learnt + len(self._unread)  # what the task had read before this prompt
        self._learn(text)
        counts = term_counts(_LEAD.sub("", text))
        vector = self._weigh(counts)
        if not vector:
            return None
        if self.goal is None:
            self.goal = vector
            return None
        centroid = self.topic.centroid
        close = max(cosine(vector, self.goal), cosine(vector, centroid) if centroid else 0.0)
        floor = REFINE_SIMILARITY if _SAYS_NEW.search(text) else self.settings.similarity
        if (
            judging
            and self.settings.enabled
            and self.steps >= self.settings.min_steps
            and close < floor
            and request_form(text) is None
            and (shared := self._shared(stems, known)) <= MAX_SHARED
        ):
            self.reset()
            self.goal = self._weigh(counts)  # the new task's own vocabulary starts with its goal
            self._learn(text)
            why = (
                f"a new goal (similarity to the task {close:.3f}, {shared:.0%} of its words used by the task)"
            )
            return round(close, 3), why
        if close >= REFINE_SIMILARITY:
            merged = dict(self.goal)
            add_into(merged, vector)
            self.goal = cap(merged, CENTROID_TERMS)
        return None

    def _learn(self, text: str | Observation) -> None:
        """Add the words of ``text`` (or of an observation's text and arguments) to the task's vocabulary
        (bounded: past the cap, nothing new is learnt, which leaves a long task's vocabulary as it was, never
        emptier). Read when a prompt needs it (nearly every prompt is decided before: it is close to the task,
        or reads as a follow-up), in the order given."""
        if len(self._unread) >= _UNREAD_KEPT:
            self._read(self._learnt + len(self._unread))
        self._unread.append(text)

    def _read(self, through: int) -> None:
        """Learn the texts given before the ``through``-th one that are not learnt yet."""
        count = through - self._learnt
        for item in self._unread[:count]:
            if len(self.vocabulary) < VOCABULARY_CAP:
                text = item if isinstance(item, str) else " ".join([item.text, *map(str, item.args.values())])
                self.vocabulary.update({word[:STEM] for word in distinct_words(text)})
        del self._unread[:count]
        self._learnt += count

    def _shared(self, stems: set[str], known: int) -> float:
        """The share of ``stems`` the task had used in the ``known`` texts it had read."""
        self._read(known)
        return len(stems & self.vocabulary) / len(stems)

    def _vector(self, text: str) -> Vector:
        return self._weigh(term_counts(_LEAD.sub("", text)))

    def _weigh(self, counts: Vector) -> Vector:
        self.topic.df.count(counts)
        return self.topic.df.weigh(counts, MAX_TERMS)


@dataclass(frozen=True)
class TaskStart:
    """A new task to begin before the observations it came with are offered: why, and the timestamp of
    the prompt that set its goal (None when the record had none)."""

    why: str
    timestamp: str | None


class GoalSplit:
    """Where a session's observations change task at a new goal: the rule the live worker and replay share.

    Every observation read goes through :meth:`read`, in order. Up to a prompt that starts a new goal they
    are the current task's; from that prompt on they are the new task's. With no pass in flight the new
    task begins at once (``read`` says so with a :class:`TaskStart`) and reads the prompt onwards: what came
    before the prompt in the same read is left to the ended task, unjudged. While a pass runs, the prompt
    and what follows wait (:attr:`waiting`) for it to finish in the task it began in, and the new task
    begins at the first read after (an empty read will do).
    """

    def __init__(self, judge: GoalJudge) -> None:
        self.judge = judge
        self._held: list[Observation] = []
        self._why = ""

    @property
    def waiting(self) -> bool:
        """Whether a new task's first observations wait for the running pass (a turn end waits with them)."""
        return bool(self._held)

    def read(
        self, observations: Sequence[Observation], *, pass_running: bool
    ) -> tuple[list[Observation], TaskStart | None]:
        """What the current task reads now and, when a new task begins first, its start."""
        found = self.judge.split(observations)
        if self._held:  # a boundary waits for a pass of the old task: all of this is the new task's
            self._held += observations
            return ([], None) if pass_running else self._begin()
        if found is None:
            return list(observations), None
        before, after = list(observations[: found.index]), list(observations[found.index :])
        self._held, self._why = after, found.why
        return (before, None) if pass_running else self._begin()

    def _begin(self) -> tuple[list[Observation], TaskStart]:
        held, self._held = self._held, []
        return held, TaskStart(self._why, held[0].timestamp)
