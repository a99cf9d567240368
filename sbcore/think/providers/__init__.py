"""Model providers: Anthropic Messages, OpenAI-compatible chat completions, and offline.

Import the neutral types from here; wire details stay in their modules.
"""

from __future__ import annotations

from sbcore.think.providers.base import (
    BadResponse,
    Block,
    Message,
    NoModel,
    Provider,
    ProviderConfigError,
    ProviderError,
    ProviderFactory,
    ProviderSettings,
    RateLimited,
    Request,
    RequestRejected,
    Response,
    RetryPolicy,
    Secret,
    ServerError,
    TextBlock,
    Timeout,
    ToolResultBlock,
    ToolSpec,
    ToolUseBlock,
    Unreachable,
    Usage,
)
from sbcore.think.providers.choose import Choice, build, choose, registered_factories, select_provider
from sbcore.think.providers.offline import SKIPPED_NO_MODEL, OfflineProvider

__all__ = [
    "SKIPPED_NO_MODEL",
    "BadResponse",
    "Block",
    "Choice",
    "Message",
    "NoModel",
    "OfflineProvider",
    "Provider",
    "ProviderConfigError",
    "ProviderError",
    "ProviderFactory",
    "ProviderSettings",
    "RateLimited",
    "Request",
    "RequestRejected",
    "Response",
    "RetryPolicy",
    "Secret",
    "ServerError",
    "TextBlock",
    "Timeout",
    "ToolResultBlock",
    "ToolSpec",
    "ToolUseBlock",
    "Unreachable",
    "Usage",
    "build",
    "choose",
    "registered_factories",
    "select_provider",
]
