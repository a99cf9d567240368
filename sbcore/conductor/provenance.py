"""What produced a JSON result: its format's version, sbcore's, and a fingerprint of what decided it.

Two saved results (a CI baseline and today's run, say) can only be compared when one knows whether the
detectors and settings behind them were the same. The fingerprint hashes every replayed detector's
definition as it ran (catalogue file, pack and workspace overrides applied) and the effective
configuration, so a changed prompt, trigger parameter, floor or knob changes it, and nothing else does.
Golden snapshots never carry it: they must not churn when an unrelated setting moves.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from sbcore import __version__

if TYPE_CHECKING:
    from sbcore.config import EffectiveConfig
    from sbcore.packs.model import DetectorDef

SCHEMA_VERSION = 1
"""The version of the result documents' shape; raised when a key changes meaning or goes away."""


def fingerprint(detectors: Sequence[DetectorDef], config: EffectiveConfig | None) -> str:
    """A short stable hash of ``detectors`` (as they ran) and ``config``."""
    decided = [
        {key: value for key, value in asdict(d).items() if key != "source"}
        for d in sorted(detectors, key=lambda d: d.id)
    ]
    body = {"detectors": decided, "config": config.as_dict() if config is not None else None}
    text = json.dumps(body, sort_keys=True, default=str, ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def provenance(detectors: Sequence[DetectorDef], config: EffectiveConfig | None) -> dict[str, Any]:
    """The keys every result document starts with."""
    return {
        "schema_version": SCHEMA_VERSION,
        "sbcore_version": __version__,
        "fingerprint": fingerprint(detectors, config),
    }
