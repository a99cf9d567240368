"""A golden case on the model path: the detector's fork replayed against the case's recorded provider I/O.

The fork runs through the one pipeline (:func:`sbcore.conductor.scratch.detector_case`) and the real
Anthropic provider, over loopback HTTP to sbcore.testing's fake provider, which answers each model call with
the next recorded response. Tool calls in those responses are checked the way dispatch checks them (the
detector is granted the tool, the arguments fit its schema, a ``Run`` command is in the detector's own
allowlist) and answered with the case's recorded tool results: nothing is read or executed on the machine
running the case, so it means the same everywhere.

A replay must not pass by accident, so it reports a *problem* (the case fails and asks for a new recording)
when it left the recording: the fork made more or fewer calls than were recorded; the fork forced the
feedback tool on a call whose recorded response does not make it (the fake would substitute silence); a
recorded tool call would be refused; or a request did not show the model every observation of the case.
The fake routes a request to a detector by the marker at the head of the fork's private tail, so every
counted call also carried the detector's tail.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sbcore.observe.model import Observation
from sbcore.think import FEEDBACK_TOOL
from sbcore.think.feedback import FeedbackResult
from sbcore.think.tools.base import Tool, ToolResult
from sbcore.think.tools.dispatch import Toolbox

if TYPE_CHECKING:
    from sbcore.packs.manager import PackManager
    from sbcore.packs.model import DetectorDef
    from sbcore.state.recall import RecallWindow
    from sbcore.testing import RecordedRequest, Reply

REPLAY_MODEL = "golden-replay"
"""The model name the replayed requests carry."""


@dataclass(frozen=True)
class Replayed:
    """What the replayed fork did; ``problem`` says how it left its recording ("" when it did not)."""

    result: FeedbackResult
    calls: int
    problem: str = ""

    def summary(self) -> dict[str, Any]:
        """The replay as a case's decision records it: model calls made, and the tool calls among them."""
        return {
            "model_calls": self.calls,
            "tool_calls": [
                {"tool": call.name, "input": dict(call.input), "is_error": call.is_error}
                for call in self.result.tool_calls
            ],
        }


def expected_tool_results(response: Mapping[str, Any]) -> int:
    """How many recorded tool results a recorded response needs: one per tool call it makes.

    Zero when it calls the feedback tool: the fork ends there, and no other call in it runs.
    """
    uses = [block for block in response["content"] if block.get("type") == "tool_use"]
    return 0 if any(block["name"] == FEEDBACK_TOOL for block in uses) else len(uses)


def replay(
    definition: DetectorDef,
    observations: Sequence[Observation],
    provider_io: Sequence[Mapping[str, Any]],
    *,
    manager: PackManager,
    turn_end: bool,
    recall: RecallWindow | None = None,
    trusted: bool = False,
) -> Replayed:
    """Run ``definition``'s fork over ``observations`` against the recorded ``provider_io``.

    ``recall`` is the case's notes index (``notes``), for a trigger that reads it; ``trusted`` says the
    case's workspace is trusted (a recorded Run of repository code is answered, not refused).
    """
    from sbcore.conductor.scratch import detector_case
    from sbcore.testing import FAKE_API_KEY, FakeProvider
    from sbcore.think.providers.anthropic import AnthropicProvider
    from sbcore.think.providers.base import ProviderSettings, Secret

    replies = [_reply(item["response"]) for item in provider_io]
    recorded = [
        (
            block["name"],
            dict(block.get("input") or {}),
            ToolResult(result["content"], result.get("is_error", False)),
        )
        for item in provider_io
        for block, result in zip(_tool_calls(item["response"]), item.get("tool_results") or (), strict=False)
    ]
    registered = {name: item.value for name, item in manager.registry.tools.items()}
    with tempfile.TemporaryDirectory(prefix="sbcore-golden-") as empty, FakeProvider() as fake:
        fake.script(definition.id, *replies)
        settings = ProviderSettings(
            "anthropic", REPLAY_MODEL, base_url=fake.anthropic_base_url, api_key=Secret(FAKE_API_KEY)
        )
        toolbox = RecordedToolbox(Path(empty), registered=registered, recorded=recorded, trusted=trusted)

        async def one_pass() -> FeedbackResult:
            provider = AnthropicProvider(settings)
            try:
                return await detector_case(
                    definition,
                    observations,
                    provider,
                    turn_end=turn_end,
                    triggers=manager.registry.triggers,
                    toolbox=toolbox,
                    environment=manager.template_environment(),
                    recall=recall,
                )
            finally:
                await provider.aclose()

        result = asyncio.run(one_pass())
        requests = fake.requests_for(definition.id)
    return Replayed(result, len(requests), _problem(result, requests, len(replies), observations))


