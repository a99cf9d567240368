"""Calibration: durable uptake per detector, the demotion ladder, one notice, `config reset` undoing it."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import pytest
from worker_helpers import World

from sbcore.config import load_config
from sbcore.config.write import reset_value
from sbcore.deliver.framing import NOTICE_KIND
from sbcore.deliver.mailbox import Mailbox
from sbcore.gate import calibration
from sbcore.gate.settings import GateSettings
from sbcore.gate.uptake import OutcomeRecord, Uptake
from sbcore.state import db
from sbcore.worker.calibrate import calibrate

_ids = itertools.count(1)
SETTINGS = calibration.CalibrationSettings(enabled=True, min_outcomes=4, max_uptake=0.25, floor_step=0.1)


@pytest.fixture(autouse=True)
def _private_env(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    world.apply_env(monkeypatch)


def closed(uptake: Uptake, *, at: float, detector: str = "default", confidence: float = 0.8) -> OutcomeRecord:
    n = next(_ids)
    return OutcomeRecord(
        fork_id=f"k{n}",
        advice_id=f"adv{n}",
        detector=detector,
        dedup_key=f"k{n}",
        confidence=confidence,
        delivered_at=at - 10,
        observed_at=0,
        uptake=uptake,
        verdict=None if uptake in ("ignored", "no_evidence") else "rejected",
        closed_at=at,
        closed_by="verdict",
    )


def keep(data: Path, *records: OutcomeRecord, workspace: str = "/w") -> None:
    with db.opened(db.db_path(data)) as conn:
        calibration.record_outcomes(conn, [("t1", r) for r in records], workspace=workspace, session_id="s1")


def judge(data: Path, *, floor: float = 0.7, now: float, enabled: bool = True) -> calibration.Demotion | None:
    with db.opened(db.db_path(data)) as conn:
        found = calibration.judge(
            conn, workspace="/w", detector="default", settings=SETTINGS, floor=floor, enabled=enabled, now=now
        )
        if found is not None:
            calibration.remember(conn, found)
        return found


def test_a_detector_whose_advice_does_not_land_is_demoted_step_by_step(tmp_path: Path) -> None:
    keep(tmp_path, closed("acted", at=1), closed("ignored", at=2), closed("rejected", at=3))
    assert judge(tmp_path, now=4) is None, "three outcomes are too few to judge"
    keep(tmp_path, closed("no_evidence", at=4))
    first = judge(tmp_path, now=5)
    assert first is not None
    assert (first.action, first.key, first.value) == (
        "floor_raised",
        "detectors.default.confidence_floor",
        "0.8",
    )
    assert (
        first.reason
        == "1 of its last 4 delivered advisories acted on (1 acted, 1 rejected, 1 ignored, 1 no_evidence)"
    )
    assert judge(tmp_path, floor=0.8, now=6) is None, (
        "only outcomes after the demotion count towards the next"
    )
    keep(tmp_path, *(closed("ignored", at=10 + n) for n in range(4)))
    second = judge(tmp_path, floor=0.8, now=20)
    assert second is not None and (second.action, second.key, second.value) == (
        "muted",
        "detectors.default.enabled",
        "false",
    )
    assert judge(tmp_path, now=30, enabled=False) is None, "a muted detector has nothing left to lose"


def test_a_detector_whose_advice_lands_often_enough_is_left_alone(tmp_path: Path) -> None:
    keep(
        tmp_path,
        closed("acted", at=1),
        closed("acted", at=2),
        closed("ignored", at=3),
        closed("ignored", at=4),
    )
    assert judge(tmp_path, now=5) is None


def test_calibration_table_reports_uptake_against_confidence(tmp_path: Path) -> None:
    keep(
        tmp_path,
        closed("acted", at=1, confidence=0.9),
        closed("acted", at=2, confidence=0.85),
        closed("ignored", at=3, confidence=0.65),
        closed("rejected", at=4, confidence=0.9),
    )
    with db.opened(db.db_path(tmp_path), readonly=True) as conn:
        table = calibration.calibration_table(conn)
        counts = calibration.uptake_counts(conn, since=2)
    assert table["default"] == {
        "outcomes": 4,
        "uptake": 0.5,
        "mean_confidence_acted": 0.875,
        "mean_confidence_not_acted": 0.775,
        "bands": [
            {"confidence": "0.6-0.8", "outcomes": 1, "acted": 0, "uptake": 0.0},
            {"confidence": "0.8-1.0", "outcomes": 3, "acted": 2, "uptake": 0.667},
        ],
    }
    assert counts == {"default": {"acted": 1, "rejected": 1, "ignored": 1, "no_evidence": 0, "unjudged": 0}}


def test_the_worker_writes_a_demotion_to_the_local_layer_says_so_once_and_config_reset_undoes_it(
    world: World,
) -> None:
    workspace = world.project
    config = load_config(workspace)
    gate = GateSettings.from_config(config)
    mailbox = Mailbox(world.session, world.data)
    records = [closed("rejected", at=100 + n) for n in range(6)]
    keep(world.data, *records, workspace=str(workspace))  # what the pass journal does as records close

    made = calibrate(
        [("t1", r) for r in records],
        data=world.data,
        workspace=workspace,
        config=config,
        gate=gate,
        mailbox=mailbox,
        task_id="t1",
    )
    assert [(d.action, d.value) for d in made] == [("floor_raised", f"{gate.agent_floor('default') + 0.1:g}")]
    demoted = load_config(workspace)
    key = "detectors.default.confidence_floor"
    assert demoted.get(key) == pytest.approx(gate.agent_floor("default") + 0.1)
    assert demoted.layer_of(key) == "local", "a demotion lives in the user's own layer, never the workspace's"
    assert not (workspace / ".second-brain").exists()
    (notice,) = mailbox.pending()
    assert notice.kind == NOTICE_KIND and notice.human_only
    assert f"`second-brain config reset {key}`" in notice.body

    again = calibrate(
        [],
        data=world.data,
        workspace=workspace,
        config=demoted,
        gate=GateSettings.from_config(demoted),
        mailbox=mailbox,
        task_id="t1",
    )
    assert again == [] and len(mailbox.pending()) == 1, "announced once"

    reset_value(key, workspace=workspace)
    restored = load_config(workspace)
    assert restored.get("detectors", {}).get("default", {}).get("confidence_floor") is None
    assert GateSettings.from_config(restored).agent_floor("default") == gate.agent_floor("default")
    with db.opened(db.db_path(world.data), readonly=True) as conn:
        assert [d.detector for d in calibration.demotions(conn)] == ["default"]


def test_a_live_worker_demotes_a_detector_whose_advice_is_ignored_and_routes_its_next_advice_by_the_new_floor(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from worker_helpers import FAST_CONFIG, drive, make_session, until

    from sbcore.testing.fake_provider import FakeProvider
    from sbcore.testing.scripts import feedback

    world.write_config(
        FAST_CONFIG
        + "gate:\n  cooldown_s: 0\n"
        + "adjudication:\n  window_observations: 1\n"
        + "calibration:\n  min_outcomes: 2\n  max_uptake: 0\n"
    )

    def finding(n: int) -> Any:
        return feedback(
            "advise",
            headline=f"Finding {n} in module{n}",
            confidence=0.65,
            dedup_key=f"f{n}",
            evidence=[f"e{n}"],
        )

    def gate_reasons() -> list[str]:
        return [
            r["reason"] for r in world.history() if r.get("stage") == "gate" and r["detector"] == "default"
        ]

    with FakeProvider() as fake:
        for key, value in fake.env("anthropic").items():
            monkeypatch.setenv(key, value)
        fake.script("default", finding(1), finding(2), feedback("silent"), finding(4))
        session = make_session(world)
        mailbox = Mailbox(world.session, world.data)

        async def scenario() -> None:
            world.append(world.records.prompt("make it pass"))
            for n in range(4):
                world.append(*world.records.failing(command=f"pytest tests/test_{n}.py", times=1))
                await until(lambda n=n: len(gate_reasons()) > n, what=f"the gate's decision {n + 1}")
                mailbox.claim(time.time(), for_agent=True, human_channel=False)  # the agent's drain

        drive(session, scenario)

    assert gate_reasons() == ["passed", "passed", "not_advise", "human_only"]
    uptakes = [r["verdict"] for r in world.history() if r.get("closed_by") == "window"]
    assert uptakes == ["ignored", "ignored"]
    config = load_config(world.project)
    assert config.get("detectors.default.confidence_floor") == pytest.approx(0.7)
    assert config.layer_of("detectors.default.confidence_floor") == "local"
    notices = [advice for advice in mailbox.pending() if advice.kind == NOTICE_KIND]
    assert len(notices) == 1 and "demoted detector default" in notices[0].body
    assert session.status.document["demotions"][0]["action"] == "floor_raised"


def test_outcomes_nothing_could_judge_never_demote(tmp_path: Path) -> None:
    keep(tmp_path, *(closed("unjudged", at=n) for n in range(1, 9)))
    assert judge(tmp_path, now=10) is None, "eight advisories nothing could judge are no evidence"
    keep(tmp_path, closed("ignored", at=11), closed("acted", at=12))
    assert judge(tmp_path, now=13) is None, "two judged outcomes are too few (min_outcomes 4)"
    with db.opened(db.db_path(tmp_path)) as conn:
        table = calibration.calibration_table(conn)
    assert table["default"]["outcomes"] == 2  # only the judged ones weigh uptake against confidence


def test_an_offline_live_worker_never_demotes_on_advice_nothing_could_judge(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from worker_helpers import FAST_CONFIG, drive, make_session, until

    world.write_config(
        FAST_CONFIG
        + "gate:\n  cooldown_s: 0\n"
        + "adjudication:\n  window_observations: 1\n"
        + "calibration:\n  min_outcomes: 2\n  max_uptake: 0\n"
    )

    def delivered() -> list[dict[str, Any]]:
        return [
            r
            for r in world.history()
            if r.get("stage") == "gate" and r["detector"] == "repeat-failure" and r["reason"] == "passed"
        ]

    session = make_session(world)
    mailbox = Mailbox(world.session, world.data)

    async def scenario() -> None:
        world.append(world.records.prompt("make it pass"))
        loops = [
            ("pytest tests/test_orders.py", "E   KeyError: 'discount' in orders.total"),
            ("cargo build --release", "error[E0382]: borrow of moved value: `config` at src/main.rs:41"),
            ("npm run typecheck", "src/cart.ts(12,5): error TS2322: Type 'string' is not assignable"),
        ]
        for n, (command, error) in enumerate(loops):  # each advised by repeat-failure's fallback, offline
            for _ in range(3):
                world.append(*world.records.bash(command, f"Exit code 1\n{error}", error=True))
            await until(lambda n=n: len(delivered()) > n, what=f"loop {n + 1} advised")
            mailbox.claim(time.time(), for_agent=True, human_channel=False)  # the agent's drain
        await until(
            lambda: len([r for r in world.history() if r.get("closed_by") == "window"]) >= 2,
            what="two outcomes closed (min_outcomes)",
        )

    drive(session, scenario)

    lapses = [r["verdict"] for r in world.history() if r.get("closed_by") == "window"]
    assert lapses[:2] == ["unjudged", "unjudged"]  # "ignored" before issue 22: two of them demoted
    config = load_config(world.project)
    with pytest.raises(KeyError):  # no layer sets it: calibration wrote no demotion
        config.layer_of("detectors.repeat-failure.confidence_floor")
    assert not session.status.document.get("demotions")
