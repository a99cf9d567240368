"""The public face for detector pack authors: one import for the marker and every type a pack meets.

::

    from sbcore.api import RegisterTrigger, TriggerMatch, hookimpl   # or: from sbcore import hookimpl

What is here is what a pack may rely on from one release to the next; the
modules it comes from may move. The hook specifications themselves stay in
:mod:`sbcore.packs.hookspecs` and the types in :mod:`sbcore.packs.types`, so a
trigger module needs no pluggy. Importing this module loads pluggy and the
engine's provider and tool types; importing :mod:`sbcore` alone does not (its
names here are reached lazily, see ``sbcore/__init__.py``).
"""

from __future__ import annotations

from sbcore.observe.history import ObservationHistory, history_of
from sbcore.observe.model import Observation
from sbcore.observe.outcome import is_noise, without_options
from sbcore.observe.project_facts import UNKNOWN, ProjectFacts, is_build_path, is_test_path
from sbcore.observe.steps import CallReading, SessionTopic
from sbcore.observe.summaries import is_wrapper_summary
from sbcore.observe.topic import cosine as topic_cosine
from sbcore.observe.topic import mean_pairwise as topic_mean_pairwise
from sbcore.packs.hookspecs import hookimpl
from sbcore.packs.types import (
    RegisterCatalogue,
    RegisterMcpServer,
    RegisterProvider,
    RegisterTool,
    RegisterTrigger,
    TriggerFunc,
    TriggerMatch,
    report_once,
)
from sbcore.state.recall import Hit as RecallHit
from sbcore.state.recall import RecallWindow
from sbcore.state.recall import query_terms as recall_terms
from sbcore.state.taskindex import IndexedRegion, IndexedTask, Peers
from sbcore.think.providers.base import Provider, ProviderSettings, Request, Response, Secret, Usage
from sbcore.think.tools.base import Tool, ToolResult

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
    "history_of",
    "hookimpl",
    "is_build_path",
    "is_noise",
    "is_test_path",
    "is_wrapper_summary",
    "recall_terms",
    "report_once",
    "topic_cosine",
    "topic_mean_pairwise",
    "without_options",
]
