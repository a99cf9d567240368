"""What hooks hand the worker, and what the worker leaves for the Stop hook.

Two per-session files under the data directory, both 0600 in 0700 directories.

``events/<session>.jsonl`` — appended by the hooks, read by the worker. The
transcript lags the hooks (the final assistant text is often not on disk at
Stop), and some facts never reach it at all (why a session started), so the
hooks write them here, one JSON object per line, one ``O_APPEND`` write each::

    {"v": 1, "at": <POSIX s>, "session_id": "...", "event": "session_start",
     "source": "startup|resume|clear|compact|fork", "transcript_path": "...", "cwd": "...", "model": "..."}
    {"v": 1, ..., "event": "prompt", "prompt": "...", "prompt_id": "..."}
    {"v": 1, ..., "event": "turn_end", "last_assistant_message": "...", "stop_hook_active": false,
     "background_tasks": [...]}
    {"v": 1, ..., "event": "subagent_report", "agent_id": "...", "agent_type": "...",
     "last_assistant_message": "...", "agent_transcript_path": "..."}

Text fields are capped at :data:`TEXT_CAP` characters, the cut marked
``…[+N chars]``; the free-text ones (:data:`REDACTED_TEXTS`: a prompt, a final
message) are redacted first (:func:`sbcore.observe.redact.redact`, standard library
only), so a secret pasted into a prompt does not sit on disk in clear. Paths and
names (``transcript_path``, ``cwd``, ``agent_type``) are kept as they are: the worker
opens them. Keys absent from the payload are absent from the record.

``background/<session>.json`` — written by the worker, read by the Stop hook:
background work (a backgrounded Bash command, an Agent, a Monitor) the worker
saw launched and never saw reported, which must keep the finish gate silent::

    {"v": 1, "launches": [{"id": "...", "kind": "bash|agent|monitor", "launched_at": <POSIX s>,
                           "description": "..."}]}
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sbcore import paths
from sbcore.problems import SbcoreError

VERSION = 1
TEXT_CAP = 100_000
"""Longest text field kept in an event, in characters."""
REDACTED_TEXTS = frozenset({"prompt", "last_assistant_message"})
"""Text fields written by a person or the agent: redacted before they are stored."""


class BackgroundStateError(SbcoreError):
    """The worker's background state file exists but cannot be read."""


def events_path(data: Path, session_id: str) -> Path:
    """``<data>/events/<session>.jsonl``."""
    return data / "events" / f"{paths.safe_name(session_id)}.jsonl"


def background_path(data: Path, session_id: str) -> Path:
    """``<data>/background/<session>.json``."""
    return data / "background" / f"{paths.safe_name(session_id)}.json"


def capped(text: str, limit: int = TEXT_CAP) -> str:
    """``text`` cut to ``limit`` characters plus a marker saying how many were left out."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"…[+{len(text) - limit} chars]"


def record_event(
    data: Path,
    session_id: str,
    event: str,
    at: float,
    payload: Mapping[str, Any],
    *,
    texts: Sequence[str] = (),
    values: Sequence[str] = (),
) -> None:
    """Append one event, copying the payload's ``texts`` (strings, capped) and ``values`` (any JSON)."""
    record: dict[str, Any] = {"v": VERSION, "at": at, "session_id": session_id, "event": event}
    for key in texts:
        value = payload.get(key)
        if isinstance(value, str):
            record[key] = _redacted(value) if key in REDACTED_TEXTS else capped(value)
    for key in values:
        if key in payload:
            record[key] = payload[key]
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
    paths.append_private(
        events_path(data, session_id), line.encode("utf-8", "replace") + b"\n", line_start=True
    )


def _redacted(text: str) -> str:
    """``text`` redacted, then capped like :func:`capped`.

    Redacted over the head slice the cap keeps (the redactor's contract), so a secret
    straddling the cut leaves no prefix behind.
    """
    from sbcore.observe.redact import MAX_SECRET_SPAN, redact  # only the hooks that record text pay for it

    head = redact(text[: TEXT_CAP + MAX_SECRET_SPAN])
    return head[:TEXT_CAP] + f"…[+{len(text) - TEXT_CAP} chars]" if len(text) > TEXT_CAP else head


