"""The observer's own conversation ("window B"): append-only between compactions.

A provider caches a request by its byte prefix, tools → system → messages. Every pass re-reads the whole
window, so the window is only affordable if each pass's prefix extends the previous one byte for byte and the
forks of one pass share it exactly. The rules that make that true live here, as structure rather than advice:

- the system blocks (shared observer prompt, workspace block) are fixed when the window is built;
- the ledger is the first message and is rendered only when the window is built and at a compaction;
- everything else is appended: one message per pass for its episode (observations, then notes), one for
  the pass's merged feedback lines. Nothing appended is ever re-rendered, reordered or removed, except by
  :meth:`Window.compact`, the one sanctioned rebuild;
- a snapshot (:meth:`Window.snapshot`) is an immutable tuple shared by reference by every fork of a pass.

Few, large blocks per pass (at most three) also matter: a provider finds an earlier cache entry by looking a
bounded number of blocks back from a breakpoint (20 on Anthropic), so a pass must not append dozens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from sbcore.observe.model import Observation
from sbcore.think.prompts import render_prompt
from sbcore.think.providers.base import Message, TextBlock, ToolSpec

LEDGER_MAX_CHARS = 6000
"""The ledger block's rendered size cap (design: "ONE block, <=6000 chars")."""
LEDGER_MAX_FACTS = 60
"""Compaction summaries kept in the ledger; the oldest go first."""

BlockKind = Literal["episode", "feedback"]


def clock_label(timestamp: str | None) -> str:
    """``HH:MM`` (UTC, as transcripts record time) of an ISO-8601 timestamp; ``--:--`` when unknown."""
    if not timestamp:
        return "--:--"
    try:
        moment = datetime.fromisoformat(timestamp)
    except ValueError:
        return "--:--"
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%H:%M")


@dataclass(frozen=True)
class WindowBlock:
    """One appended message and what it was made from.

    ``observations`` are kept for an episode block so an offline compaction can digest them without parsing
    text back; ``lines`` are its notes, or a feedback block's merged lines.
    """

    kind: BlockKind
    pass_number: int
    message: Message
    chars: int
    observations: tuple[Observation, ...] = ()
    lines: tuple[str, ...] = ()
    when: str = "--:--"


@dataclass(frozen=True)
class Snapshot:
    """What every fork of one pass shares, up to and including the cache breakpoint.

    ``breakpoint`` is the index of the last shared message: the fork's private tail starts right after it.
    """

    system: tuple[str, ...]
    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...]

    @property
    def breakpoint(self) -> int:
        return len(self.messages) - 1

    def render(self) -> str:
        """The shared prefix as text, in wire order (tools, system, messages): the debug capture's digest.

        Deterministic and identical for every fork of the pass, since it is built from this one object.
        """
        parts = [f"=== tools ({len(self.tools)}) ==="]
        for tool in sorted(self.tools, key=lambda tool: tool.name):
            parts.append(f"- {tool.name}: {tool.description}")
        for index, text in enumerate(self.system):
            parts.append(f"=== system {index} ===\n{text}")
        for index, message in enumerate(self.messages):
            marker = "  [cache breakpoint]" if index == self.breakpoint else ""
            body = "\n".join(block.text for block in message.content if isinstance(block, TextBlock))
            parts.append(f"=== message {index} ({message.role}){marker} ===\n{body}")
        return "\n".join(parts) + "\n"


