"""``second-brain replay`` indexes the workspace's notes in a scratch directory, so a soaking recall detector
can be replayed and labelled on recorded sessions, and the user's data directory is left alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from recall_helpers import FAILING

from sbcore.cli import main
from sbcore.paths import data_dir


def _transcript(path: Path, cwd: Path) -> Path:
    def record(number: int, kind: str, message: dict[str, Any]) -> dict[str, Any]:
        return {
            "parentUuid": None,
            "isSidechain": False,
            "type": kind,
            "uuid": f"u-{number:05d}",
            "timestamp": f"2026-03-02T10:00:{number:02d}Z",
            "sessionId": "replayed-session",
            "cwd": str(cwd),
            "message": message,
        }

    call = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "pytest -q"}}
    result = {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": f"Exit code 1\n{FAILING}",
        "is_error": True,
    }
    records = [
        record(1, "user", {"role": "user", "content": "the invoice tests fail"}),
        record(2, "assistant", {"id": "m2", "role": "assistant", "content": [call]}),
        record(3, "user", {"role": "user", "content": [result]}),
        record(
            4,
            "assistant",
            {"id": "m4", "role": "assistant", "content": [{"type": "text", "text": "Looking."}]},
        ),
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_replay_soaks_a_recall_offer_from_the_workspace_notes(
    workspace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = _transcript(tmp_path / "session.jsonl", workspace)
    code = main(
        [
            "replay",
            "--workspace",
            str(workspace),
            "--detectors",
            "recall",
            "--soak",
            "recall",
            "--json",
            str(transcript),
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    results = [r for session in report["sessions"] for p in session["passes"] for r in p["results"]]
    [offer] = [r for r in results if r["detector"] == "recall"]
    assert offer["gate"]["action"] == "soak"
    assert "docs/decisions/0007-pool.md#fix-for-psycopg-toomanyconnections" in offer["feedback"]["headline"]
    assert not (data_dir() / "recall").exists()  # the scratch index is gone, the user's was never made
