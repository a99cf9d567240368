"""Hostile (and legitimate) workspaces in tmp directories, and one observer pass over them.

A :class:`Repo` is a git-looking directory with a committed ``.second-brain/``
layer; the user's own state (data and config directories) lives outside it,
as ``tests/conftest.py`` arranges. The user's global layer points the
observer at a loopback fake provider with a key from the environment; the
repository's layer may try to point it elsewhere. :func:`run_pass` is
``second-brain run`` in this process (no worker running), returning its JSON
report.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from sbcore import paths
from sbcore.config import load_config
from sbcore.config.trust import WorkspaceTrust, grant
from sbcore.testing import FAKE_API_KEY, FakeProvider

SESSION = "7a1e0c55-0000-4000-8000-00000000007a"
STOLEN = "ghp_0123456789abcdefghijABCDEFGHIJ0123456789"
"""The value of the variable a hostile layer names in ``model.api_key_env``: it must never be sent."""
OTHER_VAR = "SOME_OTHER_VAR"
MCP_FIXTURE = Path(__file__).resolve().parents[1] / "think" / "mcp_server_fixture.py"


@dataclass
class Repo:
    """A workspace with a committed ``.second-brain/`` layer, and a marker directory outside it."""

    root: Path
    markers: Path
    files: list[Path] = field(default_factory=list)

    @property
    def layer(self) -> Path:
        return self.root / ".second-brain" / "config.yaml"

    @property
    def detectors(self) -> Path:
        return self.root / ".second-brain" / "detectors"

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        self.files.append(path)
        return path

    def config(self, text: str) -> None:
        self.write(".second-brain/config.yaml", text)

    def detector(self, ident: str, text: str) -> Path:
        return self.write(f".second-brain/detectors/{ident}.yaml", text)

    def marker(self, name: str) -> Path:
        return self.markers / name

    def trust(self) -> WorkspaceTrust:
        """The user's approval, recorded directly, the test standing in for the user at their terminal (the
        check ``grant`` makes is tested on its own, in test_trust_command.py)."""
        state = load_config(self.root).trust
        assert state is not None
        with mock.patch("sbcore.config.user_act.refusal", lambda *args, **kwargs: None):
            grant(state)
        return state

    def state(self) -> WorkspaceTrust:
        state = load_config(self.root).trust
        assert state is not None
        return state


def make_repo(tmp_path: Path) -> Repo:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    markers = tmp_path / "markers"
    markers.mkdir()
    return Repo(root, markers)


def touch_command(marker: Path) -> str:
    """A Run command line that leaves ``marker`` behind if it is ever executed."""
    return f"sh -c 'touch {marker}'"


def marker_server(marker: Path) -> dict[str, Any]:
    """An MCP server definition whose mere start leaves ``marker`` behind."""
    return {"command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w').close()"]}


def copy_mcp_fixture(repo: Repo, relative: str = "tools/mcp_server.py") -> Path:
    target = repo.root / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(MCP_FIXTURE, target)
    return target


def user_setup(monkeypatch: pytest.MonkeyPatch, fake: FakeProvider) -> None:
    """The user's own choices: the global layer sends to ``fake``; keys live in the environment."""
    for name in list(os.environ):
        if name.startswith(("ANTHROPIC_", "OPENAI_", "CLAUDE")) or name == "SBCORE_OBSERVER":
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_API_KEY)
    monkeypatch.setenv(OTHER_VAR, STOLEN)
    monkeypatch.setenv("SBCORE_OBSERVER", "")  # `run` sets it for this process; restored afterwards
    glob = paths.config_dir() / "config.yaml"
    glob.parent.mkdir(parents=True, exist_ok=True)
    glob.write_text(
        f"model:\n  provider: anthropic\n  base_url: {fake.anthropic_base_url}\nloop:\n  min_interval_s: 10\n"
    )


def transcript(tmp_path: Path, repo: Repo) -> Path:
    """A short session in ``repo``: a prompt and a reply, enough for a manual pass."""
    path = tmp_path / "transcripts" / f"{SESSION}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    clock = datetime.now(UTC)
    records = []
    for number, (kind, message) in enumerate(
        [
            ("user", {"role": "user", "content": "please fix the failing test"}),
            ("assistant", {"role": "assistant", "content": [{"type": "text", "text": "Looking at it."}]}),
        ],
        start=1,
    ):
        clock += timedelta(seconds=2)
        records.append(
            {
                "parentUuid": None,
                "isSidechain": False,
                "type": kind,
                "uuid": f"u-{number:05d}",
                "timestamp": clock.isoformat().replace("+00:00", "Z"),
                "sessionId": SESSION,
                "cwd": str(repo.root),
                "message": message,
            }
        )
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def run_text(repo: Repo, transcript_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    """``second-brain run`` in this process (no worker running); what it printed."""
    from sbcore.cli import main

    capsys.readouterr()
    code = main(
        [
            "run",
            "--session",
            SESSION,
            "--data",
            str(paths.data_dir()),
            "--project",
            str(repo.root),
            "--transcript",
            str(transcript_path),
            *extra,
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def run_pass(repo: Repo, transcript_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``second-brain run --json`` in this process; its report."""
    report: dict[str, Any] = json.loads(run_text(repo, transcript_path, capsys, "--json"))
    return report


def every_header_and_body(fake: FakeProvider) -> Iterator[str]:
    """Each recorded request's headers and raw body, as text, for "no secret was sent" checks."""
    for request in fake.requests:
        yield json.dumps(dict(request.headers))
        yield request.raw.decode("utf-8", "replace")
