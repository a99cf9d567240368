"""The projector: transcript records in, observations out (the observation contract).

What is forwarded (design, "The observation contract"):

* assistant ``text``: whole (redacted);
* user prompts: whole, minus everything the harness injected (system reminders,
  slash-command and local-command wrappers, IDE notes, hook output, ``isMeta`` records,
  compaction summaries, monitor ``<task-notification>`` prompts) and minus anything
  carrying ``ADVISORY_SENTINEL``, which frames every advisory the plugin itself
  delivers: the observer must never read its own advice back;
* ``tool_use``: projected per tool (``calls``);
* ``tool_result``: dropped, except a failure (capped head) and a subagent's final report
  (``Agent``/``Task``, capped); of a command's result (``Bash``) a small structured outcome is
  kept (``sbcore.observe.outcome``: failed or not, counts, one redacted error line), and a
  result marked successful whose outcome shows the work failing (a piped run, an echoed exit
  status) becomes an ``error`` observation carrying only that outcome;
* everything else is dropped: thinking blocks and their signatures, attachments (hook
  output among them), progress, system and bookkeeping records, sidechain records
  (unless ``include_sidechain``; a subagent's command calls and their outcomes are kept
  regardless, marked ``[sub]``), synthetic assistant messages written by the harness.

One API message may be split over several records (one per content block, ``usage``
repeated on each): blocks are projected as they come, usage is counted once per
``message.id``. A record seen twice (same ``uuid``) is projected once.

A worker projects one session for days, so the projector's memory of what it has
seen is bounded, each bound far beyond the distance it has to bridge: record uuids
and message ids are remembered for a recent window (a record rewritten, a message's
blocks, land close together), and a tool call's name is kept until its result
arrives (in the corpus, at most a few hundred records later, with a dozen calls
waiting at once), then for a while among the answered calls.

``Projector`` is stateful and incremental: ``feed`` the records of a transcript in
order, in as many slices as convenient; ``feed_bytes`` and ``feed_lines`` do the same
from raw JSONL and skip the records they will drop without parsing them (successful
tool results are most of a transcript's bytes); the rest is parsed by ``jsonline.parse_record``
(orjson where its reading is certainly the standard library's, the standard library elsewhere).
"""

from __future__ import annotations

import re
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbcore.observe.anchors import AnchorResolver
from sbcore.observe.calls import CallProjector
from sbcore.observe.config import ProjectionConfig
from sbcore.observe.elide import elide, redact
from sbcore.observe.jsonline import parse_record, stdlib_object
from sbcore.observe.locators import harvest
from sbcore.observe.log_reads import LogReads, views_own_output
from sbcore.observe.model import Observation, observed
from sbcore.observe.outcome import (
    FAILURE_MARKS,
    can_fail_quietly,
    error_line,
    may_show_failure,
    read_outcome,
    reports_itself,
    says_little,
    says_nothing,
)
from sbcore.observe.record_text import clean_prompt, error_text, report_text, result_text
from sbcore.observe.sentinel import ADVISORY_SENTINEL

REPORT_TOOLS = frozenset({"Agent", "Task"})
OUTCOME_TOOLS = frozenset({"Bash"})
READ_TOOLS = frozenset({"Read"})
"""Tools that show a file whole: one showing a log a command wrote is read as that command's result."""
"""Command tools whose results are read for an outcome (never kept as text)."""
_OUTCOME_TOOL_NAMES = tuple(f'"{name}"'.encode() for name in sorted(OUTCOME_TOOLS))
_FAILURE_MARK_BYTES = tuple(mark.encode() for mark in FAILURE_MARKS)
_INVALID_KEPT = 20  # line numbers of invalid lines remembered for the error report
RECORDS_REMEMBERED = 4096
"""Record uuids remembered to drop a record written twice (the most recent ones)."""
MESSAGES_REMEMBERED = 1024
"""Message ids remembered to count a split message's usage once (its records are adjacent, give or take
the results of its parallel tool calls)."""
CALLS_WAITING_KEPT = 1024
"""Tool calls waiting for their result, kept by id; beyond this (calls that never got a result: an
interrupted session) the oldest is forgotten, and a result that still turns up is named ``tool``."""
CALLS_ANSWERED_KEPT = 1024
"""Answered tool calls kept by id, so a call or result written twice is still recognised."""
_USAGE_KEYS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")

