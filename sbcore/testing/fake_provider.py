"""A loopback fake model API speaking Anthropic Messages and OpenAI chat completions.

It runs a real HTTP server on 127.0.0.1 (an ephemeral port) in a background
thread, so whatever is under test talks to it over real sockets: sbcore's own
providers, or the Claude Code CLI itself via ``ANTHROPIC_BASE_URL``. It answers
from scripts (per detector and for a primary agent), stages faults, adds
latency, keeps prompt-cache accounting like the real APIs, and records every
request for assertions::

    with FakeProvider() as fake:
        fake.script("repeat-failure", feedback("advise", headline="Same test failing"))
        provider = AnthropicProvider(ProviderSettings("anthropic", "claude-haiku-4-5",
                                                      base_url=fake.anthropic_base_url,
                                                      api_key=Secret("test-key")))
        ...
        assert fake.requests[0].usage.cache_write_tokens > 0

Endpoints: ``POST /v1/messages`` (query ignored, e.g. ``?beta=true``) and
``POST /v1/chat/completions`` (also ``/chat/completions``); both stream SSE
when the body says ``"stream": true``.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from sbcore.testing import wire
from sbcore.testing.cache_accounting import (
    DEFAULT_MIN_CACHEABLE_TOKENS,
    DEFAULT_TTL_S,
    AnthropicCache,
    CacheUsage,
    Charge,
    OpenAICache,
)
from sbcore.testing.scripts import (
    DEFAULT_AGENT_REPLY,
    DEFAULT_DETECTOR_REPLY,
    Call,
    Fault,
    FaultKind,
    Reply,
    Route,
    Scripts,
    Step,
)
from sbcore.think import FEEDBACK_TOOL

Api = Literal["anthropic", "openai"]

_API_PATHS: dict[str, Api] = {
    "/v1/messages": "anthropic",
    "/v1/chat/completions": "openai",
    "/chat/completions": "openai",
}

_GARBAGE_BODY = b'{"id": "fake", "content": [{"type": "text", "text": "unterminated'
_GARBAGE_EVENT = b'{"type": "message_start", oops'

FAKE_API_KEY = "sk-fake-loopback-key"
"""A key value to hand clients that insist on one; the fake accepts any key, or none."""


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the fake saw it, and what it did about it.

    ``headers`` are kept verbatim (lower-cased names), credentials included:
    this is a test double, and tests assert on them. ``outcome`` is ``reply``,
    a fault kind (``rate_limit``, ``timeout`` …) or ``rejected`` (a 4xx the real
    API would have given). ``usage`` is the cache accounting of a reply.
    """

    seq: int
    api: Api | None
    path: str
    query: str
    headers: Mapping[str, str]
    raw: bytes
    body: Any
    route: Route | None
    detector: str | None
    scripted: bool
    outcome: str
    usage: CacheUsage | None = None
    reply: Reply | None = None
    note: str = ""

    @property
    def stream(self) -> bool:
        return isinstance(self.body, dict) and self.body.get("stream") is True


@dataclass
class _Config:
    latency_ms: int
    title: str
    clock: Callable[[], float]
    stopping: threading.Event = field(default_factory=threading.Event)


