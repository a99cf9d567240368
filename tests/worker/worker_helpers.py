"""Helpers for the worker tests: a private world (dirs, config, transcript), transcript records, waiting.

Imported by name from the tests (``conftest.py`` holds only fixtures).
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from sbcore.gate.advice import Advice

T = TypeVar("T")

# Fast enough for a test, and early passes on every error (the schema's ceiling is 120 an hour).
FAST_CONFIG = "loop:\n  min_interval_s: 10\n  salience_per_hour: 120\n"

# A session that changes goal: the first piece of work, its narrated steps (what was said, the file edited),
# and a second, unrelated goal (the new-goal tests, live and replayed).
GOAL = "Make the storage uploads retry with exponential backoff when the S3 client times out"
NEW_GOAL = "Add a CSV export of monthly invoices to the billing dashboard"
WORK = [
    ("Reading the upload client to see where the S3 bucket timeout surfaces", "storage/upload_client.py"),
    ("The retry wrapper around put_object has no backoff; adding exponential delay", "storage/retry.py"),
    ("Wiring the backoff into the multipart upload path and its timeout handler", "storage/multipart.py"),
]


def wait_for(probe: Callable[[], T | None], timeout: float = 15.0, what: str = "condition") -> T:
    """Poll ``probe`` until it returns something truthy; fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.02)


def passes_since(status: dict[str, Any] | None, mark: float, **match: Any) -> list[dict[str, Any]]:
    """The passes in a status document's ``recent_passes`` that started at or after ``mark`` (epoch s).

    ``match`` filters on an entry's fields (``turn_end=True``, ``reason="salience"``). Waiting for one of
    these, rather than for "the last pass", is waiting for the event a test means.
    """
    found = [
        entry
        for entry in (status or {}).get("recent_passes", [])
        if entry.get("started_at", 0) >= mark and all(entry.get(k) == v for k, v in match.items())
    ]
    return found


def turn_end_pass_since(status: dict[str, Any] | None, mark: float) -> dict[str, Any] | None:
    """The first turn-end pass that started at or after ``mark``, or None."""
    found = passes_since(status, mark, turn_end=True)
    return found[0] if found else None


class Records:
    """Claude Code transcript records, as the CLI writes them (one content block per assistant record)."""

    def __init__(self, session: str, cwd: str, start: datetime | None = None) -> None:
        self.session = session
        self.cwd = cwd
        self.clock = start or datetime.now(UTC)
        self._ids = itertools.count(1)

    def _base(self, kind: str) -> dict[str, Any]:
        self.clock += timedelta(seconds=2)
        number = next(self._ids)
        return {
            "parentUuid": None,
            "isSidechain": False,
            "type": kind,
            "uuid": f"u-{number:05d}",
            "timestamp": self.clock.isoformat().replace("+00:00", "Z"),
            "sessionId": self.session,
            "cwd": self.cwd,
        }

    def prompt(self, text: str) -> dict[str, Any]:
        record = self._base("user")
        record["message"] = {"role": "user", "content": text}
        return record

    def say(self, text: str) -> dict[str, Any]:
        record = self._base("assistant")
        record["message"] = {
            "id": f"msg-{record['uuid']}",
            "role": "assistant",
            "content": [{"type": "text", "text": text}],
        }
        return record

    def call(self, tool: str, tool_input: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        record = self._base("assistant")
        call_id = f"toolu_{record['uuid']}"
        record["message"] = {
            "id": f"msg-{record['uuid']}",
            "role": "assistant",
            "content": [{"type": "tool_use", "id": call_id, "name": tool, "input": tool_input}],
        }
        return call_id, record

    def result(self, call_id: str, text: str, *, error: bool = False) -> dict[str, Any]:
        record = self._base("user")
        block = {"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": error}
        record["message"] = {"role": "user", "content": [block]}
        return record

    def bash(self, command: str, output: str, *, error: bool = False) -> list[dict[str, Any]]:
        call_id, call = self.call("Bash", {"command": command, "description": "run it"})
        return [call, self.result(call_id, output, error=error)]

    def failing(self, command: str = "pytest tests/test_app.py -q", times: int = 3) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for _ in range(times):
            out += self.bash(
                command, "Exit code 1\nFAILED tests/test_app.py::test_add - AssertionError", error=True
            )
        return out


@dataclass
class World:
    """A private HOME, config dir, data dir and project for one test."""

    root: Path
    session: str = "5f0c6a1e-0000-4000-8000-000000000001"
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.home = self.root / "home"
        self.config = self.root / "config"
        self.data = self.root / "data"
        self.project = self.root / "project"
        for directory in (self.home, self.config, self.project):
            directory.mkdir(parents=True, exist_ok=True)
        self.transcript = self.root / "transcript" / f"{self.session}.jsonl"
        self.records = Records(self.session, str(self.project))
        self.write_config(FAST_CONFIG)

    # -- files ------------------------------------------------------------------------------------

    def write_config(self, text: str) -> None:
        path = self.config / "config.yaml"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text)
        os.replace(tmp, path)

    def append(self, *records: dict[str, Any]) -> None:
        self.transcript.parent.mkdir(parents=True, exist_ok=True)
        with open(self.transcript, "a") as handle:
            for record in records:
                handle.write(json.dumps(record) + "\n")

    def event(self, event: str, **fields: Any) -> None:
        """What a hook would append to the events file (written with the hooks' own writer)."""
        from sbcore.hooks.events import record_event

        texts = [key for key, value in fields.items() if isinstance(value, str)]
        values = [key for key in fields if key not in texts]
        record_event(self.data, self.session, event, time.time(), fields, texts=texts, values=values)

    def status(self) -> dict[str, Any] | None:
        from sbcore.worker.status import read_status

        return read_status(self.data, self.session)

    def mailbox(self) -> list[Any]:
        from sbcore.deliver.mailbox import Mailbox

        return Mailbox(self.session, self.data).pending()

    def history(self) -> list[dict[str, Any]]:
        path = self.data / "history" / f"{self.session}.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def log(self) -> str:
        path = self.data / "logs" / f"worker-{self.session}.log"
        return path.read_text() if path.exists() else ""

    # -- environment and processes ----------------------------------------------------------------

    def env(self, **extra: str) -> dict[str, str]:
        """A clean environment: no model keys (the observer runs offline), private dirs, no Claude vars."""
        keep = {key: os.environ[key] for key in ("PATH", "LANG", "LC_ALL", "TMPDIR") if key in os.environ}
        return {
            **keep,
            "HOME": str(self.home),
            "SBCORE_CONFIG_DIR": str(self.config),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            **extra,
        }

    def apply_env(self, monkeypatch: Any) -> None:
        """The same environment for an in-process worker."""
        for key in list(os.environ):
            if key.startswith(("ANTHROPIC_", "OPENAI_", "CLAUDE", "SBCORE_")):
                monkeypatch.delenv(key, raising=False)
        for key, value in self.env().items():
            monkeypatch.setenv(key, value)
        monkeypatch.setenv("SBCORE_DATA_DIR", str(self.data))

    def worker_command(self, *extra: str, parent: int | None = None) -> list[str]:
        command = [
            sys.executable,
            "-m",
            "sbcore.worker",
            "--session",
            self.session,
            "--data",
            str(self.data),
            "--project",
            str(self.project),
            "--transcript",
            str(self.transcript),
            "--tick",
            "0.05",
            "--poll",
            "0.1",
        ]
        if parent is not None:
            command += ["--parent-pid", str(parent)]
        return [*command, *extra]

    def start_worker(
        self, *extra: str, parent: int | None = None, stdout: Any = subprocess.PIPE, **env: str
    ) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            self.worker_command(*extra, parent=parent),
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=subprocess.PIPE,
            env=self.env(**env),
            cwd=self.project,
        )
        self.procs.append(proc)
        return proc

    def dummy_parent(self) -> subprocess.Popen[bytes]:
        """A stand-in for the Claude Code process the worker watches."""
        proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        self.procs.append(proc)
        return proc

    def cleanup(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=10)
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()


