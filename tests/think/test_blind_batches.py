"""The blind batches hold to their protocol (tests/think/blind/README.md): a brief, labels that load with
every transcript and checkout in place, one split a batch, a family on every case, and a first score
committed with the cases. Nothing here reads what a case says: only its shape and its counts."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from sbcore.conductor.labels import SPLITS, load_labels

BLIND = Path(__file__).parent / "blind"
BATCHES = sorted(path.parent for path in BLIND.glob("*/labels.yaml"))


def test_every_batch_folder_has_its_brief() -> None:
    folders = [path for path in BLIND.iterdir() if path.is_dir()]
    assert folders and all((folder / "BRIEF.md").is_file() for folder in folders)


@pytest.mark.parametrize("batch", BATCHES, ids=[batch.name for batch in BATCHES])
def test_a_labelled_batch_loads_with_one_split_a_family_each_and_its_first_score(batch: Path) -> None:
    cases = load_labels(batch / "labels.yaml")
    assert cases
    assert {case.split for case in cases} <= set(SPLITS) and len({case.split for case in cases}) == 1
    assert all(case.family for case in cases)
    assert all(case.id.startswith(f"{batch.name}-") for case in cases)
    assert (batch / "SCORE.md").is_file(), "a batch is committed with its first score"
    per_family = Counter((case.family, case.detector, case.expect) for case in cases)
    for family in {case.family for case in cases}:
        for detector in {case.detector for case in cases if case.family == family}:
            assert per_family[(family, detector, "fire")] >= 2, (family, detector)
            assert per_family[(family, detector, "silent")] >= 2, (family, detector)
