"""The user's side of an interactive session (issue 13): the status line composed with the user's own,
showing a turn's outcome while the session sits idle; the turn-end report at the next prompt, once; and
every plugin command the product names, typed in the TUI.

The observer talks to the same fake provider as the CLI; its detectors are not scripted, so each answers
the fake's default (silent) and the turn-end outcome is "all silent".
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable

import pytest
from command_forms import named_commands
from tui_harness import Tui, TuiWorld, message_texts, second_brain_command, wait_for

from sbcore.testing import FakeProvider, text, tool_call

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

THEIRS = "echo SB-MINE-STATUS"
NOT_FOUND = "no command with that name"


def _install_with_statusline(world: TuiWorld) -> None:
    settings = world.claude_dir / "settings.json"
    current = json.loads(settings.read_text())
    current["statusLine"] = {"type": "command", "command": THEIRS}
    settings.write_text(json.dumps(current, indent=2))
    done = subprocess.run(
        [*second_brain_command(), "install", "--claude", str(world.claude), "--statusline"],
        env=world.base_env(),
        cwd=world.project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "after your own (echo SB-MINE-STATUS)" in done.stdout


def test_the_status_line_and_the_turn_end_report(
    world: TuiWorld, fake: FakeProvider, start_tui: Callable[[], Tui]
) -> None:
    _install_with_statusline(world)
    fake.script_primary(
        tool_call("Bash", {"command": "ls", "description": "look around"}),
        text("SB-TUI-FIRST: done looking."),
        text("SB-TUI-SECOND: nothing more."),
    )
    tui = start_tui()
    session = tui.wait_watching()
    tui.wait_screen(r"SB-MINE-STATUS · SB watching", timeout=30)

    tui.submit("look at the project")
    tui.wait_screen(r"SB-TUI-FIRST", timeout=60)
    # Nobody types: the status line re-runs on its own and shows the turn's outcome.
    tui.wait_screen(r"SB-MINE-STATUS · SB watching · last turn: all silent · budget \d+%", timeout=60)
    report = json.loads((world.data / "turns" / f"{session}.json").read_text())
    assert report["line"] == "all silent"

    tui.submit("anything else?")
    tui.wait_screen(r"SB-TUI-SECOND", timeout=60)
    screen = tui.wait_screen(
        r"UserPromptSubmit says: Second Brain, on the turn that ended at \d\d:\d\d"
    ).string
    assert screen.count("on the turn that ended at") == 1, "shown once"
    second = tui.main_requests()[-1]
    assert not any("on the turn that ended at" in message for message in message_texts(second)), (
        "not to the agent"
    )


def test_every_named_command_runs_in_the_tui(
    world: TuiWorld, fake: FakeProvider, start_tui: Callable[[], Tui]
) -> None:
    """Each command resolves and runs: its output goes to the model to show (a failing command would end in
    Claude Code's "Shell command failed" and call no model)."""
    names = sorted(named_commands())
    fake.script_primary(*(text("SB-TUI-CMD-DONE") for _ in names))
    tui = start_tui()
    tui.wait_watching()
    for name in names:
        arguments = " show mute.all" if name == "config" else ""
        before = tui.screen()
        done, failed = before.count("SB-TUI-CMD-DONE"), before.count("Shell command failed")
        tui.submit(f"/second-brain:{name}{arguments}")
        tag = f"<command-name>/second-brain:{name}</command-name>"

        def answered(name: str = name, tag: str = tag, done: int = done, failed: int = failed) -> str | None:
            screen = tui.screen()
            assert screen.count("Shell command failed") == failed, screen
            carried = any(tag in message for r in tui.main_requests() for message in message_texts(r))
            return "ran" if carried and screen.count("SB-TUI-CMD-DONE") > done else None

        wait_for(answered, 60, f"/second-brain:{name} to answer", explain=tui.explain)
        assert NOT_FOUND not in tui.screen()
    carried = [m for r in tui.main_requests() for m in message_texts(r)]
    for name, shown in OUTPUTS.items():
        assert any(re.search(shown, m, re.MULTILINE) for m in carried), f"{name}'s output reached the model"


OUTPUTS = {
    "config": r"^mute\.all = false",
    "run": r"^pass \d+ \(manual\) over \d+ observations",
    "stats": r"^session [0-9a-f-]+, task ",
    "why": r"^session [0-9a-f-]+: the last \d+ decisions",
    "forget": r"^second-brain forget: forgot session [0-9a-f-]+",
}
"""The first line each command prints for this session, as the model is given it to show."""
