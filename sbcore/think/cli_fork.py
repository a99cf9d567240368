"""One detector fork run through the user's ``claude`` CLI (the ``claude-code`` provider).

The same fork as :class:`~sbcore.think.fork.Fork` — the pass's snapshot plus this detector's private tail,
answered through the feedback tool — but the tool loop is the CLI's. What stays ours is everything that
bounds it:

- the request is built and redacted exactly as a direct fork's first request
  (:func:`~sbcore.think.outbound.redacted`), then handed to the CLI as a system prompt shared by every fork
  of the pass (system blocks and window) and one user message (this fork's tail);
- the CLI's only tools are the pass's wire tools, relayed over MCP to :meth:`Toolbox.dispatch` with this
  detector's grant (:mod:`sbcore.think.tools.relay`): a call outside the grant is refused there, as always,
  and every tool result is redacted before the CLI sees it;
- the feedback tool is answered here: the first valid call is the fork's answer;
- past the soft deadline, the token allowance or the iteration cap, every other tool is refused with
  "answer now", which is what forcing the feedback tool does in the direct loop;
- the hard deadline cancels :meth:`CliFork.run`, and cancellation kills the CLI's process group.

A CLI that cannot run (missing, logged out, rate-limited, slow to start, refusing a flag) is not this
detector's failure: the provider is told (:meth:`ClaudeCodeProvider.unavailable`) and the pass goes offline.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sbcore.observe.redact import redact
from sbcore.think import FEEDBACK_TOOL
from sbcore.think.feedback import FeedbackResult, FeedbackStatus, ToolCall, check_feedback
from sbcore.think.fork import ForkPlan, ForkRun
from sbcore.think.outbound import redacted
from sbcore.think.providers.base import Message, Request, TextBlock
from sbcore.think.providers.claude_code import (
    ClaudeCodeProvider,
    CliRun,
    CliUnavailable,
    command,
    write_private,
)
from sbcore.think.tools.base import ToolResult
from sbcore.think.tools.relay import RelayHost, cli_tool_name
from sbcore.think.window import Snapshot

log = logging.getLogger("sbcore.think.cli_fork")

ANSWERED_GRACE_S = 3.0
"""How long the CLI may go on after the feedback is recorded (to end its turn) before it is stopped."""
RECORDED = "Feedback recorded. Your answer is complete: end your turn now, without further text."


def tool_note(tools: list[str]) -> str:
    """The last user block: how the CLI names our tools (its MCP prefix), so the tail's names still work."""
    named = ", ".join(f"{name} as {cli_tool_name(name)}" for name in tools)
    return (
        "[note] In this session every tool is reached through the sbcore server: "
        f"{named}. Answer by calling {cli_tool_name(FEEDBACK_TOOL)} exactly once."
    )


def system_prompt(request: Request, shared: int) -> str:
    """The system blocks, then the first ``shared`` messages (the pass's window), as one text.

    Identical for every fork of a pass, so the pilot's request writes it to the prompt cache and the other
    forks read it; the window's earlier feedback is labelled as the observer's own.
    """
    parts = list(request.system)
    for message in request.messages[:shared]:
        text = "\n".join(block.text for block in message.content if isinstance(block, TextBlock))
        parts.append(f"[the observer's earlier feedback]\n{text}" if message.role == "assistant" else text)
    return "\n\n".join(parts)


def tail_blocks(request: Request, shared: int) -> list[str]:
    """The fork's private tail (the messages after the window) as user text blocks."""
    return [
        "\n".join(block.text for block in message.content if isinstance(block, TextBlock))
        for message in request.messages[shared:]
    ]


