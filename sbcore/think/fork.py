"""One detector fork: the shared prefix plus a private tail, and the small tool loop that runs on it.

A fork is not a process or a session; it is a list of messages that starts with the pass's snapshot (shared by
reference, never copied or changed) and continues with this detector's own tail. The loop (design, "What runs
the loop"):

    send → if the reply calls tools: run them (the grant is re-checked at dispatch; a refusal is a tool
    error the model reads) and send again → until the feedback tool is called, the iteration cap is reached,
    the soft deadline has passed, or the token allowance is spent.

The last iteration forces the feedback tool through ``tool_choice`` (never by shrinking the tools list,
which would change the cached prefix). A reply with no feedback call is read as silent. The hard deadline is
the caller's: it cancels :meth:`Fork.run` and asks :meth:`Fork.timed_out` for what is known so far.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from jinja2.sandbox import SandboxedEnvironment

from sbcore.packs.model import DetectorDef
from sbcore.packs.templates import render
from sbcore.packs.types import TriggerMatch
from sbcore.think import FEEDBACK_TOOL, detector_marker
from sbcore.think.debug import ForkLog
from sbcore.think.feedback import FeedbackResult, FeedbackStatus, ToolCall, check_feedback
from sbcore.think.outbound import send_redacted
from sbcore.think.prompts import render_prompt
from sbcore.think.providers.base import (
    Message,
    Provider,
    ProviderError,
    Request,
    Response,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)
from sbcore.think.tools.base import ToolResult
from sbcore.think.tools.dispatch import Grant, Toolbox
from sbcore.think.window import Snapshot

P = TypeVar("P", bound=Provider)
"""The provider a fork run talks to (the API providers, or the claude CLI)."""

log = logging.getLogger("sbcore.think.fork")

DEFAULT_MAX_TOKENS = 1024
"""Output cap per model call: a verdict fits in far less, and a tool call's arguments too."""


@dataclass(frozen=True)
class ForkPlan:
    """Everything that is particular to one detector's fork in one pass.

    ``tail`` is the rendered private tail (marker first, so a scripted fake provider can route it).
    ``token_budget`` bounds the fork's tokens (all kinds, as the provider counts them); past it, the next
    call is the last and forces the feedback tool. None: only the iteration cap and the deadline bind.
    """

    detector: DetectorDef
    tail: str
    grant: Grant
    deadline_s: float
    grace_s: float
    max_iterations: int
    match: TriggerMatch | None = None
    token_budget: int | None = None

    @property
    def first_force(self) -> str | None:
        """``tool_choice`` of the fork's first request (forks whose first requests agree share a cache key)"""
        return FEEDBACK_TOOL if self.max_iterations <= 1 else None

    @property
    def hard_deadline_s(self) -> float:
        return self.deadline_s + self.grace_s


def render_tail(
    detector: DetectorDef,
    *,
    match: TriggerMatch | None,
    grant_names: Sequence[str],
    open_advisories: Sequence[Mapping[str, Any]],
    deadline_s: float,
    max_iterations: int,
    body_cap: int,
    environment: SandboxedEnvironment | None = None,
) -> str:
    """The fork's private tail: marker, the detector's rendered instructions, then this answer's terms.

    The detector prompt gets the catalogue's template inputs (``detector``, ``config``, ``budget``,
    ``grant``, ``open_advisories``, ``match``) and is rendered in the catalogue's sandbox. Open advisories
    are listed by the tail itself only when the detector's prompt does not mention them. Raises whatever
    the template raises (the caller records the fork as failed).
    """
    advisories = [dict(item) for item in open_advisories]
    budget = {"deadline_s": _seconds(deadline_s), "body_cap": body_cap, "max_iterations": max_iterations}
    instructions = render(
        detector.prompt,
        environment=environment,
        detector={"id": detector.id, "description": detector.description},
        config=dict(detector.config),
        budget=budget,
        grant=detector.grant_names,
        open_advisories=advisories,
        match=match.as_template_input() if match is not None else None,
    ).strip()
    return render_prompt(
        "fork_tail",
        marker=detector_marker(detector.id),
        instructions=instructions,
        match=match,
        grant=list(grant_names),
        list_advisories=bool(advisories) and "open_advisories" not in detector.prompt,
        open_advisories=advisories,
        deadline_s=_seconds(deadline_s),
        max_iterations=max_iterations,
        body_cap=body_cap,
        feedback_tool=FEEDBACK_TOOL,
    )


