"""Helpers for the hook tests: a test's world (directories, session, mailbox) and what a hook call did."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.advice import Advice

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = ROOT / "plugin" / "bin" / "sb-hook"
SESSION = "0e9c6f5a-7b1d-4e2a-9c3f-5d8e1a2b3c4d"
NOW = 1_800_000_000.0


def real_claude() -> str | None:
    """The CLI for end-to-end tests: ``$SBCORE_CLAUDE_BIN``, else what ``.ci/run`` installs, else PATH's."""
    given = os.environ.get("SBCORE_CLAUDE_BIN")
    if given and os.access(given, os.X_OK):
        return given
    local = ROOT / ".e2e" / "node_modules" / ".bin" / "claude"
    return str(local) if os.access(local, os.X_OK) else shutil.which("claude")


@dataclass
class Answer:
    """What one in-process hook call did."""

    status: int
    stdout: str
    log: str

    @property
    def json(self) -> dict[str, Any]:
        lines = self.stdout.splitlines()
        assert len(lines) == 1, self.stdout
        value = json.loads(lines[0])
        assert isinstance(value, dict)
        return value


@dataclass
class Env:
    """One test's world: data, config and project directories, and the session in it."""

    data: Path
    config: Path
    project: Path
    session: str = SESSION
    now: float = NOW
    """The clock advisories are stamped against (NOW in-process; the wall clock for subprocess calls)."""
    posted: list[Advice] = field(default_factory=list)

    @property
    def mailbox(self) -> Mailbox:
        return Mailbox(self.session, self.data)

    @property
    def log_file(self) -> Path:
        return self.data / "logs" / "hooks.log"

    def log(self) -> str:
        return self.log_file.read_text() if self.log_file.exists() else ""

    def advice(self, **changes: Any) -> Advice:
        """An evidenced, confident advisory for this session, generated a minute before ``now``."""
        values: dict[str, Any] = {
            "id": f"adv-{len(self.posted) + 1}",
            "task_id": "task-1",
            "session_id": self.session,
            "workspace": str(self.project),
            "kind": "standard-questions",
            "headline": "The version was bumped but nothing was deployed",
            "body": "pyproject.toml went from 1.2.0 to 1.3.0; no deploy or publish command ran since.",
            "confidence": 0.9,
            "dedup_key": f"deploy:{len(self.posted) + 1}",
            "generated_at": self.now - 60,
            "ttl": 900.0,
            "queue_timeout": 600.0,
            "evidence": ("pyproject.toml:3",),
        }
        values.update(changes)
        return Advice(**values)

    def post(self, **changes: Any) -> Advice:
        advice = self.advice(**changes)
        self.mailbox.post(advice, now=self.now - 30)
        self.posted.append(advice)
        return advice

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        """A payload of the shape Claude Code sends for ``event``."""
        base: dict[str, Any] = {
            "session_id": self.session,
            "transcript_path": str(self.project / f"{self.session}.jsonl"),
            "cwd": str(self.project),
            "hook_event_name": event,
        }
        shapes: dict[str, dict[str, Any]] = {
            "PostToolUse": {
                "tool_name": "Bash",
                "tool_input": {"command": "ls", "description": "list"},
                "tool_response": {"stdout": "README.md", "stderr": "", "interrupted": False},
                "tool_use_id": "toolu_1",
            },
            "PostToolUseFailure": {
                "tool_name": "Bash",
                "tool_input": {"command": "exit 3"},
                "tool_use_id": "toolu_2",
                "error": "Exit code 3",
                "is_interrupt": False,
            },
            "UserPromptSubmit": {"prompt": "please add tests", "prompt_id": "p1"},
            "SessionStart": {"source": "startup"},
            "Stop": {
                "stop_hook_active": False,
                "last_assistant_message": "All done.",
                "background_tasks": [],
                "session_crons": [],
            },
            "SubagentStop": {
                "agent_id": "a1",
                "agent_type": "general-purpose",
                "last_assistant_message": "Found 3 call sites.",
                "agent_transcript_path": "/x/agent-a1.jsonl",
                "stop_hook_active": False,
            },
        }
        base.update(shapes.get(event, {}))
        base.update(fields)
        return base

    def hot(self, scope: dict[str, Any], key: str = "*") -> None:
        """Write a hot snapshot holding one scope (``key`` ``{project}`` = this project)."""
        name = str(self.project) if key == "{project}" else key
        document = {"v": 1, "scopes": {name: scope}}
        from sbcore import paths

        paths.write_private(self.data / "hot.json", json.dumps(document).encode())

    def events(self) -> list[dict[str, Any]]:
        path = self.data / "events" / f"{self.session}.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines()]
