"""The plugin's hooks under the real Claude Code CLI (``claude -p``), against the loopback fake API.

One advisory waits in the session's mailbox before the session starts, and the
scripted agent's one Bash command queues a second. The UserPromptSubmit drain
must put the first in the agent's first request, the PostToolUse drain the
second in the next one, each shown to the user with the same framed text; and a
headless session without ``headless.observe`` records nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from hook_helpers import ROOT, real_claude

from sbcore.deliver.framing import frame_for_agent
from sbcore.deliver.mailbox import Mailbox
from sbcore.gate.advice import Advice
from sbcore.testing.fake_provider import FakeProvider
from sbcore.testing.scripts import Call, Reply, Say

CLAUDE = real_claude()
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(CLAUDE is None, reason="no Claude Code CLI (set SBCORE_CLAUDE_BIN)"),
]


def _run_session(tmp_path: Path, fake: FakeProvider, session: str, data: Path) -> list[dict[str, object]]:
    assert CLAUDE is not None
    home = tmp_path / "home"
    project = tmp_path / "project"
    home.mkdir()
    project.mkdir()
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("SBCORE_", "CLAUDE"))
    }
    environment.update(fake.env())
    environment.update(
        HOME=str(home),
        SBCORE_DATA_DIR=str(data),
        SBCORE_PYTHON=sys.executable,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
        IS_SANDBOX="1",
    )
    result = subprocess.run(
        [
            CLAUDE,
            "-p",
            "list the files",
            "--output-format",
            "stream-json",
            "--verbose",
            "--plugin-dir",
            str(ROOT / "plugin"),
            "--dangerously-skip-permissions",
            "--session-id",
            session,
        ],
        cwd=project,
        env=environment,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def _advice(session: str, number: int, now: float) -> Advice:
    return Advice(
        id=f"e2e-{number}",
        task_id="task-e2e",
        session_id=session,
        workspace="/w",
        kind="standard-questions",
        headline=f"SB-E2E-{number}: the tests were never run",
        body="Three files changed and no test command ran.",
        confidence=0.9,
        dedup_key=f"e2e-{number}",
        generated_at=now,
        ttl=3600,
        queue_timeout=3600,
        evidence=("src/app.py:12",),
    )


POSTER = """
import sys, time
from pathlib import Path
sys.path[:0] = [{root!r}]
from sbcore.gate.advice import Advice
from sbcore.deliver.mailbox import Mailbox
advice = Advice.from_json({advice!r})
Mailbox(advice.session_id, Path({data!r})).post(advice.with_changes(generated_at=time.time()))
"""


def test_advice_is_drained_at_the_prompt_and_after_a_tool(tmp_path: Path) -> None:
    """One advisory waits before the session; the agent's own Bash call queues a second one."""
    session = str(uuid.uuid4())
    data = tmp_path / "data"
    now = time.time()
    first, second = _advice(session, 1, now), _advice(session, 2, now)
    Mailbox(session, data).post(first, now=now)
    poster = tmp_path / "post_advice.py"
    poster.write_text(POSTER.format(root=str(ROOT), advice=second.to_json(), data=str(data)))
    with FakeProvider() as fake:
        fake.script_primary(
            Reply((Call("Bash", {"command": f"{sys.executable} {poster}", "description": "post"}),)),
            Reply((Say("Done."),)),
        )
        lines = _run_session(tmp_path, fake, session, data)
        primary = [json.dumps(record.body) for record in fake.requests if record.route == "primary"]
    assert len(primary) == 2
    for advice, request in ((first, 0), (second, 1)):
        framed = json.dumps(frame_for_agent(advice))[1:-1]  # the whole framed text, as the model got it
        assert framed in primary[request]
        assert all(framed not in body for body in primary[:request])
    shown = json.dumps([line for line in lines if line.get("type") == "system"])
    for event, number in (("UserPromptSubmit", 1), ("PostToolUse:Bash", 2)):
        assert f"{event} says: Second Brain advisory" in shown and f"SB-E2E-{number}" in shown
    assert shown.count("detectors.standard-questions.enabled false") >= 2
    assert not Mailbox(session, data).path.exists()
    assert not (data / "events").exists()  # headless, headless.observe off: nothing recorded
    log = data / "logs" / "hooks.log"
    assert not log.exists() or log.read_text() == ""