def _seconds(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


class ForkRun(Generic[P]):
    """What every way of running one detector fork keeps: its plan, its calls, its clock, and the result.

    :class:`Fork` talks to a provider's API itself; :class:`~sbcore.think.cli_fork.CliFork` drives the
    user's ``claude`` CLI. Both report the same :class:`FeedbackResult`, built here.
    """

    def __init__(
        self,
        plan: ForkPlan,
        snapshot: Snapshot,
        provider: P,
        *,
        toolbox: Toolbox | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        debug: ForkLog | None = None,
        clock: Callable[[], float] = time.monotonic,
        pilot: bool = False,
    ) -> None:
        self.plan = plan
        self.snapshot = snapshot
        self.provider = provider
        self.toolbox = toolbox
        self.max_tokens = max_tokens
        self.debug = debug
        self.clock = clock
        self.pilot = pilot
        self.calls: list[ToolCall] = []
        self._started = clock()

    @property
    def detector_id(self) -> str:
        return self.plan.detector.id

    def elapsed(self) -> float:
        return self.clock() - self._started

    def _result(
        self,
        status: FeedbackStatus,
        *,
        iterations: int,
        usage: Usage,
        feedback: Mapping[str, Any] | None = None,
        error: str | None = None,
    ) -> FeedbackResult:
        """The fork's result, also written to its debug capture."""
        result = FeedbackResult(
            detector=self.detector_id,
            status=status,
            feedback=feedback,
            error=error,
            iterations=iterations,
            tool_calls=tuple(self.calls),
            usage=usage,
            elapsed_s=self.elapsed(),
            match=self.plan.match,
            pilot=self.pilot,
        )
        if self.debug:
            self.debug.json("outcome", result.to_json())
        return result


class Fork(ForkRun[Provider]):
    """One run of one detector against one snapshot, through a provider's API. Call :meth:`run` once."""

    def __init__(self, plan: ForkPlan, snapshot: Snapshot, provider: Provider, **options: Any) -> None:
        super().__init__(plan, snapshot, provider, **options)
        self.iterations = 0
        self.usage = Usage()

    async def run(self) -> FeedbackResult:
        """The loop; never raises except on cancellation (a provider failure is a ``failed`` result)."""
        self._started = self.clock()
        plan = self.plan
        tail: list[Message] = [Message.user(plan.tail)]
        if self.debug:
            self.debug.section("private tail", plan.tail)
        for iteration in range(1, plan.max_iterations + 1):
            last = iteration == plan.max_iterations or self._out_of_budget()
            request = Request(
                model=self.provider.model,
                system=self.snapshot.system,
                messages=(*self.snapshot.messages, *tail),
                tools=self.snapshot.tools,
                breakpoint=self.snapshot.breakpoint,
                force_tool=FEEDBACK_TOOL if last else None,
                max_tokens=self.max_tokens,
            )
            try:
                response = await send_redacted(self.provider, request)
            except ProviderError as exc:
                log.warning("detector %s: model call failed: %s", self.detector_id, exc)
                return self._finish("failed", error=f"{type(exc).__name__}: {exc}")
            self.iterations = iteration
            self.usage = self.usage + response.usage
            self._log_reply(iteration, last, response)
            call = response.tool_use(FEEDBACK_TOOL)
            if call is not None:
                feedback, problem = check_feedback(plan.detector, call.input)
                if feedback is None:
                    return self._finish("invalid", feedback={"verdict": "silent"}, error=problem)
                return self._finish("answered", feedback=feedback)
            if not response.tool_uses or last:
                return self._finish("prose", feedback={"verdict": "silent"})
            results = await self._run_tools(response.tool_uses)
            tail += [response.as_message(), Message.user(*results)]
        return self._finish("prose", feedback={"verdict": "silent"})  # pragma: no cover - the loop returns

    def timed_out(self) -> FeedbackResult:
        """The result of a fork cancelled at its hard deadline: what it used, and that it did not answer."""
        if self.debug:
            self.debug.section("outcome", f"cancelled at the hard deadline ({self.plan.hard_deadline_s:g} s)")
        return FeedbackResult(
            detector=self.detector_id,
            status="timeout",
            error=f"no answer within {self.plan.hard_deadline_s:g} s",
            iterations=self.iterations,
            tool_calls=tuple(self.calls),
            usage=self.usage,
            elapsed_s=self.elapsed(),
            match=self.plan.match,
            pilot=self.pilot,
        )

    def _out_of_budget(self) -> bool:
        """Past the soft deadline or the token allowance: the next call must be the last."""
        if self.iterations == 0:
            return False
        budget = self.plan.token_budget
        spent = self.usage.prompt_tokens + self.usage.output_tokens
        return self.elapsed() >= self.plan.deadline_s or (budget is not None and spent >= budget)

    async def _run_tools(self, uses: Sequence[ToolUseBlock]) -> list[ToolResultBlock]:
        outcomes = await asyncio.gather(*(self._dispatch(use) for use in uses))
        blocks = []
        for use, outcome in zip(uses, outcomes, strict=True):
            self.calls.append(
                ToolCall(use.name, dict(use.input), outcome.text, outcome.is_error, outcome.refused)
            )
            blocks.append(ToolResultBlock(use.id, outcome.text, is_error=outcome.is_error))
            if self.debug:
                flag = " (refused)" if outcome.refused else " (error)" if outcome.is_error else ""
                self.debug.section(f"tool result {use.name}{flag}", outcome.text)
        return blocks

    async def _dispatch(self, use: ToolUseBlock) -> ToolResult:
        if self.toolbox is None:
            return ToolResult.refusal(
                f"refused: no tools are available to this pass (asked for {use.name!r})"
            )
        return await self.toolbox.dispatch(self.detector_id, self.plan.grant, use.name, dict(use.input))

    def _log_reply(self, iteration: int, forced: bool, response: Response) -> None:
        if not self.debug:
            return
        title = f"reply {iteration}" + (" (feedback forced)" if forced else "")
        parts = [response.text] if response.text else []
        parts += [f"tool call {use.name}: {_json(use.input)}" for use in response.tool_uses]
        usage = response.usage
        parts.append(
            f"[usage: input {usage.input_tokens}, output {usage.output_tokens}, "
            f"cache read {usage.cache_read_tokens}, cache write {usage.cache_write_tokens}]"
        )
        self.debug.section(title, "\n".join(parts))

    def _finish(
        self, status: FeedbackStatus, *, feedback: Mapping[str, Any] | None = None, error: str | None = None
    ) -> FeedbackResult:
        return self._result(
            status, iterations=self.iterations, usage=self.usage, feedback=feedback, error=error
        )


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False, default=str)