def _problem(
    result: FeedbackResult,
    requests: Sequence[RecordedRequest],
    recorded: int,
    observations: Sequence[Observation],
) -> str:
    """How the replay left its recording, or "" (see the module docstring)."""
    if result.status == "untriggered":
        return ""
    if len(requests) != recorded:
        return (
            f"the fork made {len(requests)} model call(s), but provider_io records {recorded}: "
            "the recording no longer matches this detector (re-record it)"
        )
    for number, request in enumerate(requests, 1):
        if request.note:
            return (
                f"model call {number} was the fork's last and forced {FEEDBACK_TOOL}, but its recorded "
                "response does not call it (re-record it, or end the recording sooner)"
            )
    for call in result.tool_calls:
        if call.refused:
            return f"the recorded call {call.name} {_canonical(call.input)} is refused: {call.result}"
    for number, request in enumerate(requests, 1):
        shown = "\n".join(_request_texts(request.body))
        for index, observation in enumerate(observations, 1):
            if observation.text not in shown:
                return (
                    f"model call {number} did not show the model observation {index} "
                    f"({observation.text[:80]!r}): its window lacks what the case describes"
                )
    return ""


class RecordedToolbox(Toolbox):
    """A workspace's tools as a fork is offered them, each call answered from a recording.

    The wire definitions, grants and checks are the real ones (file tools, ``Run`` with the pass's
    allowlist and its refusal of repository code in an untrusted workspace, registered pack tools, argument
    schemas): :meth:`Toolbox.dispatch` decides, and a call it allows gets the next recorded result for
    exactly that tool and those arguments instead of running. ``root`` is never read.
    """

    def __init__(
        self,
        root: Path,
        *,
        registered: Mapping[str, Tool] | None = None,
        recorded: Sequence[tuple[str, Mapping[str, Any], ToolResult]] = (),
        trusted: bool = False,
    ) -> None:
        super().__init__(
            root, registered=dict(registered or {}), trusted_workspace=trusted, answers=_Answers(recorded)
        )


class _Answers:
    """The recorded results of a golden case's tool calls, by tool and arguments, in order."""

    def __init__(self, recorded: Sequence[tuple[str, Mapping[str, Any], ToolResult]]) -> None:
        self.waiting: dict[str, deque[ToolResult]] = {}
        for name, args, answer in recorded:
            self.waiting.setdefault(_call_key(name, args), deque()).append(answer)

    async def answer(
        self, detector: str, tool: str, args: dict[str, Any], run: Callable[[], Awaitable[ToolResult]]
    ) -> ToolResult:
        answers = self.waiting.get(_call_key(tool, args))
        if not answers:
            return ToolResult.refusal(f"refused: the recording has no result for this {tool} call")
        return answers.popleft()


def _tool_calls(response: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The tool calls a recorded response makes that need a recorded result (see expected_tool_results)."""
    if not expected_tool_results(response):
        return []
    return [block for block in response["content"] if block.get("type") == "tool_use"]


def _reply(response: Mapping[str, Any]) -> Reply:
    """A recorded Anthropic Messages response (only its ``content`` blocks) as a fake-provider reply."""
    from sbcore.testing import Call, Reply, Say

    blocks: list[Say | Call] = []
    for block in response["content"]:
        if block["type"] == "text":
            blocks.append(Say(block["text"]))
        else:
            blocks.append(Call(block["name"], dict(block.get("input") or {})))
    return Reply(tuple(blocks))


def _request_texts(body: Any) -> list[str]:
    """The text blocks of a recorded Anthropic request's messages (tool results are not text blocks)."""
    messages = body.get("messages") if isinstance(body, dict) else None
    texts = []
    for message in messages if isinstance(messages, list) else ():
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            texts += [
                str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text"
            ]
    return texts


def _call_key(name: str, args: Mapping[str, Any]) -> str:
    return f"{name} {_canonical(args)}"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
