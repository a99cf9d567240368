"""Edit line anchors: resolved from the file on disk, unique matches only, never guessed."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbcore.observe import anchors
from sbcore.observe.anchors import AnchorResolver, format_anchor
from sbcore.observe.config import ProjectionConfig
from sbcore.observe.project import Projector

FILE = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 2\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(FILE)
    return tmp_path


def _edit(path: str, new: str, old: str, cwd: str | None = None) -> str:
    record = {
        "type": "assistant",
        "uuid": "a",
        "cwd": cwd,
        "message": {
            "id": "m",
            "content": [
                {
                    "type": "tool_use",
                    "id": "t",
                    "name": "Edit",
                    "input": {"file_path": path, "new_string": new, "old_string": old},
                }
            ],
        },
    }
    (obs,) = Projector(ProjectionConfig()).feed([record])
    return obs.text.split("\n", 1)[0]


def test_found_by_new_string(repo: Path) -> None:
    path = str(repo / "pkg" / "mod.py")
    assert _edit(path, "def b():\n    return 2\n", "def b():\n    return 0\n") == f"[tool] Edit {path} @L5-L6"


def test_found_by_old_string_when_the_edit_has_not_landed(repo: Path) -> None:
    path = str(repo / "pkg" / "mod.py")
    assert (
        _edit(path, "def a():\n    return 10\n", "def a():\n    return 1\n") == f"[tool] Edit {path} @L1-L2"
    )


def test_single_line_anchor(repo: Path) -> None:
    path = str(repo / "pkg" / "mod.py")
    assert _edit(path, "def c():", "def see():") == f"[tool] Edit {path} @L9"


def test_ambiguous_text_gets_no_anchor(repo: Path) -> None:
    path = str(repo / "pkg" / "mod.py")
    assert _edit(path, "    return 2\n", "    return 3\n") == f"[tool] Edit {path}"


def test_absent_text_gets_no_anchor(repo: Path) -> None:
    path = str(repo / "pkg" / "mod.py")
    assert _edit(path, "nothing like this", "nor this") == f"[tool] Edit {path}"


def test_missing_file_gets_no_anchor(repo: Path) -> None:
    path = str(repo / "pkg" / "gone.py")
    assert _edit(path, "def a():", "def a():") == f"[tool] Edit {path}"


def test_directory_gets_no_anchor(repo: Path) -> None:
    assert _edit(str(repo / "pkg"), "def a():", "x") == f"[tool] Edit {repo / 'pkg'}"


def test_relative_path_resolves_against_the_record_cwd(repo: Path) -> None:
    assert _edit("pkg/mod.py", "def b():\n", "def bb():\n", cwd=str(repo)) == "[tool] Edit pkg/mod.py @L5"
    assert _edit("pkg/mod.py", "def b():\n", "def bb():\n", cwd=None) == "[tool] Edit pkg/mod.py"


def test_anchor_is_also_a_locator_and_an_arg(repo: Path) -> None:
    path = str(repo / "pkg" / "mod.py")
    record = {
        "type": "assistant",
        "uuid": "a",
        "message": {
            "id": "m",
            "content": [
                {
                    "type": "tool_use",
                    "id": "t",
                    "name": "Edit",
                    "input": {"file_path": path, "new_string": "def c():\n", "old_string": "def x():\n"},
                }
            ],
        },
    }
    (obs,) = Projector().feed([record])
    assert f"{path}:9-9" in obs.locators
    assert obs.args["anchor"] == "L9"


def test_large_files_are_not_read(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(anchors, "MAX_ANCHOR_FILE_BYTES", 10)
    assert AnchorResolver().resolve(str(repo / "pkg" / "mod.py"), None, "def b():", "") is None


def test_cache_follows_file_changes(repo: Path) -> None:
    resolver = AnchorResolver()
    target = repo / "pkg" / "mod.py"
    assert resolver.resolve(str(target), None, "def c():", "") == (9, 9)
    target.write_text("def c():\n" + FILE)
    assert resolver.resolve(str(target), None, "def c():", "") is None  # now ambiguous


def test_format_anchor() -> None:
    assert format_anchor(None) == ""
    assert format_anchor((3, 3)) == "@L3"
    assert format_anchor((3, 9)) == "@L3-L9"
