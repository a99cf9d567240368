"""docs/configuration.md is generated from the schema and must be current."""

from __future__ import annotations

from pathlib import Path

from sbcore.config import knobs
from sbcore.config.docgen import generate

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def test_committed_doc_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == generate(), (
        "docs/configuration.md is stale: run `python -m sbcore.config.docgen > docs/configuration.md`"
    )


def test_every_knob_is_documented_with_its_default_and_range() -> None:
    text = generate()
    for knob in knobs():
        row = next(line for line in text.splitlines() if line.startswith(f"| `{knob.key}` |"))
        assert knob.description.split(".")[0].replace("|", "\\|") in row


def test_the_doc_explains_layers_locations_and_loud_knobs() -> None:
    text = generate()
    for phrase in (
        "## Layers",
        "$SBCORE_CONFIG_DIR",
        "<workspace>/.second-brain/config.yaml",
        "$SBCORE_DATA_DIR",
        ".second-brain/detectors/",
        "catalogue.file",
        "**the local layer unless you say otherwise**",
        "## The three loud knobs",
        "- `gate.rate_per_hour` bounds",
    ):
        assert phrase in text
