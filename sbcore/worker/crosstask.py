"""The live worker's seat in the user's cross-task index (``index.*``).

The live worker is the one driver whose tasks the user's other sessions hear about: its pipeline publishes
into the index of the data directory's database (:mod:`sbcore.state.db`), never into a place a workspace
chose. A task leaves the index when the session moves to a new task or the worker stops; a worker killed
outright leaves entries that expire on ``index.ttl_s``.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from sbcore.conductor.pipeline import Pipeline
from sbcore.conductor.presence import IndexSettings, Presence, git_common_dir
from sbcore.config import EffectiveConfig
from sbcore.state.db import db_path
from sbcore.state.taskindex import Whereabouts

log = logging.getLogger("sbcore.worker")


def open_presence(
    config: EffectiveConfig, data: Path, session: str, workspace: Path, cwd: Path
) -> Presence | None:
    """The session's presence in the index of ``data``, or None when ``index.enabled`` is off or it fails."""
    settings = IndexSettings.from_config(config)
    if not settings.enabled:
        return None
    where = Whereabouts(session, str(workspace), str(cwd), git_common_dir(workspace))
    try:
        return Presence.open(db_path(data), where, settings)
    except (sqlite3.Error, OSError) as error:
        log.warning(
            "cross-task index unavailable (%s): this session neither publishes nor hears others", error
        )
        return None


def follow_config(
    pipeline: Pipeline, config: EffectiveConfig, data: Path, session: str, workspace: Path, cwd: Path
) -> None:
    """At a pass boundary: ``index.enabled`` switched on or off, or the other ``index.*`` knobs changed."""
    settings = IndexSettings.from_config(config)
    presence = pipeline.presence
    if presence is not None and not settings.enabled:
        leave(pipeline)
        pipeline.presence = None
    elif presence is None and settings.enabled:
        pipeline.presence = open_presence(config, data, session, workspace, cwd)
    elif presence is not None:
        presence.settings = settings


def leave(pipeline: Pipeline) -> None:
    """The worker stops serving this session: its task leaves the index, and the database is closed."""
    presence = pipeline.presence
    if presence is None:
        return
    pipeline.end_task()
    try:
        presence.close()
    except sqlite3.Error as error:
        log.warning("closing the cross-task index: %s", error)
