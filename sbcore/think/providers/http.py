"""The thin HTTP transport both wire providers share: one POST, bounded retries, error mapping.

Everything that is the same for Anthropic and OpenAI-compatible servers lives
here — the httpx client, timeouts, the retry loop with full jitter and
Retry-After, the mapping of statuses and transport failures to ProviderError
subclasses, and reading a server-sent-event stream. The wire modules only build
bodies and parse replies.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import random
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from sbcore.think.providers.base import (
    BadResponse,
    ProviderError,
    ProviderSettings,
    RateLimited,
    Request,
    RequestRejected,
    Response,
    RetryPolicy,
    ServerError,
    Timeout,
    Unreachable,
    encode_body,
)

if TYPE_CHECKING:
    import httpx

log = logging.getLogger("sbcore.think.providers")

Sleep = Callable[[float], Awaitable[None]]

_RETRYABLE_STATUSES = frozenset({408, 409, 500, 502, 503, 504, 529})


@dataclass(frozen=True)
class SseEvent:
    """One server-sent event: its ``event:`` name (may be empty) and its joined ``data:`` lines."""

    event: str
    data: str


async def iter_sse(lines: AsyncIterator[str]) -> AsyncIterator[SseEvent]:
    """Group a text stream's lines into events; a trailing event without its blank line is dropped.

    Dropping the unterminated tail is deliberate: a stream cut mid-event must
    not be parsed as if the event were complete.
    """
    event = ""
    data: list[str] = []
    async for raw in lines:
        line = raw.rstrip("\r\n")
        if not line:
            if data or event:
                yield SseEvent(event, "\n".join(data))
            event, data = "", []
        elif line.startswith(":"):
            continue
        else:
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                event = value
            elif name == "data":
                data.append(value)


def parse_retry_after(headers: Mapping[str, str], now: Callable[[], float] = time.time) -> float | None:
    """Seconds to wait, from ``retry-after-ms``, ``retry-after`` (seconds or an HTTP date), else None."""
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now())


def error_message(body: bytes) -> str:
    """The human part of an error body in either wire format, bounded; never the request."""
    try:
        payload = json.loads(body)
    except ValueError:
        text = body.decode("utf-8", "replace").strip()
        return text[:200] or "(empty body)"
    error = payload.get("error") if isinstance(payload, dict) else None
    if isinstance(error, dict):
        kind = error.get("type") or error.get("code") or "error"
        return f"{kind}: {str(error.get('message', ''))[:300]}"
    if isinstance(error, str):
        return error[:300]
    return json.dumps(payload)[:200]


class HttpProvider(ABC):
    """Base of the wire providers: owns the client and the retry loop; subclasses own the format."""

    name: str = ""
    default_base_url: str = ""
    has_model = True

    def __init__(
        self,
        settings: ProviderSettings,
        *,
        sleep: Sleep = asyncio.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.settings = settings
        self.base_url = (settings.base_url or self.default_base_url).rstrip("/")
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._client: httpx.AsyncClient | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    def from_settings(cls, settings: ProviderSettings) -> Self:
        """The ProviderFactory registered for this provider (the default sleep and random source)."""
        return cls(settings)

    @property
    def model(self) -> str:
        return self.settings.model

    @property
    def retry(self) -> RetryPolicy:
        return self.settings.retry

    def __repr__(self) -> str:
        key = "set" if self.settings.api_key else "unset"
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r}, api_key={key})"

    # -- what a wire format supplies -------------------------------------------------------------

    @property
    @abstractmethod
    def endpoint(self) -> str:
        """Absolute URL of the completion endpoint."""

    @abstractmethod
    def headers(self) -> dict[str, str]:
        """Request headers, credentials included."""

    @abstractmethod
    def wire_body(self, request: Request) -> dict[str, Any]:
        """The JSON body for ``request`` under this provider's settings."""

    @abstractmethod
    def parse_body(self, payload: Any) -> Response:
        """A non-streamed reply; raises BadResponse when it is not one."""

    @abstractmethod
    async def parse_stream(self, events: AsyncIterator[SseEvent]) -> Response:
        """A streamed reply; raises BadResponse on a truncated or malformed stream."""

    # -- transport -------------------------------------------------------------------------------

    def _http(self) -> httpx.AsyncClient:
        """One client per event loop: a client bound to a closed loop cannot be reused.

        httpx is imported here, at the first request, not with the module: importing it (and the command
        line tools it pulls in) costs more than the rest of an offline replay's start, which never sends."""
        import httpx

        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop or self._client.is_closed:
            timeout = httpx.Timeout(self.settings.timeout_s, connect=min(10.0, self.settings.timeout_s))
            self._client = httpx.AsyncClient(timeout=timeout, trust_env=False, follow_redirects=False)
            self._client_loop = loop
        return self._client

    async def aclose(self) -> None:
        """Close the client; one left behind by an earlier, finished event loop is only dropped."""
        client, loop = self._client, self._client_loop
        self._client = self._client_loop = None
        if client is not None and not client.is_closed and loop is asyncio.get_running_loop():
            await client.aclose()

    async def __aenter__(self) -> HttpProvider:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def send(self, request: Request) -> Response:
        """POST the request; retry transient failures per the retry policy; raise a ProviderError."""
        body = encode_body(self.wire_body(request))
        attempt = 0
        while True:
            attempt += 1
            try:
                return await self._attempt(body)
            except ProviderError as error:
                error.provider, error.attempts = self.name, attempt
                delay = self._retry_delay(error, attempt)
                if delay is None:
                    raise
                log.info(
                    "%s: %s; retry %d/%d in %.2fs",
                    self.name,
                    type(error).__name__,
                    attempt,
                    self.retry.max_retries,
                    delay,
                )
                await self._sleep(delay)

    def _retry_delay(self, error: ProviderError, attempt: int) -> float | None:
        if not error.retryable or attempt > self.retry.max_retries:
            return None
        retry_after = error.retry_after if isinstance(error, RateLimited) else None
        if retry_after is not None:
            return retry_after if retry_after <= self.retry.retry_after_cap_s else None
        ceiling = min(self.retry.max_delay_s, self.retry.base_delay_s * 2 ** (attempt - 1))
        return self._rng.uniform(0.0, ceiling)

    async def _attempt(self, body: bytes) -> Response:
        import httpx  # for the failures it raises (imported at the first request: see ``_http``)

        stream = self.settings.stream
        client = self._http()
        http_request = client.build_request("POST", self.endpoint, content=body, headers=self.headers())
        try:
            response = await client.send(http_request, stream=True)
        except httpx.TimeoutException as exc:
            raise Timeout(f"no response within {self.settings.timeout_s:g}s ({type(exc).__name__})") from None
        except httpx.TransportError as exc:
            raise Unreachable(f"cannot reach {self.base_url} ({type(exc).__name__})") from None
        try:
            if response.status_code >= 300:
                await self._raise_for_status(response)
            if stream and response.headers.get("content-type", "").startswith("text/event-stream"):
                return await self.parse_stream(iter_sse(response.aiter_lines()))
            raw = await response.aread()
        except httpx.TimeoutException:
            raise Timeout(f"the reply stalled for more than {self.settings.timeout_s:g}s") from None
        except (httpx.RemoteProtocolError, httpx.ReadError) as exc:
            raise BadResponse(f"the reply was cut short ({type(exc).__name__})") from None
        finally:
            await response.aclose()
        try:
            payload = json.loads(raw)
        except ValueError:
            raise BadResponse(f"the reply is not JSON: {raw[:80]!r}") from None
        return self.parse_body(payload)

    async def _raise_for_status(self, response: httpx.Response) -> None:
        status = response.status_code
        message = f"HTTP {status} from {self.endpoint}: {error_message(await response.aread())}"
        if status == 429:
            raise RateLimited(message, retry_after=parse_retry_after(response.headers))
        if status == 408:
            raise Timeout(message)
        if status in _RETRYABLE_STATUSES or status >= 500:
            raise ServerError(message, status=status)
        raise RequestRejected(message, status=status)


def load_event(event: SseEvent) -> dict[str, Any]:
    """An event's data as a JSON object, or BadResponse."""
    try:
        payload = json.loads(event.data)
    except ValueError:
        raise BadResponse(f"malformed stream event {event.event or 'data'}: {event.data[:80]!r}") from None
    if not isinstance(payload, dict):
        raise BadResponse(f"stream event is not an object: {event.data[:80]!r}")
    return payload


def parse_tool_input(raw: str, *, tool: str) -> dict[str, Any]:
    """A tool call's JSON arguments; an empty string means no arguments."""
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        raise BadResponse(f"tool call {tool!r} has malformed JSON input: {raw[:80]!r}") from None
    if not isinstance(value, dict):
        raise BadResponse(f"tool call {tool!r} input is not an object: {raw[:80]!r}")
    return value


def as_dict(value: Any) -> dict[str, Any]:
    """``value`` if it is a JSON object, else an empty one: optional reply parts read without type checks."""
    return value if isinstance(value, dict) else {}


def token_count(value: Any) -> int:
    """A usage figure as reported, or 0 when it is missing, not an integer or negative."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0
