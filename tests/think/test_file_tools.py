"""Read, Grep and Glob: output format, limits, skips, refusals and time boxes."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from sbcore.jail import Jail
from sbcore.think.tools.base import Tool, ToolResult
from sbcore.think.tools.files import FileLimits, GlobTool, GrepTool, ReadTool

SECRET = "TOP-SECRET-OUTSIDE"
AWS_KEY = "AKIA" + "ABCDEFGHIJKLMNOP"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / ".git").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "leak.py").write_text(f"needle = '{SECRET}'\n")
    (root / "src" / "main.py").write_text("import os\n\ndef main():\n    needle = 1\n    return needle\n")
    (root / "src" / "pkg" / "util.py").write_text("def helper():\n    return 'Needle'\n")
    (root / "docs" / "guide.md").write_text("# Guide\nthe needle is here\n")
    (root / ".git" / "config").write_text("needle in git internals\n")
    (root / "blob.bin").write_bytes(b"needle\x00binary")
    (root / "many.txt").write_text("".join(f"needle {i}\n" for i in range(50)))
    (root / "crlf.txt").write_bytes(b"one\r\ntwo\r\n")
    (root / "empty.txt").write_text("")
    (root / "keys.txt").write_text(f"aws = {AWS_KEY}\n")
    (root / "escape").symlink_to(tmp_path / "outside")
    (root / "inner").symlink_to("src")
    return root


def run(tool: Tool, **args: Any) -> ToolResult:
    return asyncio.run(tool.call(args))


# -- Read ------------------------------------------------------------------------------------------


def test_read_numbers_lines_like_cat_n(ws: Path) -> None:
    result = run(ReadTool(Jail(ws)), path="src/main.py")
    assert not result.is_error
    assert result.text.splitlines()[:3] == ["     1\timport os", "     2\t", "     3\tdef main():"]
    assert "[lines" not in result.text  # the whole file was shown: no paging footer


def test_read_offset_and_limit_page_through(ws: Path) -> None:
    result = run(ReadTool(Jail(ws)), path="many.txt", offset=10, limit=3)
    lines = result.text.splitlines()
    assert lines[:3] == ["    10\tneedle 9", "    11\tneedle 10", "    12\tneedle 11"]
    assert lines[3] == "[lines 10-12 of 50; call Read with offset=13 for more]"
    tail = run(ReadTool(Jail(ws)), path="many.txt", offset=49)
    assert tail.text.splitlines()[-1] == "[lines 49-50 of 50]"


def test_read_default_window_is_bounded(ws: Path) -> None:
    tool = ReadTool(Jail(ws), FileLimits(read_max_lines=5))
    result = run(tool, path="many.txt")
    assert result.text.count("\n") == 5
    assert result.text.endswith("[lines 1-5 of 50; call Read with offset=6 for more]")


def test_read_edge_cases(ws: Path) -> None:
    tool = ReadTool(Jail(ws))
    assert run(tool, path="empty.txt").text == "empty.txt is empty"
    assert run(tool, path="many.txt", offset=99).text == "many.txt has 50 lines; offset 99 is past the end"
    assert run(tool, path="crlf.txt").text == "     1\tone\n     2\ttwo"


def test_read_truncates_long_lines_and_long_results(ws: Path) -> None:
    (ws / "wide.txt").write_text("y" * 100 + "\n" + "z\n" * 400)
    tool = ReadTool(Jail(ws), FileLimits(max_line_chars=10, max_result_chars=200))
    result = run(tool, path="wide.txt")
    assert "yyyyyyyyyy [… line truncated, 90 more characters]" in result.text
    assert "[… truncated:" in result.text and "more characters not shown]" in result.text
    assert len(result.text) < 300


def test_read_redacts_secrets(ws: Path) -> None:
    result = run(ReadTool(Jail(ws)), path="keys.txt")
    assert AWS_KEY not in result.text
    assert "[REDACTED:aws-access-key-id]" in result.text


def test_read_schema_is_an_object_schema() -> None:
    schema = ReadTool(Jail(Path(__file__).parent)).input_schema
    assert schema["type"] == "object" and schema["required"] == ["path"]
    assert schema["additionalProperties"] is False


# -- Grep ------------------------------------------------------------------------------------------


def test_grep_prints_path_line_text(ws: Path) -> None:
    result = run(GrepTool(Jail(ws)), pattern=r"needle\b", path="src")
    assert not result.is_error, result.text
    lines = result.text.splitlines()
    assert lines[:2] == ["src/main.py:4:     needle = 1", "src/main.py:5:     return needle"]
    assert lines[-1] == "[2 matching lines in 1 of 2 files searched]"


def test_grep_walks_sorted_and_skips_vcs_binary_and_symlinks(ws: Path) -> None:
    result = run(GrepTool(Jail(ws)), pattern="needle", max_matches=1000)
    text = result.text
    assert SECRET not in text  # the escape symlink is never followed
    assert ".git/" not in text
    assert "blob.bin" not in text
    assert "skipped: 1 binary, 2 symlinks" in text
    files = list(dict.fromkeys(line.split(":", 1)[0] for line in text.splitlines()[:-1]))
    assert files == [
        "many.txt",
        "docs/guide.md",
        "src/main.py",
    ]  # each directory's files, then its subdirectories


def test_grep_glob_filter_and_ignore_case(ws: Path) -> None:
    tool = GrepTool(Jail(ws))
    assert "src/pkg/util.py:2:" not in run(tool, pattern="needle", glob="*.py").text
    found = run(tool, pattern="needle", glob="*.py", ignore_case=True).text
    assert "src/pkg/util.py:2:     return 'Needle'" in found
    assert "docs/guide.md" not in found
    nested = run(tool, pattern="needle", glob="**/*.md").text
    assert nested.startswith("docs/guide.md:2: the needle is here")
    assert run(tool, pattern="needle", glob="src/**/*.py", ignore_case=True).text.count("src/") == 3


def test_grep_caps_per_file_and_total(ws: Path) -> None:
    per_file = run(GrepTool(Jail(ws), FileLimits(grep_per_file_matches=3)), pattern="needle", path="many.txt")
    assert per_file.text.count("many.txt:") == 4  # three matches and the "more not shown" line
    assert "many.txt: [… more matches in this file not shown]" in per_file.text
    total = run(GrepTool(Jail(ws)), pattern="needle", path="many.txt", max_matches=5)
    assert "incomplete: stopped at max_matches=5" in total.text
    assert total.text.count("many.txt:") == 5


def test_grep_single_file_and_no_match(ws: Path) -> None:
    tool = GrepTool(Jail(ws))
    assert run(tool, pattern="Guide", path="docs/guide.md").text.startswith("docs/guide.md:1: # Guide")
    none = run(tool, pattern="absent-token", path="docs")
    assert not none.is_error
    assert none.text.startswith("no matches for /absent-token/ under docs")


def test_grep_bad_regex_is_an_error(ws: Path) -> None:
    result = run(GrepTool(Jail(ws)), pattern="(unclosed")
    assert result.is_error and not result.refused
    assert "invalid regular expression" in result.text


@pytest.mark.parametrize(
    "args",
    [
        {"pattern": "needle", "path": "../outside"},
        {"pattern": "needle", "path": "escape"},
        {"pattern": "needle", "path": "/etc"},
        {"pattern": "needle", "path": "~"},
        {"pattern": "needle", "path": "/proc/self"},
        {"pattern": "needle", "path": "escape/leak.py"},
        {"pattern": "needle\x00"},
        {"pattern": "x" * 5000},
        {"pattern": "needle", "glob": "../outside/*.py"},
        {"pattern": "needle", "glob": "/tmp/**/*.py"},
    ],
    ids=lambda args: repr(args)[:50],
)
def test_grep_refuses_paths_outside(ws: Path, args: dict[str, Any]) -> None:
    result = run(GrepTool(Jail(ws)), **args)
    assert result.refused, result.text
    assert SECRET not in result.text


def test_grep_follows_an_inside_symlink_given_as_the_path(ws: Path) -> None:
    result = run(GrepTool(Jail(ws)), pattern="needle", path="inner")
    assert "src/main.py:4:" in result.text


@pytest.mark.timeout(30)
def test_grep_catastrophic_regex_is_stopped_at_the_time_box(ws: Path) -> None:
    (ws / "evil.txt").write_text("a" * 40 + "!\n")
    tool = GrepTool(Jail(ws), FileLimits(time_box_s=1.0, kill_grace_s=0.5))
    started = time.monotonic()
    result = run(tool, pattern=r"(a+)+$", path="evil.txt")
    elapsed = time.monotonic() - started
    assert result.is_error
    assert "did not finish within its 1 s time box" in result.text
    assert elapsed < 10  # killed, not waited out (the match would take far longer)


def test_grep_redacts_matches(ws: Path) -> None:
    result = run(GrepTool(Jail(ws)), pattern="aws")
    assert AWS_KEY not in result.text and "[REDACTED:aws-access-key-id]" in result.text


# -- Glob ------------------------------------------------------------------------------------------


def test_glob_lists_sorted_root_relative(ws: Path) -> None:
    result = run(GlobTool(Jail(ws)), pattern="**/*.py")
    assert result.text.splitlines() == ["src/main.py", "src/pkg/util.py", "[2 matches]"]


def test_glob_marks_directories_and_skips_vcs(ws: Path) -> None:
    result = run(GlobTool(Jail(ws)), pattern="*")
    lines = result.text.splitlines()
    assert "src/" in lines and "docs/" in lines and "inner/" in lines
    assert ".git/" not in lines
    assert "escape/" not in lines and "escape" not in lines  # points outside: left out
    assert lines[-1].endswith("1 results leading outside the workspace left out]")


def test_glob_relative_to_path_and_capped(ws: Path) -> None:
    tool = GlobTool(Jail(ws))
    assert run(tool, pattern="*.py", path="src").text.splitlines() == ["src/main.py", "[1 matches]"]
    capped = run(tool, pattern="**/*", max_results=2).text.splitlines()
    assert len(capped) == 3
    assert capped[-1].startswith("[") and "showing the first 2" in capped[-1]


def test_glob_never_lists_through_an_escaping_link(ws: Path) -> None:
    result = run(GlobTool(Jail(ws)), pattern="escape/*")
    assert "leak.py" not in result.text
    assert result.text.startswith("no paths match 'escape/*'")


@pytest.mark.parametrize(
    "args",
    [
        {"pattern": "../*"},
        {"pattern": "../outside/*"},
        {"pattern": "src/../../outside/*"},
        {"pattern": "**/../../*"},
        {"pattern": "/etc/*"},
        {"pattern": "~/*"},
        {"pattern": "*\x00"},
        {"pattern": "*", "path": "../outside"},
        {"pattern": "*", "path": "escape"},
        {"pattern": "*", "path": "/proc/self"},
    ],
    ids=lambda args: repr(args)[:50],
)
def test_glob_refuses_escaping_patterns(ws: Path, args: dict[str, Any]) -> None:
    result = run(GlobTool(Jail(ws)), **args)
    assert result.refused, result.text
    assert "leak.py" not in result.text


def test_glob_path_must_be_a_directory(ws: Path) -> None:
    result = run(GlobTool(Jail(ws)), pattern="*", path="src/main.py")
    assert result.refused and "not a directory" in result.text
    missing = run(GlobTool(Jail(ws)), pattern="*", path="nowhere")
    assert missing.is_error and not missing.refused
