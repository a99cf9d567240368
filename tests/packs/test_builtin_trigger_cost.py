"""The built-in model detectors that moved from a blind cadence to a declarative trigger cost fewer passes.

Replayed offline over the shared corpus, a detector is *run* in a pass when its cadence admits the pass and
its trigger (if any) matches: offline that is a ``skipped: no model`` result, with a model a fork. Each of
these detectors, as catalogued now, must be run in fewer passes than the same detector on the cadence it
shipped with before (``every_nth``, no trigger), and none of them is in the default set, so the default
configuration's figures cannot move because of them.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from sbcore.conductor.replay import Replayer, SessionReplay, replay_many
from sbcore.config import load_config
from sbcore.packs.catalogue import assemble_catalogue
from sbcore.packs.declarative import DECLARATIVE_TRIGGER
from sbcore.packs.manager import get_plugin_manager
from sbcore.packs.model import Cadence, DetectorDef
from sbcore.think.providers import OfflineProvider

CORPUS = (Path(__file__).parent / "../../../shared/corpus/transcripts").resolve()
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not present")

PREVIOUS_CADENCE = {"static-analysis": 4, "git-log": 3, "prior-art": 4, "constraint-drift": 3}
"""The ``every_nth`` each detector shipped with before its trigger (the comparison's baseline)."""


def _catalogued() -> dict[str, DetectorDef]:
    catalogue = assemble_catalogue(get_plugin_manager(), config=load_config(None))
    return {d.id: d.definition for d in catalogue.detectors if d.id in PREVIOUS_CADENCE}


def _runs(detectors: list[DetectorDef]) -> dict[str, int]:
    manager = get_plugin_manager()
    replayer = Replayer(
        config=load_config(None),
        detectors=detectors,
        provider=OfflineProvider(),
        triggers=manager.registry.triggers,
        environment=manager.template_environment(),
    )
    outcomes = asyncio.run(replay_many(replayer, sorted(CORPUS.glob("*.jsonl"))))
    runs = dict.fromkeys((d.id for d in detectors), 0)
    for outcome in outcomes:
        assert isinstance(outcome, SessionReplay), outcome
        for result in (r for p in outcome.passes for r in p.results):
            runs[result.detector] += 1
    return runs


def test_the_retriggered_detectors_stay_out_of_the_default_set() -> None:
    detectors = _catalogued()
    assert sorted(detectors) == sorted(PREVIOUS_CADENCE)
    for definition in detectors.values():
        assert definition.enabled is False, definition.id
        assert definition.trigger is not None and definition.trigger.name == DECLARATIVE_TRIGGER


@needs_corpus
def test_a_declarative_trigger_runs_each_detector_in_fewer_passes_than_its_old_cadence() -> None:
    now = list(_catalogued().values())
    before = [
        dataclasses.replace(d, cadence=Cadence("every_nth", PREVIOUS_CADENCE[d.id]), trigger=None)
        for d in now
    ]
    triggered, blind = _runs(now), _runs(before)
    for detector in PREVIOUS_CADENCE:
        assert 0 < triggered[detector] < blind[detector], (detector, triggered, blind)
