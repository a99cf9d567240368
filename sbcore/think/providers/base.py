"""Provider-neutral request, response and usage types, the Provider protocol and its errors.

A request is expressed once, in an Anthropic-like neutral form, and each wire
module (``anthropic``, ``openai``) renders it. The fork engine never builds a
wire body itself: that is what keeps every fork's prefix byte-identical, since
one deterministic renderer turns equal requests into equal bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeAlias, runtime_checkable

from sbcore.problems import SbcoreError

Role: TypeAlias = Literal["user", "assistant"]


@dataclass(frozen=True)
class TextBlock:
    """Plain text, from either side."""

    text: str
    type: Literal["text"] = field(default="text", init=False)


@dataclass(frozen=True)
class ToolUseBlock:
    """A tool call made by the model."""

    id: str
    name: str
    input: Mapping[str, Any]
    type: Literal["tool_use"] = field(default="tool_use", init=False)


@dataclass(frozen=True)
class ToolResultBlock:
    """The result of a tool call, sent back by the caller in a user message."""

    tool_use_id: str
    content: str
    is_error: bool = False
    type: Literal["tool_result"] = field(default="tool_result", init=False)


Block: TypeAlias = TextBlock | ToolUseBlock | ToolResultBlock


@dataclass(frozen=True)
class Message:
    """One conversation turn: a role and its content blocks, in order."""

    role: Role
    content: tuple[Block, ...]

    @classmethod
    def user(cls, *blocks: Block | str) -> Message:
        return cls("user", _blocks(blocks))

    @classmethod
    def assistant(cls, *blocks: Block | str) -> Message:
        return cls("assistant", _blocks(blocks))

    def __post_init__(self) -> None:
        if self.role not in ("user", "assistant"):
            raise ValueError(f"message role must be 'user' or 'assistant', not {self.role!r}")
        if not self.content:
            raise ValueError("a message needs at least one content block")


def _blocks(items: Sequence[Block | str]) -> tuple[Block, ...]:
    return tuple(TextBlock(item) if isinstance(item, str) else item for item in items)


@dataclass(frozen=True)
class ToolSpec:
    """A tool offered to the model: the same three fields every wire format needs."""

    name: str
    description: str
    input_schema: Mapping[str, Any]


@dataclass(frozen=True)
class Request:
    """Everything a provider needs for one model call.

    ``breakpoint`` is the index of the last message of the shared prefix: the
    Anthropic renderer puts ``cache_control`` on that message's last block and on
    the last system block; providers with automatic prefix caching ignore it.
    ``force_tool`` makes the model call that tool (a fork's last iteration forces
    the feedback tool this way, never by shrinking ``tools``, which would change
    the cached prefix).
    """

    model: str
    system: tuple[str, ...]
    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] = ()
    breakpoint: int | None = None
    force_tool: str | None = None
    max_tokens: int = 1024
    temperature: float = 0.0

    def __post_init__(self) -> None:
        if not self.messages:
            raise ValueError("a request needs at least one message")
        if self.breakpoint is not None and not 0 <= self.breakpoint < len(self.messages):
            raise ValueError(f"breakpoint {self.breakpoint} is outside the {len(self.messages)} messages")
        names = [tool.name for tool in self.tools]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate tool names in request: {sorted(names)}")
        if self.force_tool is not None and self.force_tool not in names:
            raise ValueError(f"force_tool {self.force_tool!r} is not among the offered tools {sorted(names)}")
        if self.max_tokens < 1:
            raise ValueError("max_tokens must be at least 1")


@dataclass(frozen=True)
class Usage:
    """Token counts of one call, in the Anthropic sense.

    ``input_tokens`` is the uncached part only; ``cache_read_tokens`` and
    ``cache_write_tokens`` are the cached prefix read and written. Providers
    whose usage includes cached tokens in the prompt count (OpenAI) are
    converted to this meaning.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )

    @property
    def prompt_tokens(self) -> int:
        """All input tokens, cached or not."""
        return self.input_tokens + self.cache_read_tokens + self.cache_write_tokens


StopReason: TypeAlias = Literal["end_turn", "tool_use", "max_tokens", "stop_sequence", "other"]


@dataclass(frozen=True)
class Response:
    """A model reply in neutral form."""

    content: tuple[TextBlock | ToolUseBlock, ...]
    stop_reason: StopReason
    usage: Usage
    model: str = ""
    id: str = ""

    @property
    def text(self) -> str:
        """The reply's text blocks joined, without tool calls."""
        return "".join(block.text for block in self.content if isinstance(block, TextBlock))

    @property
    def tool_uses(self) -> tuple[ToolUseBlock, ...]:
        return tuple(block for block in self.content if isinstance(block, ToolUseBlock))

    def tool_use(self, name: str) -> ToolUseBlock | None:
        """The first call of tool ``name``, if the model made one."""
        return next((block for block in self.tool_uses if block.name == name), None)

    def as_message(self) -> Message:
        """The reply as an assistant message, to append to a fork's own tail (ValueError when empty)."""
        return Message("assistant", self.content)


