"""The engine's own prompt templates: the shared observer prompt, the workspace block, the ledger block,
the fork tail, and the compaction instruction.

They are Jinja files shipped as package data, rendered with ``StrictUndefined`` so a missing variable is a bug
found at once rather than an empty line sent to a model. These are trusted templates (ours), so they use a
plain environment; detector prompts, which packs and users write, go through the catalogue's sandbox instead.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from jinja2 import Environment, StrictUndefined, Template


@cache
def _environment() -> Environment:
    return Environment(
        undefined=StrictUndefined,
        keep_trailing_newline=False,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )


@cache
def _template(name: str) -> Template:
    source = resources.files(__name__).joinpath(f"{name}.j2").read_text(encoding="utf-8")
    return _environment().from_string(source)


def render_prompt(name: str, **inputs: Any) -> str:
    """Render ``<name>.j2`` with ``inputs``; the result is stripped of surrounding blank lines."""
    return _template(name).render(**inputs).strip("\n")
