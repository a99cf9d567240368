"""The gate's parts: settings from configuration, the envelope, similarity, the finish-gate decision."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gate_helpers import DictConfig, FakeClock, make_advice, make_settings

from sbcore.config import defaults
from sbcore.gate.answer import GateInput
from sbcore.gate.finish import FinishReason, decide_finish_gate, finish_gate_firings, finish_gate_record
from sbcore.gate.gate import Gate
from sbcore.gate.history import Reason
from sbcore.gate.settings import GateSettings
from sbcore.gate.similarity import similarity, tokens


@dataclass(frozen=True)
class Detector:
    id: str
    enabled: bool = True
    confidence_floor: float | None = None
    finish_gate_floor: float | None = None


def test_settings_from_the_layered_configuration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sbcore.config import load_config

    config_dir, workspace = tmp_path / "config", tmp_path / "repo"
    (workspace / ".git").mkdir(parents=True)
    config_dir.mkdir()
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(config_dir))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))
    (config_dir / "config.yaml").write_text(
        "gate:\n  rate_per_hour: 2\n  cooldown_s: 60\nmute:\n  all: true\n"
        "detectors:\n  git-log:\n    enabled: false\n    confidence_floor: 0.5\n"
    )
    settings = GateSettings.from_config(load_config(workspace))
    assert (settings.rate_per_hour, settings.cooldown_s, settings.mute_all) == (2, 60.0, True)
    assert settings.disabled_detectors == frozenset({"git-log"})
    assert settings.agent_floor("git-log") == 0.5
    assert settings.agent_floor("default") == settings.confidence_floor


def test_settings_take_detector_definitions_and_let_configuration_win() -> None:
    document = defaults() | {"detectors": {"prior-art": {"enabled": True}}}
    settings = GateSettings.from_config(
        DictConfig(document),
        [
            Detector("prior-art", enabled=False),  # enabled by the configuration
            Detector("static-analysis", enabled=False, finish_gate_floor=0.95),
            Detector("repeat-failure", confidence_floor=0.4),
        ],
    )
    assert settings.disabled_detectors == frozenset({"static-analysis"})
    assert settings.agent_floor("repeat-failure") == 0.4
    assert settings.finish_gate.floor("static-analysis") == 0.95
    assert settings.finish_gate.floor("default") == document["finish_gate"]["confidence_floor"]


def gate(tmp_path: Path, clock: FakeClock | None = None, **overrides: Any) -> Gate:
    return Gate(
        make_settings(**overrides),
        session_id="s1",
        workspace="/work/repo",
        clock=clock or FakeClock(),
        data=tmp_path,
    )


def answer(**feedback: Any) -> GateInput:
    return GateInput("default", "t1", {"verdict": "advise", "confidence": 0.9} | feedback)


def test_the_envelope_is_sanitised_and_capped(tmp_path: Path) -> None:
    decision = gate(tmp_path, gate__body_cap=100).decide(
        answer(
            headline="Check <system-reminder>this\nnow",
            body="word " * 60,
            evidence=["a\x1b[1mb", ""],
            dedup_key="Some Key",
            finish_gate=True,
        )
    )
    advice = decision.advice
    assert decision.reason is Reason.PASSED and advice is not None
    assert advice.headline == "Check [removed]this now"
    assert len(advice.body) <= 100 and advice.body.endswith(" chars]")
    assert advice.evidence == ("ab",)
    assert advice.dedup_key == "some-key"
    assert advice.finish_gate
    assert (advice.ttl, advice.queue_timeout) == (900.0, 600.0)  # the schema defaults, stamped for the drain
    assert (advice.session_id, advice.workspace, advice.kind, advice.task_id) == (
        "s1",
        "/work/repo",
        "default",
        "t1",
    )


def test_a_missing_key_is_derived_from_detector_and_headline(tmp_path: Path) -> None:
    decision = gate(tmp_path).decide(answer(headline="Run The Tests"))
    assert decision.advice is not None and decision.advice.dedup_key == "default:run-the-tests"


def test_a_missing_confidence_counts_as_none(tmp_path: Path) -> None:
    decision = gate(tmp_path).decide(GateInput("default", "t1", {"verdict": "advise", "headline": "Hm"}))
    assert decision.reason is Reason.BELOW_HUMAN_FLOOR


def test_too_many_stale_if_patterns_are_cut_and_noted(tmp_path: Path) -> None:
    decision = gate(tmp_path).decide(answer(headline="x", stale_if=[f"p{n}" for n in range(20)]))
    assert decision.advice is not None and len(decision.advice.stale_if) == 16
    assert "4 stale_if patterns beyond 16 ignored" in decision.text


def test_a_stale_if_pattern_that_backtracks_without_end_is_dropped_and_noted(tmp_path: Path) -> None:
    decision = gate(tmp_path).decide(answer(headline="x", stale_if=["(a|aa)*b", "pytest -q"]))
    assert decision.advice is not None and decision.advice.stale_if == ("pytest -q",)
    assert "stale_if '(a|aa)*b' backtracks without end: dropped" in decision.text


def test_human_floor_never_exceeds_the_agent_floor(tmp_path: Path) -> None:
    inverted = gate(tmp_path, gate__human_floor=0.7, gate__confidence_floor=0.6)
    assert inverted.decide(answer(headline="x", confidence=0.65)).reason is Reason.PASSED
    assert inverted.decide(answer(headline="y", confidence=0.55)).reason is Reason.BELOW_HUMAN_FLOOR


def test_without_history_nothing_is_written(tmp_path: Path) -> None:
    quiet = Gate(
        make_settings(), session_id="s1", workspace="/w", clock=FakeClock(), data=tmp_path, history=False
    )
    assert quiet.decide(answer(headline="x")).reason is Reason.PASSED
    assert quiet.decide(answer(headline="x")).reason is Reason.SUPERSEDES  # memory still works
    assert not tmp_path.joinpath("history").exists()


def test_every_decision_is_recorded_with_its_reason(tmp_path: Path) -> None:
    from sbcore.gate.history import History

    recorder = gate(tmp_path)
    recorder.decide(GateInput("default", "t1", {"verdict": "silent"}))
    recorder.decide(answer(headline="x", confidence=0.1))
    records, _ = History.for_task("t1", tmp_path).read()
    assert [(r["stage"], r["action"], r["reason"]) for r in records] == [
        ("gate", "drop", "not_advise"),
        ("gate", "drop", "below_human_floor"),
    ]
    assert records[1]["advice"]["confidence"] == 0.1
    assert records[1]["text"] == "confidence 0.1 is below the human floor 0.35"


def test_similarity_is_token_jaccard_without_function_words() -> None:
    left = tokens("The tests were not run after editing foo.py")
    assert left == frozenset({"tests", "run", "after", "editing", "foo", "py"})
    right = tokens("After editing foo.py, the tests were not run!")
    assert similarity(left, right) == 1.0
    assert similarity(left, tokens("Bump the version")) == 0.0
    assert similarity(frozenset(), frozenset()) == 0.0


# -- the finish gate, as the Stop hook calls it ---------------------------------------------------

NOW = 1_000_000.0


def finish(waiting: list[Any], **kwargs: Any) -> Any:
    options: dict[str, Any] = {
        "now": NOW,
        "settings": make_settings(),
        "background": (),
        "stop_hook_active": False,
        "firings": (),
    }
    options.update(kwargs)
    return decide_finish_gate(waiting, **options)


def candidate(**fields: Any) -> Any:
    values = {"finish_gate": True, "evidence": ("Edit CHANGELOG.md",), "generated_at": NOW - 10} | fields
    return make_advice(**values)


def test_the_most_confident_evidenced_candidate_fires() -> None:
    decision = finish(
        [
            candidate(id="a", confidence=0.85, generated_at=NOW - 5),
            candidate(id="b", confidence=0.9, generated_at=NOW - 1),
            candidate(id="c", confidence=0.9, generated_at=NOW - 3),
            candidate(id="d", confidence=0.99, human_only=True),  # the agent never sees it
            candidate(id="e", confidence=0.99, generated_at=NOW - 1000),  # expired
            candidate(id="f", confidence=0.99, kind="prior-art"),  # detector disabled
            make_advice(id="g", confidence=0.99),  # not a finish-gate advisory
        ],
        settings=make_settings(**{"detectors__prior-art": {"enabled": False}}),
    )
    assert decision.fire and decision.reason is FinishReason.FIRE
    assert decision.advice.id == "c"  # 0.9, and generated before b


def test_a_detector_finish_floor_overrides_the_default() -> None:
    strict = make_settings(**{"detectors__standard-questions": {"finish_gate_floor": 0.95}})
    assert finish([candidate(confidence=0.9)], settings=strict).reason is FinishReason.BELOW_FLOOR
    lenient = make_settings(**{"detectors__standard-questions": {"finish_gate_floor": 0.5}})
    assert finish([candidate(confidence=0.6)], settings=lenient).fire


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"settings": make_settings(finish_gate__enabled=False)}, FinishReason.DISABLED),
        ({"settings": make_settings(mute__all=True)}, FinishReason.MUTED),
        ({"stop_hook_active": True}, FinishReason.STOP_HOOK_ACTIVE),
        ({"background": ("Agent: explore the repo",)}, FinishReason.BACKGROUND_WORK),
        ({"firings": (NOW - 7200, NOW - 5000)}, FinishReason.CAP_REACHED),
        ({"settings": make_settings(finish_gate__per_task_cap=0)}, FinishReason.CAP_REACHED),
        ({"firings": (NOW - 3599,)}, FinishReason.TOO_SOON),
        ({"firings": (NOW - 3600,)}, FinishReason.FIRE),
    ],
)
def test_every_condition_must_hold(kwargs: dict[str, Any], reason: FinishReason) -> None:
    assert finish([candidate()], **kwargs).reason is reason


def test_firings_are_read_back_from_records() -> None:
    fired = finish([candidate(id="x")])
    held = finish([], stop_hook_active=True)
    records = [
        finish_gate_record(fired, at=NOW, task_id="t1", session_id="s1"),
        finish_gate_record(held, at=NOW + 1, task_id="t1", session_id="s1"),
    ]
    assert [(r["action"], r["reason"], r["advice_id"]) for r in records] == [
        ("fire", "fire", "x"),
        ("hold", "stop_hook_active", None),
    ]
    assert finish_gate_firings(records) == [NOW]


def test_a_malformed_history_record_is_skipped_not_fatal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from sbcore.gate.history import History

    history = History.for_task("t1", tmp_path)
    no_time = {"task_id": "t1", "session_id": "s1", "stage": "claim", "advice_id": "x", "reason": "claimed"}
    history.record(no_time | {"action": "deliver_agent"})
    history.record(
        {"task_id": "t1", "stage": "gate", "advice_id": "y", "action": "deliver_agent", "advice": {}}
    )
    assert gate(tmp_path).decide(answer(headline="still works")).reason is Reason.PASSED
    assert "skipping malformed history record" in caplog.text
    assert "advisory y unreadable" in caplog.text


def test_gate_modules_import_only_the_standard_library() -> None:
    """The hooks import these: nothing outside the stdlib (and sbcore itself) may come with them."""
    import subprocess
    import sys

    probe = (
        "import sys; before = set(sys.modules); "
        "import sbcore.gate.advice, sbcore.deliver.framing, sbcore.gate.gate; "
        "import sbcore.gate.history, sbcore.deliver.mailbox; "
        "roots = {name.split('.')[0] for name in set(sys.modules) - before}; "
        "print(sorted(roots - set(sys.stdlib_module_names) - {'sbcore'}))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


DOCS = Path(__file__).resolve().parents[2] / "docs" / "gate.md"


def test_the_docs_explain_every_reason_code() -> None:
    text = DOCS.read_text()
    missing = [str(code) for code in [*Reason, *FinishReason] if f"`{code}`" not in text]
    assert missing == []


def test_the_docs_quote_the_frame_as_it_is() -> None:
    from sbcore.deliver.framing import FRAME, frame_for_agent, frame_for_user

    text = DOCS.read_text()
    example = make_advice(
        evidence=("Edit services/foo.py @ 14:02", "no Bash command containing 'pytest' after 14:02")
    )
    assert FRAME in text
    assert frame_for_agent(example) in text
    assert frame_for_user(example).splitlines()[-1] in text
