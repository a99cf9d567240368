"""Recall: a read-only search of the team's notes, for a detector granted it.

The index is the workspace's recall index (:mod:`sbcore.state.recall`), searched through a ``mode=ro``
connection, so the tool cannot write to it; the notes themselves are never opened here. A result names each
chunk by its handle (``docs/decisions/0004-cache.md#why-not-redis``, ``advice:<id>``) so a fork can open the
note with Read for depth, and shows the start of the chunk. Output is redacted like Read's: the chunks were
redacted when they were indexed, and dispatch redacts every tool result again before the model sees it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from sbcore.state.recall import RecallReader, query_terms
from sbcore.think.tools.base import ToolResult, finish_output

RECALL = "Recall"
EXCERPT_CHARS = 400
MAX_RESULTS = 10


@dataclass(frozen=True)
class RecallTool:
    """Search the workspace's recall index (None: this workspace has none, and the tool says so)."""

    reader: RecallReader | None
    max_result_chars: int = 20_000
    name: str = RECALL

    @property
    def description(self) -> str:
        return (
            "Search the team's own notes (CLAUDE.md, AGENTS.md, decision records, the observer's resolved "
            "advisories) for a query; read-only. Returns the best-matching sections, best first, each with a "
            "handle (path#anchor, or advice:<id>) and its opening lines. Open a path handle with Read for "
            "the whole section."
        )

    @property
    def input_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 500,
                    "description": "Words to look for, e.g. an error line or the name of a component.",
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_RESULTS,
                    "description": "Most sections to return (default 5).",
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        }

    async def call(self, args: dict[str, Any]) -> ToolResult:
        return await asyncio.to_thread(self.search, args)

    def search(self, args: dict[str, Any]) -> ToolResult:
        """The synchronous body of :meth:`call` (runs on a worker thread)."""
        if self.reader is None:
            return ToolResult.error("there is no recall index for this workspace (recall.enabled is off)")
        terms = query_terms(str(args["query"]))
        if not terms:
            return ToolResult.error("the query holds no words to search for")
        hits = self.reader.search(terms, limit=int(args.get("limit", 5)))
        if not hits:
            return ToolResult("no note matches")
        blocks = []
        for hit in hits:
            head = f"{hit.handle}  [{hit.kind}, {hit.region}]" + (f"  {hit.heading}" if hit.heading else "")
            excerpt = hit.body[:EXCERPT_CHARS] + (" …" if len(hit.body) > EXCERPT_CHARS else "")
            blocks.append(head + ("\n" + excerpt if excerpt else ""))
        return ToolResult(finish_output("\n\n".join(blocks), self.max_result_chars))
