"""Every command's ``--json`` says what produced it: the document's format version, sbcore's version and a
fingerprint of the catalogue and configuration in force (issue 23 item 7)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import sbcore
from sbcore.cli import main

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "transcripts"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    monkeypatch.chdir(root)
    monkeypatch.delenv("CLAUDE_CODE_SESSION_ID", raising=False)
    return root


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    main(list(argv))
    document = json.loads(capsys.readouterr().out)
    assert isinstance(document, dict)
    return document


COMMANDS = [
    ["config", "show", "--json"],
    ["detectors", "list", "--json"],
    ["stats", "--json"],
    ["why", "--json"],
    ["doctor", "--json", "--claude", "/nonexistent/claude"],
    ["forget", "--all", "--json"],
    ["soak", "report", "--json"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv[:2]))
def test_every_json_document_carries_its_provenance(
    workspace: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    document = _json(capsys, *argv)
    assert document["schema_version"] == 1
    assert document["sbcore_version"] == sbcore.__version__
    assert re.fullmatch(r"sha256:[0-9a-f]{16}", str(document["fingerprint"]))


def test_the_fingerprint_is_the_workspaces_and_moves_with_a_knob(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = {_json(capsys, *argv)["fingerprint"] for argv in (COMMANDS[0], COMMANDS[1], COMMANDS[3])}
    assert len(first) == 1, "one workspace, one catalogue and configuration: one fingerprint"
    assert main(["config", "set", "gate.cooldown_s", "45"]) == 0
    capsys.readouterr()
    assert _json(capsys, *COMMANDS[0])["fingerprint"] not in first


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not beside the checkout")
def test_measure_json_carries_it_too(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = sorted(CORPUS.glob("*.jsonl"))[0]
    document = _json(capsys, "measure", str(one), "--json")
    assert document["sbcore_version"] == sbcore.__version__ and "fingerprint" in document
    assert document["files"] == 1
