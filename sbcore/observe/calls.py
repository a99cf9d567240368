"""Per-tool projection of one tool call: what the agent reached for, where, and why.

The rules (design, "Per-tool rules"; every number comes from ``ProjectionConfig``):

* ``Bash``: ``command`` with heredoc bodies and long quoted literals elided first, then
  capped at ``bash_cap``; ``description`` kept.
* ``Edit`` / ``MultiEdit``: ``file_path`` and a resolved line anchor; the lines both
  bodies share at either end elided first, then the first ``edit_new`` characters of what
  changed in ``new_string`` and ``edit_old`` of ``old_string``.
* ``NotebookEdit``: ``notebook_path`` and cell, the first ``edit_new`` of ``new_source``.
* ``Write``: ``file_path`` and the first ``write_head`` characters of ``content``.
* ``Agent`` / ``Task``: ``subagent_type``, ``description``, the first ``agent_prompt``
  characters of ``prompt``.
* ``Read`` / ``Glob`` / ``Grep`` / MCP tools (``mcp__*``): whole. They are small and
  almost entirely locators; an MCP string argument longer than ``default_cap`` is the
  one exception (a payload, not a locator) and is capped like any other payload.
* anything else: locator-shaped arguments whole, the rest serialized and capped at
  ``default_cap``.

Locator arguments (``LOCATOR_KEYS``) are kept whole by every rule. Every shortened
string goes through ``elide.elide``: redacted first, structure elided, then capped, with
a marker listing what was cut. The rendering is plain text, not JSON: volume is the cost.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NamedTuple

from sbcore.observe import locators
from sbcore.observe.anchors import AnchorResolver, format_anchor
from sbcore.observe.config import ProjectionConfig
from sbcore.observe.edit_reading import added_definitions, comments_only
from sbcore.observe.elide import Elided, Structure, elide, marker, marker_size, redact, shell_structure
from sbcore.observe.manifest_reading import metadata_only
from sbcore.observe.project_facts import is_build_path
from sbcore.observe.secret_forms import secret_file_content

_WHOLE_TOOLS = frozenset({"Read", "Glob", "Grep"})
_PATH_KEYS = ("file_path", "notebook_path", "path")


class CallProjection(NamedTuple):
    """A projected tool call: structured args, rendered text, locators."""

    args: dict[str, Any]
    text: str
    locators: tuple[str, ...]


class _Builder:
    """Accumulates one call's projection (args, header, body lines, locators)."""

    def __init__(self, name: str, config: ProjectionConfig, shell: Structure) -> None:
        self.name = name
        self.config = config
        self.shell = shell
        self.args: dict[str, Any] = {}
        self.header: list[str] = [f"[tool] {name}"]
        self.body: list[str] = []
        self.payload: list[str] = []  # kept payload text: harvested for locators at the end
        self.locators: list[str] = []

    def elide(self, value: str, cap: int, shell: bool = False) -> Elided:
        done = elide(value, cap, self.config.harvest_max, self.shell if shell else None)
        self.locators.extend(done.harvested)
        self.payload.append(done.kept_text)
        return done

    def locator(self, key: str, value: Any) -> str:
        """Keep a locator argument whole (redacted only); return its rendering."""
        text = redact(value) if isinstance(value, str) else _flow(value)
        self.args[key] = text if isinstance(value, str) else value
        path_like = key in _PATH_KEYS or key == "glob" or (key == "pattern" and self.name == "Glob")
        if path_like and text:
            self.locators.append(text)
        return text

    def description(self, tool_input: dict[str, Any]) -> None:
        """The call's own ``description`` (Bash, Agent), capped, on the header line after a dash."""
        description = _text_arg(tool_input, "description")
        if description:
            done = self.elide(description, self.config.default_cap)
            self.args["description"] = done.text
            self.header.append(f"— {done.text}")

    def extras(self, tool_input: dict[str, Any], skip: frozenset[str]) -> None:
        """Remaining small arguments as ``key=value`` on the header line."""
        for key, value in tool_input.items():
            if key in skip:
                continue
            if key in locators.LOCATOR_KEYS:
                self.header.append(f"{key}={self.locator(key, value)}")
                continue
            if value is None or isinstance(value, bool | int | float):
                self.args[key] = value
                rendered = _flow(value)
            elif isinstance(value, str):
                done = self.elide(value, self.config.default_cap)
                self.args[key] = done.text
                rendered = done.text if "\n" not in done.text else json.dumps(done.text, ensure_ascii=False)
            else:
                flat = _flow(value)
                rendered = self.elide(flat, self.config.default_cap).text
                self.args[key] = value if rendered == flat else rendered
            if value is True:
                self.header.append(key)
            elif value is not None and value is not False:
                self.header.append(f"{key}={rendered}")

    def finish(self) -> CallProjection:
        text = " ".join(filter(None, self.header))
        body = list(filter(None, self.body))
        if body:
            text += "\n" + "\n".join(body)
        if self.payload:
            self.locators.extend(locators.harvest("\n".join(self.payload)))
        return CallProjection(self.args, text, tuple(dict.fromkeys(self.locators)))


