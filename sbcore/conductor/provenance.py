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
from pathlib import Path
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


def for_workspace(workspace: Path | None) -> dict[str, Any]:
    """The provenance keys for a document about ``workspace``: its effective catalogue and configuration.

    Used by every command's ``--json`` that is not a replay (which knows the detectors as they ran):
    ``stats``, ``why``, ``doctor``, ``config show``, ``detectors list``, ``soak report``, ``run``,
    ``forget``, ``measure``, every ``bench``. A catalogue that cannot be assembled still yields the keys,
    from the configuration alone."""
    from sbcore.config import load_config
    from sbcore.packs.catalogue import assemble_catalogue

    try:
        config = load_config(workspace)
    except Exception:  # the document is still worth stamping: with nothing behind it
        return provenance([], None)
    try:
        detectors = [
            item.definition for item in assemble_catalogue(workspace=workspace, config=config).detectors
        ]
    except Exception:
        detectors = []
    return provenance(detectors, config)


def here() -> Path:
    """The workspace the current directory belongs to."""
    from sbcore.config import find_workspace

    return find_workspace(Path.cwd())


def stamped(document: Any, workspace: Path | None) -> dict[str, Any]:
    """``document`` with the provenance keys first (a list becomes ``{"items": [...]}``)."""
    body = document if isinstance(document, dict) else {"items": document}
    return {**for_workspace(workspace), **body}
