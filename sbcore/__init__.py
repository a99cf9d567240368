"""Second Brain core: a quiet, cheap observer for Claude Code sessions.

The package is laid out in floors, each importing only the floors below it
(``docs/architecture.md``; ``lint-imports`` checks them): ``paths``, ``schemas``
and ``state`` at the bottom, then ``observe``, ``config``, ``pace``, ``packs``,
``think`` and ``gate``, the hook process (``hooks``) and the pack authors'
face (``api``), the one pipeline (``conductor``), the drivers (``worker``,
``testing``), ``bench`` and ``cli``.

Importing ``sbcore`` loads nothing but this file: the hooks import
``sbcore.hooks`` on every tool call and must stay free of every dependency.
The names of :mod:`sbcore.api` (``from sbcore import hookimpl``) are therefore
reached lazily, on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sbcore.api import (
        UNKNOWN,
        CallReading,
        IndexedRegion,
        IndexedTask,
        Observation,
        ObservationHistory,
        Peers,
        ProjectFacts,
        Provider,
        ProviderSettings,
        RecallHit,
        RecallWindow,
        RegisterCatalogue,
        RegisterMcpServer,
        RegisterProvider,
        RegisterTool,
        RegisterTrigger,
        Request,
        Response,
        Secret,
        SessionTopic,
        Tool,
        ToolResult,
        TriggerFunc,
        TriggerMatch,
        Usage,
        history_of,
        hookimpl,
        is_build_path,
        is_test_path,
        is_wrapper_summary,
        recall_terms,
        report_once,
        topic_cosine,
        topic_mean_pairwise,
    )

__version__ = "0.1.0"

__all__ = [
    "UNKNOWN",
    "CallReading",
    "IndexedRegion",
    "IndexedTask",
    "Observation",
    "ObservationHistory",
    "Peers",
    "ProjectFacts",
    "Provider",
    "ProviderSettings",
    "RecallHit",
    "RecallWindow",
    "RegisterCatalogue",
    "RegisterMcpServer",
    "RegisterProvider",
    "RegisterTool",
    "RegisterTrigger",
    "Request",
    "Response",
    "Secret",
    "SessionTopic",
    "Tool",
    "ToolResult",
    "TriggerFunc",
    "TriggerMatch",
    "Usage",
    "__version__",
    "history_of",
    "hookimpl",
    "is_build_path",
    "is_test_path",
    "is_wrapper_summary",
    "recall_terms",
    "report_once",
    "topic_cosine",
    "topic_mean_pairwise",
]
"""``__version__``, and the names of :mod:`sbcore.api` ``sbcore`` answers for (a test checks both)."""


def __getattr__(name: str) -> object:
    """``sbcore.hookimpl`` and the other public names: imported from :mod:`sbcore.api` on first use."""
    if name in __all__:
        from sbcore import api

        return getattr(api, name)
    raise AttributeError(f"module 'sbcore' has no attribute {name!r}")
