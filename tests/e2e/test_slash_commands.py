"""End to end on the real Claude Code CLI (issue 13 item 1): every command the product names runs, and
the mute hint under a delivered advisory, typed as printed, mutes the detector.

The names come from ``tests/command_forms.py``, which collects them from the code, the rendered texts
and the docs, so a command added to any of them is run here without being listed. Each runs as a user
would type it in ``claude -p``; Claude Code runs the command file's ``!`` block before the model call
and puts its output in the prompt, so the request the fake provider receives shows what the user is
shown: the command resolved (not "no command with that name") and the plugin's CLI answered.
"""

from __future__ import annotations

import re

import pytest
from command_forms import COMMANDS, named_commands
from e2e_helpers import Harness, Run, texts

from sbcore.hooks.hotconfig import load_hot_config
from sbcore.testing.fake_provider import FakeProvider
from sbcore.testing.scripts import Reply, text, tool_call

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

NOT_FOUND = "no command with that name"
ARGUMENTS = {"config": "show mute.all"}
"""What a command is given here when it needs something to act on (the rest run bare)."""
FAILING = "python3 -c 'import sys; sys.exit(\"widget registry missing\")'"
HINT = re.compile(r"\(in Claude Code: (/second-brain:config set detectors\.repeat-failure\.enabled false)\)")


def _prose(name: str) -> str:
    """The first line of the command file's text after its ``!`` block (what follows the output)."""
    body = (COMMANDS / f"{name}.md").read_text().split("\n---\n", 1)[1]
    after = body.split("`\n", 1)[1].strip()
    return after.splitlines()[0]


def _command_output(run: Run, name: str) -> str:
    """What the command's ``!`` block printed, as the user is shown it.

    On exit status 0 Claude Code puts the output in the prompt, after the command's tags, and the model
    is asked to show it (the first request carries it). On any other status it calls no model: the
    session's result is "Shell command failed for pattern …" with the output, shown to the user as is.
    """
    primary = run.route("primary")
    if not primary:
        result = str(run.result().get("result", ""))
        assert result.startswith("Shell command failed"), result
        assert "/bin/second-brain" in result, result
        return result.split("[stderr]", 1)[-1].strip()
    blocks = list(texts(primary[0].body))
    tag = f"<command-name>/second-brain:{name}</command-name>"
    at = next((i for i, block in enumerate(blocks) if tag in block), None)
    assert at is not None, f"/second-brain:{name} did not resolve: {[b[:200] for b in blocks[-3:]]}"
    prose = _prose(name)
    carrying = next(block for block in blocks[at:] if prose in block)
    return carrying.split(prose, 1)[0].strip()


@pytest.mark.parametrize("name", sorted(named_commands()))
def test_every_named_command_runs_and_answers(harness: Harness, name: str) -> None:
    with FakeProvider() as fake:
        fake.script_primary(text("Here is what it printed."))
        prompt = f"/second-brain:{name} {ARGUMENTS.get(name, '')}".strip()
        run = harness.run(fake, prompt)
    assert run.returncode == 0, run.stderr[-2000:]
    everything = [block for request in run.requests for block in texts(request.body)]
    assert not any(NOT_FOUND in block for block in everything)
    output = _command_output(run, name)
    assert output, f"/second-brain:{name} printed nothing"
    assert "Traceback" not in output, output
    assert run.route("primary"), f"/second-brain:{name} failed: {output}"
    assert re.search(EXPECTED[name], output), output


EXPECTED = {
    "config": r"^mute\.all = false",
    "run": r"^pass \d+ \(manual\) over \d+ observations",
    "stats": r"^session [0-9a-f-]+, task .*\n\nsession:\n  passes \d+",
    "why": r"^session [0-9a-f-]+: the last \d+ decisions",
    "forget": r"^second-brain forget: forgot session [0-9a-f-]+",
    "doctor": r"(?m)^ok +python: .*\n(?s:.*)^ok +plugin: second-brain@\S+ [\d.]+, (enabled|loaded)",
}
"""What each command's answer must show (it ran against this session, whatever it had to report)."""


def _bash(command: str, *, delay_ms: int = 0) -> Reply:
    return tool_call("Bash", {"command": command, "description": "run a command"}, delay_ms=delay_ms)


def _failing_session(harness: Harness) -> Run:
    """Three identical failures, then harmless calls that give the offline observer time to advise."""
    with FakeProvider() as fake:
        fake.script_primary(
            _bash(FAILING),
            _bash(FAILING, delay_ms=150),
            _bash(FAILING, delay_ms=150),
            _bash("sleep 1; echo still here", delay_ms=400),
            _bash("sleep 1; echo and here", delay_ms=200),
            text("I will look at the widget registry next."),
        )
        run = harness.run(fake, "make the widget work")
    assert run.returncode == 0, run.stderr[-2000:]
    harness.wait_for_worker_exit(run.session)
    return run


def test_the_mute_hint_of_a_delivered_advisory_run_as_printed_mutes_the_detector(harness: Harness) -> None:
    harness.configure({"headless.observe": True, "model.provider": "offline", "loop.salience_per_hour": 120})
    first = _failing_session(harness)
    hints = [found.group(1) for message in first.system_messages() if (found := HINT.search(message))]
    assert len(hints) == 1, first.system_messages()
    assert harness.delivered(first.session), "the advisory was delivered"

    with FakeProvider() as fake:
        fake.script_primary(text("Done."))
        muting = harness.run(fake, hints[0])
    assert muting.returncode == 0, muting.stderr[-2000:]
    assert _command_output(muting, "config").startswith(
        "detectors.repeat-failure.enabled = false in the local"
    )

    # The hooks read the switch from the snapshot the command rewrote: the detector is off there.
    assert load_hot_config(harness.data, str(harness.project)).detector_enabled("repeat-failure") is False

    again = _failing_session(harness)
    assert harness.delivered(again.session) == [], "the muted detector said nothing the second time"
    assert not any(HINT.search(message) for message in again.system_messages())
