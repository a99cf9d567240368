"""A golden case of several transcripts replayed together: ``interleave`` (for cross-task detectors).

The transcripts go through :meth:`sbcore.conductor.replay.Replayer.replay_interleaved`, the same path as
``second-brain replay --interleave``: one clock, each transcript its own task with its own pipeline, the
tasks sharing a private cross-task index in memory. Only the detector under test runs, offline, with the
schema's default configuration, so a case means the same on every machine.

Edits are placed in their files by :class:`CheckoutAnchors`: a file under a transcript's working directory
is looked up in the case's ``checkout`` directory instead, and nothing else on the machine running the case
is ever read (without a ``checkout``, edits carry no line anchor).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sbcore.observe.anchors import AnchorResolver
from sbcore.observe.model import Observation
from sbcore.observe.project import Projector

if TYPE_CHECKING:
    from sbcore.conductor.replay import Replayer, SessionReplay
    from sbcore.packs.manager import PackManager
    from sbcore.packs.model import DetectorDef
    from sbcore.think.feedback import FeedbackResult


class CheckoutAnchors(AnchorResolver):
    """Finds line anchors in ``checkout`` (a case's stand-in for the sessions' working directory)."""

    def __init__(self, checkout: Path | None) -> None:
        super().__init__()
        self.checkout = checkout

    def resolve(self, file_path: str, cwd: str | None, new: str, old: str) -> tuple[int, int] | None:
        if self.checkout is None or not cwd or not os.path.isabs(file_path):
            return None
        inside = os.path.relpath(os.path.normpath(file_path), os.path.normpath(cwd))
        target = os.path.realpath(self.checkout / inside)
        root = os.path.realpath(self.checkout)
        if inside.startswith(os.pardir) or not target.startswith(root + os.sep):
            return None  # outside the stand-in checkout (a ../ path, a symbolic link out of it)
        return super().resolve(target, None, new, old)


@dataclass(frozen=True)
class Interleaved:
    """What the detector made of the sessions: its first advising answer, else its first triggered one."""

    observations: tuple[Observation, ...]
    sessions: int
    result: FeedbackResult | None


def replay_interleaved(
    definition: DetectorDef, paths: Sequence[Path], checkout: Path | None, *, manager: PackManager
) -> Interleaved:
    """Replay ``paths`` together with ``definition`` alone, offline, and collect its answers."""
    replayer = offline_replayer(definition, manager, anchors=CheckoutAnchors(checkout))
    sessions = asyncio.run(replayer.replay_interleaved(paths))
    observations: list[Observation] = []
    for path in paths:
        projector = Projector(anchors=CheckoutAnchors(checkout))
        observations += projector.feed_lines(path.read_bytes().splitlines())
    return Interleaved(tuple(observations), len(sessions), answer(sessions, definition.id))


def offline_replayer(
    definition: DetectorDef, manager: PackManager, anchors: AnchorResolver | None = None
) -> Replayer:
    """A replayer of ``definition`` alone, offline, defaults-only configuration: what a golden case runs."""
    from sbcore.conductor.replay import Replayer
    from sbcore.config.effective import EffectiveConfig, merge
    from sbcore.think.providers.offline import OfflineProvider

    return Replayer(
        config=EffectiveConfig(None, [], merge([])),
        detectors=[definition],
        provider=OfflineProvider(),
        triggers=manager.registry.triggers,
        environment=manager.template_environment(),
        anchors=anchors,
    )


def answer(sessions: Sequence[SessionReplay], detector: str) -> FeedbackResult | None:
    """The detector's first advising answer in the sessions' passes (by time), else its first matched one."""
    passes = sorted(
        (
            (report.result.timestamp or "", order, report.result)
            for order, session in enumerate(sessions)
            for report in session.reports
            if report.result is not None
        ),
        key=lambda item: (item[0], item[1]),
    )
    answers = [
        result for _, _, outcome in passes for result in outcome.results if result.detector == detector
    ]
    advised = next((r for r in answers if r.verdict == "advise"), None)
    matched = next((r for r in answers if r.match is not None), None)
    return advised or matched
