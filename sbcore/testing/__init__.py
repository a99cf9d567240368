"""Test support for sbcore and for pack authors: a loopback fake model provider.

Everything a test needs is importable from here::

    from sbcore.testing import FakeProvider, feedback, rate_limit, detector_marker

See docs/providers.md ("The fake provider") for the full guide.
"""

from __future__ import annotations

from sbcore.testing.cache_accounting import (
    DEFAULT_MIN_CACHEABLE_TOKENS,
    DEFAULT_TTL_S,
    AnthropicCache,
    CacheUsage,
    OpenAICache,
    estimate_tokens,
)
from sbcore.testing.fake_provider import FAKE_API_KEY, FakeProvider, RecordedRequest
from sbcore.testing.scripts import (
    Call,
    Fault,
    FaultKind,
    Reply,
    Say,
    feedback,
    garbage,
    rate_limit,
    server_error,
    text,
    timeout,
    tool_call,
    truncated,
)
from sbcore.think import DETECTOR_MARKER, DETECTOR_MARKER_RE, FEEDBACK_TOOL, detector_marker

__all__ = [
    "DEFAULT_MIN_CACHEABLE_TOKENS",
    "DEFAULT_TTL_S",
    "DETECTOR_MARKER",
    "DETECTOR_MARKER_RE",
    "FAKE_API_KEY",
    "FEEDBACK_TOOL",
    "AnthropicCache",
    "CacheUsage",
    "Call",
    "FakeProvider",
    "Fault",
    "FaultKind",
    "OpenAICache",
    "RecordedRequest",
    "Reply",
    "Say",
    "detector_marker",
    "estimate_tokens",
    "feedback",
    "garbage",
    "rate_limit",
    "server_error",
    "text",
    "timeout",
    "tool_call",
    "truncated",
]
