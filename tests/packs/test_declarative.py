"""The declarative trigger's semantics: selectors, outcomes, scopes, absence, counting, its match data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from sbcore.observe.model import Observation
from sbcore.packs import registry
from sbcore.packs.declarative import (
    DECLARATIVE_TRIGGER,
    PatternError,
    compile_glob,
    match_trigger,
    pattern_problems,
)
from sbcore.packs.registry import Contributions, RegistrationError, Registry
from sbcore.timebound import PatternTimeout


def edit(ref: str, path: str, when: str | None = None) -> Observation:
    return Observation("tool", f"Edit {path}", when, tool="Edit", tool_use_id=ref, args={"file_path": path})


def bash(ref: str, command: str, when: str | None = None) -> Observation:
    return Observation("tool", f"$ {command}", when, tool="Bash", tool_use_id=ref, args={"command": command})


def error(ref: str, text: str) -> Observation:
    return Observation("error", f"[error] Bash: {text}", tool="Bash", tool_use_id=ref)


def prompt(text: str = "go on") -> Observation:
    return Observation("prompt", f"[prompt] {text}")


def said(text: str = "done") -> Observation:
    return Observation("text", f"[text] {text}")


UNTESTED: dict[str, Any] = {
    "calls": {"tool": ["Edit", "Write"], "path": "src/**/*.py"},
    "absent": {"tool": "Bash", "command": "pytest|python -m pytest"},
}
FAILING: dict[str, Any] = {"calls": {"tool": "Bash", "outcome": "failed"}, "at_least": 3}


def fire(observations: list[Observation], params: dict[str, Any]) -> Any:
    match = match_trigger(observations, params, {})
    return None if match is None else match.as_template_input()


# -- absence: "edited X, never ran Y" --------------------------------------------------------------


def test_edit_with_no_test_run_after_it_fires() -> None:
    match = fire([prompt(), edit("e1", "/repo/src/pkg/a.py"), said()], UNTESTED)
    assert match["data"]["paths"] == ["/repo/src/pkg/a.py"]
    assert match["data"]["count"] == 1
    assert match["data"]["since"] is None
    assert match["key"] == "e1"


def test_a_test_run_after_the_edit_answers_it_whatever_its_outcome() -> None:
    observations = [edit("e1", "/repo/src/a.py"), bash("b1", "python -m pytest -x"), error("b1", "1 failed")]
    assert fire(observations, UNTESTED) is None


def test_an_edit_after_the_last_test_run_fires_again_and_names_the_run() -> None:
    observations = [
        edit("e1", "/repo/src/a.py"),
        bash("b1", "pytest tests/"),
        said(),
        edit("e2", "/repo/src/b.py"),
        said(),
    ]
    match = fire(observations, UNTESTED)
    assert match["data"]["paths"] == ["/repo/src/b.py"]
    assert match["data"]["since"]["command"] == "pytest tests/"
    assert match["key"] == "e2"


def test_edits_outside_the_glob_do_not_count() -> None:
    observations = [edit("e1", "/repo/docs/a.md"), edit("e2", "/repo/src/a.pyc"), said()]
    assert fire(observations, UNTESTED) is None


# -- a list of selectors: per-tool patterns -----------------------------------------------------------


def write(ref: str, path: str) -> Observation:
    return Observation(
        "tool", f"[tool] Write {path}", tool="Write", tool_use_id=ref, args={"file_path": path}
    )


def edit_adding(ref: str, path: str, line: str) -> Observation:
    text = f"[tool] Edit {path}\n+ {line}"
    return Observation("tool", text, tool="Edit", tool_use_id=ref, args={"file_path": path})


NEW_CODE: dict[str, Any] = {
    "calls": [
        {"tool": "Write", "path": "*.py"},
        {"tool": "Edit", "path": "*.py", "text": r"(?m)^\+\s*def \w"},
    ]
}


def test_a_list_of_selectors_matches_a_call_that_matches_any_of_them() -> None:
    observations = [
        edit_adding("e1", "/repo/a.py", "x = 1"),
        write("w1", "/repo/notes.md"),
        edit_adding("e2", "/repo/b.py", "def helper():"),
        write("w2", "/repo/c.py"),
        said(),
    ]
    match = fire(observations, NEW_CODE)
    assert match["data"]["paths"] == ["/repo/b.py", "/repo/c.py"]
    assert match["key"] == "e2"
    assert fire(observations[:2], NEW_CODE) is None, "an Edit adding no function and a Write of prose"


def test_not_path_leaves_out_matching_paths_and_passes_calls_without_one() -> None:
    code_not_tests = {"calls": {"path": "*.py", "not_path": ["tests/**", "test_*.py"]}}
    observations = [
        edit("e1", "/repo/tests/unit/test_a.py"),
        edit("e2", "/repo/test_b.py"),
        edit("e3", "/repo/src/a.py"),
        said(),
    ]
    assert fire(observations, code_not_tests)["data"]["paths"] == ["/repo/src/a.py"]
    assert fire(observations[:2], code_not_tests) is None
    commands = fire([bash("b1", "make"), said()], {"calls": {"tool": "Bash", "not_path": "docs/**"}})
    assert commands["data"]["commands"] == ["make"]


def test_absent_may_be_a_list_too() -> None:
    checks = {"calls": {"tool": "Edit"}, "absent": [{"command": "^ruff check"}, {"command": "^mypy"}]}
    assert fire([edit("e1", "/repo/a.py"), bash("b1", "mypy src"), said()], checks) is None
    assert fire([edit("e1", "/repo/a.py"), bash("b1", "ruff check ."), said()], checks) is None
    assert fire([edit("e1", "/repo/a.py"), bash("b1", "ruff format ."), said()], checks) is not None


# -- outcomes ---------------------------------------------------------------------------------------


def test_failed_means_an_error_came_back_and_succeeded_that_the_session_went_on() -> None:
    observations = [bash("b1", "make"), error("b1", "boom"), bash("b2", "make"), said(), bash("b3", "make")]
    failed = fire(observations, {"calls": {"tool": "Bash", "outcome": "failed"}})
    succeeded = fire(observations, {"calls": {"tool": "Bash", "outcome": "succeeded"}, "at_least": 1})
    assert [c["outcome"] for c in failed["data"]["calls"]] == ["failed"]
    assert failed["data"]["calls"][0]["error"] == "boom"
    assert [c["outcome"] for c in succeeded["data"]["calls"]] == ["succeeded"]  # b3 is still running


def test_an_outcome_recorded_on_the_observation_counts() -> None:
    @dataclass(frozen=True)
    class WithOutcome(Observation):
        outcome: dict[str, Any] = field(default_factory=dict)

    piped = WithOutcome("tool", "$ pytest | tail", tool="Bash", tool_use_id="b1", outcome={"failed": True})
    args = {"command": "pytest | tail"}
    observations = [WithOutcome(**{**_fields(piped), "args": args}), said()]
    assert fire(observations, {"calls": {"tool": "Bash", "outcome": "failed"}}) is not None
    assert fire(observations, {"calls": {"tool": "Bash", "outcome": "succeeded"}}) is None


def _fields(obs: Any) -> dict[str, Any]:
    return {name: getattr(obs, name) for name in obs.__dataclass_fields__}


def test_text_searches_the_error_too() -> None:
    observations = [bash("b1", "pytest"), error("b1", "ModuleNotFoundError: No module named 'x'"), said()]
    assert fire(observations, {"calls": {"text": "ModuleNotFoundError"}}) is not None
    assert fire(observations, {"calls": {"text": "ImportError"}}) is None


# -- counting and scopes ----------------------------------------------------------------------------


def _failures(count: int, start: int = 0) -> list[Observation]:
    out: list[Observation] = []
    for number in range(start, start + count):
        when = f"2026-01-01T10:{number:02d}:00Z"
        out += [bash(f"b{number}", "npm test", when), error(f"b{number}", "fail")]
    return out


def test_at_least_counts_matching_calls() -> None:
    assert fire(_failures(2), FAILING) is None
    match = fire(_failures(3), FAILING)
    assert match["data"]["count"] == 3
    assert match["data"]["commands"] == ["npm test"]
    assert match["data"]["failed"] == 3
    assert len(match["evidence"]) == 3


def test_within_last_observations() -> None:
    observations = [*_failures(3), *[said()] * 4]
    assert fire(observations, {**FAILING, "within": {"last": 10}}) is not None
    assert fire(observations, {**FAILING, "within": {"last": 9}}) is None


def test_within_minutes_of_the_newest_stamp() -> None:
    observations = [*_failures(3), Observation("text", "[text] later", "2026-01-01T10:12:00Z")]
    assert fire(observations, {**FAILING, "within": {"minutes": 12}}) is not None
    assert fire(observations, {**FAILING, "within": {"minutes": 11}}) is None


def test_since_the_last_edit_and_the_last_prompt() -> None:
    edited = [*_failures(1), edit("e1", "/repo/x.py"), *_failures(2, start=1)]
    assert fire(edited, FAILING) is not None
    assert fire(edited, {**FAILING, "within": {"since": "edit"}}) is None
    asked = [*_failures(2), prompt(), *_failures(3, start=2)]
    assert fire(asked, {**FAILING, "within": {"since": "prompt"}})["data"]["count"] == 3


def test_one_run_is_reported_once_and_a_new_run_is_new() -> None:
    state: dict[str, Any] = {}
    observations = _failures(3)
    first = match_trigger(observations, FAILING, state)
    assert first is not None
    assert match_trigger([*observations, *_failures(1, start=3)], FAILING, state) is None
    later = [*observations, prompt(), *_failures(3, start=5)]
    again = match_trigger(later, {**FAILING, "within": {"since": "prompt"}}, state)
    assert again is not None and again.key != first.key


# -- globs and regexes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("src/**/*.py", "/repo/src/a.py", True),
        ("src/**/*.py", "/repo/src/a/b/c.py", True),
        ("src/*.py", "/repo/src/a/b.py", False),
        ("*.py", "/repo/src/a.py", True),
        ("/src/*.py", "/repo/src/a.py", False),
        ("/repo/src/*.py", "/repo/src/a.py", True),
        ("test_[!x]*.py", "/repo/test_a.py", True),
        ("test_[!x]*.py", "/repo/test_x.py", False),
        ("docs/**", "/repo/docs/a/b.md", True),
        ("a.py", "/repo/ba.py", False),
    ],
)
def test_glob(glob: str, path: str, matches: bool) -> None:
    assert bool(compile_glob(glob).search(path)) is matches


@pytest.mark.parametrize("glob", ["src/**.py", "a[b", "x/**y/z"])
def test_bad_glob_is_refused(glob: str) -> None:
    with pytest.raises(PatternError, match="invalid glob"):
        compile_glob(glob)


def test_pattern_problems_name_each_key() -> None:
    problems = pattern_problems(
        {"calls": {"command": "(", "path": ["ok/*.py", "bad/**x"]}, "absent": {"text": "[", "path": "a["}}
    )
    assert [where for where, _ in problems] == [
        ("calls", "command"),
        ("calls", "path", 1),
        ("absent", "text"),
        ("absent", "path"),
    ]
    listed = pattern_problems(
        {"calls": [{"tool": "Write"}, {"path": "a[", "text": "(", "not_path": ["ok", "b["]}]}
    )
    assert [where for where, _ in listed] == [
        ("calls", 1, "text"),
        ("calls", 1, "path"),
        ("calls", 1, "not_path", 1),
    ]


def test_a_runaway_regex_is_stopped_by_the_trigger_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "TRIGGER_BOUND_S", 0.2)
    spec = Registry().triggers[DECLARATIVE_TRIGGER]
    observations = [bash("b1", "a" * 40 + "!"), said()]
    with pytest.raises(PatternTimeout):
        spec.invoke(observations, {"calls": {"command": "(a+)+$"}}, {})


# -- the registry -----------------------------------------------------------------------------------


def test_every_registry_holds_the_declarative_trigger_and_no_pack_can_take_its_name() -> None:
    fresh = Registry()
    assert fresh.trigger_schemas() == {DECLARATIVE_TRIGGER: None}
    assert fresh.triggers[DECLARATIVE_TRIGGER].pack == "sbcore"
    with pytest.raises(RegistrationError, match="does not match"):
        Contributions("acme").register_trigger(DECLARATIVE_TRIGGER, match_trigger)