class Window:
    """One task's window: fixed system blocks, a ledger, then appended pass blocks.

    :param system: the system blocks (shared observer prompt, workspace block), fixed for the window's life.
    :param budget_chars: ``window.budget_chars``; the fill fractions below are of this.
    :param compaction_threshold: fill at which :meth:`needs_compaction` turns true.
    :param compaction_floor: fill a compaction brings the window down to (hysteresis: below the threshold).
    """

    def __init__(
        self,
        system: Sequence[str],
        *,
        budget_chars: int = 400_000,
        compaction_threshold: float = 0.85,
        compaction_floor: float = 0.60,
    ) -> None:
        if not 0 < compaction_floor < compaction_threshold <= 1:
            raise ValueError(
                "window fractions must satisfy 0 < compaction_floor < compaction_threshold <= 1 "
                f"(got floor {compaction_floor}, threshold {compaction_threshold})"
            )
        if budget_chars <= 0:
            raise ValueError(f"window.budget_chars must be positive (got {budget_chars})")
        self.system: tuple[str, ...] = tuple(system)
        self.budget_chars = budget_chars
        self.compaction_threshold = compaction_threshold
        self.compaction_floor = compaction_floor
        self.goal: str | None = None
        self.facts: list[str] = []
        self.compactions = 0
        self._blocks: list[WindowBlock] = []
        self._ledger = self._render_ledger()
        self._messages: tuple[Message, ...] = (self._ledger,)
        self._chars = _message_chars(self._ledger)

    # -- reading ------------------------------------------------------------------------------------

    @property
    def messages(self) -> tuple[Message, ...]:
        """The ledger followed by every appended block's message (an immutable tuple)."""
        return self._messages

    @property
    def blocks(self) -> tuple[WindowBlock, ...]:
        return tuple(self._blocks)

    @property
    def chars(self) -> int:
        """Characters of message text in the window (ledger included, system blocks not)."""
        return self._chars

    @property
    def fill(self) -> float:
        return self._chars / self.budget_chars

    def needs_compaction(self) -> bool:
        return self._chars > self.compaction_threshold * self.budget_chars

    def snapshot(self, tools: Sequence[ToolSpec]) -> Snapshot:
        """The shared prefix for a pass; ``tools`` is the pass's wire list (the union of its grants)."""
        return Snapshot(self.system, self._messages, tuple(tools))

    # -- appending ----------------------------------------------------------------------------------

    def append_episode(
        self,
        pass_number: int,
        observations: Sequence[Observation],
        *,
        notes: Sequence[str] = (),
        reason: str | None = None,
        when: str | None = None,
    ) -> WindowBlock:
        """Append one pass's episode: a header, the observations' text, then its note lines.

        ``when`` is the episode's timestamp (ISO-8601); by default its last observation's.
        """
        stamp = when or next((o.timestamp for o in reversed(observations) if o.timestamp), None)
        label = clock_label(stamp)
        count = len(observations)
        header = f"[pass {pass_number} {label}{f' · {reason}' if reason else ''}] {count} observation"
        header += "" if count == 1 else "s"
        body = "\n".join([header, *(o.text for o in observations)])
        blocks = [TextBlock(body)]
        note_lines = tuple(f"[note] {note}" for note in notes)
        if note_lines:
            blocks.append(TextBlock("\n".join(note_lines)))
        block = WindowBlock(
            kind="episode",
            pass_number=pass_number,
            message=Message("user", tuple(blocks)),
            chars=sum(len(b.text) for b in blocks),
            observations=tuple(observations),
            lines=note_lines,
            when=label,
        )
        self._append(block)
        return block

    def append_feedback(self, pass_number: int, lines: Sequence[str]) -> WindowBlock | None:
        """Append one pass's merged feedback lines (already in detector-name order); nothing when empty."""
        if not lines:
            return None
        text = "\n".join(lines)
        block = WindowBlock(
            kind="feedback",
            pass_number=pass_number,
            message=Message.user(text),
            chars=len(text),
            lines=tuple(lines),
        )
        self._append(block)
        return block

    def _append(self, block: WindowBlock) -> None:
        self._blocks.append(block)
        self._messages = (*self._messages, block.message)
        self._chars += block.chars

    def restore(self, goal: str | None, facts: Sequence[str], compactions: int = 0) -> None:
        """Start from a task's durable ledger (a restart, resume, standby takeover or fork).

        Only on a window nothing was appended to yet: the ledger is the first message, and rendering it
        again later would break the append-only prefix outside a compaction.
        """
        if self._blocks:
            raise ValueError("a window can be restored from a ledger only before anything is appended")
        self.goal = goal
        self.facts = [" ".join(fact.split()) for fact in facts][-LEDGER_MAX_FACTS:]
        self.compactions = compactions
        self._ledger = self._render_ledger()
        self._messages = (self._ledger,)
        self._chars = _message_chars(self._ledger)

    # -- compaction ---------------------------------------------------------------------------------

    def plan_eviction(self) -> list[WindowBlock]:
        """The oldest blocks a compaction removes: whole passes, oldest first, until the window would fit
        under the floor. The newest pass is never evicted (it is what the coming forks are about)."""
        if not self._blocks:
            return []
        newest = self._blocks[-1].pass_number
        target = self.compaction_floor * self.budget_chars
        remaining = self._chars
        evicted: list[WindowBlock] = []
        index = 0
        while index < len(self._blocks) and remaining > target:
            number = self._blocks[index].pass_number
            if number == newest:
                break
            while index < len(self._blocks) and self._blocks[index].pass_number == number:
                evicted.append(self._blocks[index])
                remaining -= self._blocks[index].chars
                index += 1
        return evicted

    def compact(self, evicted: Sequence[WindowBlock], summary: str) -> None:
        """Drop ``evicted`` (a prefix of the blocks, from :meth:`plan_eviction`) and fold ``summary`` into the
        ledger. The one rebuild of the prefix: every cached entry of this window is invalid afterwards."""
        count = len(evicted)
        if count == 0:
            return
        if tuple(self._blocks[:count]) != tuple(evicted):
            raise ValueError("only the oldest blocks of the window can be compacted, in order")
        if self.goal is None:
            self.goal = _first_prompt(evicted)
        self.facts.append(" ".join(summary.split()))
        del self.facts[:-LEDGER_MAX_FACTS]
        del self._blocks[:count]
        self._ledger = self._render_ledger()
        self._messages = (self._ledger, *(block.message for block in self._blocks))
        self._chars = _message_chars(self._ledger) + sum(block.chars for block in self._blocks)
        self.compactions += 1

    def _render_ledger(self) -> Message:
        """The ledger within its cap: the oldest facts give way first, and a lone fact is cut."""
        facts = list(self.facts)
        while True:
            text = render_prompt("ledger", goal=self.goal, facts=facts)
            if len(text) <= LEDGER_MAX_CHARS:
                return Message.user(text)
            if len(facts) > 1:
                facts.pop(0)
                continue
            return Message.user(text[: LEDGER_MAX_CHARS - 1] + "…")


def _message_chars(message: Message) -> int:
    return sum(len(block.text) for block in message.content if isinstance(block, TextBlock))


def _first_prompt(blocks: Sequence[WindowBlock]) -> str | None:
    for block in blocks:
        for observation in block.observations:
            if observation.kind == "prompt":
                text = " ".join(observation.text.removeprefix("[prompt]").split())
                return text if len(text) <= 300 else text[:299] + "…"
    return None
