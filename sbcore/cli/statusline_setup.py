"""``install --statusline`` / ``uninstall``: Second Brain's status line in the user's Claude Code settings.

Claude Code has one ``statusLine`` per settings file: ``{"type": "command", "command": …, "padding": …}``
in ``<claude config>/settings.json`` (``CLAUDE_CONFIG_DIR``, else ``~/.claude``). A user who already
has one keeps it: install writes ``"<plugin>/bin/sb-statusline" --then '<their command>'``, which runs
both on the same input and joins their output (theirs first), and keeps their other keys (padding…).
``refreshInterval`` is set to :data:`REFRESH_S` (or theirs, if shorter), so the line follows the
observer even while the session is idle.

What was there before — the whole ``statusLine`` value, or that there was none — is recorded in
``<sbcore config dir>/statusline.json`` (0600) together with what install wrote. Uninstall puts the
original value back exactly, in place, when the setting is still the one install wrote; if the user
has changed it since, it is theirs and is left alone (and uninstall says so). Every other key of the
settings file is kept as it is, in its order.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

from sbcore import paths
from sbcore.problems import SbcoreError
from sbcore.state import document

RECORD = "statusline.json"
RECORD_VERSION = 1
REFRESH_S = 5
"""``refreshInterval``: Claude Code re-runs the command this often besides its event-driven updates, so a
turn-end outcome shows seconds after the pass even when nothing else happens in the session."""


class StatuslineError(SbcoreError):
    """A settings file that cannot be read or written; the message names it."""


def settings_path() -> Path:
    """The user's Claude Code settings file."""
    config = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return Path(config) / "settings.json"


def record_path() -> Path:
    """Where install records what the status line was before."""
    return paths.config_dir() / RECORD


def composed(launcher: Path, previous: Any) -> dict[str, Any]:
    """The ``statusLine`` value that runs ours after ``previous`` (a prior value, or None)."""
    command = shlex.quote(str(launcher))
    value: dict[str, Any] = {
        "type": "command",
        "command": command,
        "padding": 0,
        "refreshInterval": REFRESH_S,
    }
    if isinstance(previous, dict):
        theirs = previous.get("command")
        if previous.get("type", "command") == "command" and isinstance(theirs, str) and theirs.strip():
            value["command"] = f"{command} --then {shlex.quote(theirs)}"
        if "padding" in previous:
            value["padding"] = previous["padding"]
        theirs_every = previous.get("refreshInterval")
        if isinstance(theirs_every, int | float) and not isinstance(theirs_every, bool) and theirs_every >= 1:
            value["refreshInterval"] = min(theirs_every, REFRESH_S)
        for key, item in previous.items():  # what we do not know of (hideVimModeIndicator…) is kept
            value.setdefault(key, item)
    return value


def add(launcher: Path) -> str:
    """Put the status line in the settings, composed with the user's; returns what was done."""
    path = settings_path()
    settings = _read(path)
    current = settings.get("statusLine")
    recorded = _read_record()
    if recorded is not None and current == recorded.get("ours"):
        return f"the status line is already in {path}"
    ours = composed(launcher, current)
    # The original as JSON text: the record's keys are sorted, and restoring means the key order too.
    record = {
        "settings": str(path),
        "had": "statusLine" in settings,
        "original": json.dumps(current, ensure_ascii=False),
        "ours": ours,
    }
    document.write(record_path(), record, version=RECORD_VERSION)
    settings["statusLine"] = ours
    _write(path, settings)
    if isinstance(current, dict) and ours["command"] != shlex.quote(str(launcher)):
        return f"added Second Brain to the status line in {path}, after your own ({current.get('command')})"
    return f"set the status line in {path} to Second Brain's"


def remove() -> str | None:
    """Restore the status line install found; returns what was done (None: install never set one)."""
    recorded = _read_record()
    if recorded is None:
        return None
    path = Path(str(recorded.get("settings") or settings_path()))
    settings = _read(path)
    if settings.get("statusLine") != recorded.get("ours"):
        record_path().unlink(missing_ok=True)
        return f"the status line in {path} was changed after install: left as it is"
    if recorded.get("had"):
        try:
            settings["statusLine"] = json.loads(str(recorded.get("original")))
        except ValueError as error:
            raise StatuslineError(f"{record_path()}: key 'original': not JSON ({error})") from None
        done = f"restored your status line in {path}"
    else:
        del settings["statusLine"]
        done = f"removed the status line from {path}"
    _write(path, settings)
    record_path().unlink(missing_ok=True)
    return done


def _read_record() -> dict[str, Any] | None:
    try:
        return document.read(record_path(), version=RECORD_VERSION)
    except document.DocumentError as error:
        raise StatuslineError(str(error)) from None


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise StatuslineError(f"{path}: unreadable ({error.strerror or error})") from None
    try:
        value = json.loads(text) if text.strip() else {}
    except ValueError as error:
        raise StatuslineError(f"{path}: not JSON ({error}); fix or move it, then run install again") from None
    if not isinstance(value, dict):
        raise StatuslineError(f"{path}: expected a JSON object, got {type(value).__name__}")
    return value


def _write(path: Path, settings: dict[str, Any]) -> None:
    """Rewrite ``path`` as Claude Code writes it (two-space indent), keeping the file's mode."""
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o600
    data = (json.dumps(settings, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        paths.replace_file(path, data, mode)
    except OSError as error:
        raise StatuslineError(f"{path}: not written ({error.strerror or error})") from None