def outstanding_launches(data: Path, session_id: str, now: float, settle_s: float) -> list[str]:
    """Background launches from the worker's state file still inside their settle window.

    A launch counts for ``settle_s`` seconds (``finish_gate.background_settle_s``)
    after it was seen, since a completion may simply have been lost. A missing
    file is no launches; an unreadable one raises :class:`BackgroundStateError`
    (the finish gate treats doubt as outstanding work).
    """
    path = background_path(data, session_id)
    try:
        document = json.loads(path.read_bytes())
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as error:
        raise BackgroundStateError(f"{path}: unreadable ({error})") from error
    if not isinstance(document, dict) or document.get("v") != VERSION:
        raise BackgroundStateError(f"{path}: not a version-{VERSION} background state file")
    launches = document.get("launches")
    if not isinstance(launches, list):
        raise BackgroundStateError(f"{path}: 'launches' is not a list")
    found: list[str] = []
    for launch in launches:
        if not isinstance(launch, dict):
            raise BackgroundStateError(f"{path}: a launch is not an object")
        launched_at = launch.get("launched_at")
        if isinstance(launched_at, bool) or not isinstance(launched_at, int | float):
            raise BackgroundStateError(f"{path}: a launch has no numeric launched_at")
        if not math.isfinite(launched_at) or now - launched_at < settle_s:
            found.append(_describe(launch.get("kind"), launch.get("id"), launch.get("description")))
    return found


WORKER_LAUNCHER = "sb-worker"
"""The program the plugin's monitor runs (``plugin/bin/sb-worker``, named in ``monitors/monitors.json``)."""
WORKER_MONITOR_NAME = "second-brain-worker"
"""The monitor's ``name`` in ``monitors/monitors.json``."""
WORKER_MONITOR_DESCRIPTION = (
    "Second Brain session worker: watches this session's transcript and speaks only to continue a turn "
    "that ended with work evidently unfinished."
)
"""The monitor's ``description`` in ``monitors/monitors.json``, which Claude Code copies into the payload."""


def payload_background(tasks: Any) -> list[str]:
    """The Stop payload's ``background_tasks``, described one line each (any entry means work is running).

    The plugin's own monitor is left out: Claude Code lists every running
    monitor there, the worker included, and the worker runs for the whole
    session — counting it would keep the finish gate shut for good.
    """
    if not isinstance(tasks, list):
        return [] if tasks is None else [f"background_tasks: {capped(str(tasks), 80)}"]
    described: list[str] = []
    for task in tasks:
        if isinstance(task, dict) and is_worker_monitor(task):
            continue
        if isinstance(task, dict):
            kind = task.get("type") or task.get("kind") or "task"
            name = task.get("id") or task.get("task_id") or task.get("taskId")
            described.append(_describe(kind, name, task.get("description") or task.get("command")))
        else:
            described.append(f"task {capped(str(task), 80)}")
    return described


def is_worker_monitor(task: Mapping[str, Any]) -> bool:
    """Whether a ``background_tasks`` entry is the plugin's worker monitor.

    Claude Code 2.1.328 lists a monitor as ``{"id", "type": "shell", "status",
    "description", "command"}``: ``command`` is the manifest's, its variables
    substituted, so its program is ``<plugin root>/bin/sb-worker`` wherever the
    plugin is installed; the ``description`` is the manifest's word for word. A
    ``name`` (not sent today) would be the manifest's too. Any of them is enough.
    """
    command = task.get("command")
    if isinstance(command, str) and _program(command).rsplit("/", 1)[-1] == WORKER_LAUNCHER:
        return True
    return task.get("name") == WORKER_MONITOR_NAME or task.get("description") == WORKER_MONITOR_DESCRIPTION


def _program(command: str) -> str:
    """The first word of a shell command line, its quotes taken off (``"/a b/sb-worker" --data …``)."""
    command = command.lstrip()
    if command[:1] in ("'", '"'):
        end = command.find(command[0], 1)
        return command[1:end] if end > 0 else command[1:]
    return command.split(maxsplit=1)[0] if command else ""


def _describe(kind: Any, name: Any, description: Any) -> str:
    label = f"{kind if isinstance(kind, str) and kind else 'background'}"
    if isinstance(name, str | int) and not isinstance(name, bool):
        label += f" {name}"
    if isinstance(description, str) and description:
        label += f" ({capped(' '.join(description.split()), 80)})"
    return label
