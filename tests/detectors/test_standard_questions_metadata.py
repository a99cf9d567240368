"""standard-questions after a manifest's edit that only describes the package.

A manifest is code (a dependency, a feature or a script changes what builds and runs), but filling in its
description, keywords, classifiers or links changes nothing a test could check: the projection says so of
such an edit (``metadata_only``, read from its whole text), and the checklist takes it as it takes a comment.
Written with a manifest of no runner's table (a `.nimble` file) and Gleam's. A table a manifest keeps for
another tool's settings (``[tool.zorp]``, a tool in no table) is read as that tool's own settings file would
be: not code.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from sbcore.detectors.standard_questions import standard_questions
from test_triggers import ROOT, open_ids

from sbcore.observe.project import Projector


@pytest.fixture
def checklist() -> dict[str, Any]:
    document = yaml.safe_load((ROOT / "catalogue" / "standard-questions.yaml").read_text())
    config: dict[str, Any] = document["config"]
    return config


def session(*edits: tuple[str, str, str]) -> list[bytes]:
    """``ls tests`` (the project has tests), then an Edit per ``(path, new, old)``."""
    ls = {"type": "tool_use", "id": "toolu_ls", "name": "Bash", "input": {"command": "ls tests"}}
    records: list[dict[str, Any]] = [
        {"type": "assistant", "timestamp": "2026-01-01T10:00:00Z", "message": {"content": [ls]}},
        {
            "type": "user",
            "timestamp": "2026-01-01T10:00:01Z",
            "message": {
                "content": [{"type": "tool_result", "tool_use_id": "toolu_ls", "content": "test_ring.nim"}]
            },
        },
    ]
    for number, (path, new, old) in enumerate(edits, 1):
        use = {"type": "tool_use", "id": f"toolu_{number}", "name": "Edit"}
        use["input"] = {"file_path": path, "new_string": new, "old_string": old}
        stamp = f"2026-01-01T10:0{number}:00Z"
        records.append({"type": "assistant", "timestamp": stamp, "message": {"content": [use]}})
    return [json.dumps(record).encode() for record in records]


DESCRIBED = (
    'description   = "A fixed-size ring buffer with O(1) push and pop, for embedded targets"\n'
    'author        = "Ada Example"\nlicense       = "MIT"\n'
    'homepage      = "https://example.org/ringbuf"\n'
)


def test_a_manifest_edit_that_only_describes_the_package_asks_nothing(checklist: dict[str, Any]) -> None:
    lines = session(
        ("/repo/ringbuf.nimble", DESCRIBED, 'description   = "ring buffer"\nlicense       = "ISC"\n'),
        ("/repo/gleam.toml", 'description = "Rings"\nlinks = []\nlicences = ["MIT"]\n', 'description = ""\n'),
    )
    assert standard_questions(Projector().feed_lines(lines), {}, {}, checklist) is None


def test_a_dependency_beside_the_description_is_code(checklist: dict[str, Any]) -> None:
    lines = session(
        ("/repo/ringbuf.nimble", DESCRIBED + 'requires "nim >= 2.0.0"\n', 'description = "ring"\n')
    )
    assert "tests_run" in open_ids(standard_questions(Projector().feed_lines(lines), {}, {}, checklist))


def test_another_tools_settings_in_the_manifest_are_not_code(checklist: dict[str, Any]) -> None:
    """The same settings in ``zorp.toml`` would be a settings file; in ``pyproject.toml`` they are no more."""
    new = '[tool.zorp.lint]\nselect = ["E", "S"]\n\n[tool.zorp.lint.per-file-ignores]\n"t/**" = ["S101"]\n'
    lines = session(("/repo/pyproject.toml", new, '[tool.zorp.lint]\nselect = ["E", "S"]\n'))
    assert standard_questions(Projector().feed_lines(lines), {}, {}, checklist) is None
    built = '[tool.setuptools]\npackages = ["ring", "ring.ext"]\n'
    lines = session(("/repo/pyproject.toml", built, '[tool.setuptools]\npackages = ["ring"]\n'))
    assert "tests_run" in open_ids(standard_questions(Projector().feed_lines(lines), {}, {}, checklist))