def _flow(value: Any) -> str:
    """Compact, quote-free serialization for the observer to read (not to parse)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return str(value)


def _split_common(new: str, old: str) -> tuple[str, str, str, str]:
    """``(shared leading lines, new middle, old middle, shared trailing lines)``."""
    if not new or not old or new == old:
        return "", new, old, ""
    new_lines = new.splitlines(keepends=True)
    old_lines = old.splitlines(keepends=True)
    limit = min(len(new_lines), len(old_lines))
    head = 0
    while head < limit and new_lines[head] == old_lines[head]:
        head += 1
    tail = 0
    while tail < limit - head and new_lines[-1 - tail] == old_lines[-1 - tail]:
        tail += 1
    if not head and not tail:
        return "", new, old, ""
    return (
        "".join(new_lines[:head]),
        "".join(new_lines[head : len(new_lines) - tail]),
        "".join(old_lines[head : len(old_lines) - tail]),
        "".join(new_lines[len(new_lines) - tail :]),
    )


def _prefixed(prefix: str, text: str) -> str:
    """Prefix every line (a final newline ends the last line; it does not open another)."""
    if text.endswith("\n"):
        text = text[:-1]
    return "\n".join(prefix + line for line in text.split("\n"))


def _text_arg(tool_input: dict[str, Any], key: str) -> str:
    value = tool_input.get(key)
    if value is None:
        return ""
    return value if isinstance(value, str) else _flow(value)


class CallProjector:
    """Projects tool calls; holds the anchor resolver (a small file cache) between calls."""

    def __init__(self, config: ProjectionConfig) -> None:
        self.config = config
        self.anchors = AnchorResolver()
        self.shell = shell_structure(config.heredoc_head)
        self._rules: dict[str, Callable[[_Builder, dict[str, Any], str | None], None]] = {
            "Bash": self._bash,
            "Edit": self._edit,
            "MultiEdit": self._multi_edit,
            "NotebookEdit": self._notebook_edit,
            "Write": self._write,
            "Agent": self._agent,
            "Task": self._agent,
        }

    def project(self, name: str, tool_input: Any, cwd: str | None) -> CallProjection:
        if not isinstance(tool_input, dict):
            tool_input = {"input": tool_input}
        builder = _Builder(name, self.config, self.shell)
        rule = self._rules.get(name)
        if rule is not None:
            rule(builder, tool_input, cwd)
        elif name in _WHOLE_TOOLS or name.startswith("mcp__"):
            self._whole(builder, tool_input)
        else:
            self._other(builder, tool_input)
        return builder.finish()

    # -- rules -------------------------------------------------------------------------

    def _bash(self, b: _Builder, tool_input: dict[str, Any], cwd: str | None) -> None:
        b.description(tool_input)
        b.extras(tool_input, frozenset({"command", "description"}))
        command = b.elide(_text_arg(tool_input, "command"), self.config.bash_cap, shell=True)
        b.args["command"] = command.text
        b.body.append(command.text)
        if cwd:  # where the command ran: its relative paths are relative to this (arguments only)
            b.args["cwd"] = redact(cwd)

    def _edit_body(
        self, b: _Builder, new: str, old: str, manifest: bool = False
    ) -> tuple[str, str, dict[str, Any]]:
        """``+ new`` / ``- old`` heads, after eliding the lines both sides share, and what the change does
        (:func:`_reading`, of the lines that differ; of a ``manifest``, whether it changed metadata only).

        An edit usually carries unchanged context around its change; shown twice, it would
        fill both caps and hide the change itself. Leading and trailing lines common to
        ``old_string`` and ``new_string`` are therefore elided first (an ``unchanged``
        marker each), and the caps apply to what differs.
        """
        whole = (new, old) if manifest else None
        before, new_mid, old_mid, after = _split_common(new, old)
        changed = (new_mid, old_mid)
        head = self._context(before)
        tail = self._context(after)
        if head is None:  # too short to elide: it stays part of both bodies
            new_mid, old_mid = before + new_mid, before + old_mid
        else:
            b.body.append(head[0])
            b.locators.extend(head[1])
        if tail is None:
            new_mid, old_mid = new_mid + after, old_mid + after
        new, old = new_mid, old_mid
        new_done = b.elide(new, self.config.edit_new) if new else None
        old_done = b.elide(old, self.config.edit_old) if old else None
        if new_done is not None:
            b.body.append(_prefixed("+ ", new_done.text))
        if old_done is not None:
            b.body.append(_prefixed("- ", old_done.text))
        if tail is not None:
            b.body.append(tail[0])
            b.locators.extend(tail[1])
        shown_new, shown_old = (new_done.text if new_done else ""), (old_done.text if old_done else "")
        # nothing was cut: the text shown says itself whether only comments changed
        return shown_new, shown_old, _reading(*changed, cut=shown_new != new or shown_old != old, whole=whole)

    def _context(self, text: str) -> tuple[str, list[str]] | None:
        """The marker for shared context, or ``None`` when it would not be shorter than it."""
        if not text or len(marker_size("unchanged", text)) + len(", sha 0000]") >= len(text):
            return None  # even a marker listing no path would not be shorter
        rendered, found = marker("unchanged", text, "", self.config.harvest_max)
        return (rendered, found) if len(rendered) < len(text) else None

    def _anchor(self, b: _Builder, file_path: str, cwd: str | None, new: str, old: str) -> str:
        lines = self.anchors.resolve(file_path, cwd, new, old) if file_path else None
        if lines is not None:
            b.locators.append(f"{redact(file_path)}:{lines[0]}-{lines[1]}")
        return format_anchor(lines)

    def _edit(self, b: _Builder, tool_input: dict[str, Any], cwd: str | None) -> None:
        file_path = _text_arg(tool_input, "file_path")
        new, old = _text_arg(tool_input, "new_string"), _text_arg(tool_input, "old_string")
        b.header.append(b.locator("file_path", file_path))
        anchor = self._anchor(b, file_path, cwd, new, old)
        if anchor:
            b.header.append(anchor)
            b.args["anchor"] = anchor[1:]
        b.extras(tool_input, frozenset({"file_path", "new_string", "old_string"}))
        manifest = is_build_path(file_path)
        b.args["new_string"], b.args["old_string"], reading = self._edit_body(b, new, old, manifest)
        b.args.update(reading)

    def _multi_edit(self, b: _Builder, tool_input: dict[str, Any], cwd: str | None) -> None:
        file_path = _text_arg(tool_input, "file_path")
        b.header.append(b.locator("file_path", file_path))
        edits = tool_input.get("edits")
        edits = edits if isinstance(edits, list) else []
        b.header.append(f"({len(edits)} edits)")
        manifest = is_build_path(file_path)
        b.extras(tool_input, frozenset({"file_path", "edits"}))
        projected: list[dict[str, Any]] = []
        for index, edit in enumerate(edits, 1):
            edit = edit if isinstance(edit, dict) else {}
            new, old = _text_arg(edit, "new_string"), _text_arg(edit, "old_string")
            anchor = self._anchor(b, file_path, cwd, new, old)
            flags = " replace_all" if edit.get("replace_all") else ""
            b.body.append(f"#{index}{' ' + anchor if anchor else ''}{flags}")
            new_text, old_text, reading = self._edit_body(b, new, old, manifest)
            item: dict[str, Any] = {"new_string": new_text, "old_string": old_text, **reading}
            if anchor:
                item["anchor"] = anchor[1:]
            if edit.get("replace_all"):
                item["replace_all"] = True
            projected.append(item)
        b.args["edits"] = projected

    def _notebook_edit(self, b: _Builder, tool_input: dict[str, Any], cwd: str | None) -> None:
        b.header.append(b.locator("notebook_path", _text_arg(tool_input, "notebook_path")))
        b.extras(tool_input, frozenset({"notebook_path", "new_source"}))
        source = _text_arg(tool_input, "new_source")
        if source:
            done = b.elide(source, self.config.edit_new)
            b.args["new_source"] = done.text
            b.body.append(_prefixed("+ ", done.text))

    def _write(self, b: _Builder, tool_input: dict[str, Any], cwd: str | None) -> None:
        b.header.append(b.locator("file_path", _text_arg(tool_input, "file_path")))
        b.extras(tool_input, frozenset({"file_path", "content"}))
        content = _text_arg(tool_input, "content")
        if secret_file_content(_text_arg(tool_input, "file_path"), content):
            content = "[REDACTED:secret]"  # a key file written whole (`config/master.key`): one random word
        done = b.elide(content, self.config.write_head)
        b.args["content"] = done.text
        b.args["content_chars"] = len(content)
        b.args["content_lines"] = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
        b.body.append(done.text)

    def _agent(self, b: _Builder, tool_input: dict[str, Any], cwd: str | None) -> None:
        subagent = _text_arg(tool_input, "subagent_type")
        if subagent:
            b.args["subagent_type"] = redact(subagent)
            b.header.append(b.args["subagent_type"])
        b.description(tool_input)
        b.extras(tool_input, frozenset({"subagent_type", "description", "prompt"}))
        prompt = b.elide(_text_arg(tool_input, "prompt"), self.config.agent_prompt)
        b.args["prompt"] = prompt.text
        if prompt.text:
            b.body.append(prompt.text)

    def _whole(self, b: _Builder, tool_input: dict[str, Any]) -> None:
        primary = {"Read": "file_path", "Glob": "pattern", "Grep": "pattern"}.get(b.name)
        if primary is not None and primary in tool_input:
            b.header.append(b.locator(primary, tool_input[primary]))
        if b.name in ("Glob", "Grep") and "path" in tool_input:
            b.header.append(f"in {b.locator('path', tool_input['path'])}")
        b.extras(
            tool_input, frozenset({primary or "", "path"} if b.name in ("Glob", "Grep") else {primary or ""})
        )

    def _other(self, b: _Builder, tool_input: dict[str, Any]) -> None:
        rest: dict[str, Any] = {}
        for key, value in tool_input.items():
            if key in locators.LOCATOR_KEYS:
                b.header.append(f"{key}={b.locator(key, value)}")
            else:
                rest[key] = value
        if not rest:
            return
        flows = {key: _flow(value) for key, value in rest.items()}
        serialized = " ".join(f"{key}={flat}" for key, flat in flows.items())
        done = b.elide(serialized, self.config.default_cap)
        b.header.append(done.text)
        for key, value in rest.items():
            if value is None or isinstance(value, bool | int | float):
                b.args[key] = value
            elif len(rest) == 1:  # the projection above is this value's own
                b.args[key] = value if done.text == serialized else done.text[len(key) + 1 :]
            else:
                projected = elide(flows[key], self.config.default_cap, self.config.harvest_max).text
                b.args[key] = value if projected == flows[key] else projected


_DEFINES_KEPT = 8


def _reading(new: str, old: str, *, cut: bool, whole: tuple[str, str] | None = None) -> dict[str, Any]:
    """What an edit changes, read from the whole of the lines that differ (:mod:`.edit_reading`): the names
    of the definitions it adds (at most a few, redacted; the projected text is cut to its caps, so a
    function added below them would otherwise be unseen); or else, for a manifest's edit (``whole``: its
    texts, shared lines included, which place each line under its key), whether it changed the package's
    metadata only (:mod:`.manifest_reading`); or else, when the text shown was ``cut`` (or redacted),
    whether only comments changed."""
    if defines := added_definitions(new, old)[:_DEFINES_KEPT]:
        return {"defines": [redact(name) for name in defines]}
    if whole is not None and metadata_only(*whole):
        return {"metadata_only": True}
    return {"comments_only": True} if cut and comments_only(new, old) else {}
