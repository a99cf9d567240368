"""The channels advice leaves by, each an object that declares what it can carry.

Advice reaches the session only through Claude Code's own surfaces, and they differ in who sees what
(../shared/claude-code-facts.md): a synchronous hook's ``additionalContext`` reaches the model and its
``systemMessage`` the user alone; a monitor's stdout line becomes a model turn the user sees in the TUI,
cut at 500 characters; a Stop hook's block continues the turn. Whatever the channel, nothing may reach the
agent without reaching the user in the same words, and text for the user alone (a human-only advisory)
may ride only a channel that can show the user something the model does not see.

So each channel declares its :class:`Capabilities`, claims from the mailbox only what those allow
(:meth:`Channel.claim`: exactly once, without waiting), and renders what it claimed. A new channel — a
statusline, say — is one new class here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from sbcore.deliver.framing import (
    WAKE_LIMIT,
    frame_for_agent,
    frame_for_user,
    frame_for_wake,
    slash_command,
)
from sbcore.deliver.mailbox import Mailbox, Recheck
from sbcore.gate.advice import Advice

Out = TypeVar("Out")

GATE_OFF = "second-brain config set finish_gate.enabled false"
"""The command that turns the finish gate off, in the CLI's form."""
GATE_OFF_IN_CLAUDE = slash_command("config", "set finish_gate.enabled false")
"""The same, as a slash command inside Claude Code."""


@dataclass(frozen=True)
class Capabilities:
    """What a channel can carry.

    agent:
        what it carries reaches the model (and so, by the house rule, the user too, in the same words).
    user_only:
        it can show the user text the model does not see (a synchronous hook's ``systemMessage``); only
        such a channel may carry a human-only advisory.
    limit:
        the most characters one rendering may take (None: no limit of the channel's own).
    """

    agent: bool
    user_only: bool
    limit: int | None = None


class Channel(ABC, Generic[Out]):
    """One way out of the mailbox: claim what it may carry, render it."""

    name: ClassVar[str]
    capabilities: ClassVar[Capabilities]

    def claim(
        self,
        mailbox: Mailbox,
        now: float,
        *,
        recheck: Recheck | None = None,
        select: Callable[[Advice], bool] | None = None,
    ) -> list[Advice]:
        """Take, exactly once, the waiting advice this channel may deliver (see :meth:`Mailbox.claim`)."""
        return mailbox.claim(
            now,
            for_agent=self.capabilities.agent,
            human_channel=self.capabilities.user_only,
            recheck=recheck,
            select=select,
        )

    @abstractmethod
    def render(self, claimed: Sequence[Advice]) -> Out:
        """What the channel emits for ``claimed`` (never empty)."""


class ToolHook(Channel[dict[str, Any]]):
    """The answer of a PostToolUse / PostToolUseFailure hook: the agent's copy as ``additionalContext``,
    the user's as ``systemMessage`` — the same framed text, plus who said it and how to mute it."""

    name = "tool_hook"
    capabilities = Capabilities(agent=True, user_only=True)

    def __init__(self, event: str) -> None:
        self.event = event

    def render(self, claimed: Sequence[Advice]) -> dict[str, Any]:
        for_agent = [frame_for_agent(advice) for advice in claimed if not advice.human_only]
        answer: dict[str, Any] = {}
        if for_agent:
            answer["hookSpecificOutput"] = {
                "hookEventName": self.event,
                "additionalContext": "\n\n".join(for_agent),
            }
        answer["systemMessage"] = "\n\n".join(frame_for_user(advice) for advice in claimed)
        return answer


class StopBlock(Channel[dict[str, Any]]):
    """The finish gate's Stop hook answer: the turn continues with the framed advisory as the reason the
    agent reads; the user is shown the same advisory, why the turn went on, and how to turn it off.

    Its point is to make the agent act, so it never carries an advisory meant for the user alone."""

    name = "stop_block"
    capabilities = Capabilities(agent=True, user_only=False)

    def render(self, claimed: Sequence[Advice]) -> dict[str, Any]:
        advice = claimed[0]
        why = (
            f"Second Brain continued this turn (finish gate): the {advice.kind} detector found work that "
            "looks unfinished. Its advisory, as the agent received it:"
        )
        off = f"To turn the finish gate off: {GATE_OFF} (in Claude Code: {GATE_OFF_IN_CLAUDE})"
        return {
            "decision": "block",
            "reason": frame_for_agent(advice),
            "systemMessage": f"{why}\n\n{frame_for_user(advice)}\n\n{off}",
        }


class WakeLine(Channel[str]):
    """One line on a monitor's stdout after a turn-end pass: it becomes a model turn, and the user sees the
    very line in the TUI. Claude Code cuts a monitor line at 500 characters, so the compact frame."""

    name = "wake_line"
    capabilities = Capabilities(agent=True, user_only=False, limit=WAKE_LIMIT)

    def render(self, claimed: Sequence[Advice]) -> str:
        limit = self.capabilities.limit
        assert limit is not None
        return frame_for_wake(claimed[0], limit)
