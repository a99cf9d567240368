"""YAML loading with bounded size and bounded alias expansion, for every YAML a user or a repo supplies.

PyYAML's ``safe_load`` constructs no arbitrary objects, but it does not bound *expansion*: an alias is a
pointer to an anchored node, so nine anchors of nine aliases each ("billion laughs") describe 9**9 nodes
in about 300 bytes. Constructing the document shares the nodes, but anything that then walks it (position
tracking, the JSON Schema validator, ``json.dumps``, ``deepcopy``) visits every expanded node, and takes
minutes and gigabytes before dying.

:class:`BoundedLoader` counts, while composing, how many nodes the document would have with every alias
expanded (an alias costs the expanded size of what it points to, computed once per anchored node), and
refuses the document as soon as the count passes :data:`MAX_EXPANDED_NODES`, with the line of the alias
that crossed it. The text itself is refused above :data:`MAX_YAML_CHARS`. Both limits are far above any
real configuration, detector, golden or labels file, and the check costs one addition per node.

Every YAML reader in sbcore goes through this module (``sbcore.schemas.yamlpos`` builds on
:class:`BoundedLoader`; the rest call :func:`safe_load` or :func:`compose`).
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, SequenceNode

from sbcore.problems import SbcoreError

MAX_YAML_CHARS = 4 * 1024 * 1024
"""Longest YAML text read at all (4 MiB)."""

MAX_EXPANDED_NODES = 200_000
"""Most nodes a document may have once every alias is expanded."""


class YamlLimitError(SbcoreError, yaml.MarkedYAMLError):
    """A document over a size or expansion limit. A ``MarkedYAMLError``, so every caller that already
    reports YAML syntax errors with their line reports this one the same way."""


class BoundedLoader(yaml.SafeLoader):
    """``SafeLoader`` that refuses oversized text and documents whose alias expansion is too large."""

    max_expanded_nodes = MAX_EXPANDED_NODES

    def __init__(self, stream: str) -> None:
        if len(stream) > MAX_YAML_CHARS:
            raise YamlLimitError(
                problem=f"the YAML text is {len(stream)} characters, over the limit of {MAX_YAML_CHARS}"
            )
        super().__init__(stream)
        self._expanded = 0
        self._weights: dict[int, int] = {}

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        if self.check_event(AliasEvent):
            mark = self.peek_event().start_mark
            node = super().compose_node(parent, index)
            self._charge(self._weights.get(id(node), 1), mark)
            return node
        node = super().compose_node(parent, index)
        if node is None:
            return None
        weight = 1
        if isinstance(node, SequenceNode):
            weight += sum(self._weights.get(id(item), 1) for item in node.value)
        elif isinstance(node, MappingNode):
            weight += sum(
                self._weights.get(id(key), 1) + self._weights.get(id(value), 1) for key, value in node.value
            )
        self._weights[id(node)] = weight
        self._charge(1, node.start_mark)
        return node

    def _charge(self, nodes: int, mark: yaml.Mark) -> None:
        self._expanded += nodes
        if self._expanded > self.max_expanded_nodes:
            raise YamlLimitError(
                problem=(
                    f"the document expands to more than {self.max_expanded_nodes} values through its "
                    "aliases (an alias bomb?)"
                ),
                problem_mark=mark,
            )


def safe_load(text: str) -> Any:
    """``yaml.safe_load`` through :class:`BoundedLoader`; raises ``yaml.YAMLError`` (limits included)."""
    loader = BoundedLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def compose(text: str) -> Node | None:
    """``yaml.compose`` through :class:`BoundedLoader`: the node tree, with the same limits."""
    loader = BoundedLoader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()