class FakeProvider:
    """The fake server. Use it as a context manager; every method is safe to call from any thread.

    :param latency_ms: fixed delay before every answer (a reply's own ``delay_ms`` adds to it).
    :param min_cacheable_tokens: the shortest prefix (estimated tokens) either API caches.
    :param cache_ttl_s: lifetime of a cache entry without ``"ttl": "1h"``; refreshed on every hit.
    :param clock: monotonic seconds, for cache expiry (inject one to test TTLs without waiting).
    :param title: what the Claude Code session-title side call is answered with.
    """

    def __init__(
        self,
        *,
        latency_ms: int = 0,
        min_cacheable_tokens: int = DEFAULT_MIN_CACHEABLE_TOKENS,
        cache_ttl_s: float = DEFAULT_TTL_S,
        clock: Callable[[], float] = time.monotonic,
        title: str = "Fake session",
    ) -> None:
        self._config = _Config(latency_ms, title, clock)
        self._scripts = Scripts()
        self.anthropic_cache = AnthropicCache(
            min_cacheable_tokens=min_cacheable_tokens, ttl_s=cache_ttl_s, clock=clock
        )
        self.openai_cache = OpenAICache(
            min_cacheable_tokens=min_cacheable_tokens, ttl_s=cache_ttl_s, clock=clock
        )
        self._records: list[RecordedRequest] = []
        self._records_lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> FakeProvider:
        if self._server is not None:
            return self
        self._config.stopping.clear()
        self._server = _Server(("127.0.0.1", 0), _Handler, self)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="sbcore-fake-provider",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; requests held by a timeout fault are released and dropped."""
        if self._server is None:
            return
        self._config.stopping.set()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> FakeProvider:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``, the server root."""
        if self._server is None:
            raise RuntimeError("the fake provider is not running; use it as a context manager")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def anthropic_base_url(self) -> str:
        """What ``ANTHROPIC_BASE_URL`` should be (clients append ``/v1/messages``)."""
        return self.base_url

    @property
    def openai_base_url(self) -> str:
        """What ``OPENAI_BASE_URL`` should be (clients append ``/chat/completions``)."""
        return f"{self.base_url}/v1"

    def env(self, api: Api = "anthropic") -> dict[str, str]:
        """Environment variables pointing a client (or the Claude Code CLI) at this fake."""
        if api == "anthropic":
            return {"ANTHROPIC_BASE_URL": self.anthropic_base_url, "ANTHROPIC_API_KEY": FAKE_API_KEY}
        return {"OPENAI_BASE_URL": self.openai_base_url, "OPENAI_API_KEY": FAKE_API_KEY}

    # -- scripting -------------------------------------------------------------------------------

    def script(self, detector_id: str, *steps: Step) -> None:
        """Queue replies/faults for the forks of ``detector_id`` (one per request, in order)."""
        self._scripts.add_detector(detector_id, steps)

    def script_primary(self, *steps: Step) -> None:
        """Queue replies/faults for a primary agent's main loop (and its tool-less calls but the title)."""
        self._scripts.add_agent("primary", steps)

    def script_subagent(self, *steps: Step) -> None:
        """Queue replies/faults for Claude Code subagent requests (``x-claude-code-agent-id`` header)."""
        self._scripts.add_agent("subagent", steps)

    def inject(self, *faults: Fault) -> None:
        """Stage faults for the next requests, whoever sends them, before any script."""
        self._scripts.add_faults(faults)

    def pending(self) -> dict[str, int]:
        """Scripted steps not consumed yet (empty when every script was used up)."""
        return self._scripts.pending()

    def reset_cache(self) -> None:
        self.anthropic_cache.clear()
        self.openai_cache.clear()

    # -- recording -------------------------------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._records_lock:
            return list(self._records)

    def requests_for(self, detector_id: str) -> list[RecordedRequest]:
        return [record for record in self.requests if record.detector == detector_id]

    def _record(self, **values: Any) -> RecordedRequest:
        with self._records_lock:
            record = RecordedRequest(seq=len(self._records) + 1, **values)
            self._records.append(record)
            return record


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 128  # a pass fans out many forks at once; the default backlog of 5 drops connects

    def __init__(
        self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler], fake: FakeProvider
    ) -> None:
        self.fake = fake
        super().__init__(address, handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients hanging up mid-request are normal here (timeouts, faults); anything else is printed."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: requests are recorded, not printed."""

    def do_GET(self) -> None:
        self._reply_json(404, wire.anthropic_error("not_found_error", f"no GET {self.path} here"))

    def do_POST(self) -> None:
        fake = self.server.fake
        path, _, query = self.path.partition("?")
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        api = _API_PATHS.get(path)
        headers = {name.lower(): value for name, value in self.headers.items()}
        seen = {"api": api, "path": path, "query": query, "headers": headers, "raw": raw}
        unrouted = {"route": None, "detector": None, "scripted": False, "outcome": "rejected"}
        if api is None:
            fake._record(**seen, **unrouted, body=None)
            self._reply_json(404, wire.anthropic_error("not_found_error", f"no endpoint {path}"))
            return
        problem: str | None
        try:
            body = json.loads(raw)
        except ValueError:
            body, problem = None, "body is not JSON"
        else:
            problem = (wire.check_anthropic if api == "anthropic" else wire.check_openai)(body)
        if problem is not None:
            fake._record(**seen, **unrouted, body=body, note=problem)
            self._reply_json(400, self._error(api, "invalid_request_error", problem))
            return
        self._serve(api, body, seen)

    def _serve(self, api: Api, body: dict[str, Any], seen: dict[str, Any]) -> None:
        """Answer a valid request from its script: a fault, or a reply with cache accounting."""
        fake = self.server.fake
        route, detector = wire.classify(body, seen["headers"])
        step, scripted = fake._scripts.next(route, detector)
        found = {**seen, "body": body, "route": route, "detector": detector, "scripted": scripted}
        if isinstance(step, Fault):
            record = fake._record(**found, outcome=step.kind.value)
            self._fault(api, step, body.get("stream") is True, record.seq)
            return
        reply = step if step is not None else self._default(route, body, api)
        reply, note = wire.honour_tool_choice(reply, wire.forced_tool(body, openai=api == "openai"))
        charge = (fake.anthropic_cache if api == "anthropic" else fake.openai_cache).charge(body)
        record = fake._record(**found, outcome="reply", usage=charge.usage, reply=reply, note=note)
        self._wait(fake._config.latency_ms + reply.delay_ms)
        self._answer(api, reply, body, record.seq, charge)

    # -- answers ---------------------------------------------------------------------------------

    def _default(self, route: Route, body: dict[str, Any], api: Api) -> Reply:
        if route == "title":
            return wire.title_reply(self.server.fake._config.title)
        names = wire.tool_names(body, openai=api == "openai")
        if route == "detector" and FEEDBACK_TOOL in names:
            return DEFAULT_DETECTOR_REPLY
        if route == "detector" and wire.CLI_FEEDBACK_TOOL in names:  # a claude CLI fork: answer, then end
            if wire.has_tool_result(body):
                return DEFAULT_AGENT_REPLY
            return Reply((Call(wire.CLI_FEEDBACK_TOOL, {"verdict": "silent"}),))
        return DEFAULT_AGENT_REPLY

    def _answer(self, api: Api, reply: Reply, body: dict[str, Any], seq: int, charge: Charge) -> None:
        model = str(body["model"])
        stream = body.get("stream") is True
        if api == "anthropic":
            message = wire.anthropic_message(reply, seq=seq, model=model, usage=charge.usage)
            sent = (
                self._stream(wire.anthropic_events(message))
                if stream
                else self._reply_json(200, wire.dumps(message))
            )
        else:
            completion = wire.openai_completion(
                reply, seq=seq, model=model, usage=charge.usage, created=int(time.time())
            )
            options = body.get("stream_options")
            include_usage = isinstance(options, dict) and options.get("include_usage") is True
            sent = (
                self._stream(wire.openai_chunks(completion, include_usage=include_usage))
                if stream
                else self._reply_json(200, wire.dumps(completion))
            )
        if sent:
            charge.commit()

    def _fault(self, api: Api, fault: Fault, stream: bool, seq: int) -> None:
        if fault.kind is FaultKind.RATE_LIMIT:
            extra = {} if fault.retry_after is None else {"retry-after": f"{fault.retry_after:g}"}
            self._reply_json(429, self._error(api, "rate_limit_error", "rate limited (fake)"), extra)
        elif fault.kind is FaultKind.SERVER_ERROR:
            kind = "overloaded_error" if fault.status == 529 else "api_error"
            self._reply_json(fault.status, self._error(api, kind, "internal error (fake)"))
        elif fault.kind is FaultKind.TIMEOUT:
            self._wait(int(fault.hang_s * 1000))
            self.close_connection = True
        elif fault.kind is FaultKind.GARBAGE:
            if stream:
                self._stream([wire.sse("message_start" if api == "anthropic" else None, _GARBAGE_EVENT)])
            else:
                self._reply_json(200, _GARBAGE_BODY)
        else:
            self._truncated(api, stream, seq)

    def _truncated(self, api: Api, stream: bool, seq: int) -> None:
        reply = DEFAULT_DETECTOR_REPLY
        usage = CacheUsage(input_tokens=1)
        if api == "anthropic":
            message = wire.anthropic_message(reply, seq=seq, model="fake", usage=usage)
            events, body = wire.anthropic_events(message), wire.dumps(message)
        else:
            completion = wire.openai_completion(reply, seq=seq, model="fake", usage=usage, created=0)
            events, body = wire.openai_chunks(completion, include_usage=True), wire.dumps(completion)
        self.close_connection = True
        if stream:
            cut = max(1, len(events) // 2)
            self._start_stream()
            for event in events[:cut]:
                self._chunk(event)
            self._chunk(events[cut][: len(events[cut]) // 2])
        else:
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
        self.wfile.flush()

    # -- HTTP plumbing ---------------------------------------------------------------------------

    @staticmethod
    def _error(api: Api, kind: str, message: str) -> bytes:
        return wire.anthropic_error(kind, message) if api == "anthropic" else wire.openai_error(kind, message)

    def _wait(self, millis: int) -> None:
        if millis > 0:
            self.server.fake._config.stopping.wait(millis / 1000)

    def _reply_json(self, status: int, body: bytes, headers: Mapping[str, str] | None = None) -> bool:
        try:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
        except OSError:
            self.close_connection = True
            return False
        return True

    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream; charset=utf-8")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")

    def _stream(self, events: Iterable[bytes]) -> bool:
        try:
            self._start_stream()
            for event in events:
                self._chunk(event)
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:
            self.close_connection = True
            return False
        return True
