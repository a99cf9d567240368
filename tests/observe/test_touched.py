"""What a task touches (edit regions from projected arguments) and what its prompts name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sbcore.observe.model import Observation
from sbcore.observe.project import Projector
from sbcore.observe.touched import Touch, edit_regions, is_path, mentions, names_path, relative_to


def projected(tool: str, tool_input: dict[str, Any], cwd: Path) -> Observation:
    record = {
        "type": "assistant",
        "cwd": str(cwd),
        "timestamp": "2026-01-01T10:00:00Z",
        "message": {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": tool, "input": tool_input}],
        },
    }
    [observation] = Projector().feed([record])
    return observation


def test_an_edit_is_placed_by_its_projected_line_anchor(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_text("".join(f"x{n} = {n}\n" for n in range(1, 30)))
    edit = projected(
        "Edit", {"file_path": str(target), "old_string": "x", "new_string": "x11 = 11\nx12 = 12\n"}, tmp_path
    )
    assert edit_regions(edit) == [Touch(str(target), 11, 12, "t1")]
    multi = projected(
        "MultiEdit",
        {
            "file_path": str(target),
            "edits": [
                {"old_string": "a", "new_string": "x3 = 3"},
                {"old_string": "b", "new_string": "x20 = 20"},
            ],
        },
        tmp_path,
    )
    assert edit_regions(multi) == [Touch(str(target), 3, 3, "t1"), Touch(str(target), 20, 20, "t1")]


def test_a_write_is_the_whole_new_file_and_an_unplaced_edit_the_whole_file(tmp_path: Path) -> None:
    write = projected("Write", {"file_path": str(tmp_path / "n.py"), "content": "a\nb\nc\n"}, tmp_path)
    assert edit_regions(write) == [Touch(str(tmp_path / "n.py"), 1, 3, "t1")]
    missing = projected(
        "Edit", {"file_path": str(tmp_path / "gone.py"), "old_string": "a", "new_string": "b"}, tmp_path
    )
    assert edit_regions(missing) == [Touch(str(tmp_path / "gone.py"), None, None, "t1")]
    assert (
        edit_regions(Observation("tool", "[tool] Read a.py", tool="Read", args={"file_path": "a.py"})) == []
    )


def test_mentions_are_paths_and_code_symbols_not_english() -> None:
    text = "Let `parse_amount` in src/money.py:12 take commas, as LedgerTotals and reconcile() do; README.md"
    assert mentions(text) == ["src/money.py", "README.md", "parse_amount", "reconcile", "LedgerTotals"]
    assert mentions("please make the totals round properly") == []
    assert is_path("README.md") and is_path("src/money") and not is_path("parse_amount")


def test_a_named_path_matches_whole_trailing_segments() -> None:
    assert names_path("money.py", "src/payments/money.py")
    assert names_path("payments/money.py", "src/payments/money.py")
    assert not names_path("ments/money.py", "src/payments/money.py")
    assert not names_path("src/payments/money.py", "money.py")


def test_paths_are_stored_relative_to_the_workspace_when_inside_it() -> None:
    assert relative_to("/home/u/shop/src/a.py", "/home/u/shop") == "src/a.py"
    assert relative_to("/home/u/shop-old/a.py", "/home/u/shop") == "/home/u/shop-old/a.py"
    assert relative_to("src/./a.py", "/home/u/shop") == "src/a.py"
