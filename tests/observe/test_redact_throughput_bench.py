"""``python -m sbcore.bench.redaction``: redaction's throughput against ``json.loads`` on transcripts.

A made-up transcript of three strings (prose, a command, a command holding a token) shows what the figures
count: only the assistant's text and its Bash commands, and how many of them redaction changed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from sbcore.bench.redaction import throughput

TOKEN = "ghp_" + "Zq8Lm2Xv7Rt4Ws9Kp3Jd6Hf1Gb5Nc0Ya1Eu"


def _transcript(path: Path) -> Path:
    blocks = [
        {"type": "text", "text": "Let me run the tests."},
        {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "pytest -q"}},
        {
            "type": "tool_use",
            "id": "t2",
            "name": "Bash",
            "input": {"command": f"GITHUB_TOKEN={TOKEN} gh pr list"},
        },
        {"type": "tool_use", "id": "t3", "name": "Read", "input": {"file_path": f"/tmp/{TOKEN}"}},
    ]
    records = [{"type": "assistant", "message": {"content": [block]}} for block in blocks]
    records.append({"type": "user", "message": {"content": f"my token is {TOKEN}"}})
    path.write_text("\n".join(json.dumps(record) for record in records) + "\n")
    return path


def test_counts_the_assistants_text_and_commands_and_what_redaction_changed(tmp_path: Path) -> None:
    lines = throughput([str(_transcript(tmp_path / "t.jsonl"))], rounds=1)
    assert lines[0].startswith("corpus: 1 files")
    assert "; 3 strings," in lines[0]  # the text and two commands: not the Read, not the user's prompt
    assert lines[-1] == "strings changed      1"
    for line in lines[1:4]:
        assert re.search(r"\d+ MB/s", line), line


def test_the_module_runs_as_a_command(tmp_path: Path) -> None:
    transcript = str(_transcript(tmp_path / "t.jsonl"))
    result = subprocess.run(
        [sys.executable, "-m", "sbcore.bench.redaction", transcript, "--rounds", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "redact per string" in result.stdout and "x json.loads" in result.stdout
    assert "strings changed      1" in result.stdout
