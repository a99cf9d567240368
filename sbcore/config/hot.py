"""Writing the hooks' snapshot of the hot keys (``<data>/hot.json``).

Hooks read configuration without YAML or JSON Schema, from a snapshot whose
shape lives in :mod:`sbcore.state.hot` and reader in :mod:`sbcore.hooks.hotconfig`. This is the writer:
``second-brain config set`` / ``reset`` call it after every accepted change,
and the worker calls it when it sees the configuration change (and to add the
catalogue's per-detector floors, which only it has loaded).

Every refresh recomputes every scope the snapshot already holds, plus ``"*"``
(defaults and the global layer) and the workspace at hand: a change to the
global layer changes the effective values of every workspace. Scopes whose
directory is gone are dropped, and at most :data:`MAX_SCOPES` are kept (the
most recently written), so the file stays small.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from sbcore.config.effective import EffectiveConfig, load_config
from sbcore.config.layers import workspace_path
from sbcore.paths import data_dir, ensure_private_dir, open_private
from sbcore.state import document, floors
from sbcore.state.floors import DetectorLike
from sbcore.state.hot import ANY_WORKSPACE, GROUPS, VERSION, file_stamp, snapshot_path

MAX_SCOPES = 64
"""Most workspace scopes kept in the snapshot."""


def write_hot_snapshot(
    workspace: Path | None,
    *,
    detectors: Iterable[DetectorLike] | None = None,
    data: Path | None = None,
    now: float | None = None,
) -> Path:
    """Refresh ``<data>/hot.json`` for ``workspace`` (None: only the ``"*"`` scope) and every known scope.

    ``detectors``: the catalogue's effective detector definitions for this
    workspace; when given they replace the workspace scope's catalogue floors,
    otherwise the floors a previous writer recorded are kept. Returns the
    snapshot's path. Raises ``OSError`` when it cannot be written.
    """
    root = data if data is not None else data_dir()
    stamp = time.time() if now is None else now
    target = snapshot_path(root)
    mine = ANY_WORKSPACE if workspace is None else os.path.realpath(workspace)
    with _locked(root):
        previous = _read_scopes(target)
        wanted = [ANY_WORKSPACE, mine, *(scope for scope in previous if scope not in (ANY_WORKSPACE, mine))]
        scopes: dict[str, Any] = {}
        for scope in wanted:
            if scope != ANY_WORKSPACE and not os.path.isdir(scope):
                continue
            config = load_config(None if scope == ANY_WORKSPACE else Path(scope))
            old = previous.get(scope, {})
            recorded = old.get("catalogue")
            if scope == mine and detectors is not None:
                catalogue = floors.switches(detectors)
            else:
                catalogue = recorded if isinstance(recorded, dict) else {}
            written_at = old.get("written_at")
            if (
                scope in (ANY_WORKSPACE, mine)
                or isinstance(written_at, bool)
                or not isinstance(written_at, int | float)
            ):
                written_at = stamp
            scopes[scope] = scope_entry(config, catalogue, written_at)
            if config.trust is not None and config.trust.trusted and config.trust.needed:
                scopes[scope]["withdrawn"] = _withdrawn(Path(scope), catalogue, written_at)
        kept = sorted(
            (scope for scope in scopes if scope != ANY_WORKSPACE),
            key=lambda scope: scopes[scope]["written_at"],
            reverse=True,
        )[:MAX_SCOPES]
        body = {"scopes": {ANY_WORKSPACE: scopes[ANY_WORKSPACE]} | {s: scopes[s] for s in kept}}
        document.write(target, body, version=VERSION)
    return target


def scope_entry(config: EffectiveConfig, catalogue: Mapping[str, Any], written_at: float) -> dict[str, Any]:
    """One scope: the hot groups' effective values and each detector's switch and floors.

    ``detectors`` merges the catalogue's values with the configuration's
    ``detectors.<id>.*`` overrides on top, as the gate does. ``catalogue`` is
    kept apart as well, so a later refresh without the catalogue at hand can
    merge again.
    """
    entry: dict[str, Any] = {"written_at": written_at, "catalogue": dict(catalogue)}
    for name in GROUPS:
        entry[name] = config.group(name)
    entry["detectors"] = floors.resolve(catalogue, config.get("detectors", {}))
    return entry


def _withdrawn(workspace: Path, catalogue: Mapping[str, Any], written_at: float) -> dict[str, Any]:
    """What the hooks read for ``workspace`` once its approval lapses, and how they tell it lapsed.

    A teammate's commit can change the trusted layer between two refreshes of the snapshot; until the
    worker or a command writes it again, a hook would go on reading what the approval allowed. So the
    scope also carries the values as if untrusted, and the stamps (inode, size, modification time) of the
    two files the approval and those values hang on: the layer and the approval record. A hook that finds
    either changed reads these instead (two ``stat`` calls)."""
    from sbcore.config.trust import record_path

    entry = scope_entry(load_config(workspace, as_untrusted=True), catalogue, written_at)
    entry.pop("catalogue", None)
    entry["stamps"] = {
        str(path): file_stamp(path) for path in (workspace_path(workspace), record_path(workspace))
    }
    return entry


def _read_scopes(path: Path) -> dict[str, dict[str, Any]]:
    """The previous snapshot's scopes; an unreadable or foreign file is simply replaced."""
    try:
        found = document.read(path, version=VERSION)
    except document.DocumentError:
        return {}
    scopes = found.get("scopes") if found is not None else None
    if not isinstance(scopes, dict):
        return {}
    return {scope: entry for scope, entry in scopes.items() if isinstance(entry, dict)}


@contextlib.contextmanager
def _locked(root: Path) -> Iterator[None]:
    """Serialise writers (the command and a worker may refresh at once); readers never lock."""
    ensure_private_dir(root)
    fd = open_private(root / "hot.lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