def holder_pid(world: World) -> int | None:
    """The pid written in the session lock file (the worker that holds it, if it is held)."""
    from sbcore.worker.lifecycle import SessionLock

    found = SessionLock(world.data, world.session).holder()
    pid = found.get("pid") if found else None
    return pid if isinstance(pid, int) else None


def iter_files(root: Path) -> Iterator[Path]:
    for directory, subdirs, files in os.walk(root):
        yield Path(directory)
        for name in subdirs:
            yield Path(directory) / name
        for name in files:
            yield Path(directory) / name


# -- an in-process worker -------------------------------------------------------------------------


def prompt_hook(world: World) -> dict[str, Any] | None:
    """The UserPromptSubmit hook, called in process as the user's next prompt fires it; its answer or None."""
    import io

    from sbcore.hooks.dispatch import main as hook

    payload = {
        "session_id": world.session,
        "cwd": str(world.project),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "what now?",
    }
    out = io.StringIO()
    assert hook(["UserPromptSubmit"], stdin=io.BytesIO(json.dumps(payload).encode()), stdout=out) == 0
    return json.loads(out.getvalue()) if out.getvalue().strip() else None


def make_session(world: World, **spec: Any) -> Any:
    """A :class:`~sbcore.worker.session.Session` for ``world``, with no stdout and a session that lives."""
    from sbcore.worker.lifecycle import Channel, Lifeline, ParentWatch
    from sbcore.worker.session import Session, SessionSpec
    from sbcore.worker.status import StatusFile

    settings: dict[str, Any] = {"tick_s": 0.02, "poll_s": 0.05, "transcript": world.transcript, **spec}
    channel = Channel(stdout=False)
    return Session(
        SessionSpec(session_id=world.session, data=world.data, cwd=world.project, host="test", **settings),
        Lifeline(ParentWatch(os.getpid()), channel),
        channel,
        StatusFile(world.data, world.session, host="test"),
    )


async def until(probe: Callable[[], T | None], timeout: float = 15.0, what: str = "condition") -> T:
    """``wait_for`` for a coroutine sharing the loop with the worker."""
    import asyncio

    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.02)


def drive(session: Any, scenario: Callable[[], Any]) -> None:
    """Run ``session`` as a task while ``scenario()`` (a coroutine function) runs; then stop it."""
    import asyncio

    async def main() -> None:
        task = asyncio.create_task(session.run())
        try:
            await scenario()
        finally:
            session.lifeline.stop("sigterm")
            await asyncio.wait_for(task, 10)

    asyncio.run(main())


def passed(session: Any) -> int:
    return int(session.record.passes)


def finish_gate_advice(world: World, advice_id: str = "fg-1") -> Advice:
    """A waiting finish-gate advisory for the world's session: the shape a turn-end pass leaves."""
    now = time.time()
    return Advice(
        id=advice_id,
        task_id=world.session,
        session_id=world.session,
        workspace=str(world.project),
        kind="standard-questions",
        headline="Tests were not run after editing app.py",
        body="Nothing observed since the edit of app.py answers: were the tests run?",
        confidence=0.9,
        dedup_key="standard-questions:tests_run",
        generated_at=now,
        ttl=900.0,
        queue_timeout=600.0,
        evidence=("Edit app.py at the end of the turn; no test command after it",),
        finish_gate=True,
    )