class CliFork(ForkRun[ClaudeCodeProvider]):
    """One run of one detector through ``claude -p``. Call :meth:`run` once."""

    def __init__(
        self, plan: ForkPlan, snapshot: Snapshot, provider: ClaudeCodeProvider, **options: Any
    ) -> None:
        super().__init__(plan, snapshot, provider, **options)
        self.feedback: dict[str, Any] | None = None
        self.problem: str | None = None
        self.cli = CliRun()
        self._answered = asyncio.Event()

    async def run(self) -> FeedbackResult:
        """The fork; never raises except on cancellation."""
        self._started = self.clock()
        binary = self.provider.binary()
        if binary is None:
            return self._unavailable("no claude CLI on PATH")
        request = redacted(
            Request(
                model=self.provider.model,
                system=self.snapshot.system,
                messages=(*self.snapshot.messages, Message.user(self.plan.tail)),
                tools=self.snapshot.tools,
                breakpoint=self.snapshot.breakpoint,
                max_tokens=self.max_tokens,
            )
        )
        wire = [
            {"name": t.name, "description": t.description, "input_schema": dict(t.input_schema)}
            for t in request.tools
        ]
        if self.debug:
            self.debug.section("private tail", self.plan.tail)
        with tempfile.TemporaryDirectory(prefix="sbcore-fork-") as tmp:
            directory = Path(tmp)
            cwd = directory / "cwd"
            cwd.mkdir(mode=0o700)
            async with RelayHost(directory, wire, self._handle) as relay:
                shared = len(self.snapshot.messages)
                config = write_private(directory / "mcp.json", json.dumps(relay.mcp_config()))
                system = write_private(directory / "system.txt", system_prompt(request, shared))
                options = self.provider.options
                argv = command(binary, self.provider.model, system, config, options.max_budget_usd)
                blocks = [*tail_blocks(request, shared), tool_note([t.name for t in request.tools])]
                try:
                    await self._run_until_answered(argv, blocks, cwd)
                except CliUnavailable as exc:
                    if self.feedback is None:  # an answer already given stands, whatever came after
                        return self._unavailable(str(exc.args[0]))
        self.provider.spent(self.cli.usage)
        if self.feedback is None:
            problem = self.cli.failure()
            if problem is not None:
                return self._unavailable(problem)
        return self._conclude()

    async def _run_until_answered(self, argv: list[str], blocks: list[str], cwd: Path) -> None:
        """Run the CLI until it exits, or until :data:`ANSWERED_GRACE_S` after the feedback is recorded.

        Once the answer is in, nothing the CLI does next can change it: a model that keeps talking is
        stopped (its process group killed) rather than paid for.
        """
        run = asyncio.ensure_future(
            self.provider.run(argv, blocks, cwd=cwd, on_event=self._event, into=self.cli)
        )
        answered = asyncio.ensure_future(self._answered.wait())
        try:
            await asyncio.wait({run, answered}, return_when=asyncio.FIRST_COMPLETED)
            if not run.done():
                await asyncio.wait({run}, timeout=ANSWERED_GRACE_S)
        finally:
            answered.cancel()
            if not run.done():
                run.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await run
        if not run.cancelled():
            run.result()

    def timed_out(self) -> FeedbackResult:
        """The fork cancelled at its hard deadline (its process group is already killed)."""
        self.provider.spent(self.cli.usage)
        return self._cli_result(
            "timeout", error=f"no answer within {self.plan.hard_deadline_s:g} s (claude CLI killed)"
        )

    # -- the relay's handler ------------------------------------------------------------------------

    async def _handle(self, name: str, args: dict[str, Any]) -> ToolResult:
        if name == FEEDBACK_TOOL:
            outcome = self._take_feedback(args)
        elif self.feedback is not None:
            outcome = ToolResult.refusal("refused: the feedback is recorded; end your turn now")
        elif (why := self._must_answer()) is not None:
            outcome = ToolResult.refusal(f"refused: {why}; answer now with {cli_tool_name(FEEDBACK_TOOL)}")
        elif self.toolbox is None:
            outcome = ToolResult.refusal(f"refused: no tools are available to this pass (asked for {name!r})")
        else:
            found = await self.toolbox.dispatch(self.detector_id, self.plan.grant, name, args)
            outcome = ToolResult(redact(found.text), found.is_error, found.refused)
        self.calls.append(ToolCall(name, dict(args), outcome.text, outcome.is_error, outcome.refused))
        if self.debug:
            flag = " (refused)" if outcome.refused else " (error)" if outcome.is_error else ""
            self.debug.section(f"tool call {name}{flag}", f"{json.dumps(args, default=str)}\n{outcome.text}")
        return outcome

    def _take_feedback(self, args: Mapping[str, Any]) -> ToolResult:
        if self.feedback is not None:
            return ToolResult(RECORDED)
        feedback, problem = check_feedback(self.plan.detector, dict(args))
        if feedback is None:
            self.problem = problem
            return ToolResult.error(f"feedback not accepted: {problem}")
        self.feedback = feedback
        self._answered.set()
        return ToolResult(RECORDED)

    def _must_answer(self) -> str | None:
        tools_used = sum(1 for call in self.calls if call.name != FEEDBACK_TOOL)
        budget = self.plan.token_budget
        spent = self.cli.usage.prompt_tokens + self.cli.usage.output_tokens
        if tools_used >= max(0, self.plan.max_iterations - 1):
            return f"the iteration cap ({self.plan.max_iterations}) is reached"
        if self.elapsed() >= self.plan.deadline_s:
            return f"the soft deadline ({self.plan.deadline_s:g} s) has passed"
        if budget is not None and spent >= budget:
            return "the token allowance is spent"
        return None

    def _event(self, event: Mapping[str, Any]) -> None:
        if not self.debug:
            return
        if event.get("type") == "system" and event.get("subtype") == "init":
            shown = {k: event.get(k) for k in ("model", "tools", "mcp_servers", "plugins", "slash_commands")}
            self.debug.json("claude CLI init", shown)
        elif event.get("type") == "result":
            shown = {k: event.get(k) for k in ("subtype", "is_error", "num_turns", "total_cost_usd", "usage")}
            self.debug.json("claude CLI result", shown)

    # -- results ------------------------------------------------------------------------------------

    def _conclude(self) -> FeedbackResult:
        if self.feedback is not None:
            return self._cli_result("answered", feedback=self.feedback)
        if self.problem is not None:
            return self._cli_result("invalid", feedback={"verdict": "silent"}, error=self.problem)
        return self._cli_result("prose", feedback={"verdict": "silent"})

    def _unavailable(self, reason: str) -> FeedbackResult:
        log.warning("detector %s: %s; this pass goes offline", self.detector_id, reason)
        self.provider.unavailable(reason)
        return self._cli_result("failed", error=reason)

    def _cli_result(
        self, status: FeedbackStatus, *, feedback: Mapping[str, Any] | None = None, error: str | None = None
    ) -> FeedbackResult:
        turns = int((self.cli.result or {}).get("num_turns") or 0) or len(self.calls)
        return self._result(status, iterations=turns, usage=self.cli.usage, feedback=feedback, error=error)
