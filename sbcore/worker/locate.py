"""Which session the worker serves, and where that session's transcript is.

A monitor gets ``CLAUDE_CODE_SESSION_ID`` in its environment; a worker started
by hand names it with ``--session``. The transcript path is best taken from
the SessionStart hook's payload (recorded in the events file); failing that it
is derived the way Claude Code lays files out — ``<config>/projects/<sanitized
cwd>/<session>.jsonl`` — and failing that (a cwd long enough to be cut and
hashed) found by its file name under ``<config>/projects``. The file itself may
not exist yet when the worker starts: ``-p`` sessions write it after the first
prompt.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

_UNSAFE = re.compile(r"[^a-zA-Z0-9]")
SANITIZED_MAX = 200
"""Longer sanitized names are cut and given a hash suffix by Claude Code (not reproduced here)."""


def session_from_env(env: Mapping[str, str] | None = None) -> str | None:
    """``CLAUDE_CODE_SESSION_ID`` when set and non-empty."""
    value = (os.environ if env is None else env).get("CLAUDE_CODE_SESSION_ID", "").strip()
    return value or None


def claude_config_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    env = os.environ if env is None else env
    explicit = env.get("CLAUDE_CONFIG_DIR")
    if explicit:
        return Path(explicit)
    home = env.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".claude"


def sanitize_cwd(cwd: str) -> str:
    """The project directory name Claude Code uses for ``cwd`` (every non-alphanumeric becomes ``-``)."""
    return _UNSAFE.sub("-", cwd)


def derived_transcript(
    session_id: str, cwd: str | os.PathLike[str], env: Mapping[str, str] | None = None
) -> Path:
    """Where Claude Code writes the transcript (predictable while the sanitized cwd is short)."""
    projects = claude_config_dir(env) / "projects"
    name = sanitize_cwd(os.fspath(cwd))
    if len(name) <= SANITIZED_MAX:
        return projects / name / f"{session_id}.jsonl"
    found = find_transcript(session_id, env)
    return found if found is not None else projects / name[:SANITIZED_MAX] / f"{session_id}.jsonl"


def find_transcript(session_id: str, env: Mapping[str, str] | None = None) -> Path | None:
    """An existing ``<config>/projects/*/<session>.jsonl``, if there is one."""
    projects = claude_config_dir(env) / "projects"
    try:
        candidates = sorted(projects.glob(f"*/{session_id}.jsonl"))
    except OSError:
        return None
    return candidates[0] if candidates else None