# Fast path for ``feed_bytes``/``feed_lines``: structural JSON fragments (a quote inside a JSON string is
# escaped, so these byte sequences only ever occur as real keys and values).
_PARSE_FIRST = (b'ext","text"', b'ext"}', b'ool_use"')
# ``"type":"t…"`` introduces every block type that matters here: tool_result (droppable
# when it succeeded), text and tool_use (never dropped unparsed). A text *block* has a
# ``text`` key beside its type; a Read result's ``{"type":"text","file":…}`` does not.
_TYPE_T = b'"type":"t'
# The message's id opens it, or follows its model (CLI 2.x writes ``"message":{"model":…,"id":…``).
_MESSAGE_ID = re.compile(rb'"message":\{(?:"model":"([^"\\]*)",)?"id":"([^"\\]+)"')
_SESSION_ID = re.compile(rb'"sessionId":"([^"\\]*)"')
_SIDECHAIN_PREFIX = re.compile(rb'\{"parentUuid":(?:null|"[^"]*"),"isSidechain":true,')
_FIRST_TYPE = re.compile(rb'"type":"([^"]*)"')
_BOOKKEEPING_TYPES = frozenset(
    {
        b"progress",
        b"file-history-snapshot",
        b"queue-operation",
        b"summary",
        b"last-prompt",
        b"api-request",
        b"api-request-blob",
        b"api-request-shape",
        b"tools-used",
        b"cost-state",
        b"atis-latch",
        b"permission-mode",
        b"pr-link",
        b"system",
    }
)


@dataclass(slots=True)
class ProjectorStats:
    """What the projector saw: records considered, skipped unparsed, observations made.

    ``lines`` counts every line fed (blank ones too), so ``invalid_line_numbers`` (the
    first few lines that were not a JSON object, 1-based) point into the file.
    """

    lines: int = 0
    records: int = 0
    skipped_unparsed: int = 0
    invalid_lines: int = 0
    invalid_line_numbers: list[int] = field(default_factory=list)
    duplicates: int = 0
    observations: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class _Call:
    name: str
    subagent_type: str = ""
    command: str | None = None
    failed_quietly: bool = False  # its result said only that it failed: a log it wrote, read later, says how


class RecentIds:
    """A set that remembers only the ``limit`` most recently added ids (the oldest is forgotten first)."""

    __slots__ = ("_ids", "_order", "limit")

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a RecentIds needs room for at least one id (got {limit})")
        self.limit = limit
        self._ids: set[str] = set()
        self._order: deque[str] = deque()

    def __contains__(self, key: object) -> bool:
        return key in self._ids

    def __len__(self) -> int:
        return len(self._ids)

    def add(self, key: str) -> bool:
        """Remember ``key``; whether it was new (one call where a test and an add were two, per record)."""
        ids = self._ids
        if key in ids:
            return False
        ids.add(key)
        order = self._order
        order.append(key)
        if len(order) > self.limit:
            ids.discard(order.popleft())
        return True


_LINE_NUMBERS = re.compile(r"^(?:\d+[:-]|[ \t]*\d+(?:→|\t))", re.M)


