"""The worker's status file: where it is and which version, for the worker and its readers alike.

The worker writes ``<data>/status/<session>.json`` (:mod:`sbcore.worker.status`); ``stats``, ``run``
and the statusline read it. The statusline runs on the hook floor (standard library only, no worker
import), so the file's name and version live here, below both.
"""

from __future__ import annotations

import os
from pathlib import Path

from sbcore import paths

VERSION = 1


def status_path(data: Path, session_id: str) -> Path:
    """``<data>/status/<session>.json``."""
    return data / "status" / f"{paths.safe_name(session_id)}.json"


def process_alive(pid: object) -> bool:
    """Whether ``pid`` names a running process (one of another user's counts: it exists)."""
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True
