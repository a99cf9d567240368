"""The soak loop on recorded input: replay logs would-delivers, `label` records answers, `soak report` counts.

Driven through the CLI on a transcript of the tests, as a user would, with stdin for the answers.
"""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from sbcore.cli import main
from sbcore.conductor.labelling import read_cases
from sbcore.conductor.labels import load_labels
from sbcore.conductor.soaklog import SoakLog, hours_record
from sbcore.conductor.soakreport import READY_LABELLED, build_report, render_report
from sbcore.paths import SymlinkRefused

CASES = Path(__file__).parent.parent / "think" / "replay_cases"
LOOP = CASES / "rf-npm-cosmetic-loop.jsonl"  # `npm test` fails three times: repeat-failure's fallback fires


def soak_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    log = tmp_path / "soak.jsonl"
    code = main(["replay", "--soak", "repeat-failure", "--soak-log", str(log), str(LOOP)])
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    return log


def test_replay_writes_each_would_deliver_with_its_context_and_the_sessions_hours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = list(SoakLog(soak_replay(tmp_path, capsys)).read())
    would, hours = records
    assert (would["detector"], would["reason"], would["route"]) == ("repeat-failure", "passed", "agent")
    assert would["transcript"] == str(LOOP) and isinstance(would["line"], int) and would["line"] > 1
    assert would["headline"] and would["dedup_key"] and 0 < would["confidence"] <= 1
    assert any("npm test" in text for text in would["context"])
    assert hours["kind"] == "hours" and hours["active_s"] > 0 and hours["session"] == would["session"]


