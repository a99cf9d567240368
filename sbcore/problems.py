"""One kind of error: every problem sbcore reports has the same parts, the same text and the same JSON.

A problem narrows from where it is (a file and line) through its context (the detector, the case, the
layer) to the key, then says what is wrong and, where we can tell, what to do, in the style of pre-commit's
configuration errors::

    ==> File catalogue/bad.yaml:12
    ==> At detector 'repeat-failure'
    ==> At key: confidence_floor
    =====> 1.5 is greater than the maximum of 1
    hint: confidence floors are probabilities between 0 and 1

Every command that prints problems renders them with :meth:`Problem.render`, and every ``--json`` carries
:meth:`Problem.to_json`'s fields (``file``, ``line``, ``context``, ``key``, ``problem``, ``fix``,
``severity``). Every exception sbcore defines derives from :class:`SbcoreError` (beside the built-in class
it also is, such as ``OSError`` or ``ValueError``), so a caller can catch sbcore's own failures apart from
bugs, and each can be shown as problems. Standard library only: the hooks' errors derive from it too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Problem:
    """One problem, located as precisely as it can be."""

    problem: str
    file: str | None = None
    line: int | None = None
    context: tuple[str, ...] = ()
    """From the outside in, what it is inside of: ``("detector 'repeat-failure'",)``."""
    key: str | None = None
    fix: str | None = None
    severity: Severity = "error"

    @property
    def where(self) -> str | None:
        """``file:line`` (or the file alone), None when there is no file."""
        if self.file is None:
            return None
        return self.file if self.line is None else f"{self.file}:{self.line}"

    def render(self) -> str:
        """The pre-commit style chain: file, each context, the key, the problem, what to do."""
        lines = [] if self.where is None else [f"==> File {self.where}"]
        lines += [f"==> At {context}" for context in self.context]
        if self.key:
            lines.append(f"==> At key: {self.key}")
        lines.append(f"=====> {'warning: ' if self.severity == 'warning' else ''}{self.problem}")
        if self.fix:
            lines.append(f"hint: {self.fix}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The same parts as fields, for ``--json``."""
        return {
            "file": self.file,
            "line": self.line,
            "context": list(self.context),
            "key": self.key,
            "problem": self.problem,
            "fix": self.fix,
            "severity": self.severity,
        }

    def __str__(self) -> str:
        return self.render()


def render_problems(problems: Iterable[Problem]) -> str:
    """Problems separated by a blank line, the way every command prints them."""
    return "\n\n".join(problem.render() for problem in problems)


class SbcoreError(Exception):
    """The base of every exception sbcore defines.

    ``problems`` says what went wrong in :class:`Problem` form; by default, one problem holding the
    message. An error that knows its file, line or key overrides it."""

    @property
    def problems(self) -> list[Problem]:
        return [Problem(str(self) or type(self).__name__)]
