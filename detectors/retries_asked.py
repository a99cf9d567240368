"""A prompt asking for the same thing to be run again and again: "rerun it a few times", "retry until it
goes through", "keep trying". Said before the attempts, it makes their blind retries the user's, whatever
else the words say.
"""

from __future__ import annotations

import re
from functools import lru_cache

RETRIES_ASKED = re.compile(
    r"\b(?:re-?run|re-?try|try (?:it |that |this )?again|run (?:it |that |this )?again"
    r"|(?:a few|several|a couple of|a couple|multiple|many|\d+|two|three|four|five|ten) (?:more )?times"
    r"|\btwice\b|(?:times|twice) in a row"
    r"|keep (?:on )?(?:trying|retrying|re-?running|running it)"
    r"|until it (?:works|passes|succeeds|gets through|goes through|connects))\b",
    re.IGNORECASE,
)
_WORDS = ("run", "try", "time", "keep", "unt", "twice")
"""A part of each alternative of :data:`RETRIES_ASKED` (lower-cased)."""


@lru_cache(maxsize=64)
def asks_retries(prompt: str) -> bool:
    """Whether ``prompt`` asks for retries (:data:`RETRIES_ASKED`). Remembered: a turn's prompt is asked
    about at each of its failures, and a prompt can be long (a pasted log), where the pattern, having no
    literal to skip to, tries each of its openings at every position; a prompt holding none of the words
    every opening needs is not scanned at all."""
    low = prompt.lower()
    return any(word in low for word in _WORDS) and RETRIES_ASKED.search(prompt) is not None


# The part of those that asks for more than one more run: a run with its count ("rerun it 5 times", not "the
# sqrt call twice"), a repetition, a run until it passes.
REPEATS_ASKED = re.compile(
    r"\b(?:(?:re-?run|re-?try|run|try|execute|repeat)\b[^.\n]{0,40}?"
    r"\b(?:(?:a few|several|a couple of|a couple|multiple|many|\d+|two|three|four|five|ten) (?:more )?times"
    r"|twice)"
    r"|keep (?:on )?(?:trying|retrying|re-?running|running it)"
    r"|until it (?:works|passes|succeeds|gets through|goes through|connects))\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=64)
def asks_repeats(prompt: str) -> bool:
    """Whether ``prompt`` asks for the work to be run again several times ("rerun it 5 times, one after
    another", "keep trying until it passes"), not once more ("please rerun the pipeline"): then looking at
    each run's result between the runs is part of what was asked."""
    return asks_retries(prompt) and REPEATS_ASKED.search(prompt) is not None


_CHANGING = r"(?:change|changing|touch|touching|modify|modifying|edit|editing)"
LOOKS_ASKED = re.compile(
    rf"\b(?:(?:don'?t|do not|without) (?:{_CHANGING}|fix|fixing)\b[^.\n]{{0,30}}?\b(?:yet|for now|first)\b"
    rf"|(?:don'?t|do not|without) {_CHANGING} anything\b"
    r"|no (?:changes|fixes|edits) (?:yet|for now)\b"
    r"|(?:just|only) (?:investigate|triage|diagnose|reproduce|look)\b"
    r"|(?:investigate|triage|diagnose) only\b"
    # a failure the user reports as intermittent: reruns are samples of it ("fails on CI maybe 1 in 3 runs",
    # "the suite is flaky", "it sometimes fails")
    r"|flaky|flakes?\b|flakiness|intermittent(?:ly)?|(?:sometimes|randomly|occasionally) fail"
    r"|fails? (?:sometimes|randomly|occasionally)"
    r"|\b(?:\d+|one) (?:in|out of) (?:\d+|two|three|four|five|ten) runs)",
    re.IGNORECASE,
)
_LOOK_WORDS: tuple[str, ...] = (
    "chang",
    "touch",
    "modif",
    "fix",
    "edit",
    "investigat",
    "triage",
    "diagnos",
    "reproduc",
)
_LOOK_WORDS += ("look", "flak", "intermittent", "sometimes", "randomly", "occasionally", " runs")
"""A part of each alternative of :data:`LOOKS_ASKED` (lower-cased)."""


@lru_cache(maxsize=64)
def asks_only_looks(prompt: str) -> bool:
    """Whether ``prompt`` asks the agent to change nothing yet, only to look ("don't change anything yet, just
    investigate", "just triage"), or reports a failure as intermittent ("it's flaky, fails 1 in 3 runs"):
    runs that fail differently one after another, with nothing done between,
    are then the looks the user asked for (a flaky suite's failures compared, a build's failures surveyed),
    not a blind loop. The same failure again stays a loop: it shows nothing new."""
    low = prompt.lower()
    return any(word in low for word in _LOOK_WORDS) and LOOKS_ASKED.search(prompt) is not None
