"""``measure`` and the built-in digest baseline: definitions, keys, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from projection_cases import TRANSCRIPTS

from sbcore.cli import main
from sbcore.observe.config import ProjectionConfig
from sbcore.observe.digest import BUILTIN_CAP, builtin_entries, cap_builtin
from sbcore.observe.measure import call_locators, measure, render_tables, transcript_files

KEYS = {
    "files",
    "records",
    "input_chars",
    "observed_chars",
    "observed_share",
    "builtin_chars",
    "builtin_share",
    "ratio_vs_builtin",
    "locators_in",
    "locators_kept",
    "projection_mb_s",
    "json_loads_mb_s",
    "throughput_ratio",
    "per_segment",
    "per_tool",
}


@pytest.fixture(scope="module")
def result() -> dict[str, object]:
    return measure([TRANSCRIPTS], ProjectionConfig(), repeat=1)


def test_measure_json_has_every_key(result: dict[str, object]) -> None:
    assert set(result) >= KEYS
    assert result["files"] == len(list(TRANSCRIPTS.glob("*.jsonl")))


def test_figures_are_consistent(result: dict[str, object]) -> None:
    segments = result["per_segment"]
    assert isinstance(segments, dict)
    assert set(segments) == {"text", "args", "prompt", "result"}
    assert sum(row["input_chars"] for row in segments.values()) == result["input_chars"]
    assert sum(row["observed_chars"] for row in segments.values()) == result["observed_chars"]
    assert sum(row["builtin_chars"] for row in segments.values()) == result["builtin_chars"]
    assert result["ratio_vs_builtin"] == round(result["observed_chars"] / result["builtin_chars"], 4)  # type: ignore[operator]
    assert 0 < result["observed_chars"] < result["builtin_chars"] <= result["input_chars"] + 10_000  # type: ignore[operator]
    tools = result["per_tool"]
    assert isinstance(tools, dict)
    assert tools["Bash"]["calls"] >= 5
    assert result["throughput_ratio"] > 0


def test_every_locator_is_kept(result: dict[str, object]) -> None:
    assert result["locators_in"] > 100  # type: ignore[operator]
    assert result["locators_kept"] == result["locators_in"]
    assert result["locators_lost"] == []


def test_tables_render(result: dict[str, object]) -> None:
    tables = render_tables(result)
    for label in (
        "Assistant text",
        "Tool-call arguments",
        "User prompts",
        "Tool results",
        "Observed total",
        "All tools",
        "Locators:",
        "Throughput:",
    ):
        assert label in tables


def test_builtin_cap_marker() -> None:
    assert cap_builtin("x" * BUILTIN_CAP) == "x" * BUILTIN_CAP
    assert cap_builtin("x" * 2500) == "x" * 2000 + "… [+500 chars truncated]"


def test_builtin_entries_follow_the_digest_rules() -> None:
    assistant = {
        "type": "assistant",
        "message": {
            "content": [
                {"type": "thinking", "thinking": "t", "signature": "s"},
                {"type": "text", "text": "hello"},
                {
                    "type": "tool_use",
                    "id": "t",
                    "name": "Write",
                    "input": {"file_path": "/a", "content": "c" * 3000},
                },
            ]
        },
    }
    entries = builtin_entries(assistant)
    assert entries[0] == ("text", "hello")
    assert entries[1][0] == "args" and entries[1][1].startswith('{"file_path":"/a","content":"ccc')
    assert entries[1][1].endswith("chars truncated]")
    user = {
        "type": "user",
        "message": {
            "content": [
                {"type": "tool_result", "tool_use_id": "t", "content": "ok"},
                {"type": "text", "text": "next"},
            ]
        },
    }
    assert builtin_entries(user) == [("result", "ok"), ("prompt", "next")]


def test_call_locators() -> None:
    found = call_locators(
        {"file_path": "/r/a.py", "offset": 10, "command": "cat src/b.py docs/c.md", "flag": True}
    )
    assert found == ["/r/a.py", "10", "src/b.py", "docs/c.md"]


def test_transcript_files_recurses_and_rejects_missing(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.jsonl").write_text("")
    (tmp_path / "y.jsonl").write_text("")
    (tmp_path / "note.txt").write_text("")
    assert [p.name for p in transcript_files([tmp_path])] == ["x.jsonl", "y.jsonl"]
    with pytest.raises(FileNotFoundError, match="nope"):
        transcript_files([tmp_path / "nope"])


def test_cli_measure_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["measure", "--json", "--repeat", "1", str(TRANSCRIPTS / "basics.jsonl")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= KEYS
    assert data["files"] == 1


def test_cli_measure_tables_and_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["measure", "--repeat", "1", str(TRANSCRIPTS / "misc.jsonl")]) == 0
    assert "Observed total" in capsys.readouterr().out
    assert main(["measure", str(tmp_path / "missing")]) == 2
    assert "missing" in capsys.readouterr().err
    assert main(["measure", str(tmp_path)]) == 2
    assert "no *.jsonl" in capsys.readouterr().err
    assert main(["measure", "--set", "bash_cap=many", str(TRANSCRIPTS)]) == 2
    assert "whole number" in capsys.readouterr().err


def test_cli_project_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(TRANSCRIPTS / "agents.jsonl")
    assert main(["project", path]) == 0
    text = capsys.readouterr().out
    assert text.startswith("[prompt] Audit the repository for unused modules.\n\n[tool] Agent Explore")
    assert "[sub] [text]" not in text  # a subagent's narration stays out by default
    assert "[sub] [tool] Bash" in text  # its commands do not (repeat-failure counts subagent loops)
    assert main(["project", "--include-sidechain", path]) == 0
    assert "[sub] [text] Listing modules." in capsys.readouterr().out
    assert main(["project", "--json", "--set", "agent_prompt=20", path]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0] == {
        "kind": "prompt",
        "text": "[prompt] Audit the repository for unused modules.",
        "timestamp": "2026-03-01T10:00:00.000Z",
        "uuid": "agents-001",
    }
    agent = next(line for line in lines if line.get("tool") == "Agent")
    assert agent["args"]["prompt"].startswith("Find Python modules …[tail +")


def test_cli_project_reports_bad_lines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"type":"user","uuid":"u","message":{"content":"hi"}}\n{broken\n')
    assert main(["project", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "[prompt] hi\n"
    assert f"{path}:2: not a JSON object; skipped" in captured.err
    assert main(["project", str(tmp_path / "none.jsonl")]) == 2


def test_measure_remembers_as_many_ids_as_the_projector_and_no_more(tmp_path: Path) -> None:
    """Duplicates are judged over the most recent RECORDS_REMEMBERED records, as the projector judges them:
    a days-long transcript does not grow measure's memory, and a replayed record close behind is still a
    duplicate."""
    from sbcore.observe import measure as measure_module
    from sbcore.observe.project import RECORDS_REMEMBERED

    names = measure_module._RecentNames()
    for index in range(RECORDS_REMEMBERED * 3):
        names[f"toolu_{index}"] = "Bash"
    assert len(names) == RECORDS_REMEMBERED and "toolu_0" not in names
    assert f"toolu_{RECORDS_REMEMBERED * 3 - 1}" in names

    line = {
        "type": "user",
        "uuid": "u-1",
        "timestamp": "2026-01-01T00:00:00Z",
        "message": {"role": "user", "content": "hello there"},
    }
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(json.dumps(line) for _ in range(3)) + "\n")
    result = measure([path], repeat=1)
    # the two replays of the record are out of scope (counted once, as the projector observes it once)
    assert (result["records"], result["observations"], result["input_chars"]) == (3, 1, len("hello there"))
    assert result["out_of_scope_chars"] == 2 * len("hello there")