class Projector:
    """Stateful, incremental projection of one session's transcript."""

    def __init__(
        self, config: ProjectionConfig | None = None, *, anchors: AnchorResolver | None = None
    ) -> None:
        """``anchors`` places an edit in its file (default: reading the file on disk)."""
        self.config = config or ProjectionConfig()
        self.stats = ProjectorStats()
        self._calls_projector = CallProjector(self.config)
        if anchors is not None:
            self._calls_projector.anchors = anchors
        self._calls: OrderedDict[str, _Call] = OrderedDict()  # waiting for their result, oldest first
        self._answered: OrderedDict[str, _Call] = OrderedDict()  # result seen, least recent first
        self._pending_reports: dict[bytes, None] = {}
        self._pending_outcomes: dict[bytes, bool] = {}  # command calls waiting: id -> reports itself
        self._logs = LogReads()
        self._log_of: OrderedDict[str, str] = OrderedDict()  # a viewer call -> the call whose log it shows
        self._seen_uuids = RecentIds(RECORDS_REMEMBERED)
        self._seen_messages = RecentIds(MESSAGES_REMEMBERED)
        self._usage: dict[str, dict[str, int]] = {}

    # -- public API ----------------------------------------------------------------------

    @property
    def usage(self) -> dict[str, dict[str, int]]:
        """Primary (non-sidechain) token usage per ``sessionId``, counted once per message id."""
        return {session: dict(totals) for session, totals in self._usage.items()}

    def total_usage(self) -> dict[str, int]:
        """``usage`` summed over sessions."""
        out = dict.fromkeys(_USAGE_KEYS, 0)
        for totals in self._usage.values():
            for key in _USAGE_KEYS:
                out[key] += totals.get(key, 0)
        return out

    def feed(self, records: Iterable[dict[str, Any]]) -> list[Observation]:
        """Project parsed transcript records, in file order."""
        out: list[Observation] = []
        for record in records:
            self.stats.records += 1
            if not self._guarded(record, out):
                self.stats.invalid_lines += 1
        return self._counted(out)

    def feed_lines(self, lines: Iterable[bytes]) -> list[Observation]:
        """Project raw JSONL lines; records that would be dropped are not even parsed."""
        out: list[Observation] = []
        for line in lines:
            self._line(line, 0, len(line), out)
        return self._counted(out)

    def feed_bytes(self, data: bytes) -> list[Observation]:
        """Project a buffer of JSONL (the last line may lack its newline).

        Dropped lines are judged in place: only the lines that get parsed are copied out (``bytes.split``
        would copy them all, and looks for line breaks a byte at a time where ``find`` uses ``memchr``).
        """
        out: list[Observation] = []
        find = data.find
        judge = self._line
        start, size = 0, len(data)
        while start < size:
            end = find(b"\n", start)
            if end < 0:
                end = size
            judge(data, start, end, out)
            start = end + 1
        return self._counted(out)

    def _counted(self, out: list[Observation]) -> list[Observation]:
        for obs in out:
            self.stats.observations[obs.kind] = self.stats.observations.get(obs.kind, 0) + 1
        return out

    def _line(self, data: bytes, start: int, end: int, out: list[Observation]) -> None:
        """One line: skipped unparsed, or parsed and projected at once (so it dies young)."""
        stats = self.stats
        stats.lines += 1
        if start == end:
            return
        if self._droppable(data, start, end):
            stats.skipped_unparsed += 1
            return
        line = data[start:end]
        record = parse_record(line)
        if record is None:
            self._invalid(line)
            return
        stats.records += 1
        if not self._guarded(record, out):
            self._invalid(line)

    def _guarded(self, record: dict[str, Any], out: list[Observation]) -> bool:
        """Project one record; a record nested too deeply to walk (``RecursionError``) is dropped whole,
        with nothing it had emitted, and False returned so the caller counts it as a bad line."""
        kept = len(out)
        try:
            self._record(record, out)
        except RecursionError:
            del out[kept:]
            return False
        return True

    def _invalid(self, line: bytes) -> None:
        if not line.decode("utf-8", errors="replace").strip():
            return  # a blank line (any Unicode whitespace)
        self.stats.invalid_lines += 1
        if len(self.stats.invalid_line_numbers) < _INVALID_KEPT:
            self.stats.invalid_line_numbers.append(self.stats.lines)

    # -- fast path -----------------------------------------------------------------------

    def _droppable(self, data: bytes, start: int, end: int) -> bool:
        """True only when ``data[start:end]`` is certainly a record the contract drops."""
        find = data.find
        # a sidechain record, when only a subagent's commands are kept (one test for both places it matters)
        sidechain = not self.config.include_sidechain and bool(_SIDECHAIN_PREFIX.match(data, start, end))
        if sidechain and self._no_subagent_command(data, start, end):
            return True
        at = find(_TYPE_T, start, end)
        if at >= 0 and data.startswith(_PARSE_FIRST, at + 9):
            return False  # the first block is text or a tool call (most records that matter)
        # The message precedes ``toolUseResult`` (a second copy of a tool's output): only the
        # message is scanned when that order holds.
        scan = find(b',"toolUseResult":', start, end) if at >= 0 else -1
        if scan < 0 or find(b'"message":', start, scan) < 0:
            scan = end
        result = thinking = False
        while 0 <= at < scan:
            value = data[at + 9 : at + 21]
            if value.startswith(b'ool_result"'):
                result = True
            elif value.startswith(b'hinking"'):
                thinking = True
            elif value.startswith(_PARSE_FIRST):
                return False  # a text block or a tool call: parse it
            at = find(_TYPE_T, at + 9, scan)
        if result:
            at = find(b'"is_error"', start, scan)
            while at >= 0:
                if data[at + 10 : at + 16].lstrip(b" :").startswith(b"t"):
                    return False  # a failure: parse it
                at = find(b'"is_error"', at + 10, scan)
            reports = self._pending_reports
            if reports and any(find(call_id, start, scan) >= 0 for call_id in reports):
                return False
            return not self._pending_outcomes or self._quiet_outcomes(data, start, scan)
        if thinking:
            return self._thinking_only(data, start, end)
        if sidechain:
            return True
        first = _FIRST_TYPE.search(data, start, end)
        return first is not None and first.group(1) in _BOOKKEEPING_TYPES

    @staticmethod
    def _no_subagent_command(data: bytes, start: int, end: int) -> bool:
        """Whether a sidechain record certainly holds no command call and no tool result.

        Out of ``include_sidechain`` only those are kept (:meth:`_subagent_command`); a command tool's
        name and a result's type are JSON strings, spelt literally unless ``\\u``-escaped.
        """
        find = data.find
        if find(b'"tool_result"', start, end) >= 0 or find(b"\\u", start, end) >= 0:
            return False
        return all(find(name, start, end) < 0 for name in _OUTCOME_TOOL_NAMES)

    def _quiet_outcomes(self, data: bytes, start: int, scan: int) -> bool:
        """Whether the command results in ``data[start:scan]`` (a successful result record) can go unread.

        A command's result is read for its outcome only when it could show a failure: the command reports
        its own (:func:`~.outcome.reports_itself`), or the record holds a failure mark
        (:data:`FAILURE_MARKS`). Most results hold none, and are dropped here without being parsed, as every
        successful result used to be.
        """
        found = [call_id for call_id in self._pending_outcomes if data.find(call_id, start, scan) >= 0]
        if any(self._pending_outcomes[call_id] for call_id in found):
            return False
        if found and any(data.find(mark, start, scan) >= 0 for mark in _FAILURE_MARK_BYTES):
            return False
        for call_id in found:
            del self._pending_outcomes[call_id]
        return True

    def _thinking_only(self, data: bytes, start: int, end: int) -> bool:
        """An assistant record holding only thinking: count its usage without parsing it all."""
        message_id = _MESSAGE_ID.search(data, start, end)
        if message_id is None or message_id.group(1) == b"<synthetic>":
            return False  # a harness-written message counts no usage: the parsed path knows it
        if data.find(b'"type":"assistant"', start, end) < 0:
            return False
        key = message_id.group(2).decode("utf-8", errors="replace")
        if data.find(b'"isSidechain":true', start, end) >= 0 or key in self._seen_messages:
            return True  # no primary usage to count (a sidechain, or already counted)
        at = data.find(b'"usage":{', start, end)
        if at < 0:
            return False
        try:
            usage = stdlib_object(data, at + 8, end)
        except (ValueError, RecursionError):  # too deep (RecursionError): the parsed path counts it bad
            return False
        session = _SESSION_ID.search(data, start, end)
        self._seen_messages.add(key)
        self._count_usage({"sessionId": session.group(1).decode() if session else None}, usage)
        return True

    # -- records -------------------------------------------------------------------------

    def _record(self, record: dict[str, Any], out: list[Observation]) -> None:
        kind = record.get("type")
        if kind not in ("user", "assistant"):
            return
        sidechain = bool(record.get("isSidechain"))
        commands_only = sidechain and not self.config.include_sidechain
        if commands_only and not self._subagent_command(record):
            return
        uuid = record.get("uuid")
        if isinstance(uuid, str) and not self._seen_uuids.add(uuid):
            self.stats.duplicates += 1
            return
        message = record.get("message")
        if not isinstance(message, dict):
            return
        start = len(out)
        if commands_only:
            self._subagent_commands(record, message, out)
        elif kind == "assistant":
            self._assistant(record, message, sidechain, out)
        else:
            self._user(record, message, out)
        if sidechain:
            for index in range(start, len(out)):
                obs = out[index]
                out[index] = observed(
                    obs.kind,
                    "[sub] " + obs.text,
                    obs.timestamp,
                    obs.uuid,
                    obs.tool,
                    obs.tool_use_id,
                    obs.args,
                    obs.locators,
                    obs.outcome,
                )

    def _subagent_command(self, record: dict[str, Any]) -> bool:
        """Whether a sidechain record holds a command call or a command's result.

        Without ``include_sidechain`` a subagent's narration and reads stay out, but its commands
        and their outcomes are observed (as ``[sub]``): a subagent stuck re-running a failing test
        is the agent's loop too."""
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            return False
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and block.get("name") in OUTCOME_TOOLS:
                return True
            if block.get("type") == "tool_result":
                call = self._calls.get(str(block.get("tool_use_id")))
                if call is not None and call.name in OUTCOME_TOOLS:
                    return True
        return False

    def _subagent_commands(
        self, record: dict[str, Any], message: dict[str, Any], out: list[Observation]
    ) -> None:
        for block in message.get("content") or ():
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and block.get("name") in OUTCOME_TOOLS:
                self._tool_use(record, block, out)
            elif block.get("type") == "tool_result":
                call = self._calls.get(str(block.get("tool_use_id")))
                if call is not None and call.name in OUTCOME_TOOLS:
                    self._tool_result(record, block, out)

    def _assistant(
        self, record: dict[str, Any], message: dict[str, Any], sidechain: bool, out: list[Observation]
    ) -> None:
        if message.get("model") == "<synthetic>":
            return  # written by the harness (API errors, interruptions), not the model
        message_id = message.get("id")
        if not sidechain and isinstance(message_id, str) and self._seen_messages.add(message_id):
            self._count_usage(record, message.get("usage"))
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            return
        for block in content:
            if not isinstance(block, dict):
                continue
            block_type = block.get("type")
            if block_type == "text":
                text = block.get("text")
                if isinstance(text, str) and text.strip():
                    out.append(_obs(record, "text", "[text] " + redact(text.strip())))
            elif block_type == "tool_use":
                self._tool_use(record, block, out)

    def _tool_use(self, record: dict[str, Any], block: dict[str, Any], out: list[Observation]) -> None:
        call_id = block.get("id")
        name = block.get("name")
        name = name if isinstance(name, str) and name else "tool"
        if isinstance(call_id, str):
            if call_id in self._calls or call_id in self._answered:
                return  # the same block written twice
            tool_input = block.get("input")
            subagent = tool_input.get("subagent_type") if isinstance(tool_input, dict) else None
            command = tool_input.get("command") if isinstance(tool_input, dict) else None
            self._calls[call_id] = _Call(
                name,
                subagent if isinstance(subagent, str) else "",
                command if isinstance(command, str) and name in OUTCOME_TOOLS else None,
            )
            writer = None
            if name in REPORT_TOOLS:  # results to parse, not drop unread
                self._pending_reports[call_id.encode()] = None
            elif name in OUTCOME_TOOLS:  # results to read for an outcome when they may show one
                text = command if isinstance(command, str) else None
                if can_fail_quietly(text):
                    self._pending_outcomes[call_id.encode()] = reports_itself(text)
                writer = self._logs.read(call_id, text) if text is not None else None
            elif name in READ_TOOLS:
                writer = self._logs.read_whole(_read_paths(tool_input, record.get("cwd")))
            if writer is not None:
                self._pending_outcomes[call_id.encode()] = True  # parsed and read: it shows a run's log
                self._log_of[call_id] = writer
                if len(self._log_of) > CALLS_WAITING_KEPT:
                    self._log_of.popitem(last=False)
            if len(self._calls) > CALLS_WAITING_KEPT:
                forgotten, _ = self._calls.popitem(last=False)
                self._pending_reports.pop(forgotten.encode(), None)
                self._pending_outcomes.pop(forgotten.encode(), None)
        cwd = record.get("cwd")
        projected = self._calls_projector.project(
            name, block.get("input"), cwd if isinstance(cwd, str) else None
        )
        out.append(
            _obs(
                record,
                "tool",
                projected.text,
                tool=name,
                tool_use_id=call_id if isinstance(call_id, str) else None,
                args=projected.args,
                locators=projected.locators,
            )
        )

    def _user(self, record: dict[str, Any], message: dict[str, Any], out: list[Observation]) -> None:
        if record.get("isMeta") or record.get("isCompactSummary") or record.get("isVisibleInTranscriptOnly"):
            return
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            return
        prompt: list[str] = []
        images = 0
        for block in content:
            if not isinstance(block, dict):
                continue
            block_type = block.get("type")
            if block_type == "text":
                cleaned = clean_prompt(block.get("text"))
                if cleaned:
                    prompt.append(cleaned)
            elif block_type == "image":
                images += 1
            elif block_type == "tool_result":
                self._tool_result(record, block, out)
        if prompt:
            text = "\n".join(prompt)
            if images:
                text += f" [+{images} image{'s' if images > 1 else ''}]"
            out.append(_obs(record, "prompt", "[prompt] " + redact(text)))

    def _tool_result(self, record: dict[str, Any], block: dict[str, Any], out: list[Observation]) -> None:
        call_id = block.get("tool_use_id")
        call_id = call_id if isinstance(call_id, str) else None
        call = _Call("tool")
        if call_id is not None:
            self._pending_reports.pop(call_id.encode(), None)
            self._pending_outcomes.pop(call_id.encode(), None)
            known = self._calls.pop(call_id, None) or self._answered.pop(call_id, None)
            if known is not None:
                call = self._answered[call_id] = known
                if len(self._answered) > CALLS_ANSWERED_KEPT:
                    self._answered.popitem(last=False)
        if block.get("is_error"):
            text = error_text(block.get("content"))
            if not text or ADVISORY_SENTINEL in text:
                return
            done = elide(text, self.config.error_head, self.config.harvest_max)
            outcome = read_outcome(text, call.command, is_error=True) if call.name in OUTCOME_TOOLS else None
            if outcome is not None and call_id is not None:
                self._logs.named(call_id, text)  # `… failed (see logs/run.log)`: its log, read later
                self._logs.failed(call_id, says_nothing=says_nothing(outcome.get("line", "")))
                call.failed_quietly = says_little(outcome.get("line", ""))
            out.append(
                _obs(
                    record,
                    "error",
                    f"[error] {call.name}: {done.text}",
                    tool=call.name,
                    tool_use_id=call_id,
                    locators=_locators_of(done.kept_text, done.harvested),
                    outcome=outcome,
                )
            )
            return
        if call.name in OUTCOME_TOOLS or (call_id is not None and call_id in self._log_of):
            self._hidden_failure(record, block, call, call_id, out)
            return
        if call.name not in REPORT_TOOLS:
            return
        report = report_text(record, block)
        if not report or ADVISORY_SENTINEL in report:
            return
        done = elide(report, self.config.report_cap, self.config.harvest_max)
        label = f"{call.name} {call.subagent_type}" if call.subagent_type else call.name
        out.append(
            _obs(
                record,
                "report",
                f"[report] {label}: {done.text}",
                tool=call.name,
                tool_use_id=call_id,
                locators=_locators_of(done.kept_text, done.harvested),
            )
        )

    def _hidden_failure(
        self,
        record: dict[str, Any],
        block: dict[str, Any],
        call: _Call,
        call_id: str | None,
        out: list[Observation],
    ) -> None:
        """A command result marked successful that shows the work failing: only its outcome is kept. The
        output of a call that shows an earlier call's log is read as that call's (:mod:`.log_reads`)."""
        text = result_text(block.get("content"))
        writer = self._log_of.pop(call_id, None) if call_id is not None else None
        if writer is not None:
            self._failure_in_log(record, text, writer, out)
            return
        if not text or ADVISORY_SENTINEL in text or not may_show_failure(text, call.command):
            return
        outcome = read_outcome(text, call.command, is_error=False)
        if (outcome is None or not outcome["failed"]) and call.command and views_own_output(call.command):
            # the run showed the log it had just written (`… > run.log; grep -n Error run.log`): a log read
            outcome = read_outcome(_LINE_NUMBERS.sub("", text), None, is_error=False)
        if outcome is None or not outcome["failed"]:
            return
        if call_id is not None:
            self._logs.named(call_id, text)  # a run behind a pipe names its log as one that exited does
            self._logs.failed(call_id, says_nothing=says_nothing(outcome.get("line", "")))
        call.failed_quietly = says_little(outcome.get("line", ""))
        status = f"exit {outcome['exit_code']}" if "exit_code" in outcome else "runner reports failure"
        out.append(
            _obs(
                record,
                "error",
                f"[error] {call.name} ({status}; result marked successful): {outcome.get('line', '')}",
                tool=call.name,
                tool_use_id=call_id,
                outcome=outcome,
            )
        )

    def _failure_in_log(self, record: dict[str, Any], text: str, writer: str, out: list[Observation]) -> None:
        if not text or ADVISORY_SENTINEL in text:
            return
        # `grep -n -B2 -A10 … run.log` prints each line behind its number (`61:`, `60-`), `cat -n` and Read
        # behind a padded one and a tab or an arrow: the log's own lines are read without them
        lines = _LINE_NUMBERS.sub("", text)
        outcome = read_outcome(lines, None, is_error=False)
        known = self._answered.get(writer) or self._calls.get(writer)
        if (outcome is None or not outcome["failed"]) and known is not None and known.failed_quietly:
            # the run's own result said it failed and no more (`nuxi exit: 1`): its log says how, in whatever
            # words its tool logs a failure (consola's ` ERROR  [vite]: …`), its most telling line
            line = error_line(lines)
            outcome = {"failed": True, "line": line} if line else None
        if outcome is None or not outcome["failed"]:
            return
        name = known.name if known is not None else "Bash"
        line = f"[error] {name} (in its log, read back by a later call): {outcome.get('line', '')}"
        out.append(_obs(record, "error", line, tool=name, tool_use_id=writer, outcome=outcome))

    def _count_usage(self, record: dict[str, Any], usage: Any) -> None:
        if not isinstance(usage, dict):
            return
        session = record.get("sessionId")
        name = session if isinstance(session, str) else ""
        totals = self._usage.get(name)
        if totals is None:
            totals = self._usage[name] = dict.fromkeys(_USAGE_KEYS, 0)
        for key in _USAGE_KEYS:
            value = usage.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                totals[key] += value


