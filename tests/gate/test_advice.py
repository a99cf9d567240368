"""The advice envelope: JSON round trip, validation, the two clocks, keys and the staleness check."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from gate_helpers import make_advice

from sbcore.gate.advice import Advice, compile_stale_if, normalise_key, runs_away, stale_reason
from sbcore.observe.model import Observation


def test_json_round_trip_keeps_every_field() -> None:
    advice = make_advice(
        evidence=("services/foo.py:12",),
        stale_if=("pytest",),
        human_only=True,
        finish_gate=True,
        supersedes="a0",
        enqueued_at=1_000_010.0,
        delivered_at=1_000_020.0,
        verdict="adopted",
        verdict_evidence=("Bash: pytest @ 14:05",),
    )
    assert Advice.from_json(advice.to_json()) == advice


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"headline": 3}, "'headline' must be a string"),
        ({"confidence": 1.5}, "'confidence' is 1.5, outside [0.0, 1.0]"),
        ({"confidence": True}, "'confidence' must be a finite number"),
        ({"generated_at": None}, "'generated_at' must be a finite number"),
        ({"evidence": "one"}, "'evidence' must be a list of strings"),
        ({"human_only": "yes"}, "'human_only' must be true or false"),
        ({"verdict": "liked"}, "'verdict' must be one of"),
        ({"surprise": 1}, "unknown key 'surprise'"),
    ],
)
def test_from_json_names_the_bad_key(change: dict[str, Any], message: str) -> None:
    data = make_advice().to_json() | change
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Advice.from_json(data)


def test_validity_clock_runs_from_generation() -> None:
    advice = make_advice(generated_at=100.0, ttl=900.0)
    assert advice.expired_by(999.9) is None
    assert advice.expired_by(1000.0) == "advice_ttl"


def test_queue_clock_starts_only_at_enqueue() -> None:
    advice = make_advice(generated_at=100.0, ttl=900.0, queue_timeout=60.0)
    assert advice.expired_by(500.0) is None  # not enqueued: only the validity clock runs
    queued = advice.with_changes(enqueued_at=400.0)
    assert queued.expired_by(459.0) is None
    assert queued.expired_by(460.0) == "queue_timeout"


def test_when_both_clocks_ran_out_the_first_to_run_out_is_named() -> None:
    advice = make_advice(generated_at=100.0, ttl=300.0, queue_timeout=600.0, enqueued_at=150.0)
    assert advice.expired_by(5000.0) == "advice_ttl"  # ttl lapsed at 400, queue at 750
    later = advice.with_changes(ttl=2000.0)
    assert later.expired_by(5000.0) == "queue_timeout"  # queue lapsed at 750, ttl at 2100


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("tests-not-run:svc/a", "Tests Not_Run:svc/a"),
        ("tests-not-run:svc/a", "  tests  not run:svc/a "),
        ("ｔｅｓｔｓ-not-run", "tests-not-run"),  # full-width letters fold under NFKC
    ],
)
def test_equivalent_keys_normalise_equal(left: str, right: str) -> None:
    assert normalise_key(left) == normalise_key(right)


def test_keys_that_differ_in_their_path_stay_different() -> None:
    assert normalise_key("tests-not-run:svc/a") != normalise_key("tests-not-run:svc/b")


def test_stale_if_matches_later_observation_text() -> None:
    advice = make_advice(stale_if=(r"pytest\b.*services/foo",))
    later = [
        Observation(kind="text", text="Now I will look at the docs."),
        Observation(kind="tool", text="Bash: pytest -q services/foo"),
    ]
    why = stale_reason(advice, later)
    assert why == "stale_if 'pytest\\\\b.*services/foo' matched 'pytest -q services/foo'"


def test_a_stale_if_pattern_that_backtracks_catastrophically_reads_as_no_match() -> None:
    advice = make_advice(stale_if=(r"(a+)+$", "done"))
    assert stale_reason(advice, ["a" * 40 + "!", "all done"]) == "stale_if 'done' matched 'done'"


def test_one_calls_rechecks_share_a_budget_past_which_nothing_is_searched() -> None:
    """Many slow patterns in many advisories must not hold a hook call past Claude Code's limit."""
    import time

    slow = make_advice(stale_if=tuple(f"(a|aa{'|a' * n})*b" for n in range(16)))
    texts = ["a" * 4000 + "!"] * 4
    deadline = time.monotonic() + 0.2
    started = time.monotonic()
    for _ in range(4):
        assert stale_reason(slow, texts, deadline) is None
    assert time.monotonic() - started < 0.2 + 4 * 0.06  # each search ends by the budget's end, at worst
    assert stale_reason(make_advice(stale_if=("done",)), ["all done"], time.monotonic() - 1) is None  # spent
    assert stale_reason(make_advice(stale_if=("done",)), ["all done"], time.monotonic() + 1) is not None


def test_a_pattern_that_backtracks_on_a_probe_is_found_before_it_is_queued() -> None:
    assert runs_away(r"(a+)+$") and runs_away(r"(a|aa)*b")
    assert not runs_away(r"pytest\b.*services/foo") and not runs_away("done")


def test_no_match_means_still_valid() -> None:
    advice = make_advice(stale_if=("pytest",))
    assert stale_reason(advice, ["Bash: ls", "Edit services/foo.py"]) is None
    assert stale_reason(make_advice(), ["pytest"]) is None  # no patterns, never stale


def test_invalid_regex_is_matched_literally_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    compile_stale_if.cache_clear()
    advice = make_advice(stale_if=("pytest (unit",))
    with caplog.at_level(logging.WARNING, logger="sbcore.gate"):
        assert stale_reason(advice, ["ran pytest unit"]) is None
        assert stale_reason(advice, ["ran pytest (unit tests)"]) is not None
    assert "'pytest (unit' is not a valid regex" in caplog.text


def test_overlong_pattern_is_matched_literally() -> None:
    pattern = "a" * 301 + ".*"
    compiled, literal = compile_stale_if(pattern)
    assert literal
    assert compiled.search("a" * 301 + "bbb") is None
    assert compiled.search("a" * 301 + ".*") is not None
