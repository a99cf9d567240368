"""The shared corpus: per-file statistics and the SHA-256 of each file's projection.

The corpus itself is never copied into the repository; only these figures are
snapshotted, so a change in the projection of any real transcript shows up here.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from sbcore.observe.config import ProjectionConfig
from sbcore.observe.project import Projector, iter_lines

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus"
FILES = [*sorted((CORPUS / "transcripts").glob("*.jsonl")), CORPUS / "cli-2.1.328" / "transcript_main.jsonl"]

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not (CORPUS / "transcripts").is_dir(), reason="../shared/corpus is absent"),
]


def _project(path: Path, config: ProjectionConfig) -> tuple[Projector, list[dict[str, Any]]]:
    projector = Projector(config)
    observations = [obs.to_json() for obs in projector.feed_lines(iter_lines(path))]
    return projector, observations


def test_corpus_projection_digests(snapshot: SnapshotAssertion) -> None:
    table: dict[str, Any] = {}
    for path in FILES:
        projector, observations = _project(path, ProjectionConfig())
        encoded = "".join(json.dumps(obs, ensure_ascii=False, sort_keys=True) + "\n" for obs in observations)
        table[f"{path.parent.name}/{path.name}"] = {
            "records": sum(1 for line in iter_lines(path) if line.strip()),
            "observations": dict(sorted(projector.stats.observations.items())),
            "observed_chars": sum(len(obs["text"]) for obs in observations),
            "usage": projector.total_usage(),
            "sha256": hashlib.sha256(encoded.encode()).hexdigest(),
        }
    assert table == snapshot(extension_class=JSONSnapshotExtension)


@pytest.mark.parametrize("sidechain", [False, True], ids=["default", "with-sidechains"])
def test_fast_path_matches_full_parse_on_the_corpus(sidechain: bool) -> None:
    config = ProjectionConfig(include_sidechain=sidechain)
    for path in FILES:
        lines = iter_lines(path)
        fast, observations = _project(path, config)
        slow = Projector(config)
        full = [obs.to_json() for obs in slow.feed([json.loads(line) for line in lines if line.strip()])]
        assert observations == full, path.name
        assert fast.usage == slow.usage, path.name