def test_label_records_answers_that_replay_labels_reads_and_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    log, out = soak_replay(tmp_path, capsys), tmp_path / "labels.yaml"
    monkeypatch.setattr("sys.stdin", io.StringIO("x\nu\n"))  # an unknown key is asked again
    assert main(["label", "--log", str(log), "--out", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "1 would-fire(s) to label" in shown and "would say:" in shown and "before it:" in shown
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    (case,) = read_cases(out)
    assert (case["detector"], case["expect"], case["lines"][0]) == ("repeat-failure", "fire", 1)
    (loaded,) = load_labels(out)
    assert loaded.transcript == LOOP and loaded.lines == (1, case["lines"][1])

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["label", "--log", str(log), "--out", str(out)]) == 0
    assert "0 would-fire(s) to label" in capsys.readouterr().out, "a labelled would-fire is not asked again"

    code = main(["replay", "--json", "--soak", "repeat-failure", "--labels", str(out)])
    scores = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (scores["repeat-failure"]["tp"], scores["repeat-failure"]["fn"]) == (1, 0), "scored on soak"


def test_label_walks_a_replay_and_quits_on_q(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "labels.yaml"
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["label", "--replay", str(LOOP), "--detectors", "repeat-failure", "--out", str(out)]) == 0
    assert "1 would-fire(s) to label from replay" in capsys.readouterr().out
    assert not out.exists(), "nothing answered, nothing written"
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    assert main(["label", "--replay", str(LOOP), "--detectors", "repeat-failure", "--out", str(out)]) == 0
    assert [case["expect"] for case in read_cases(out)] == ["silent"]


def would_fire(detector: str, session: str, at: float) -> dict[str, Any]:
    return {"detector": detector, "session": session, "at": at, "headline": "h"}


def test_soak_report_rates_per_session_hour_and_the_useful_share() -> None:
    records = [
        would_fire("a", "s1", 0.0),
        would_fire("a", "s1", 1800.0),
        would_fire("b", "s1", 3600.0),  # s1: first to last record, one hour
        would_fire("a", "s2", 50.0),
        hours_record("s2", 7200.0),  # s2: a replay measured two active hours
    ]
    labels = [{"detector": "a", "expect": "fire"}] * 40 + [{"detector": "a", "expect": "silent"}] * 10
    labels += [{"detector": "b", "expect": "fire"}] * 30
    report = build_report(records, labels)
    assert (report.sessions, report.session_hours) == (2, 3.0)
    assert report.rate("a") == 1.0 and report.rate("b") == pytest.approx(1 / 3)
    a, b = report.detectors["a"], report.detectors["b"]
    assert (a.would_fires, a.labelled, a.useful_share, a.ready) == (3, READY_LABELLED, 0.8, True)
    assert (b.labelled, b.ready) == (30, False)
    text = "\n".join(render_report(report))
    assert "a: ready to advise: second-brain config set detectors.a.mode advise" in text
    assert "b: keep soaking: 30 of 50 would-fires labelled" in text
    just = build_report(records, labels[:35] + [{"detector": "a", "expect": "silent"}] * 15)
    assert just.detectors["a"].ready, "70 % is the bar: 35 of 50 useful clears it"
    nearly = build_report(records, labels[:34] + [{"detector": "a", "expect": "silent"}] * 16)
    assert not nearly.detectors["a"].ready, "34 of 50 does not"
    few = build_report(records, labels[:40])
    assert not few.detectors["a"].ready, "all 40 useful, but fewer than 50 labelled"


def test_soak_report_cli_reads_the_log_and_the_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = soak_replay(tmp_path, capsys)
    labels = tmp_path / "labels.yaml"
    labels.write_text("cases:\n  - {id: x, transcript: t.jsonl, detector: repeat-failure, expect: fire}\n")
    assert main(["soak", "report", "--log", str(log), "--labels", str(labels), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    figures = document["detectors"]["repeat-failure"]
    assert (figures["would_fires"], figures["labelled"], figures["useful_share"]) == (1, 1, 1.0)
    assert figures["per_session_hour"] > 0 and figures["ready_to_advise"] is False


def test_the_soak_log_rotates_by_size_and_keeps_n_files(tmp_path: Path) -> None:
    log = SoakLog(tmp_path / "soak" / "w.jsonl", max_bytes=200, rotations=2)
    for n in range(20):
        log.write({"detector": "a", "session": "s", "at": float(n), "body": "x" * 60})
    names = sorted(path.name for path in log.path.parent.iterdir())
    assert names == ["w.1.jsonl", "w.2.jsonl", "w.jsonl"]
    ats = [record["at"] for record in log.read()]
    assert ats == sorted(ats) and ats[-1] == 19.0 and len(ats) < 20, "oldest first; the oldest dropped"
    assert stat.S_IMODE(os.stat(log.path.parent).st_mode) == 0o700


def test_the_soak_log_never_follows_a_symbolic_link(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.jsonl"
    target.write_text("{}\n")
    (tmp_path / "soak").mkdir()
    (tmp_path / "soak" / "w.jsonl").symlink_to(target)
    SoakLog(tmp_path / "soak" / "w.jsonl").write({"detector": "a"})  # logged, never raised
    assert target.read_text() == "{}\n"
    with pytest.raises(SymlinkRefused):
        list(SoakLog(tmp_path / "soak" / "w.jsonl").read())


def test_bad_input_is_a_clear_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, labels = tmp_path / "soak.jsonl", tmp_path / "labels.yaml"
    log.write_text('{"detector": "a", "session": "s", "at": 1}\nnot json\n')
    labels.write_text("cases: [unclosed\n")
    assert main(["soak", "report", "--log", str(log), "--labels", str(labels)]) == 2
    assert "second-brain soak report:" in capsys.readouterr().err
    assert main(["label", "--replay", str(LOOP), "--detectors", "no-such", "--out", str(labels)]) == 2
    assert "--detectors: no runnable detector no-such" in capsys.readouterr().err
    assert (
        main(["soak", "report", "--log", str(tmp_path / "none.jsonl"), "--labels", str(tmp_path / "x")]) == 0
    )
    assert "nothing has soaked yet" in capsys.readouterr().out
