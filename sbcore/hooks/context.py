"""One hook call: its event, payload, session and data directory, and the hot configuration it runs under."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sbcore.hooks.hotconfig import HotConfig, load_hot_config
from sbcore.problems import SbcoreError


class HookInputError(SbcoreError):
    """The payload is not one this hook can act on (the call fails open)."""


@dataclass(frozen=True)
class HookContext:
    """Everything a handler needs; built once per call by the dispatcher."""

    event: str
    payload: Mapping[str, Any]
    session_id: str
    data: Path
    now: float
    environ: Mapping[str, str]

    @classmethod
    def build(
        cls, event: str, payload: Any, data: Path, now: float, environ: Mapping[str, str]
    ) -> HookContext:
        """Check the payload's shape; raises :class:`HookInputError` for anything else."""
        if not isinstance(payload, dict):
            raise HookInputError(f"the payload is a JSON {type(payload).__name__}, not an object")
        named = payload.get("hook_event_name")
        if named is not None and named != event:
            raise HookInputError(f"the payload is for {named!r}, not {event!r}")
        session = payload.get("session_id")
        if session is None:
            session = environ.get("CLAUDE_CODE_SESSION_ID")
        if not isinstance(session, str) or not session.strip():
            raise HookInputError("the payload has no session_id")
        return cls(event, payload, session, data, now, environ)

    def text(self, key: str) -> str | None:
        """A string field of the payload (None when absent or not a string)."""
        value = self.payload.get(key)
        return value if isinstance(value, str) else None

    @functools.cached_property
    def hot(self) -> HotConfig:
        """The hot configuration for the session's workspace (its ``cwd``)."""
        cwd = self.text("cwd") or self.environ.get("CLAUDE_PROJECT_DIR") or None
        return load_hot_config(self.data, cwd)

    @property
    def in_subagent(self) -> bool:
        """The call comes from inside a subagent: its output would reach that subagent, not the main loop."""
        return self.payload.get("agent_id") not in (None, "")

    @property
    def headless(self) -> bool:
        """No interactive UI: ``claude -p``, the SDK, CI (no monitor, so no worker, and no human watching).

        ``CLAUDE_CODE_SESSION_ATTENDED`` is 0 there and 1 in the terminal UI;
        without it, an entry point other than ``cli`` means headless. With
        neither, the session is taken to be interactive.
        """
        attended = self.environ.get("CLAUDE_CODE_SESSION_ATTENDED")
        if attended is not None:
            return attended.strip() == "0"
        entrypoint = self.environ.get("CLAUDE_CODE_ENTRYPOINT")
        return bool(entrypoint) and entrypoint != "cli"

    @property
    def recording(self) -> bool:
        """Whether to hand this session's events to a worker.

        Never in a workspace that is not enrolled (nothing about it is kept),
        and in a headless session only with ``headless.observe``: no worker
        would ever read them otherwise. ``mute.all`` does not stop it: muting
        silences output, not observation.
        """
        return self.hot.enabled and (not self.headless or self.hot.headless_observe)
