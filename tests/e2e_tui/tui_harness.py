"""Drive the real interactive Claude Code TUI under tmux, against the loopback fake provider.

Monitors run only in the terminal UI, so the monitor-hosted worker can only
be tested there. This module gives a test three things:

* :class:`TuiWorld` — a private HOME seeded so the TUI opens straight to its
  prompt (onboarding done, the project folder trusted, the fake's API key
  approved, the bypass-permissions warning accepted), with the plugin
  installed the way the documentation says (``second-brain install``);
* :class:`Tui` — one CLI in a detached tmux session on its own tmux server:
  read the screen, type a prompt and submit it, ``/exit``, SIGKILL;
* process inspection through ``/proc`` (:meth:`TuiWorld.processes`,
  :meth:`TuiWorld.workers`), scoped to one world's HOME so that other test
  runs on the same machine are never touched, and :meth:`TuiWorld.reap`,
  which kills whatever a test left behind, by pid.

Every wait has a timeout and fails with what it last saw (the screen, the
worker's log), because a TUI that is stuck says why only on its screen.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sbcore.testing import FAKE_API_KEY, FakeProvider, RecordedRequest
from sbcore.testing.terminal import at_terminal

T = TypeVar("T")

REPO = Path(__file__).resolve().parents[2]
PLUGIN_ROOT = REPO / "plugin"
PLUGIN_ID = "second-brain@sbcore"
MONITOR_NAME = "second-brain-worker"
DATA_NAME = "second-brain-sbcore"
"""Claude Code's data directory for an installed plugin is ``<plugin>-<marketplace>``."""

WIDTH, HEIGHT = 200, 50
"""The terminal size: wide enough that the TUI rarely wraps a line the tests look for."""

READY = "bypass permissions on"
"""In the footer once the prompt accepts input (the session runs with --dangerously-skip-permissions)."""

WORKER_POLL_S = 1.0
"""``second-brain worker --poll`` default: how often a standby or a dormant worker looks again."""

SETTINGS: dict[str, Any] = {"loop.salience_per_hour": 120}
"""Sbcore's global configuration for these sessions: an early pass on every error and prompt (the
default allows 6 an hour), so a pass follows each scripted step without waiting for a clock."""


class HarnessError(AssertionError):
    """A wait timed out or the TUI did something the harness cannot work with."""


def wait_for(
    probe: Callable[[], T | None], timeout: float, what: str, *, explain: Callable[[], str] | None = None
) -> T:
    """Poll ``probe`` until it returns something truthy; after ``timeout`` s, fail saying what was seen."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            detail = f"\n{explain()}" if explain is not None else ""
            raise HarnessError(f"timed out after {timeout:g} s waiting for {what}{detail}")
        time.sleep(0.1)


# -- processes ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Proc:
    """A process as ``/proc`` shows it."""

    pid: int
    ppid: int
    argv: tuple[str, ...]
    env: Mapping[str, str]
    state: str

    @property
    def is_worker(self) -> bool:
        """A Second Brain worker: the observer marker set and ``second-brain worker`` in its argv."""
        return (
            self.env.get("SBCORE_OBSERVER") == "1"
            and "worker" in self.argv
            and "sbcore" in " ".join(self.argv)
        )


def read_proc(pid: int) -> Proc | None:
    """The process ``pid``, or None when it is gone (or a zombie: it no longer runs anything)."""
    base = Path(f"/proc/{pid}")
    try:
        stat = (base / "stat").read_text()
        argv = (base / "cmdline").read_bytes().split(b"\0")
        raw_env = (base / "environ").read_bytes().split(b"\0")
    except OSError:  # gone (or going) between the listing and the read
        return None
    rest = stat[stat.rfind(")") + 2 :].split()
    state, ppid = rest[0], int(rest[1])
    if state in ("Z", "X"):
        return None
    env: dict[str, str] = {}
    for item in raw_env:
        key, sep, value = item.decode(errors="replace").partition("=")
        if sep:
            env[key] = value
    return Proc(pid, ppid, tuple(part.decode(errors="replace") for part in argv if part), env, state)


def all_processes() -> Iterator[Proc]:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = read_proc(int(entry))
            if found is not None:
                yield found


def alive(pid: int) -> bool:
    return read_proc(pid) is not None


def ancestors(pid: int, limit: int = 12) -> list[int]:
    """``pid``'s parent, grandparent … (as far as they can be read)."""
    chain: list[int] = []
    current = read_proc(pid)
    while current is not None and current.ppid > 1 and len(chain) < limit:
        chain.append(current.ppid)
        current = read_proc(current.ppid)
    return chain


