"""``second-brain replay`` in bounded memory: passes are folded and spooled, not kept, with the same output.

The memory case replays two synthetic transcripts (20 and 80 MB) in child processes and compares their peak
resident memory: kept pass reports (each holding its episode's observations) made the peak grow by about
half a megabyte per megabyte of transcript; folded and spooled, the larger one costs no more than a fixed
slack over the smaller. The output cases compare the streamed output, byte for byte, with what the
non-streamed renderers make of a replay that kept every report.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections import Counter
from pathlib import Path

import pytest

from sbcore.bench.hostile import CaseResult, run_cli, write_large
from sbcore.cli import main
from sbcore.conductor.pipeline import PassReport
from sbcore.conductor.provenance import provenance
from sbcore.conductor.replay import Replayer, SessionReplay, render_session
from sbcore.conductor.replay_summary import Summary
from sbcore.conductor.replay_text import render_summary
from sbcore.config import load_config
from sbcore.packs.catalogue import assemble_catalogue
from sbcore.packs.manager import get_plugin_manager
from sbcore.think.providers import OfflineProvider

CASES = Path(__file__).parent.parent / "think" / "replay_cases"
DETECTORS = ("repeat-failure", "standard-questions")
SLACK_MB = 18.0
"""What the larger replay may cost over the smaller one. Keeping every pass cost about 30 MB more for the
80 MB transcript than for the 20 MB one; folding and spooling, 5 to 11 MB, all of it bounded caches filling
up (the triggers' per-observation memos): from 50 MB on the peak stays flat (94, 95, 96 MB at 50, 100 and
200 MB, docs/engine.md)."""


# -- memory ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, Path]]:
    root = tmp_path_factory.mktemp("replay-memory")
    return root, {mb: write_large(root / f"{mb}mb.jsonl", mb * 1_000_000) for mb in (20, 80)}


def replay_peak(root: Path, transcript: Path, *flags: str) -> CaseResult:
    env = dict(os.environ, SBCORE_CONFIG_DIR=str(root / "config"), SBCORE_DATA_DIR=str(root / "data"))
    env.pop("CLAUDE_PLUGIN_DATA", None)
    result = run_cli(transcript.name, ["replay", *flags, str(transcript)], cwd=root, env=env, timeout_s=120)
    assert (result.exit_status, result.traceback) == (0, False), result
    return result


@pytest.mark.slow
@pytest.mark.parametrize("flags", [(), ("--json",)], ids=["text", "json"])
def test_replay_memory_does_not_grow_with_the_transcript(
    transcripts: tuple[Path, dict[int, Path]], flags: tuple[str, ...]
) -> None:
    root, files = transcripts
    small = replay_peak(root, files[20], *flags)
    large = replay_peak(root, files[80], *flags)
    assert large.peak_rss_mb - small.peak_rss_mb <= SLACK_MB, (small, large)


# -- the same output ---------------------------------------------------------------------------------------


def reference_replayer(workspace: Path) -> Replayer:
    """The replayer ``second-brain replay --detectors ...`` builds, keeping every pass report."""
    config = load_config(workspace)
    manager = get_plugin_manager()
    catalogue = assemble_catalogue(manager, workspace=workspace, config=config)
    chosen = {d.id: d.definition for d in catalogue.detectors}
    return Replayer(
        config=config,
        detectors=[chosen[name] for name in DETECTORS],
        provider=OfflineProvider(),
        triggers=manager.registry.triggers,
        environment=manager.template_environment(),
    )


def kept_replays(workspace: Path, paths: list[Path]) -> list[SessionReplay]:
    replayer = reference_replayer(workspace)
    return [asyncio.run(replayer.replay_file(path)) for path in paths]


def head(workspace: Path) -> dict[str, object]:
    """What every replay document starts with: versions and the fingerprint of what ran."""
    replayer = reference_replayer(workspace)
    return provenance(replayer.detectors, replayer.config)


def summary_of(sessions: list[SessionReplay], workspace: Path) -> Summary:
    summary = Summary(detectors=reference_replayer(workspace).detectors)
    for session in sessions:
        summary.add(session)
    return summary


def cli(capsys: pytest.CaptureFixture[str], workspace: Path, *args: str) -> str:
    code = main(["replay", "--workspace", str(workspace), "--detectors", ",".join(DETECTORS), *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def transcripts_of(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.jsonl"))


def test_streamed_text_is_what_the_kept_reports_render(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    paths = transcripts_of(CASES)
    sessions = kept_replays(tmp_path, paths)
    expected = "".join("\n".join(render_session(s)) + "\n" for s in sessions)
    expected += "\n".join(render_summary(summary_of(sessions, tmp_path))) + "\n"
    assert sum(len(s.passes) for s in sessions) > len(paths)  # sessions of several passes each
    assert cli(capsys, tmp_path, "--passes", str(CASES)) == expected
    assert (
        cli(capsys, tmp_path, "--passes", "-j", "2", str(CASES)) == expected
    )  # spools written by forked workers


def test_streamed_json_is_the_document_of_the_kept_reports(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    paths = transcripts_of(CASES)
    sessions = kept_replays(tmp_path, paths)
    document = {
        **head(tmp_path),
        "sessions": [s.to_json() for s in sessions],
        "summary": summary_of(sessions, tmp_path).to_json(),
    }
    expected = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    assert cli(capsys, tmp_path, "--json", str(CASES)) == expected
    assert cli(capsys, tmp_path, "--json", "-j", "2", str(CASES)) == expected


def test_an_empty_replay_is_still_one_json_document(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    document = {"sessions": [s.to_json() for s in kept_replays(tmp_path, [empty])]}
    assert document["sessions"][0]["passes"] == []
    out = cli(capsys, tmp_path, "--json", str(empty))
    assert json.loads(out)["sessions"] == document["sessions"]
    assert out.startswith('{\n "schema_version": 1,\n') and '"passes": [],' in out


def test_no_session_at_all_is_still_the_same_document(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    nothing = tmp_path / "no-transcripts"
    nothing.mkdir()
    expected = json.dumps(
        {**head(tmp_path), "sessions": [], "summary": summary_of([], tmp_path).to_json()},
        ensure_ascii=False,
        indent=1,
    )
    assert cli(capsys, tmp_path, "--json", str(nothing)) == expected + "\n"


def test_interleaved_sessions_stream_the_same_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    paths = transcripts_of(CASES)[:3]
    sessions = asyncio.run(reference_replayer(tmp_path).replay_interleaved(paths))
    document = {
        **head(tmp_path),
        "sessions": [s.to_json() for s in sessions],
        "summary": summary_of(sessions, tmp_path).to_json(),
    }
    expected = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    assert cli(capsys, tmp_path, "--json", "--interleave", *map(str, paths)) == expected


def test_soak_records_are_spooled_and_logged_as_the_kept_reports_hold_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import dataclasses

    from sbcore.conductor.soaklog import SoakLog, hours_record

    paths = transcripts_of(CASES)
    base = reference_replayer(tmp_path)
    soaking = [dataclasses.replace(d, mode="soak") for d in base.detectors]
    replayer = dataclasses.replace(base, detectors=soaking)
    expected = SoakLog(tmp_path / "expected.jsonl", max_bytes=1 << 62)
    for path in paths:
        session = asyncio.run(replayer.replay_file(path))
        for record in session.soaked:
            expected.write(record)
        expected.write(hours_record(session.session, session.active_s, transcript=str(session.path)))
    log = tmp_path / "soak.jsonl"
    cli(capsys, tmp_path, "--soak", ",".join(DETECTORS), "--soak-log", str(log), "-j", "2", str(CASES))
    written = log.read_text()
    assert written == (tmp_path / "expected.jsonl").read_text()
    assert '"line":' in written  # each would-deliver names the transcript line it was decided at


# -- the tally ---------------------------------------------------------------------------------------------


def counts_from_reports(reports: list[PassReport]) -> dict[str, object]:
    """What the tally should hold, counted over every kept report."""
    results = [r.result for r in reports if r.result is not None]
    verdicts: Counter[tuple[str, str]] = Counter((a.detector, a.label) for p in results for a in p.results)
    return {
        "passes": len(results),
        "turn_ends": sum(1 for p in results if p.reason == "turn end"),
        "verdicts": verdicts,
        "fired": {a.detector for p in results for a in p.results if a.verdict == "advise"},
        "delivered": {v.result.detector for r in reports for v in r.verdicts if v.delivered},
    }


def test_the_tally_folds_what_the_kept_reports_hold(tmp_path: Path) -> None:
    replayer = reference_replayer(tmp_path)
    for path in transcripts_of(CASES):
        kept = asyncio.run(replayer.replay_file(path))
        tally = kept.tally
        assert counts_from_reports(kept.reports) == {
            "passes": tally.passes,
            "turn_ends": tally.turn_ends,
            "verdicts": Counter({(n, label): k for n, c in tally.verdicts.items() for label, k in c.items()}),
            "fired": tally.fired,
            "delivered": tally.delivered,
        }, path.name


def test_a_replayer_that_keeps_no_reports_keeps_none(tmp_path: Path) -> None:
    import dataclasses

    path = CASES / "rf-npm-cosmetic-loop.jsonl"
    replayer = reference_replayer(tmp_path)
    kept = asyncio.run(replayer.replay_file(path))
    folded = asyncio.run(dataclasses.replace(replayer, keep_reports=False).replay_file(path))
    assert kept.reports and not folded.reports
    assert folded.tally == kept.tally and folded.fired("repeat-failure")
