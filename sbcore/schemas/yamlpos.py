"""YAML loading that remembers where every key is.

PyYAML's composer already records a start mark for every node; we keep the
node tree from ``get_single_node`` next to the constructed data, so
an error about ``fallback.confidence`` can name the line the key is on. Along
the way this catches what ``safe_load`` lets through silently and that would
bite later: duplicate keys (the last one silently wins), non-string keys and
values JSON cannot carry (dates, binary, sets), which break the schema
validator and the window's JSON. The loader is :class:`sbcore.safeyaml.BoundedLoader`,
so an oversized text or an alias bomb is a syntax error with its line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from sbcore.problems import SbcoreError
from sbcore.safeyaml import BoundedLoader

PathKey = tuple[str | int, ...]

_JSON_SCALAR_TAGS = frozenset("tag:yaml.org,2002:" + name for name in ("str", "int", "float", "bool", "null"))
_MERGE_TAG = "tag:yaml.org,2002:merge"
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"


class YamlSyntaxError(SbcoreError):
    """The text is not a single well-formed YAML document."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Position:
    """Where one key (or sequence item) sits in the file, 1-based lines."""

    line: int
    # First line of the value's text: for a literal block scalar (``key: |``)
    # that is the line after the key, which is what template line numbers
    # count from. None when the value's lines do not map 1:1 to the file.
    text_line: int | None = None


@dataclass(frozen=True)
class Problem:
    """Something in the YAML that is legal YAML but not a usable document."""

    path: PathKey
    line: int
    message: str
    hint: str | None = None


@dataclass
class Located:
    """A parsed document plus the position of every key and item in it."""

    data: Any
    start_line: int
    positions: dict[PathKey, Position] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    # Top-level scalars as written, available even when ``problems`` kept
    # ``data`` from being built (so an error can still name the detector id).
    top_scalars: dict[str, str] = field(default_factory=dict)

    def line_of(self, path: PathKey) -> int:
        """Line of the deepest existing prefix of ``path``; the document start if none exists."""
        for end in range(len(path), 0, -1):
            found = self.positions.get(tuple(path[:end]))
            if found is not None:
                return found.line
        return self.start_line


def load(text: str) -> Located:
    """Parse one YAML document, keeping key positions. Raises YamlSyntaxError, also for a document over
    the size or alias-expansion limits of :mod:`sbcore.safeyaml`."""
    loader: BoundedLoader | None = None
    try:
        loader = BoundedLoader(text)
        node = loader.get_single_node()
        if node is None:
            return Located(data=None, start_line=1)
        located = Located(data=None, start_line=node.start_mark.line + 1)
        _walk(node, (), located, ancestors=set())
        # Do not construct what we refused: a non-string key would crash the
        # schema validator, and dates would crash JSON rendering later.
        if not located.problems:
            located.data = loader.construct_document(node)
        return located
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        message = exc.problem or exc.context or str(exc)
        if exc.problem and exc.context:
            message += f" ({exc.context}"
            if exc.context_mark is not None and exc.context_mark.line + 1 != line:
                message += f" that starts on line {exc.context_mark.line + 1}"
            message += ")"
        raise YamlSyntaxError(line, message) from exc
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(None, str(exc)) from exc
    finally:
        if loader is not None:
            loader.dispose()


def _text_line(node: Node) -> int | None:
    if isinstance(node, ScalarNode):
        if node.style == "|":
            return node.start_mark.line + 2
        if node.start_mark.line == node.end_mark.line:
            return node.start_mark.line + 1
    return None


def _walk(node: Node, path: PathKey, located: Located, ancestors: set[int]) -> None:
    if id(node) in ancestors:
        located.problems.append(
            Problem(path, node.start_mark.line + 1, "recursive alias: this value contains itself")
        )
        return
    if isinstance(node, ScalarNode):
        if node.tag not in _JSON_SCALAR_TAGS:
            located.problems.append(
                Problem(
                    path,
                    node.start_mark.line + 1,
                    f"value {node.value!r} is read as {node.tag.rsplit(':', 1)[-1]}, which JSON cannot hold",
                    "quote it to keep it as a string",
                )
            )
        return
    inner = ancestors | {id(node)}
    if isinstance(node, SequenceNode):
        if node.tag != _SEQ_TAG:
            located.problems.append(_tag_problem(path, node))
            return
        for index, item in enumerate(node.value):
            located.positions[(*path, index)] = Position(item.start_mark.line + 1, _text_line(item))
            _walk(item, (*path, index), located, inner)
        return
    assert isinstance(node, MappingNode)
    if node.tag != _MAP_TAG:
        located.problems.append(_tag_problem(path, node))
        return
    first_seen: dict[str, int] = {}
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + 1
        if key_node.tag == _MERGE_TAG:
            # ``<<: *base`` (or a list of them): the merged keys report the
            # anchor's lines; explicit keys below override those positions.
            merged = value_node.value if isinstance(value_node, SequenceNode) else [value_node]
            for source in merged:
                _walk(source, path, located, inner)
            continue
        if not isinstance(key_node, ScalarNode) or key_node.tag != "tag:yaml.org,2002:str":
            shown = key_node.value if isinstance(key_node, ScalarNode) else "a collection"
            located.problems.append(
                Problem(path, line, f"key {shown!r} is not a string", "quote the key to make it a string")
            )
            continue
        key = key_node.value
        if key in first_seen:
            located.problems.append(
                Problem(
                    (*path, key),
                    line,
                    f"duplicate key {key!r} (first on line {first_seen[key]})",
                    "YAML keeps only one of them; delete or merge the other",
                )
            )
            continue
        first_seen[key] = line
        if path == () and isinstance(value_node, ScalarNode):
            located.top_scalars.setdefault(key, value_node.value)
        located.positions[(*path, key)] = Position(line, _text_line(value_node))
        _walk(value_node, (*path, key), located, inner)


def _tag_problem(path: PathKey, node: Node) -> Problem:
    return Problem(
        path,
        node.start_mark.line + 1,
        f"unsupported YAML tag {node.tag!r}",
        "detector files hold plain mappings, lists, strings, numbers, booleans and null",
    )
