"""The end-to-end harness: the real Claude Code CLI, the plugin installed as the README says, a fake API.

One :class:`Harness` per test: an isolated HOME (so ``~/.claude`` and
``~/.config/sbcore`` are the test's own), the plugin installed into it with
``second-brain install --claude <cli>`` (``claude plugin marketplace add`` +
``claude plugin install``), configuration written with ``second-brain config
set --global`` (which also writes the hooks' snapshot into the plugin's data
directory), and :meth:`Harness.run` driving ``claude -p … --output-format
stream-json --verbose`` against the project's loopback fake provider, which
serves the primary agent's scripted turns and, when asked, the observer too.

Assertions are made after the CLI exits, on what the fake recorded and on the
stream-json output: no polling of a live session.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sbcore.deliver.framing import frame_for_agent
from sbcore.gate.advice import Advice
from sbcore.testing.fake_provider import FakeProvider, RecordedRequest
from sbcore.testing.terminal import at_terminal

REPO = Path(__file__).resolve().parents[2]
CLAUDE_VERSION = "2.1.328"
MARKETPLACE = "sbcore"
PLUGIN = "second-brain"
CLI_TIMEOUT_S = 90.0
_SAYS = re.compile(r"^[A-Za-z]+(?::\S+)? says: ?")


def find_claude() -> Path | None:
    """``$SBCORE_CLAUDE_BIN``, else ``.e2e/node_modules/.bin/claude`` in the checkout (``.ci/run``)."""
    given = os.environ.get("SBCORE_CLAUDE_BIN")
    candidate = Path(given) if given else REPO / ".e2e" / "node_modules" / ".bin" / "claude"
    return candidate if candidate.is_file() and os.access(candidate, os.X_OK) else None


def texts(value: Any) -> Iterator[str]:
    """Every string inside a JSON value (a request body's text, wherever the CLI put it)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)


@dataclass
class Run:
    """One finished ``claude -p`` run."""

    session: str
    returncode: int
    events: list[dict[str, Any]]
    stderr: str
    requests: list[RecordedRequest]
    transcript: Path

    def system_messages(self) -> list[str]:
        """What hooks showed the user (stream-json ``informational`` notices), as the hook wrote it.

        The CLI prefixes every line of a hook's ``systemMessage`` with ``<Event>:<Tool> says: ``;
        that prefix is taken off again here.
        """
        return [
            "\n".join(_SAYS.sub("", line) for line in str(event.get("content", "")).split("\n"))
            for event in self.events
            if event.get("type") == "system" and event.get("subtype") == "informational"
        ]

    def hook_responses(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("type") == "system" and e.get("subtype") == "hook_response"]

    def result(self) -> dict[str, Any]:
        found = [e for e in self.events if e.get("type") == "result"]
        assert found, f"no result event in stream-json; stderr: {self.stderr[-2000:]}"
        return found[-1]

    def route(self, route: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.route == route]

    def carrying(self, text: str, route: str = "primary") -> list[int]:
        """Indexes (in this route's order) of the requests whose body contains ``text`` anywhere."""
        return [i for i, r in enumerate(self.route(route)) if any(text in s for s in texts(r.body))]

    def transcript_records(self) -> list[dict[str, Any]]:
        if not self.transcript.exists():
            return []
        return [json.loads(line) for line in self.transcript.read_text().splitlines() if line.strip()]

    def hook_error_records(self) -> list[dict[str, Any]]:
        """Transcript attachments that record a hook failing, blocking with an error or being cancelled."""
        bad = {"hook_non_blocking_error", "hook_blocking_error", "hook_cancelled", "hook_error"}
        return [
            record
            for record in self.transcript_records()
            if record.get("type") == "attachment" and (record.get("attachment") or {}).get("type") in bad
        ]


class Harness:
    """An isolated HOME with the plugin installed, and the means to run the CLI in it."""

    def __init__(self, root: Path, claude: Path) -> None:
        self.root = root
        self.claude = claude
        self.home = root / "home"
        self.project = root / "project"
        self.home.mkdir(parents=True)
        self.project.mkdir(parents=True)
        (self.project / "app.py").write_text("def add(a, b):\n    return a - b\n")
        self.data = self.home / ".claude" / "plugins" / "data" / f"{PLUGIN}-{MARKETPLACE}"

    # -- setup ------------------------------------------------------------------------------------

    def base_env(self) -> dict[str, str]:
        keep = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL", "TMPDIR") if k in os.environ}
        env = {
            **keep,
            "HOME": str(self.home),
            "TERM": "dumb",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
        if os.geteuid() == 0:
            env["IS_SANDBOX"] = "1"  # the CLI refuses bypass permissions as root otherwise
        return env

    def second_brain(self, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-c", "import sys; from sbcore.cli import main; sys.exit(main())", *args]
        result = subprocess.run(
            command, env=env or self.base_env(), capture_output=True, text=True, timeout=120, cwd=REPO
        )
        assert result.returncode == 0, f"second-brain {' '.join(args)}: {result.stdout}{result.stderr}"
        return result

    def install(self) -> None:
        """The README's way: ``second-brain install`` registers the marketplace and installs the plugin."""
        self.second_brain("install", "--claude", str(self.claude))
        listing = subprocess.run(
            [str(self.claude), "plugin", "list"],
            env=self.base_env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert f"{PLUGIN}@{MARKETPLACE}" in listing.stdout, listing.stdout + listing.stderr

    def configure(self, settings: dict[str, Any]) -> None:
        """``second-brain config set --global KEY VALUE`` each (the hooks' snapshot follows each change).

        Typed at a terminal, as the user would: a capability key (``model.*``,
        ``headless.observe``) into the global layer is refused without one.
        """
        env = {**self.base_env(), "SBCORE_DATA_DIR": str(self.data)}
        for key, value in settings.items():
            command = [sys.executable, "-c", "import sys; from sbcore.cli import main; sys.exit(main())"]
            done = at_terminal(
                [*command, "config", "set", "--global", key, json.dumps(value)], env=env, cwd=REPO
            )
            assert done.returncode == 0, f"second-brain config set {key}: {done.output}"

    # -- running ----------------------------------------------------------------------------------

    def run(
        self,
        fake: FakeProvider,
        prompt: str,
        *,
        env: dict[str, str] | None = None,
        session: str | None = None,
        timeout: float = CLI_TIMEOUT_S,
    ) -> Run:
        session = session or str(uuid.uuid4())
        command = [
            str(self.claude),
            "-p",
            prompt,
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-hook-events",
            "--dangerously-skip-permissions",
            "--session-id",
            session,
        ]
        full_env = {**self.base_env(), **fake.env("anthropic"), "ANTHROPIC_API_KEY": "dummy", **(env or {})}
        result = subprocess.run(
            command, env=full_env, cwd=self.project, capture_output=True, text=True, timeout=timeout
        )
        events = []
        for line in result.stdout.splitlines():
            try:
                events.append(json.loads(line))
            except ValueError:
                continue
        sanitized = "".join(c if c.isalnum() else "-" for c in str(self.project))
        transcript = self.home / ".claude" / "projects" / sanitized / f"{session}.jsonl"
        return Run(session, result.returncode, events, result.stderr, fake.requests, transcript)

    # -- the observer's files ---------------------------------------------------------------------

    def status(self, session: str) -> dict[str, Any] | None:
        from sbcore.worker.status import read_status

        return read_status(self.data, session)

    def wait_for_worker_exit(self, session: str, timeout: float = 10.0) -> dict[str, Any] | None:
        """The worker must leave with the session: wait for its status to say so, then make sure."""
        deadline = time.monotonic() + timeout
        status = self.status(session)
        while status is not None and status.get("alive") and time.monotonic() < deadline:
            time.sleep(0.1)
            status = self.status(session)
        if status is not None and status.get("alive"):
            os.kill(int(status["pid"]), signal.SIGKILL)
            raise AssertionError(f"the worker of {session} outlived its session by {timeout} s")
        return status

    def delivered(self, session: str) -> list[Advice]:
        """Advisories the gate passed for the agent in this session (from the decision history)."""
        path = self.data / "history" / f"{session}.jsonl"
        if not path.exists():
            return []
        found = []
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record.get("stage") == "gate" and record.get("action") == "deliver_agent":
                found.append(Advice.from_json(record["advice"]))
        return found

    def framed(self, session: str) -> list[str]:
        return [frame_for_agent(advice) for advice in self.delivered(session)]
