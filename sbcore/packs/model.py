"""What a loaded detector is, once its YAML has been validated.

These are plain frozen values: the loader builds them, the plugin manager and
catalogue assembler pass them around, and the pass engine reads them. Nothing
here knows about YAML or Jinja.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

ToolKind = Literal["builtin", "run", "mcp", "pack"]
CadenceKind = Literal["every_pass", "turn_end", "on_trigger", "every_nth"]
Mode = Literal["soak", "advise"]
"""advise: what the gate admits is delivered; soak: it goes to the soak log instead (docs/soak.md)."""

BUILTIN_TOOLS: tuple[str, ...] = ("Read", "Grep", "Glob", "Recall")
RUN_TOOL = "Run"


@dataclass(frozen=True)
class SourceRef:
    """Where something was defined: a file and (when known) a 1-based line."""

    path: str
    line: int | None = None

    def __str__(self) -> str:
        return self.path if self.line is None else f"{self.path}:{self.line}"


@dataclass(frozen=True)
class ToolGrant:
    """One normalised entry of a detector's ``tools`` list.

    ``name`` is what the detector is told it may use: ``Read``/``Grep``/``Glob``,
    ``Run`` (with ``commands``, the exact allowlist), ``mcp:<server>/<tool>``
    (``tool`` is ``*`` for the whole server), or a pack-registered tool id.
    """

    kind: ToolKind
    name: str
    commands: tuple[str, ...] = ()
    server: str | None = None
    tool: str | None = None


@dataclass(frozen=True)
class Cadence:
    """When a detector runs; ``nth`` is set only for ``every_nth``."""

    kind: CadenceKind
    nth: int | None = None

    def __str__(self) -> str:
        return f"every_nth: {self.nth}" if self.kind == "every_nth" else self.kind


@dataclass(frozen=True)
class TriggerRef:
    """A named structural trigger (registered by some pack) and its parameters."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DetectorDef:
    """A validated detector definition, defaults applied where the file is silent.

    ``None`` for deadline_s and the floors means "use the configured default"
    (loop.fork_deadline_s, gate.confidence_floor, finish_gate.confidence_floor).
    """

    id: str
    pack: str
    source: SourceRef
    description: str
    status: str
    enabled: bool
    prompt: str  # template source text (prompt_file already read)
    tools: tuple[ToolGrant, ...]
    schema: dict[str, Any]  # the full JSON Schema of this detector's feedback
    cadence: Cadence
    trigger: TriggerRef | None
    deadline_s: float | None
    max_iterations: int
    confidence_floor: float | None
    finish_gate_floor: float | None
    config: dict[str, Any]
    config_schema: dict[str, Any] | None
    fallback: dict[str, Any] | None
    extras: dict[str, Any]  # the x-* keys
    raw: dict[str, Any]  # the validated document as loaded
    run_trusted: bool = False
    """Whether the ``run`` grant was written by the user's own configuration (global or local layer): only
    then may its commands execute repository code without the workspace being trusted."""
    mode: Mode = "soak"
    """Whether what the gate admits is delivered (``advise``) or only logged (``soak``, the default: a
    detector earns the right to speak with labelled would-fires, docs/soak.md)."""

    @property
    def grant_names(self) -> list[str]:
        """Tool names this detector may use: the ``grant`` template input."""
        return [grant.name for grant in self.tools]

    @property
    def run_commands(self) -> tuple[str, ...]:
        """This detector's own Run allowlist (the union of its run entries)."""
        return tuple(cmd for grant in self.tools if grant.kind == "run" for cmd in grant.commands)
