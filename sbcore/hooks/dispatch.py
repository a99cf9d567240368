"""One hook call, start to finish: read the payload, run the event's handler, print at most one answer.

Whatever happens, the call exits 0. A hook that fails must cost the session
nothing — an error status would put a message in the transcript, and an exit
code of 2 would even reach the model — so every problem (an unreadable
payload, a corrupt state file, a bug) ends in no output and one line in the
failure log (:mod:`sbcore.hooks.failures`).

The answer is printed only once it is complete: a half-written JSON object
would be worse than none.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from sbcore import paths
from sbcore.hooks.context import HookContext, HookInputError
from sbcore.hooks.failures import log_failure

Handler = Callable[[HookContext], "dict[str, Any] | None"]

HANDLERS: dict[str, str] = {
    "SessionStart": "sbcore.hooks.session_start",
    "UserPromptSubmit": "sbcore.hooks.prompt",
    "PostToolUse": "sbcore.hooks.drain",
    "PostToolUseFailure": "sbcore.hooks.drain",
    "Stop": "sbcore.hooks.stop",
    "SubagentStop": "sbcore.hooks.subagent_stop",
}
"""Event name → the module whose ``handle`` runs it."""


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: IO[bytes] | None = None,
    stdout: IO[str] | None = None,
    now: float | None = None,
) -> int:
    """Run the hook named by ``argv[0]``; always returns 0."""
    args = list(sys.argv[1:] if argv is None else argv)
    event = args[0] if args else ""
    data: Path | None = None
    try:
        if os.environ.get("SBCORE_OBSERVER") == "1":
            return 0  # the observer's own processes are not observed
        data = paths.data_dir()
        module = HANDLERS.get(event)
        if module is None:
            log_failure(data, event, f"not an event this plugin handles: {event!r}")
            return 0
        raw = (stdin if stdin is not None else sys.stdin.buffer).read()
        try:
            payload = json.loads(raw)
        except ValueError as error:
            raise HookInputError(f"the payload is not JSON ({error})") from error
        context = HookContext.build(event, payload, data, time.time() if now is None else now, os.environ)
        handler: Handler = importlib.import_module(module).handle
        answer = handler(context)
        if answer is not None:
            out = stdout if stdout is not None else sys.stdout
            out.write(json.dumps(answer, allow_nan=False) + "\n")
            out.flush()
    except Exception as error:
        log_failure(data, event, f"{type(error).__name__}: {error}")
    return 0
