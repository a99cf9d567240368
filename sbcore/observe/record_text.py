"""The text a record carries, as the projection reads it: a user prompt without the harness's wrappers, a tool
result's text, a failure without its ``<tool_use_error>`` frame, a subagent's report without its hand-back
frame and footer.

Its own room because two readers must agree on it: the projector, which forwards these texts, and
``measure``, which counts what the projection keeps of each segment against what the built-in store holds.
"""

from __future__ import annotations

import re
from typing import Any

from sbcore.observe.sentinel import ADVISORY_SENTINEL

# Harness-written blocks inside user text, removed with their content.
_HARNESS_BLOCK = re.compile(
    r"<(system-reminder|local-command-stdout|local-command-stderr|local-command-caveat|bash-stdout|"
    r"bash-stderr|ide_opened_file|ide_selection|ide_diagnostics|user-prompt-submit-hook|command-message|"
    r"command-contents)>.*?</\1>",
    re.S,
)
# A user "prompt" that is entirely the harness talking (dropped whole).
_HARNESS_PROMPT = re.compile(r"\s*(?:<task-notification>|<local-command-caveat>|Caveat: The messages below)")
_COMMAND_NAME = re.compile(r"<command-name>(.*?)</command-name>", re.S)
_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.S)
_BASH_INPUT = re.compile(r"<bash-input>(.*?)</bash-input>", re.S)
_TOOL_USE_ERROR = re.compile(r"</?tool_use_error>")
_HAND_BACK = re.compile(r"\A\[Subagent hand-back\].*?The report follows:\n", re.S)
_AGENT_FOOTER = re.compile(r"agentId: [^\n]*(?:\n<usage>.*?</usage>)?\s*\Z", re.S)


def clean_prompt(text: Any) -> str | None:
    """A user text block minus harness injections; ``None`` when nothing of the user's is left.

    Harness blocks go first, with whatever they carry; then anything still carrying
    ``ADVISORY_SENTINEL`` is dropped whole. An advisory a hook wrapped into the prompt
    therefore disappears without taking the user's own words with it.
    """
    if not isinstance(text, str) or _HARNESS_PROMPT.match(text):
        return None
    name = _COMMAND_NAME.search(text) if "<command-name>" in text else None
    bash = _BASH_INPUT.search(text) if name is None and "<bash-input>" in text else None
    if name is not None:  # a slash command: keep what the user typed, not the wrapper
        command = name.group(1).strip()
        command = command if command.startswith("/") else "/" + command
        args = _COMMAND_ARGS.search(text)
        text = f"{command} {args.group(1).strip()}" if args and args.group(1).strip() else command
    elif bash is not None:
        text = "! " + bash.group(1).strip()
    elif "<" in text:
        text = _HARNESS_BLOCK.sub("", text)
    text = text.strip()
    return None if not text or ADVISORY_SENTINEL in text else text


def result_text(content: Any) -> str:
    """The text of a tool_result's content (a string, or the text of its text blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            part["text"]
            for part in content
            if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)
        )
    return ""


def error_text(content: Any) -> str:
    """A failed tool result's text without the ``<tool_use_error>`` wrapper."""
    text = result_text(content)
    return (_TOOL_USE_ERROR.sub("", text) if "tool_use_error>" in text else text).strip()


def report_text(record: dict[str, Any], block: dict[str, Any]) -> str:
    """A subagent's final report from its Agent/Task tool_result; empty when it is not one.

    A background launch acknowledgement ("Async agent launched …") is not a report. The
    harness frame ("[Subagent hand-back] …") and the ``agentId``/``<usage>`` footer are
    stripped: they are bookkeeping, not the subagent's words.
    """
    result = record.get("toolUseResult")
    if isinstance(result, dict) and (result.get("isAsync") or result.get("status") == "async_launched"):
        return ""
    text = result_text(block.get("content"))
    if text.startswith("Async agent launched"):
        return ""
    framed = _HAND_BACK.match(text)
    if framed is not None:
        body = text[framed.end() :]
        text = "\n".join(line[2:] if line.startswith("  ") else line for line in body.split("\n"))
    footer = text.rfind("agentId: ")
    if footer >= 0 and (footer == 0 or text[footer - 1] == "\n") and _AGENT_FOOTER.match(text, footer):
        text = text[:footer]
    return text.strip()
