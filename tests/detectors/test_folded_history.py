"""The triggers read a folded history: what they find must be what a fresh reading of the same kept
observations finds, however the history grew, forgot its oldest, or learnt of an error late."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sbcore.detectors.recall import _latest_failure
from sbcore.detectors.standard_questions import standard_questions
from sbcore.detectors.triggers import repeat_failure
from test_triggers import ROOT

from sbcore.observe.history import Matches, ObservationHistory, Positions, history_of
from sbcore.observe.model import Observation
from sbcore.packs.types import TriggerMatch

_BASH = frozenset({"Bash"})
CHECKLIST: dict[str, Any] = yaml.safe_load((ROOT / "catalogue" / "standard-questions.yaml").read_text())[
    "config"
]

# Absolute spellings too: the project's root is read from paths named both ways, and may change as they
# come and leave.
_COMMANDS = (
    "pytest tests/test_a.py",
    "pytest /home/dev/site/tests/test_a.py",
    "python -m pytest",
    "npm test",
    "make build",
    "ls src/",
    "cat /srv/other/src/app.py",
)
_PATHS = ("src/app.py", "README.md", "tests/test_a.py", "src/lib.rs", "/home/dev/site/tests/test_a.py")
_PROMPTS = ("run it again", "please do not run the tests", "looks good")
_REPORTS = ("All 12 tests pass (pytest).", "Nothing to report.")

# One step of a script: what the agent (or the user, or a late result) did.
_STEP = st.one_of(
    st.tuples(st.just("run"), st.sampled_from(_COMMANDS), st.booleans()),
    st.tuples(st.just("edit"), st.sampled_from(_PATHS), st.sampled_from(("Edit", "Write"))),
    st.tuples(st.just("late-error"), st.integers(0, 6), st.just("")),
    st.tuples(st.just("prompt"), st.sampled_from(_PROMPTS), st.just("")),
    st.tuples(st.just("report"), st.sampled_from(_REPORTS), st.just("")),
    st.tuples(st.just("forget"), st.integers(1, 4), st.just("")),
)


def _observations(steps: list[tuple[str, Any, Any]]) -> list[tuple[str, Any]]:
    """The script as ``("add", observation)`` and ``("forget", count)`` events."""
    events: list[tuple[str, Any]] = []
    calls: list[str] = []
    for number, (kind, value, extra) in enumerate(steps):
        stamp = f"2026-01-01T10:{number // 60:02d}:{number % 60:02d}Z"
        call_id = f"toolu_{number:03d}"
        if kind == "run":
            calls.append(call_id)
            events.append(("add", _tool("Bash", call_id, stamp, {"command": value})))
            if extra:
                events.append(("add", _error("Bash", call_id, stamp, "Exit code 1\nFAILED tests/test_a.py")))
        elif kind == "edit":
            calls.append(call_id)
            args = {"file_path": value, "new_string": "x = 1", "old_string": "x = 0"}
            events.append(("add", _tool(extra, call_id, stamp, args)))
        elif kind == "late-error" and calls:
            late = calls[-1 - value % len(calls)]
            events.append(("add", _error("Edit", late, stamp, "String to replace not found in file.")))
        elif kind == "prompt":
            events.append(("add", Observation(kind="prompt", text=value, timestamp=stamp)))
        elif kind == "report":
            events.append(("add", Observation(kind="report", text=value, timestamp=stamp, tool="Agent")))
        elif kind == "forget":
            events.append(("forget", value))
    return events


def _tool(tool: str, call_id: str, stamp: str, args: dict[str, Any]) -> Observation:
    text = f"[tool] {tool} " + " ".join(str(value) for value in args.values())
    return Observation(kind="tool", text=text, timestamp=stamp, tool=tool, tool_use_id=call_id, args=args)


def _error(tool: str, call_id: str, stamp: str, text: str) -> Observation:
    return Observation(kind="error", text=text, timestamp=stamp, tool=tool, tool_use_id=call_id)


def _found(match: TriggerMatch | None) -> tuple[str, str] | None:
    return None if match is None else (match.key, repr(sorted(match.data.items())))


def _every_loop(observations: Sequence[Observation], params: dict[str, Any]) -> list[tuple[str, str] | None]:
    """Every loop repeat-failure finds now, latest first: asked again with what it reported kept, it
    reports the next one, until there is none."""
    state: dict[str, Any] = {}
    found = [_found(repeat_failure(observations, params, state))]
    while found[-1] is not None:
        found.append(_found(repeat_failure(observations, params, state)))
    return found


@settings(max_examples=150, deadline=None)
@given(st.lists(_STEP, max_size=40), st.integers(2, 3))
@example(  # an edit's error arrives after another edit: the first edit no longer counts
    [
        ("run", "pytest tests/test_a.py", False),
        ("edit", "src/app.py", "Edit"),
        ("edit", "src/lib.rs", "Edit"),
        ("late-error", 1, ""),
        ("late-error", 0, ""),
    ],
    2,
)
@example(  # a loop whose first attempts leave the history
    [("run", "make build", True)] * 3
    + [("forget", 2, ""), ("run", "make build", True), ("prompt", "looks good", "")],
    3,
)
@example(  # the paths that showed the project's root leave: later commands are not spelt relative to it
    [
        ("run", "pytest tests/test_a.py", True),
        ("run", "pytest /home/dev/site/tests/test_a.py", True),
        ("forget", 4, ""),
        *[("run", "pytest /home/dev/site/tests/test_a.py", True)] * 3,
        ("prompt", "looks good", ""),
    ],
    3,
)
@example(  # the root shows itself after two failures were read: they are the relative spelling's too
    [
        ("run", "pytest /home/dev/site/tests/test_a.py", True),
        ("run", "pytest /home/dev/site/tests/test_a.py", True),
        ("run", "pytest tests/test_a.py", True),
        ("prompt", "looks good", ""),
    ],
    3,
)
def test_a_folded_history_reads_as_a_fresh_one(steps: list[tuple[str, Any, Any]], min_failures: int) -> None:
    history = ObservationHistory()
    params = {"min_failures": min_failures}
    for event, value in _observations(steps):
        if event == "add":
            history.extend([value])
        else:
            history.drop_oldest(min(value, len(history) - 1))
        fresh = list(history)
        assert _every_loop(history, params) == _every_loop(fresh, params)
        assert _found(standard_questions(history, {}, {}, CHECKLIST)) == _found(
            standard_questions(fresh, {}, {}, CHECKLIST)
        )
        assert _latest_failure(history, _BASH) == _latest_failure(fresh, _BASH)


def test_an_edit_whose_error_arrives_late_stops_counting() -> None:
    history = ObservationHistory()
    steps = [
        ("run", "pytest tests/test_a.py", False),
        ("edit", "src/app.py", "Edit"),
        ("prompt", "looks good", ""),
    ]
    for _, obs in _observations(steps):
        history.extend([obs])
    assert standard_questions(history, {}, {}, CHECKLIST) is not None  # the edit is untested
    history.extend(
        [_error("Edit", "toolu_001", "2026-01-01T10:00:09Z", "String to replace not found in file.")]
    )
    assert standard_questions(history, {}, {}, CHECKLIST) is None  # it changed nothing after all


def test_a_failure_learnt_late_joins_the_loop() -> None:
    history = ObservationHistory()
    steps = [("run", "make build", True), ("run", "make build", True), ("run", "make build", False)]
    for _, obs in _observations([*steps, ("prompt", "looks good", "")]):
        history.extend([obs])
    assert repeat_failure(history, {"min_failures": 3}, {}) is None  # the third run looked fine
    history.extend(
        [_error("Bash", "toolu_002", "2026-01-01T10:00:09Z", "Exit code 1\nFAILED tests/test_a.py")]
    )
    match = repeat_failure(history, {"min_failures": 3}, {})
    assert match is not None and match.data["failures"] == 3


def _obs(kind: str, text: str) -> Observation:
    return Observation(kind=kind, text=text)  # type: ignore[arg-type]  # kinds come from the test's own table


def test_folds_see_each_observation_once_and_forget_what_left() -> None:
    seen: list[int] = []

    def picks(obs: Observation) -> bool:
        seen.append(id(obs))
        return obs.kind == "prompt"

    history = ObservationHistory([_obs("prompt", "a"), _obs("text", "b")])
    prompts = history.fold("prompts", lambda: Positions(picks))
    assert list(prompts.positions) == [0]
    history.extend([_obs("prompt", "c"), _obs("prompt", "d")])
    history.drop_oldest(2)
    assert history.offset == 2 and [obs.text for obs in history] == ["c", "d"]
    again = history.fold("prompts", lambda: Positions(picks))
    assert again is prompts and list(again.positions) == [2, 3]
    assert len(seen) == 4  # each observation judged once, however often the fold is asked for
    assert again.any_between(1, 3) and not again.any_between(2, 3)
    assert again.count_between(2, 4) == 2


def test_a_match_fold_knows_the_latest_match_until_it_leaves() -> None:
    history = ObservationHistory([_obs("prompt", "run the tests"), _obs("prompt", "thanks")])

    def fold() -> Matches:
        return history.fold("tests", lambda: Matches(lambda obs: (obs.text,), lambda text: "tests" in text))

    assert fold().any() and fold().after(-1) and not fold().after(0)
    history.drop_oldest(1)
    assert not fold().any() and not fold().after(-1)


def test_a_fold_left_half_fed_is_rebuilt() -> None:
    history = ObservationHistory([_obs("prompt", "a"), _obs("prompt", "b")])

    def failing(obs: Observation) -> bool:
        raise TimeoutError("a pattern ran out of time")

    with pytest.raises(TimeoutError):
        history.fold("picks", lambda: Positions(failing))
    assert list(history.fold("picks", lambda: Positions(lambda obs: True)).positions) == [0, 1]


def test_a_plain_sequence_is_wrapped_and_a_history_is_itself() -> None:
    history = ObservationHistory()
    assert history_of(history) is history
    wrapped = history_of([_obs("text", "a")])
    assert isinstance(wrapped, ObservationHistory) and len(wrapped) == 1


def test_the_recall_fold_keeps_only_the_calls_and_errors_still_in_the_history() -> None:
    history = ObservationHistory()
    steps = [("run", "make build", True), ("run", "npm test", True), ("run", "make build", False)]
    for _, obs in _observations(steps):
        history.extend([obs])
    assert _latest_failure(history, _BASH) == (history[2], history[3])  # npm test's call and error
    history.drop_oldest(3)  # make build's call and error, and npm test's call, leave
    failures = history.fold("recall-failures", lambda: pytest.fail("the fold is kept, not rebuilt"))
    assert list(failures.errors) == [history[0]] and list(failures.calls) == ["toolu_002"]
    assert _latest_failure(history, _BASH) is None  # the error's call has left


def test_a_match_withdrawn_counts_no_more_and_the_latest_falls_back() -> None:
    matches = Matches(lambda obs: (obs.text,), lambda text: "tests" in text)
    for index, text in enumerate(["run tests", "ls", "run tests again"]):
        matches.add(index, Observation(kind="tool", text=text, timestamp="2026-01-01T10:00:00Z"))
    assert matches.count == 2 and matches.latest == 2
    matches.withdraw(2)
    assert matches.count == 1 and matches.latest == 0 and not matches.after(0)
    matches.withdraw(1)  # nothing was accepted there: nothing changes
    assert matches.count == 1 and matches.latest == 0
    matches.withdraw(0)
    assert not matches.any() and matches.latest == -1
