"""``second-brain label`` in a real terminal: started under tmux, answered with keystrokes, file checked.

The tmux server is private (its own socket and an empty configuration) and is killed, by its own
``kill-server``, when the test ends. Without tmux the test skips and says why, like the other tmux tests.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sbcore.cli import main
from sbcore.conductor.labelling import read_cases
from sbcore.conductor.soaklog import SoakLog

CASES = Path(__file__).parent.parent / "think" / "replay_cases"
LOOPS = [CASES / "rf-npm-cosmetic-loop.jsonl", CASES / "rf-long-fix-loop.jsonl"]


def tmux_binary() -> str | None:
    return os.environ.get("SBCORE_TMUX_BIN") or shutil.which("tmux")


class Pane:
    """One command in a detached tmux session on a private server."""

    def __init__(self, tmux: str, root: Path) -> None:
        self.tmux = tmux
        self.socket = f"sbcore-label-{os.getpid()}"
        self.config = root / "tmux.conf"
        self.config.write_text("set-option -g remain-on-exit on\n")

    def run(self, *args: str) -> str:
        result = subprocess.run(
            [self.tmux, "-L", self.socket, "-f", str(self.config), *args],
            capture_output=True,
            text=True,
            timeout=20,
            env={**os.environ, "TMUX": ""},
            check=True,
        )
        return result.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "label", "-S", "-200")

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{screen}")

    def close(self) -> None:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            self.run("kill-server")


@pytest.fixture
def pane(tmp_path: Path) -> Iterator[Pane]:
    tmux = tmux_binary()
    if tmux is None:
        pytest.skip("tmux is not installed (set SBCORE_TMUX_BIN to use another binary)")
    pane = Pane(tmux, tmp_path)
    try:
        yield pane
    finally:
        pane.close()


def test_label_is_driven_with_keystrokes_in_a_terminal(
    pane: Pane, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, out = tmp_path / "soak.jsonl", tmp_path / "labels.yaml"
    for loop in LOOPS:
        assert main(["replay", "--soak", "repeat-failure", "--soak-log", str(log), str(loop)]) == 0
    capsys.readouterr()
    would = [record for record in SoakLog(log).read() if record.get("kind") != "hours"]
    assert len(would) == 2, "one would-fire per loop"
    script = Path(sys.executable).with_name("second-brain")
    start = (
        [str(script)]
        if script.exists()
        else [sys.executable, "-c", "import sys; from sbcore.cli import main; sys.exit(main())"]
    )
    command = [*start, "label", "--log", str(log), "--out", str(out)]
    pane.run("new-session", "-d", "-s", "label", "-x", "160", "-y", "50", shlex.join(command))

    pane.wait_for("[1/2] repeat-failure")
    pane.run("send-keys", "-t", "label", "u", "Enter")
    pane.wait_for("[2/2] repeat-failure")
    pane.run("send-keys", "-t", "label", "n", "Enter")
    screen = pane.wait_for("2 labelled; score them with")

    assert "would say:" in screen and "before it:" in screen
    cases = read_cases(out)
    assert [case["expect"] for case in cases] == ["fire", "silent"]
    assert [case["transcript"] for case in cases] == [str(loop) for loop in LOOPS]
