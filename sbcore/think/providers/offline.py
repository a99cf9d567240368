"""The offline provider: no model, no network.

With no model configured the observer still does what needs no judgment.
Detectors whose structural trigger fired return their rendered ``fallback``
advisory (the trigger found the problem; the template only words it); every
other detector reports ``skipped: no model`` rather than pretending to have
looked. The fork engine calls :meth:`OfflineProvider.evaluate` instead of
``send`` whenever ``provider.has_model`` is false.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from sbcore.think.providers.base import NoModel, ProviderSettings, Request, Response

SKIPPED_NO_MODEL = "skipped: no model"
"""What a model-only detector reports offline."""

_TEMPLATE_FIELDS = ("headline", "body", "dedup_key")


class FallbackDetector(Protocol):
    """The parts of a detector definition (sbcore.packs.model.DetectorDef) the offline path reads."""

    @property
    def id(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def config(self) -> Mapping[str, Any]: ...

    @property
    def fallback(self) -> Mapping[str, Any] | None: ...


Render = Callable[..., str]
"""``render(template_source, **inputs) -> str``: the catalogue's sandboxed renderer."""


class OfflineProvider:
    """Answers detectors from their fallback templates; refuses model calls with NoModel."""

    name = "offline"
    model = ""
    has_model = False

    def __init__(self, settings: ProviderSettings | None = None) -> None:
        self.settings = settings

    @classmethod
    def from_settings(cls, settings: ProviderSettings) -> OfflineProvider:
        return cls(settings)

    def __repr__(self) -> str:
        return "OfflineProvider()"

    async def send(self, request: Request) -> Response:
        raise NoModel("no model configured; offline only evaluates fallbacks", provider=self.name)

    async def aclose(self) -> None:
        return None

    def evaluate(self, detector: FallbackDetector, match: Any, render: Render) -> dict[str, Any] | str:
        """One detector's offline result.

        :param detector: the detector definition.
        :param match: the structural trigger's match (the ``match`` template input), or None when no
            trigger fired for this detector in this pass.
        :param render: the catalogue renderer, called as ``render(source, detector=…, config=…, match=…)``.
        :returns: a feedback_v1 dict — ``advise`` with the rendered fallback when a trigger matched,
            ``silent`` when the detector has a fallback but nothing matched — or :data:`SKIPPED_NO_MODEL`
            for a detector without a fallback.
        """
        fallback = detector.fallback
        if not fallback:
            return SKIPPED_NO_MODEL
        if match is None:
            return {"verdict": "silent"}
        inputs = {
            "detector": {"id": detector.id, "description": detector.description},
            "config": dict(detector.config),
            "match": match,
        }
        feedback: dict[str, Any] = {"verdict": "advise"}
        for key in _TEMPLATE_FIELDS:
            if isinstance(fallback.get(key), str):
                feedback[key] = render(fallback[key], **inputs).strip()
        evidence = _evidence(match)
        if evidence:
            feedback["evidence"] = evidence
        if isinstance(fallback.get("confidence"), int | float):
            feedback["confidence"] = float(fallback["confidence"])
        if isinstance(fallback.get("finish_gate"), bool):
            feedback["finish_gate"] = fallback["finish_gate"]
        return feedback


def _evidence(match: Any) -> list[str]:
    """The trigger's evidence lines, whether the match is an object or a mapping."""
    raw = match.get("evidence") if isinstance(match, Mapping) else getattr(match, "evidence", None)
    if isinstance(raw, list | tuple):
        return [str(item) for item in raw]
    return []
