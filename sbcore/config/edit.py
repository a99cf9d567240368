"""Edit a YAML layer file in place, keeping the comments people wrote in it.

The workspace layer is committed and shared, so it carries comments worth
keeping ("# raised for the monorepo's slow build"). PyYAML drops comments on a
load/dump round trip, so a change is made on the text instead: the composer's
node marks say which lines hold the entry for a key, and only those lines are
rewritten, inserted or deleted. Every edit is then checked by parsing the
result; if it does not hold exactly the intended data (some YAML shape this
editor does not handle), the file is re-rendered from the data instead and the
caller is told the comments could not be kept.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from sbcore import safeyaml
from sbcore.problems import SbcoreError

_DELETE: Any = object()


@dataclass(frozen=True)
class Edit:
    """The new text of a file, and whether its comments survived."""

    text: str
    comments_kept: bool


def _canonical(data: Any) -> str:
    """JSON with sorted keys: equality that tells ``true`` from ``1`` (Python's ``==`` does not)."""
    return json.dumps(data, sort_keys=True, default=str)


def _load(text: str) -> Any:
    data = safeyaml.safe_load(text)
    return {} if data is None else data


def set_in_text(text: str, path: Sequence[str], value: Any) -> Edit:
    """``text`` with the value at ``path`` set (intermediate mappings created as needed)."""
    expected = copy.deepcopy(_load(text))
    target = expected
    for part in path[:-1]:
        if not isinstance(target.get(part), dict):
            target[part] = {}
        target = target[part]
    target[path[-1]] = copy.deepcopy(value)
    return _edit(text, tuple(path), expected)


def remove_from_text(text: str, path: Sequence[str]) -> Edit:
    """``text`` without the entry at ``path``; mappings left empty by the removal go too.

    An empty ``path`` removes every entry (comments outside entries stay).
    """
    expected = copy.deepcopy(_load(text))
    if not path:
        expected = {}
    else:
        chain = [expected]
        for part in path[:-1]:
            nxt = chain[-1].get(part) if isinstance(chain[-1], dict) else None
            if not isinstance(nxt, dict):
                return Edit(text, True)
            chain.append(nxt)
        if not isinstance(chain[-1], dict) or path[-1] not in chain[-1]:
            return Edit(text, True)
        del chain[-1][path[-1]]
        for depth in range(len(path) - 1, 0, -1):
            if chain[depth]:
                break
            del chain[depth - 1][path[depth - 1]]
    return _edit(text, tuple(path), expected)


def _edit(text: str, path: tuple[str, ...], expected: dict[str, Any]) -> Edit:
    try:
        candidate = _surgical(text, path, expected)
        if _canonical(_load(candidate)) == _canonical(expected):
            return Edit(candidate, True)
    except (yaml.YAMLError, _Unsupported):
        pass
    rendered = render(expected)
    return Edit(rendered, "#" not in text)


def render(data: dict[str, Any]) -> str:
    """Plain block-style YAML for ``data`` (empty text for an empty mapping)."""
    if not data:
        return ""
    return yaml.safe_dump(data, default_flow_style=False, sort_keys=False, allow_unicode=True, width=4096)


class _Unsupported(SbcoreError):
    """A shape of YAML the line editor leaves to the fallback."""


def _lookup(data: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return _DELETE
        data = data[part]
    return data


def _surgical(text: str, path: tuple[str, ...], expected: dict[str, Any]) -> str:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    root = safeyaml.compose(text)
    if root is None:
        if not path:
            return "".join(lines)
        value = _lookup(expected, path[:1])
        return "".join(lines + _block(path[0], value, 0))
    node = _block_mapping(root)
    if not path:
        for key_node, value_node in reversed(node.value):
            _splice(lines, key_node, value_node, [])
        return "".join(lines)
    for depth in range(len(path)):
        here = path[: depth + 1]
        wanted = _lookup(expected, here)
        pair = _entry(node, path[depth])
        if pair is None:
            if wanted is _DELETE:
                return "".join(lines)
            at = _last_line(node) + 1
            indent = node.value[0][0].start_mark.column
            lines[at:at] = _block(path[depth], wanted, indent)
            return "".join(lines)
        key_node, value_node = pair
        if (
            depth < len(path) - 1
            and wanted is not _DELETE
            and isinstance(value_node, MappingNode)
            and not value_node.flow_style
            and value_node.value
        ):
            node = value_node
            continue
        if wanted is _DELETE:
            _splice(lines, key_node, value_node, [])
        elif _inline(value_node, key_node, wanted):
            line = lines[value_node.start_mark.line]
            start, end = value_node.start_mark.column, value_node.end_mark.column
            text_value = _scalar(wanted)
            if start == end and not line[:start].endswith(" "):
                text_value = " " + text_value
            lines[value_node.start_mark.line] = line[:start] + text_value + line[end:]
        else:
            _splice(lines, key_node, value_node, _block(path[depth], wanted, key_node.start_mark.column))
        return "".join(lines)
    raise _Unsupported("path exhausted")


def _entry(node: MappingNode, key: str) -> tuple[Node, Node] | None:
    for key_node, value_node in node.value:
        if isinstance(key_node, ScalarNode) and key_node.value == key:
            return key_node, value_node
    return None


def _block_mapping(node: Node) -> MappingNode:
    if not isinstance(node, MappingNode) or node.flow_style or not node.value:
        raise _Unsupported("the document is not a block mapping")
    return node


def _inline(value_node: Node, key_node: Node, wanted: Any) -> bool:
    """Whether the new value can replace the old one within its line (keeping a trailing comment)."""
    return (
        isinstance(value_node, ScalarNode)
        and value_node.style in (None, "'", '"')
        and value_node.start_mark.line == value_node.end_mark.line == key_node.start_mark.line
        and not isinstance(wanted, dict | list)
        and "\n" not in _scalar(wanted)
    )


def _scalar(value: Any) -> str:
    dumped = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=4096)
    return dumped.removesuffix("\n").removesuffix("\n...").rstrip("\n")


def _block(key: str, value: Any, indent: int) -> list[str]:
    dumped = yaml.safe_dump(
        {key: value}, default_flow_style=False, sort_keys=False, allow_unicode=True, width=4096
    )
    pad = " " * indent
    return [pad + line if line.strip() else line for line in dumped.splitlines(keepends=True)]


def _last_line(node: Node) -> int:
    """Index of the last line that holds part of ``node``."""
    if isinstance(node, ScalarNode):
        if node.style in ("|", ">") and node.end_mark.column == 0:
            return node.end_mark.line - 1
        return node.end_mark.line
    if isinstance(node, MappingNode | SequenceNode) and node.flow_style:
        return node.end_mark.line
    if isinstance(node, MappingNode):
        key_node, value_node = node.value[-1]
        return max(_last_line(key_node), _last_line(value_node))
    if isinstance(node, SequenceNode) and node.value:
        return _last_line(node.value[-1])
    raise _Unsupported("empty block collection")


def _splice(lines: list[str], key_node: Node, value_node: Node, replacement: list[str]) -> None:
    """Replace the lines of one mapping entry (its key line through its value's last line)."""
    first = key_node.start_mark.line
    if lines[first][: key_node.start_mark.column].strip():
        raise _Unsupported("the entry does not start its line")
    last = max(_last_line(key_node), _last_line(value_node))
    last = min(last, len(lines) - 1)
    lines[first : last + 1] = replacement
