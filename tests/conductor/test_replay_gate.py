"""Replay runs the one pipeline, gate included: it reports what a live session would have delivered."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sbcore.cli import main

CASES = Path(__file__).parent.parent / "think" / "replay_cases"
CORPUS = (Path(__file__).parent / "../../../shared/corpus/transcripts").resolve()
LOOP = CASES / "rf-npm-cosmetic-loop.jsonl"  # `npm test` fails three times: repeat-failure's fallback fires


def replay_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code = main(["replay", "--json", *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    return document


def gated(document: dict[str, Any], detector: str) -> list[dict[str, str]]:
    """The gate's decision on each of ``detector``'s advise verdicts, in pass order."""
    return [
        result["gate"]
        for session in document["sessions"]
        for one in session["passes"]
        for result in one["results"]
        if result["detector"] == detector and result["verdict"] == "advise"
    ]


def workspace(root: Path, config: str) -> Path:
    (root / ".second-brain").mkdir(parents=True)
    (root / ".second-brain" / "config.yaml").write_text(config)
    return root


def test_each_advise_verdict_carries_the_gates_action_and_reason(capsys: pytest.CaptureFixture[str]) -> None:
    document = replay_json(capsys, str(LOOP))
    assert gated(document, "repeat-failure") == [{"action": "deliver_agent", "reason": "passed"}]
    assert document["summary"]["gate"] == {
        "delivered": 1,
        "soaked": 0,
        "dropped": {},
        "by_detector": {"repeat-failure": {"delivered": 1}},
    }


def test_a_soaking_detector_is_gated_and_shown_but_never_delivered(
    capsys: pytest.CaptureFixture[str],
) -> None:
    document = replay_json(capsys, "--soak", "repeat-failure", str(LOOP))
    assert gated(document, "repeat-failure") == [{"action": "soak", "reason": "passed"}]
    assert "advice_id" not in json.dumps(document["sessions"])
    gate = document["summary"]["gate"]
    assert (gate["delivered"], gate["soaked"]) == (0, 1)
    assert gate["by_detector"] == {"repeat-failure": {"soaked": 1}}
    assert document["summary"]["rates"]["soaked_per_active_hour"] is not None


def test_soak_set_from_an_untrusted_workspace_applies_and_shows_in_the_text_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mode: soak`` only narrows what is delivered, so even an untrusted workspace layer may set it."""
    monkeypatch.chdir(workspace(tmp_path / "ws", "detectors:\n  repeat-failure:\n    mode: soak\n"))
    assert main(["replay", str(LOOP)]) == 0
    out = capsys.readouterr().out
    assert " repeat-failure       soaked " in out
    assert "  repeat-failure      soaking   fired in 1 pass (1 soaked)" in out.splitlines()
    assert main(["replay", "--passes", str(LOOP)]) == 0
    out = capsys.readouterr().out
    assert "-> gate: soak (passed)" in out
    assert "Gate: 0 advisories delivered, 1 soaked (would have been delivered), 0 dropped" in out


def test_a_workspace_floor_above_the_fallbacks_confidence_keeps_it_from_the_agent(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fallback advisory's confidence is 0.75: a floor of 0.8 routes it to the user alone, and a human
    floor above it too drops it — as the live gate would, read from the workspace replay runs in."""
    floor = workspace(tmp_path / "floor", "detectors:\n  repeat-failure:\n    confidence_floor: 0.8\n")
    monkeypatch.chdir(floor)
    assert gated(replay_json(capsys, str(LOOP)), "repeat-failure") == [
        {"action": "deliver_human_only", "reason": "human_only"}
    ]

    both = workspace(
        tmp_path / "both",
        "gate:\n  human_floor: 0.8\n  confidence_floor: 0.8\n"
        "detectors:\n  repeat-failure:\n    confidence_floor: 0.8\n",
    )
    monkeypatch.chdir(both)
    document = replay_json(capsys, str(LOOP))
    assert gated(document, "repeat-failure") == [{"action": "drop", "reason": "below_human_floor"}]
    assert document["summary"]["gate"]["dropped"] == {"below_human_floor": 1}
    code = main(["replay", "--passes", str(LOOP)])
    text = capsys.readouterr().out
    assert code == 0
    assert "-> gate: drop (below_human_floor)" in text
    assert "Gate: 0 advisories delivered, 1 dropped (1 below_human_floor)" in text

    # --workspace still overrides the directory replay runs in.
    plain = tmp_path / "plain"
    plain.mkdir()
    assert gated(replay_json(capsys, "--workspace", str(plain), str(LOOP)), "repeat-failure") == [
        {"action": "deliver_agent", "reason": "passed"}
    ]


@pytest.mark.corpus
def test_repeats_of_a_delivered_advisory_are_dropped_as_the_live_gate_would(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A real session where the checklist asks the same again: the detector says it, the gate does not."""
    session = CORPUS / "entire__13db96e5c261-0-full.jsonl"
    if not session.is_file():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    document = replay_json(capsys, "--workspace", str(tmp_path), str(session))
    # hooks.go changed, never built nor tested: said once, then dropped at each later turn end that repeats it
    assert gated(document, "standard-questions") == [
        {"action": "deliver_agent", "reason": "passed"},
        *[{"action": "drop", "reason": "duplicate_similar"}] * 7,
    ]
    assert document["summary"]["gate"]["by_detector"] == {
        "standard-questions": {"delivered": 1, "duplicate_similar": 7}
    }


def test_parallel_replay_prints_exactly_what_a_serial_one_does(capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(p) for p in sorted(CASES.glob("*.jsonl"))]
    assert len(paths) > 2
    for flag in ("--json", "--timings"):
        serial = main(["replay", *([flag] if flag == "--json" else []), *paths]), capsys.readouterr()
        parallel = (
            main(["replay", "-j", "2", *([flag] if flag == "--json" else []), *paths]),
            capsys.readouterr(),
        )
        assert serial[0] == parallel[0] == 0
        assert serial[1].out == parallel[1].out


def test_jobs_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "-j", "0", str(LOOP)]) == 2
    assert "-j/--jobs must be at least 1" in capsys.readouterr().err


def test_replay_leaves_the_users_data_directory_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replay's gate and mailbox live in a scratch directory: no live mailbox, history or status."""
    data = tmp_path / "data"
    monkeypatch.setenv("SBCORE_DATA_DIR", str(data))
    replay_json(capsys, "--workspace", str(tmp_path), str(LOOP))
    assert not data.exists() or not any(data.rglob("*")), sorted(data.rglob("*"))