def _read_paths(tool_input: Any, cwd: Any) -> tuple[str, ...]:
    """The file a Read call shows, as given and relative to where the session runs (a command that wrote it
    may have named it either way)."""
    path = tool_input.get("file_path") if isinstance(tool_input, dict) else None
    if not isinstance(path, str) or not path:
        return ()
    if isinstance(cwd, str) and cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path, path[len(cwd.rstrip("/")) + 1 :]
    return (path,)


def _locators_of(text: str, harvested: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys([*harvest(text), *harvested]))


def _obs(
    record: dict[str, Any],
    kind: Any,
    text: str,
    tool: str | None = None,
    tool_use_id: str | None = None,
    args: dict[str, Any] | None = None,
    locators: tuple[str, ...] = (),
    outcome: dict[str, Any] | None = None,
) -> Observation:
    """An observation of ``record`` (its timestamp and uuid copied), built by :func:`~.model.observed`: one
    is built for nearly every record kept."""
    timestamp = record.get("timestamp")
    uuid = record.get("uuid")
    return observed(
        kind,
        text,
        timestamp if isinstance(timestamp, str) else None,
        uuid if isinstance(uuid, str) else None,
        tool,
        tool_use_id,
        {} if args is None else args,
        locators,
        outcome,
    )


def iter_lines(path: str | Path) -> list[bytes]:
    """The lines of a transcript file (the final line may lack its newline)."""
    return Path(path).read_bytes().split(b"\n")


def project_file(path: str | Path, config: ProjectionConfig | None = None) -> list[Observation]:
    """Project a whole transcript file in one go."""
    return Projector(config).feed_bytes(Path(path).read_bytes())
