"""Topic vectors, the session reader, the drift and stall triggers: math, bounds, seams, flow repair."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sbcore.detectors import flow

from sbcore.cli import main
from sbcore.config.schema import knob
from sbcore.observe import steps as session
from sbcore.observe import topic
from sbcore.observe.model import Observation
from sbcore.observe.project import project_file
from sbcore.think.pass_ import TOPIC_TRIGGERS

CASES = Path(__file__).resolve().parents[1] / "think" / "replay_cases"

# -- the vector math ----------------------------------------------------------------------------------------


def test_words_split_identifiers_and_drop_stop_words() -> None:
    assert topic.words("Let me check the parseHeader in session_cookie.py, 42 times") == [
        "parse",
        "header",
        "session",
        "cookie",
        "times",
    ]


def test_buckets_are_stable_and_inside_the_hash_space() -> None:
    assert topic.bucket("redis") == topic.bucket("redis")
    assert 0 <= int(topic.bucket("redis"), 16) < topic.BUCKETS
    assert topic.term_counts("redis redis sentinel") == {
        topic.bucket("redis"): 2.0,
        topic.bucket("sentinel"): 1.0,
    }


def test_cosine() -> None:
    a = {"x": 1.0, "y": 1.0}
    assert topic.cosine(a, a) == pytest.approx(1.0)
    assert topic.cosine(a, {"z": 3.0}) == 0.0
    assert topic.cosine(a, {}) == 0.0
    assert topic.cosine(a, {"x": 2.0}) == pytest.approx(1 / math.sqrt(2))


vectors = st.dictionaries(st.sampled_from("abcdefgh"), st.floats(0.01, 10), min_size=1)


@given(vectors, vectors)
def test_cosine_is_symmetric_and_bounded(a: dict[str, float], b: dict[str, float]) -> None:
    assert topic.cosine(a, b) == pytest.approx(topic.cosine(b, a))
    assert -1e-9 <= topic.cosine(a, b) <= 1 + 1e-9


def test_cap_keeps_the_heaviest_terms() -> None:
    assert topic.cap({"a": 0.1, "b": 5.0, "c": 2.0}, 2) == {"b": 5.0, "c": 2.0}


def test_centroid_adds_unit_vectors() -> None:
    total: topic.Vector = {}
    topic.add_into(total, {"a": 10.0})
    topic.add_into(total, {"b": 0.5})
    topic.add_into(total, {})
    assert total == {"a": 1.0, "b": 1.0}


def test_idf_weighs_rare_terms_above_common_ones() -> None:
    state: dict[str, Any] = {}
    df = topic.DocumentFrequencies(state)
    for text in ("redis cache", "redis queue", "redis sentinel"):
        df.count(topic.term_counts(text))
    weighted = df.weigh(topic.term_counts("redis sentinel"), 48)
    assert weighted[topic.bucket("sentinel")] > weighted[topic.bucket("redis")]
    assert json.loads(json.dumps(state)) == state  # a trigger's state stays JSON


def test_mean_pairwise() -> None:
    assert topic.mean_pairwise([{"a": 1.0}]) == (0.0, 0.0)
    mean, least = topic.mean_pairwise([{"a": 1.0}, {"a": 1.0}, {"b": 1.0}])
    assert mean == pytest.approx(1 / 3) and least == 0.0


# -- the session reader --------------------------------------------------------------------------------------


def narration(index: int, subject: str) -> list[Observation]:
    return [
        Observation(
            "text", f"[text] Working on the {subject} module, part {index}, adjusting the {subject} handler"
        ),
        Observation(
            "tool",
            f"Read {subject}/{index}.py",
            tool="Read",
            tool_use_id=f"r{index}",
            args={"file_path": f"/w/{subject}/{index}.py"},
        ),
    ]


def test_reading_in_pieces_equals_reading_at_once() -> None:
    observations = project_file(CASES / "dr-login-to-logging.jsonl")
    whole: dict[str, Any] = {}
    session.SessionTopic(whole, {}).read(observations)
    pieces: dict[str, Any] = {}
    for end in range(1, len(observations) + 1):
        session.SessionTopic(pieces, {}).read(observations[:end])
    assert pieces == whole
    assert json.loads(json.dumps(whole)) == whole


def test_a_history_that_lost_the_cursor_is_read_again_from_scratch() -> None:
    observations = project_file(CASES / "dr-login-to-logging.jsonl")
    state: dict[str, Any] = {"reported": ["drift@goal9"]}
    session.SessionTopic(state, {}).read(observations)
    steps = state["steps"]
    session.SessionTopic(state, {}).read(observations[:5])  # a rebuilt window: the cursor is gone
    assert state["steps"] < steps and state["reported"] == ["drift@goal9"]


def test_state_stays_bounded_over_a_long_task() -> None:
    observations = [Observation("prompt", "[prompt] Refactor the storage layer across every module")]
    for index in range(3000):
        observations += narration(index, f"subject{index % 500}")
    state: dict[str, Any] = {}
    session.SessionTopic(state, {}).read(observations)
    assert state["steps"] > 2000
    assert len(state["recent"]) == session.RECENT_STEPS
    assert len(state["paths"]) == session.PATHS_CAP
    assert len(state["tfidf"]["df"]) <= topic.BUCKETS
    assert all(len(step["vec"]) <= 48 for step in state["recent"])
    assert len(json.dumps(state)) < 200_000


def test_a_far_prompt_is_a_new_goal_and_a_near_one_refines_it() -> None:
    state: dict[str, Any] = {}
    history: list[Observation] = []

    def say(text: str) -> dict[str, Any]:
        history.append(Observation("prompt", f"[prompt] {text}", uuid=f"p{len(history)}"))
        session.SessionTopic(state, {}).read(history)  # a trigger is always handed the whole history
        return dict(state["goal"])

    first = say("Fix the pagination offset of the orders endpoint")
    assert say("the orders pagination still skips one")["id"] == first["id"]
    moved = say("unrelated: bump redis in docker compose")
    assert moved["id"] != first["id"] and moved["text"].startswith("unrelated")
    assert say("continue")["id"] == moved["id"]


class FakeEmbedder:
    def embed(self, text: str) -> Sequence[float]:
        return [float(len(text)), 1.0, 0.0]


def test_an_installed_embedder_is_used_only_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session, "installed_embedder", FakeEmbedder)
    observations = narration(1, "alpha") + narration(2, "alpha")
    hashed: dict[str, Any] = {}
    session.SessionTopic(hashed, {}).read(observations)
    embedded: dict[str, Any] = {}
    session.SessionTopic(embedded, {"embedding": "installed"}).read(observations)
    assert set(embedded["recent"][0]["vec"]) == {"0", "1", "2"}
    assert set(hashed["recent"][0]["vec"]) != {"0", "1", "2"}


def test_no_embedder_is_installed_here() -> None:
    assert topic.installed_embedder() is None  # nothing in this environment declares one: the hashed space


# -- the triggers --------------------------------------------------------------------------------------------


def run(trigger: Any, name: str, params: dict[str, Any] | None = None) -> Any:
    return trigger(project_file(CASES / f"{name}.jsonl"), params or {}, {})


def test_drift_fires_once_when_the_work_leaves_the_goal() -> None:
    observations = project_file(CASES / "dr-navbar-to-ci.jsonl")
    state: dict[str, Any] = {}
    match = flow.drift(observations, {}, state)
    assert match is not None and match.data["goal"].startswith("The navbar does not collapse")
    assert "GitHub Actions" in match.data["steps"][0]
    assert match.data["goal_similarity"] < 0.1
    assert flow.drift(observations, {}, state) is None  # reported once


def test_drift_flow_repair_the_user_changing_the_subject_is_not_drift() -> None:
    assert run(flow.drift, "dr-user-changes-subject") is None
    assert run(flow.drift, "dr-user-asks-extra") is None


def test_drift_a_user_prompt_inside_a_run_ends_it() -> None:
    observations = project_file(CASES / "dr-navbar-to-ci.jsonl")
    turning = next(i for i, o in enumerate(observations) if "GitHub Actions" in o.text)
    nod = Observation("prompt", "[prompt] ok", uuid="nod")  # the user saw the detour and let it go on
    assert flow.drift([*observations[: turning + 4], nod, *observations[turning + 4 :]], {}, {}) is None


def test_drift_needs_enough_off_topic_steps() -> None:
    assert run(flow.drift, "dr-navbar-to-ci", {"drift_turns": 5}) is None


def test_stall_fires_on_the_same_theory_with_nothing_new() -> None:
    match = run(flow.stall, "st-timeout-theory")
    assert match is not None and match.data["turns"] == 4 and match.data["similarity"] >= 0.5


def test_stall_flow_repair_a_user_repeating_the_demand_is_not_a_stall() -> None:
    assert run(flow.stall, "st-user-insists") is None
    assert run(flow.stall, "st-user-reasks") is None
    # with every user prompt gone, the same agent steps read as a loop: the guard is what keeps it quiet
    observations = [o for o in project_file(CASES / "st-user-reasks.jsonl") if o.kind != "prompt"]
    assert flow.stall(observations, {}, {}) is not None


def test_stall_is_quiet_on_sweeps_polling_and_progress() -> None:
    for name in ("st-sweep-files", "st-polling-ci", "st-new-errors"):
        assert run(flow.stall, name) is None, name


def test_stall_threshold_is_a_knob() -> None:
    assert run(flow.stall, "st-timeout-theory", {"stall_similarity": 0.99}) is None


def test_the_topic_benchmark_reports_both_triggers_at_two_lengths(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "topic", "--observations", "30", "--every", "5", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["sbcore_version"] and document["fingerprint"].startswith("sha256:")
    rows = document["items"]
    assert [(row["trigger"], row["observations"], row["passes"]) for row in rows] == [
        ("drift", 31, 7),
        ("stall", 31, 7),
        ("drift", 301, 61),
        ("stall", 301, 61),
    ]


# -- the knobs -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("params", "trigger"), [(flow.DRIFT_PARAMS, "drift"), (flow.STALL_PARAMS, "stall")])
def test_topic_knobs_and_trigger_params_share_their_defaults(params: dict[str, Any], trigger: str) -> None:
    assert trigger in TOPIC_TRIGGERS
    for name, schema in params["properties"].items():
        configured = knob(f"topic.{name}")
        if configured is not None:
            assert configured.default == schema["default"], name
    assert knob("topic.embedding") is not None and "embedding" not in params["properties"]
