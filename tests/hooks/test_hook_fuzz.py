"""Generated hook calls: always exit 0 with nothing or one well-formed answer, and private files only.

The same generator and checker back ``second-brain bench hooks --fuzz N``,
which runs tens of thousands of cases; CI runs a few hundred in-process and a
smaller sample through the real launcher.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hook_helpers import LAUNCHER
from hypothesis import HealthCheck, given, settings

from sbcore.testing.hookcases import HookCase, check_case, check_output, hook_cases, scratch_parent


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in list(os.environ):
        if key.startswith(("SBCORE_", "CLAUDE")):
            monkeypatch.delenv(key)


def _check(case: HookCase, *, through_launcher: bool) -> None:
    root = Path(tempfile.mkdtemp(prefix="sbcore-hook-fuzz-", dir=scratch_parent()))
    try:
        result = check_case(case, root, launcher=LAUNCHER if through_launcher else None)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    assert result.problem is None, (result.problem, case)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hook_cases())
def test_in_process(case: HookCase) -> None:
    _check(case, through_launcher=False)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hook_cases())
def test_through_the_launcher(case: HookCase) -> None:
    _check(case, through_launcher=True)


@pytest.mark.parametrize(
    ("event", "output", "verdict"),
    [
        ("PostToolUse", "", None),
        ("PostToolUse", '{"systemMessage": "hi"}\n', None),
        ("PostToolUse", '{"systemMessage": "hi"}\n{"systemMessage": "again"}\n', "2 output lines"),
        ("PostToolUse", "not json\n", "not JSON"),
        ("PostToolUse", '{"decision": "block"}\n', "unexpected answer keys"),
        (
            "UserPromptSubmit",
            '{"hookSpecificOutput": {"hookEventName": "PostToolUse"}, "systemMessage": ""}',
            "names",
        ),
        ("Stop", '{"decision": "block", "reason": "told", "systemMessage": "other"}', "does not contain"),
        ("SessionStart", '{"systemMessage": "x"}', "answered although"),
    ],
)
def test_the_checker_catches_bad_answers(event: str, output: str, verdict: str | None) -> None:
    problem = check_output(event, output)
    if verdict is None:
        assert problem is None
    else:
        assert problem is not None and verdict in problem


def test_the_checker_catches_advice_the_user_was_not_shown() -> None:
    from sbcore.deliver.framing import FRAME

    output = (
        '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": '
        f'"{FRAME}\\n\\nsecret"}}, "systemMessage": "{FRAME}\\n\\nsomething else"}}'
    )
    assert "not shown" in str(check_output("PostToolUse", output))