class ProviderError(SbcoreError):
    """A model call failed after the provider's bounded retries.

    Fails the one fork that made the call; the pass carries on with the others.
    """

    retryable = False

    def __init__(self, message: str, *, provider: str = "", attempts: int = 1) -> None:
        super().__init__(message)
        self.provider = provider
        self.attempts = attempts

    def __str__(self) -> str:
        where = f"{self.provider}: " if self.provider else ""
        tries = f" (after {self.attempts} attempts)" if self.attempts > 1 else ""
        return f"{where}{self.args[0]}{tries}"


class RateLimited(ProviderError):
    """HTTP 429: the provider asked us to slow down."""

    retryable = True

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class ServerError(ProviderError):
    """HTTP 5xx (or a streamed ``error`` event): the provider failed on its side."""

    retryable = True

    def __init__(self, message: str, *, status: int | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.status = status


class Timeout(ProviderError):
    """No (complete) answer within the configured timeout."""

    retryable = True


class Unreachable(ProviderError):
    """The connection could not be made (refused, DNS, reset before a response)."""

    retryable = True


class BadResponse(ProviderError):
    """A 2xx answer that is not a valid reply: garbage JSON, a truncated stream, a missing field.

    Not retried: a proxy error page or a wrong base URL answers the same way
    every time, and a fork has a deadline to keep.
    """


class RequestRejected(ProviderError):
    """A 4xx other than 429: bad credentials, unknown model, invalid request. Never retried."""

    def __init__(self, message: str, *, status: int | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.status = status


class NoModel(ProviderError):
    """The offline provider was asked for a model call it cannot make."""


class ProviderConfigError(SbcoreError, ValueError):
    """The provider configuration or environment cannot produce a working provider."""


class Secret:
    """A credential that never shows up in a repr, a log record or a traceback's locals dump."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return "Secret('********')" if self._value else "Secret('')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded, jittered retries for transient failures (429, 5xx, timeouts, connection errors).

    ``max_retries`` extra attempts after the first; the delay before retry n
    (from 0) is uniform in [0, min(max_delay_s, base_delay_s * 2**n)] ("full
    jitter"). A 429's Retry-After replaces the jittered delay; when it asks for
    more than ``retry_after_cap_s`` the call gives up at once instead of waiting
    past any fork's deadline.
    """

    max_retries: int = 2
    base_delay_s: float = 0.5
    max_delay_s: float = 8.0
    retry_after_cap_s: float = 20.0

    def __post_init__(self) -> None:
        values = (self.max_retries, self.base_delay_s, self.max_delay_s, self.retry_after_cap_s)
        if min(values) < 0:
            raise ValueError("retry policy values must not be negative")


@dataclass(frozen=True)
class ProviderSettings:
    """What a provider factory is given: the resolved choice, credentials included (as a Secret)."""

    provider: str
    model: str
    base_url: str | None = None
    api_key: Secret = field(default_factory=lambda: Secret(""))
    timeout_s: float = 60.0
    stream: bool = False
    cache_ttl_s: int | None = None
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    options: Mapping[str, Any] = field(default_factory=dict)
    """Provider-specific knobs (``model.claude_code`` for ``claude-code``); empty for the others."""


@dataclass(frozen=True)
class KeyedEndpoint:
    """What choosing a provider reached with a key needs to know of it, declared beside its wire code.

    ``auto`` tries these in order (:mod:`sbcore.think.providers.choose`); a provider that also serves
    without a key (``keyless_with_base_url``: a local OpenAI-compatible server) is selected by its base
    URL variable alone."""

    name: str
    key_env: str
    base_url_env: str
    default_model: str
    default_base_url: str
    keyless_with_base_url: bool = False

    @property
    def selecting_env(self) -> tuple[str, ...]:
        """The environment variables any one of which selects this provider under ``auto``."""
        return (self.key_env, self.base_url_env) if self.keyless_with_base_url else (self.key_env,)


@runtime_checkable
class Provider(Protocol):
    """A model backend. ``send`` raises a ProviderError subclass once its retries are spent."""

    @property
    def name(self) -> str: ...

    @property
    def model(self) -> str: ...

    @property
    def has_model(self) -> bool:
        """False for the offline provider: the fork engine uses fallbacks instead of calling ``send``."""
        ...

    async def send(self, request: Request) -> Response: ...

    async def aclose(self) -> None: ...


ProviderFactory: TypeAlias = Callable[[ProviderSettings], Provider]
"""What ``register_providers`` registers: builds a provider from resolved settings."""


def encode_body(body: Mapping[str, Any]) -> bytes:
    """The exact bytes put on the wire: compact separators, UTF-8 kept as is, key order as built.

    Renderers build every dict in a fixed key order, so equal requests always
    produce equal bytes; caller-supplied mappings (tool schemas, tool inputs)
    keep the order they were written in.
    """
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
