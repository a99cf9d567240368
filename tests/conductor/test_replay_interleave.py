"""``second-brain replay --interleave``: sessions of one workspace on one clock, through the one pipeline.

The transcripts are the cross-task-collision goldens' (synthetic, in the shape of real ones). Replay keeps
its cross-task index private: the user's data directory is never written.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from sbcore.cli import main
from sbcore.conductor.replay import Replayer
from sbcore.config import load_config
from sbcore.packs.catalogue import assemble_catalogue
from sbcore.packs.manager import get_plugin_manager
from sbcore.think.providers.offline import OfflineProvider

TRANSCRIPTS = Path(__file__).resolve().parents[2] / "goldens/builtin/cross-task-collision/transcripts"
SAME_LINES = [TRANSCRIPTS / "same-lines-a.jsonl", TRANSCRIPTS / "same-lines-b.jsonl"]


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    monkeypatch.setenv("SBCORE_DATA_DIR", str(data))
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    return data


def replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["replay", "--detectors", "cross-task-collision", *args])
    out, err = capsys.readouterr()
    return code, out, err


def advised(report: dict[str, object]) -> list[str]:
    sessions = report["sessions"]
    assert isinstance(sessions, list)
    return [
        result["feedback"]["headline"]
        for session in sessions
        for one in session["passes"]
        for result in one["results"]
        if result["detector"] == "cross-task-collision" and result["verdict"] == "advise"
    ]


def test_interleaved_sessions_editing_one_region_collide_and_the_user_index_is_untouched(
    capsys: pytest.CaptureFixture[str], private_dirs: Path
) -> None:
    code, out, err = replay(capsys, "--interleave", "--json", *map(str, SAME_LINES))
    assert code == 0, err
    report = json.loads(out)
    assert [Path(s["path"]).name for s in report["sessions"]] == ["same-lines-a.jsonl", "same-lines-b.jsonl"]
    [headline] = advised(report)
    assert headline.startswith("Another task is touching the same files: src/payments/ledger.py")
    assert 'same checkout: "Net refunds out of the ledger totals' in headline
    assert report["summary"]["gate"]["soaked"] == 1  # a preview detector soaks: logged, not delivered
    assert not (private_dirs / "sbcore.db").exists()


def test_the_same_transcripts_replayed_apart_never_meet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = replay(capsys, "--json", *map(str, SAME_LINES))
    assert code == 0, err
    assert advised(json.loads(out)) == []


def test_the_same_file_in_two_workspaces_is_not_a_collision(capsys: pytest.CaptureFixture[str]) -> None:
    paths = [TRANSCRIPTS / "shop-readme.jsonl", TRANSCRIPTS / "blog-readme.jsonl"]
    code, out, err = replay(capsys, "--interleave", "--json", *map(str, paths))
    assert code == 0, err
    assert advised(json.loads(out)) == []


def test_one_clock_runs_each_pass_at_its_own_sessions_time() -> None:
    config = load_config(Path.cwd())
    manager = get_plugin_manager()
    catalogue = assemble_catalogue(manager, config=config)
    replayer = Replayer(
        config=config,
        detectors=[catalogue.get("cross-task-collision").definition],  # type: ignore[union-attr]
        provider=OfflineProvider(),
        triggers=manager.registry.triggers,
        environment=manager.template_environment(),
    )
    first, second = asyncio.run(replayer.replay_interleaved(SAME_LINES))
    alone = asyncio.run(replayer.replay_file(SAME_LINES[0]))
    stamps = [[p.timestamp for p in session.passes] for session in (first, second)]
    assert stamps[0] == [p.timestamp for p in alone.passes]  # interleaving moves nobody's clock
    assert stamps[0][-1] < stamps[1][-1] and stamps[1][0] < stamps[0][-1]  # the sessions overlap in time
    assert first.session != second.session


@pytest.mark.parametrize("extra", [["--interleave"], ["--interleave", "-j", "2"]])
def test_interleave_needs_two_transcripts_and_one_process(
    capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    paths = [str(SAME_LINES[0])] if extra == ["--interleave"] else list(map(str, SAME_LINES))
    code, _, err = replay(capsys, *extra, *paths)
    assert code == 2
    assert "--interleave replays two or more transcripts together in one process" in err