# -- the world --------------------------------------------------------------------------------------


class TuiWorld:
    """A private HOME and project for one interactive session, with the plugin installed.

    ``data`` is the plugin data directory Claude Code gives the installed
    plugin (``~/.claude/plugins/data/second-brain-sbcore``): the hooks get it
    as ``CLAUDE_PLUGIN_DATA``, the monitor passes it to the worker as
    ``--data``.
    """

    def __init__(self, root: Path, claude: Path) -> None:
        self.root = root
        self.claude = claude
        self.home = root / "home"
        self.project = root / "project"
        for directory in (self.home, self.project):
            directory.mkdir(parents=True, exist_ok=True)
        # The TUI compares the trusted folder with the real path of its cwd.
        self.project = self.project.resolve()
        self.home = self.home.resolve()
        self.claude_dir = self.home / ".claude"
        self.data = self.claude_dir / "plugins" / "data" / DATA_NAME

    # -- setting up -----------------------------------------------------------------------------

    def seed(self) -> None:
        """The state a person would have after the first-run dialogs, so the TUI opens at its prompt.

        ``hasCompletedOnboarding`` skips the welcome flow (which would also try
        to reach api.anthropic.com); the project entry skips the folder-trust
        dialog; the fake's key (by its last 20 characters, as the CLI stores
        it) skips "use this API key?"; ``skipDangerousModePermissionPrompt`` in
        the user settings skips the bypass-permissions warning.
        """
        state = {
            "hasCompletedOnboarding": True,
            "customApiKeyResponses": {"approved": [FAKE_API_KEY[-20:]], "rejected": []},
            "projects": {str(self.project): {"hasTrustDialogAccepted": True}},
        }
        (self.home / ".claude.json").write_text(json.dumps(state, indent=2))
        self.claude_dir.mkdir(exist_ok=True)
        settings = self.claude_dir / "settings.json"
        current = json.loads(settings.read_text()) if settings.exists() else {}
        current["skipDangerousModePermissionPrompt"] = True
        settings.write_text(json.dumps(current, indent=2))

    def install(self) -> None:
        """``second-brain install --claude <cli>`` in this HOME, as docs/install.md says."""
        result = subprocess.run(
            [*second_brain_command(), "install", "--claude", str(self.claude)],
            env=self.base_env(),
            cwd=self.project,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if result.returncode != 0:
            raise HarnessError(
                f"second-brain install failed ({result.returncode}):\n{result.stdout}{result.stderr}"
            )
        listed = subprocess.run(
            [str(self.claude), "plugin", "list"],
            env=self.base_env(),
            cwd=self.project,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if PLUGIN_ID not in listed.stdout:
            raise HarnessError(
                f"`claude plugin list` does not show {PLUGIN_ID}:\n{listed.stdout}{listed.stderr}"
            )

    def configure(self, settings: Mapping[str, Any]) -> None:
        """``second-brain config set --global KEY VALUE`` for each setting (the hooks' snapshot follows)."""
        env = {**self.base_env(), "SBCORE_DATA_DIR": str(self.data)}
        for key, value in settings.items():
            # Typed at a terminal: a capability key into the global layer is refused without one.
            result = at_terminal(
                [*second_brain_command(), "config", "set", "--global", key, json.dumps(value)],
                env=env,
                cwd=self.project,
            )
            if result.returncode != 0:
                raise HarnessError(f"second-brain config set {key} failed:\n{result.output}")

    def base_env(self) -> dict[str, str]:
        """A minimal environment: this HOME, a plain PATH, nothing inherited from the test process."""
        return {
            "HOME": str(self.home),
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "TMPDIR": os.environ.get("TMPDIR", "/tmp"),
        }

    def cli_env(self, fake: FakeProvider) -> dict[str, str]:
        """What the CLI runs with: the fake provider for the main loop (and, inherited, the observer)."""
        return {
            **self.base_env(),
            "TERM": "xterm-256color",
            "IS_SANDBOX": "1",  # required for --dangerously-skip-permissions as root
            "DISABLE_AUTOUPDATER": "1",
            **fake.env("anthropic"),
        }

    # -- the observer's files ---------------------------------------------------------------------

    def status(self, session: str) -> dict[str, Any] | None:
        path = self.data / "status" / f"{session}.json"
        try:
            body = json.loads(path.read_text())
        except (OSError, ValueError):
            return None
        return body if isinstance(body, dict) else None

    def turn_end_pass_since(self, session: str, mark: float) -> dict[str, Any] | None:
        """The first turn-end pass of ``session`` that started at or after ``mark`` (epoch s), finished.

        The worker lists its recent passes in the status file; waiting for one of a kind since a mark
        (not for "the last pass") is waiting for the event a test means, whatever else ran around it.
        """
        for entry in (self.status(session) or {}).get("recent_passes", []):
            if entry.get("turn_end") and entry.get("started_at", 0) >= mark:
                return dict(entry)
        return None

    def lock_holder(self, session: str) -> int | None:
        """The pid written into the session lock by the worker that took it last."""
        try:
            body = json.loads((self.data / "workers" / f"{session}.lock").read_text() or "null")
        except (OSError, ValueError):
            return None
        pid = body.get("pid") if isinstance(body, dict) else None
        return pid if isinstance(pid, int) else None

    def lock_owners(self, session: str) -> set[int]:
        """The pids holding the session's ``flock`` right now, from ``/proc/locks`` (the kernel's word)."""
        path = self.data / "workers" / f"{session}.lock"
        try:
            inode = path.stat().st_ino
        except OSError:
            return set()
        owners: set[int] = set()
        for line in Path("/proc/locks").read_text().splitlines():
            fields = line.split()
            # "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (a blocked waiter has "->" after the number)
            if "->" in fields or len(fields) < 6 or fields[1] != "FLOCK":
                continue
            if fields[5].rsplit(":", 1)[-1] == str(inode):
                owners.add(int(fields[4]))
        return owners

    def worker_log(self, session: str | None = None) -> str:
        logs = self.data / "logs"
        pattern = f"worker-{session}.log" if session else "worker-*.log"
        return "".join(path.read_text(errors="replace") for path in sorted(logs.glob(pattern)))

    def history(self, session: str) -> list[dict[str, Any]]:
        """Every gate and finish-gate record of the session's tasks."""
        records: list[dict[str, Any]] = []
        for path in sorted((self.data / "history").glob(f"{session}*.jsonl")):
            records += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        return records

    def monitor_command(self) -> list[str]:
        """The plugin monitor's command (``monitors/monitors.json``) as Claude Code runs it for this world.

        Claude Code substitutes ``${CLAUDE_PLUGIN_ROOT}``, ``${CLAUDE_PLUGIN_DATA}`` and
        ``${CLAUDE_PROJECT_DIR}`` into the command and runs it with a shell.
        """
        entries = json.loads((PLUGIN_ROOT / "monitors" / "monitors.json").read_text())
        (entry,) = [item for item in entries if item.get("name") == MONITOR_NAME]
        command = str(entry["command"])
        values = {
            "CLAUDE_PLUGIN_ROOT": PLUGIN_ROOT,
            "CLAUDE_PLUGIN_DATA": self.data,
            "CLAUDE_PROJECT_DIR": self.project,
        }
        for key, value in values.items():
            command = command.replace("${" + key + "}", str(value))
        return shlex.split(command)

    def mailbox_glob(self) -> str:
        """A shell glob matching any session's mailbox file in this world."""
        return f"{self.data}/mailbox/*.json"

    # -- processes --------------------------------------------------------------------------------

    def processes(self) -> list[Proc]:
        """Every live process with this world's HOME (the CLI, its tools, hooks, monitors, workers)."""
        home = str(self.home)
        return [proc for proc in all_processes() if proc.env.get("HOME") == home and proc.pid != os.getpid()]

    def workers(self) -> list[Proc]:
        return [proc for proc in self.processes() if proc.is_worker]

    def reap(self) -> list[int]:
        """SIGKILL every process still running with this HOME; the pids killed."""
        killed: list[int] = []
        for _ in range(3):
            left = self.processes()
            if not left:
                break
            for proc in left:
                try:
                    os.kill(proc.pid, signal.SIGKILL)
                    killed.append(proc.pid)
                except ProcessLookupError:
                    pass
            time.sleep(0.2)
        return killed


def second_brain_command() -> list[str]:
    """``second-brain`` from the environment running the tests (the console script, else its module)."""
    script = Path(sys.executable).with_name("second-brain")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys\nfrom sbcore.cli import main\nsys.exit(main())"]


def tmux_binary() -> str | None:
    return os.environ.get("SBCORE_TMUX_BIN") or shutil.which("tmux")


# -- one CLI under tmux -----------------------------------------------------------------------------


class Tui:
    """One interactive ``claude`` in a detached tmux session on a private tmux server.

    The server has its own socket (``tmux -L``) and its own configuration
    file, so nothing of the user's tmux leaks in, and :meth:`close` ends
    exactly it.
    The CLI runs under ``env -i`` with the world's environment only.
    """

    _count = 0

    def __init__(self, world: TuiWorld, fake: FakeProvider, tmux: str) -> None:
        Tui._count += 1
        self.world = world
        self.fake = fake
        self.tmux = tmux
        self.socket = f"sbcore-tui-{os.getpid()}-{Tui._count}"
        self.target = "cli"
        # The server's whole configuration: keep a pane (and its last screen) after its command
        # exits, so a test can still read what the CLI showed last. Set before the session exists.
        self.config = world.root / "tmux.conf"
        self.config.write_text("set-option -g remain-on-exit on\n")
        self.pid: int | None = None
        self.server_pid: int | None = None
        self.socket_path: Path | None = None
        self.last_screen = ""

    # -- tmux plumbing ----------------------------------------------------------------------------

    def _tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [self.tmux, "-L", self.socket, "-f", str(self.config), *args],
            capture_output=True,
            text=True,
            timeout=20,
            env={**os.environ, "TMUX": ""},
        )
        if check and result.returncode != 0:
            raise HarnessError(f"tmux {' '.join(args[:2])} failed: {result.stderr.strip()}")
        return result

    def start(self) -> Tui:
        """Start the CLI; returns once its prompt is ready (and the pid is known)."""
        env = self.world.cli_env(self.fake)
        command = ["env", "-i", *(f"{key}={value}" for key, value in env.items())]
        command += [str(self.world.claude), "--dangerously-skip-permissions"]
        self._tmux(
            "new-session", "-d", "-s", self.target, "-x", str(WIDTH), "-y", str(HEIGHT),
            "-c", str(self.world.project), *command,
        )  # fmt: skip
        server = self._tmux("display-message", "-p", "#{pid} #{socket_path}").stdout.strip()
        pid, _, socket_path = server.partition(" ")
        self.server_pid, self.socket_path = int(pid), Path(socket_path)
        # `env` execs the CLI, so the pane's process is the CLI itself.
        self.pid = int(self._tmux("display-message", "-p", "-t", self.target, "#{pane_pid}").stdout.strip())
        self.wait_ready()
        return self

    def close(self) -> None:
        """End the tmux server (and with it the pane) and remove its socket; never fails."""
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            self._tmux("kill-server", check=False)
        server = self.server_pid
        if server is not None:
            with contextlib.suppress(HarnessError):
                wait_for(lambda: not alive(server), 5.0, "the tmux server to exit")
            if alive(server):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(server, signal.SIGKILL)
        if self.socket_path is not None:
            self.socket_path.unlink(missing_ok=True)

    @property
    def cli_pid(self) -> int:
        if self.pid is None:
            raise HarnessError("the CLI was not started")
        return self.pid

    def cli_alive(self) -> bool:
        return self.pid is not None and alive(self.pid)

    # -- the screen -------------------------------------------------------------------------------

    def screen(self) -> str:
        """The pane's text, scrollback included, wrapped lines joined."""
        result = self._tmux("capture-pane", "-p", "-J", "-S", "-1000", "-t", self.target, check=False)
        if result.returncode == 0:
            self.last_screen = result.stdout
        return self.last_screen

    def explain(self) -> str:
        screen = "\n".join(line.rstrip() for line in self.screen().splitlines() if line.strip())
        log = self.world.worker_log()
        tail = "\n".join(log.splitlines()[-15:])
        statuses = []
        for path in sorted((self.world.data / "status").glob("*.json")):
            doc = self.world.status(path.stem) or {}
            last = (doc.get("policy") or {}).get("last")
            statuses.append(
                f"{path.stem}: {doc.get('state')} pid {doc.get('pid')} ({doc.get('detail')}); last {last}"
            )
        processes = [
            f"{proc.pid} <{proc.ppid} {' '.join(proc.argv)[:150]}" for proc in self.world.processes()
        ]
        return "\n".join(
            [
                "--- screen ---",
                screen,
                "--- worker log (tail) ---",
                tail,
                "--- status ---",
                *statuses,
                "--- processes ---",
                *processes,
            ]
        )

    def wait_screen(self, pattern: str, timeout: float = 20.0) -> re.Match[str]:
        """Wait for ``pattern`` (a regex) on the screen; the match."""
        regex = re.compile(pattern)
        return wait_for(
            lambda: regex.search(self.screen()), timeout, f"{pattern!r} on screen", explain=self.explain
        )

    def wait_ready(self, timeout: float = 30.0) -> None:
        """Wait until the prompt takes input: the footer is drawn and the input line is empty.

        Ready is not idle: the TUI takes (and queues) input while the agent
        works, so a test waits for the screen text a turn ends with before
        typing the next prompt.
        """
        wait_for(
            lambda: READY in self.screen() and self._input_line() == "",
            timeout,
            "the TUI's prompt",
            explain=self.explain,
        )

    def _input_line(self) -> str | None:
        """What is typed at the prompt (the last ``❯`` line), or None when no prompt is drawn."""
        lines = [line for line in self.screen().splitlines() if line.startswith("❯")]
        return lines[-1][1:].strip() if lines else None

    # -- typing -----------------------------------------------------------------------------------

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", self.target, "-l", text)

    def key(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", self.target, *keys)

    def submit(self, text: str, timeout: float = 20.0) -> None:
        """Type ``text`` at the prompt and press Enter, making sure the CLI took it.

        Keys sent in one burst can arrive before the input box is listening, and
        an Enter that lands in the same burst as the text is taken as part of a
        paste; so the text is typed, seen on the input line, and only then
        submitted, and Enter is pressed again if the text is still sitting there.
        """
        self.wait_ready(timeout)
        self.type(text)
        wait_for(
            lambda: (self._input_line() or "").endswith(text[-20:]),
            timeout,
            f"{text!r} typed at the prompt",
            explain=self.explain,
        )
        deadline = time.monotonic() + timeout
        while True:
            self.key("Enter")
            try:
                wait_for(
                    lambda: not self.cli_alive() or not (self._input_line() or "").endswith(text[-20:]),
                    2.0,
                    "the prompt to be taken",
                )
                return
            except HarnessError:
                if time.monotonic() > deadline:
                    raise HarnessError(f"the TUI did not take {text!r}\n{self.explain()}") from None

    def exit(self, timeout: float = 20.0) -> None:
        """``/exit``, and wait for the CLI process to end."""
        self.submit("/exit", timeout)
        wait_for(lambda: not self.cli_alive(), timeout, "the CLI to exit after /exit", explain=self.explain)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        os.kill(self.cli_pid, sig)
        wait_for(lambda: not self.cli_alive(), 10.0, f"the CLI to die of signal {sig}")

    # -- the fake's side --------------------------------------------------------------------------

    def main_requests(self) -> list[RecordedRequest]:
        """The CLI's own main-loop requests (not the title call, not the observer's forks)."""
        return [request for request in self.fake.requests if request.route == "primary"]

    # -- the session ------------------------------------------------------------------------------

    def session_id(self, timeout: float = 20.0) -> str:
        """The session id, from the worker the monitor started (its ``CLAUDE_CODE_SESSION_ID``)."""
        worker = self.wait_worker(timeout)
        session = worker.env.get("CLAUDE_CODE_SESSION_ID")
        if not session:
            raise HarnessError(f"worker {worker.pid} has no CLAUDE_CODE_SESSION_ID")
        return session

    def wait_watching(self, timeout: float = 30.0) -> str:
        """Wait until the monitor's worker is active (its status says ``watching``); the session id.

        The monitor starts with the session, but the worker needs a moment to
        import and take the session; a prompt typed before that is still
        observed (from the transcript), only later than a person would see it.
        Tests wait, so each pass happens when a live session would have it.
        """
        worker = self.wait_worker(timeout)
        session = self.session_id()
        wait_for(
            lambda: (
                (doc := self.world.status(session)) is not None
                and doc.get("pid") == worker.pid
                and doc.get("state") == "watching"
            ),
            timeout,
            "the worker to be watching",
            explain=self.explain,
        )
        return session

    def wait_worker(self, timeout: float = 20.0) -> Proc:
        """The worker the monitor started for this CLI (exactly one)."""

        def found() -> Proc | None:
            mine = [proc for proc in self.world.workers() if proc.env.get("CLAUDE_PID") == str(self.cli_pid)]
            return mine[0] if len(mine) == 1 else None

        return wait_for(found, timeout, "the monitor-hosted worker", explain=self.explain)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def message_texts(request: RecordedRequest) -> list[str]:
    """Each message of a request as one string (system prompt and tool descriptions left out).

    Tool descriptions mention ``<task-notification>`` themselves, so markers
    are looked for in the conversation only.
    """
    messages = request.body.get("messages", []) if isinstance(request.body, dict) else []
    return ["\n".join(_strings(message.get("content"))) for message in messages if isinstance(message, dict)]


def carries(request: RecordedRequest, marker: str) -> bool:
    """Whether any message of ``request`` contains ``marker``."""
    return any(marker in text for text in message_texts(request))


MONITOR_EVENT = re.compile(
    r"<task-notification>.*?<summary>Monitor event[^<]*</summary>\s*<event>(.*?)</event>", re.S
)


def monitor_events(request: RecordedRequest) -> list[str]:
    """The monitor lines (``<event>`` texts) a request's conversation carries, oldest first."""
    return [match.group(1) for text in message_texts(request) for match in MONITOR_EVENT.finditer(text)]


def woke(request: RecordedRequest) -> bool:
    """Whether a monitor line started this request: a notification follows the last assistant message.

    The notification is usually the last message, but the CLI may append
    context after it (the first request after ``/clear`` carries the
    environment block last).
    """
    messages = request.body.get("messages", []) if isinstance(request.body, dict) else []
    roles = [message.get("role") if isinstance(message, dict) else None for message in messages]
    start = max((index for index, role in enumerate(roles) if role == "assistant"), default=-1) + 1
    return any(MONITOR_EVENT.search(text) for text in message_texts(request)[start:])
