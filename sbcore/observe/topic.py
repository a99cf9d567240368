"""Topic vectors of a session: hashed TF-IDF by default, an installed embedding model when asked for.

Drift and stall need to compare what the agent is saying now with what the task is about and
with what it said a moment ago. That takes a vector per step of the session and a similarity,
and nothing here may download a model: the default space is **feature hashing** (every word is
hashed into one of a fixed number of buckets, so the vocabulary never has to be stored and the
state of a task stays bounded) weighted by **TF-IDF** over the task's own steps (a word every
step uses, such as a project name, says little about where the work is).

Vectors are sparse mappings ``bucket → weight`` with string keys, so a trigger's state stays
JSON-serialisable. Each is capped to its heaviest terms: a step to ``max_terms``, a centroid to
:data:`CENTROID_TERMS`.

The seam for a real model: a package the user installed may declare an entry point in the
group :data:`EMBEDDER_GROUP` naming a callable that takes no arguments and returns an object
with ``embed(text) -> Sequence[float]``. Entry points are listed when this module is imported
(nothing is imported from them then); one is loaded only when the ``topic.embedding`` knob is
``installed``, which is off by default and, because it runs code, a capability knob. Cosines of
sentence embeddings sit far higher than those of sparse word vectors: thresholds tuned for the
hashed space must be tuned again for a model.
"""

from __future__ import annotations

import logging
import math
import re
import zlib
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Protocol

log = logging.getLogger(__name__)

Vector = dict[str, float]
"""A sparse vector: bucket (or dimension) name → weight."""

BUCKETS = 4096
"""Hash space of the default vectors: collisions stay rare for a session's few thousand content
words, and a task's document frequencies never hold more than this many counts."""
CENTROID_TERMS = 256
"""Most terms a centroid or goal vector keeps (the heaviest)."""
EMBEDDER_GROUP = "sbcore.embedders"

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# Function words, and the words every coding agent's narration uses whatever the task is about.
_STOP = frozenset(
    """
    the and for are but not you your yours all any can had has have her was one our out day get use him his
    how its may new now old see two way who did does doing done let lets make made that this these those then
    than there their them they what when where which while will with would should could into onto from over
    under about after before again also just only very more most some such same other each both few here well
    yes got going want need needs needed able like look looks looking check checking checked seems seem found
    find finding try trying first next last still already know think thing things sure right good great
    perfect okay fine shall might must being been were user please thanks thank file files run running ran
    work working works change changes changed update updated updating line lines code test tests add added
    adding fix fixed fixing issue issues problem using used read reading write writing create created creating
    call calls
    """.split()  # noqa: SIM905 (a word list reads better as text)
)


def words(text: str) -> list[str]:
    """The content words of ``text``, lowercased: camelCase and snake_case split, stop words and
    words shorter than three letters left out."""
    return [word for raw in _WORD.findall(text) for word in _content_words(raw)]


def distinct_words(text: str) -> set[str]:
    """The set of :func:`words` of ``text``, each raw word split once however often the text repeats it
    (a vocabulary, read from every observation of a task, needs no counts)."""
    return {word for raw in set(_WORD.findall(text)) for word in _content_words(raw)}


@lru_cache(maxsize=65_536)
def _content_words(raw: str) -> tuple[str, ...]:
    """The content words of one raw word (a session's vocabulary recurs: each is split once)."""
    kept = (part.lower() for part in _CAMEL.sub(" ", raw).split())
    return tuple(word for word in kept if len(word) >= 3 and word not in _STOP and not word.isdigit())


@lru_cache(maxsize=65_536)
def bucket(word: str) -> str:
    """The hashed feature of ``word`` (stable across processes, unlike ``hash``)."""
    return format(zlib.crc32(word.encode()) % BUCKETS, "x")


def term_counts(text: str) -> Vector:
    """Raw term frequencies of ``text`` in the hashed space."""
    counts: Vector = {}
    for word in words(text):
        key = bucket(word)
        counts[key] = counts.get(key, 0.0) + 1.0
    return counts


def cap(vector: Mapping[str, float], terms: int) -> Vector:
    """``vector`` keeping only its ``terms`` heaviest entries."""
    if len(vector) <= terms:
        return dict(vector)
    return dict(sorted(vector.items(), key=lambda item: (-abs(item[1]), item[0]))[:terms])


def norm(vector: Mapping[str, float]) -> float:
    return math.sqrt(sum(value * value for value in vector.values()))


def cosine(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Cosine similarity of two sparse vectors; 0 when either is empty."""
    if len(a) > len(b):
        a, b = b, a
    dot = sum(value * b.get(key, 0.0) for key, value in a.items())
    if not dot:
        return 0.0
    return dot / (norm(a) * norm(b))


def add_into(total: Vector, vector: Mapping[str, float], weight: float = 1.0) -> None:
    """``total += weight * vector`` (unit-normalised first, so a long step does not outweigh a short one)."""
    size = norm(vector)
    if not size:
        return
    for key, value in vector.items():
        total[key] = total.get(key, 0.0) + weight * value / size


class DocumentFrequencies:
    """How many of a task's steps used each bucket: the IDF half of TF-IDF, kept in a state dict.

    ``state`` holds ``docs`` (steps counted) and ``df`` (bucket → count); at most :data:`BUCKETS`
    counts, so it is bounded whatever the task's length.
    """

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        state.setdefault("docs", 0)
        state.setdefault("df", {})

    def count(self, vector: Mapping[str, float]) -> None:
        df: dict[str, int] = self.state["df"]
        self.state["docs"] += 1
        for key in vector:
            df[key] = df.get(key, 0) + 1

    def idf(self, key: str) -> float:
        docs: int = self.state["docs"]
        return math.log((1 + docs) / (1 + self.state["df"].get(key, 0))) + 1.0

    def weigh(self, counts: Mapping[str, float], terms: int) -> Vector:
        """TF-IDF of raw ``counts`` (sublinear term frequency), capped to ``terms`` entries."""
        return cap({key: (1.0 + math.log(tf)) * self.idf(key) for key, tf in counts.items() if tf > 0}, terms)


class Embedder(Protocol):
    """What an installed embedding provider offers."""

    def embed(self, text: str) -> Sequence[float]: ...


def _listed() -> tuple[EntryPoint, ...]:
    try:
        return tuple(entry_points(group=EMBEDDER_GROUP))
    except Exception:  # broken metadata of some installed distribution: no embedder, never a crash
        return ()


INSTALLED: tuple[EntryPoint, ...] = _listed()
"""The embedding providers installed packages declare, listed at import (none is loaded yet)."""


@lru_cache(maxsize=1)
def installed_embedder() -> Embedder | None:
    """The first installed embedding provider, loaded on first use; None when there is none or it
    fails to load (the hashed space is used then, and the failure is logged once)."""
    for point in INSTALLED:
        try:
            return point.load()()
        except Exception as exc:
            log.warning("embedding provider %s could not be loaded: %s", point.name, exc)
    return None


def embedded(embedder: Embedder, text: str) -> Vector:
    """A dense embedding as a vector of this module (dimension index → value)."""
    return {str(index): float(value) for index, value in enumerate(embedder.embed(text))}


def mean_pairwise(vectors: Iterable[Mapping[str, float]]) -> tuple[float, float]:
    """The mean and the minimum cosine over every pair of ``vectors`` (``(0, 0)`` for fewer than two)."""
    items = list(vectors)
    sims = [cosine(a, b) for i, a in enumerate(items) for b in items[i + 1 :]]
    if not sims:
        return 0.0, 0.0
    return sum(sims) / len(sims), min(sims)
