"""After a pass: outcomes that closed may demote their detector; the demotion is written and told once.

:func:`sbcore.gate.calibration.judge` decides from the durable outcome rows; this applies the step to the
user's local layer (``second-brain config set … --local`` by another name, so ``config show`` names it and
``config reset`` undoes it; the running worker picks it up at its next configuration check), logs it, and
queues one human-only notice (:func:`sbcore.worker.notice.demotion_advice`), marking it announced only
once the notice is queued.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

from sbcore.config import EffectiveConfig
from sbcore.config.write import ConfigRejected, set_value
from sbcore.deliver.mailbox import Mailbox, MailboxBusy
from sbcore.gate import calibration
from sbcore.gate.settings import GateSettings
from sbcore.gate.uptake import OutcomeRecord
from sbcore.state import db
from sbcore.worker.notice import demotion_advice

log = logging.getLogger("sbcore.worker")


def calibrate(
    closed: Iterable[tuple[str, OutcomeRecord]],
    *,
    data: Path,
    workspace: Path,
    config: EffectiveConfig,
    gate: GateSettings,
    mailbox: Mailbox,
    task_id: str,
) -> list[calibration.Demotion]:
    """Judge the detectors whose outcomes just closed; apply and announce what they earned."""
    detectors = sorted({record.detector for _, record in closed})
    settings = calibration.CalibrationSettings.from_mapping(config.group("calibration"))
    now = time.time()
    made: list[calibration.Demotion] = []
    try:
        with db.opened(db.db_path(data)) as conn:
            for detector in detectors:
                demotion = calibration.judge(
                    conn,
                    workspace=str(workspace),
                    detector=detector,
                    settings=settings,
                    floor=gate.agent_floor(detector),
                    enabled=detector not in gate.disabled_detectors,
                    now=now,
                )
                if demotion is not None and _apply(demotion, workspace):
                    calibration.remember(conn, demotion)
                    made.append(demotion)
            _announce(conn, mailbox, workspace=str(workspace), task_id=task_id)
    except (sqlite3.Error, OSError) as error:
        log.warning("calibration skipped: %s", error)
    return made


def _apply(demotion: calibration.Demotion, workspace: Path) -> bool:
    try:
        set_value(demotion.key, demotion.value, layer="local", workspace=workspace)
    except (ConfigRejected, OSError) as error:
        log.warning("demotion of %s not written (%s): %s", demotion.detector, demotion.key, error)
        return False
    log.warning("%s", calibration.demotion_notice(demotion))
    return True


def _announce(conn: sqlite3.Connection, mailbox: Mailbox, *, workspace: str, task_id: str) -> None:
    for demotion in calibration.unannounced(conn, workspace=workspace):
        notice = demotion_advice(demotion, session_id=mailbox.session_id, task_id=task_id, now=time.time())
        try:
            mailbox.post(notice)
        except (MailboxBusy, OSError) as error:
            log.warning("the demotion notice was not queued (the next pass tries again): %s", error)
            return
        calibration.mark_announced(conn, demotion, now=time.time())
