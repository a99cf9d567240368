"""Shared helpers for the projection tests: the hand-written transcripts and their repository.

The transcripts under ``transcripts/`` write ``{ROOT}`` where a path into the
repository goes. ``materialise`` creates that repository (the files the Edit anchors are
resolved against) in a temporary directory and substitutes its path; ``normalise``
puts ``{ROOT}`` back, so goldens do not depend on where the test ran.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sbcore.observe.config import ProjectionConfig
from sbcore.observe.model import Observation
from sbcore.observe.project import Projector

TRANSCRIPTS = Path(__file__).parent / "transcripts"
PLACEHOLDER = "{ROOT}"

# The repository as it stands after the session in transcripts/edits.jsonl.
REPOSITORY: dict[str, str] = {
    "src/client.py": (
        "import requests\n"
        "from src.retry import Backoff\n"
        "\n"
        "TIMEOUT = 30\n"
        "\n"
        "\n"
        "class Client:\n"
        "    def __init__(self):\n"
        "        self._session = requests.Session()\n"
        "\n"
        "    def get(self, url):\n"
        "        return self._with_retries(lambda: self._session.get(url))\n"
        "\n"
        "    def close(self):\n"
        "        pass\n"
        "\n"
        "    def reset(self):\n"
        "        pass\n"
    ),
    "src/retry.py": (
        "MAX_ATTEMPTS = 3\n"
        "\n"
        "\n"
        "class Backoff:\n"
        '    """Exponential backoff with jitter."""\n'
        "\n"
        "    def __init__(self, base: float = 0.5) -> None:\n"
        + "".join(f"        self.step{i} = base * 2 ** {i}  # see docs/backoff.md\n" for i in range(8))
        + "\n"
        "    def reset(self) -> None:\n"
        "        self.attempt = 0\n"
    ),
}


def materialise(root: Path) -> None:
    for relative, content in REPOSITORY.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)


def transcript_lines(name: str, root: Path) -> list[bytes]:
    text = (TRANSCRIPTS / f"{name}.jsonl").read_text().replace(PLACEHOLDER, str(root))
    return text.encode().split(b"\n")


def normalise(observations: list[Observation], root: Path) -> list[Observation]:
    def swap(value: Any) -> Any:
        return json.loads(json.dumps(value).replace(str(root), PLACEHOLDER))

    return [Observation.from_json(swap(obs.to_json())) for obs in observations]


def project_case(
    name: str, root: Path, config: ProjectionConfig | None = None
) -> tuple[list[Observation], Projector]:
    materialise(root)
    projector = Projector(config)
    observations = projector.feed_lines(transcript_lines(name, root))
    return normalise(observations, root), projector
