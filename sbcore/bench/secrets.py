"""gitleaks' own true-positive fixtures through ``redact``: how many come out with their secret gone.

gitleaks declares each of its rules in ``cmd/generate/config/rules/<vendor>.go`` together with the strings the
rule's test must find (``tps := []string{...}``, ``tps = append(tps, ...)``). Those strings were written by
people who collect real secret formats for a living and who were not writing our tests, so they are a fair
outside measure of redaction. This module reads them from a checkout the user points at, at run time: nothing
of gitleaks is kept in this project.

Only elements that are Go string literals count. Elements built by a call (gitleaks generates a random secret
of the rule's shape when its test runs) are counted apart and skipped: reproducing its generators would be
copying it.

A fixture is **redacted** when ``redact`` changed it and no secret-shaped token of the original is still
whole in the result: a run of 16 or more token characters not touching a ``.`` or ``/`` (host names, paths and
URLs survive on purpose) holding at least two digits and two letters at 3.5 bits of entropy per character or
more. ``redact`` is the one function every store applies (spool, events, recall index, request bodies), so
one figure covers them all.

The checkout is read as text; no git command runs in it (its own configuration could name a program). The
commit is read from ``.git/HEAD`` and its refs when they are there.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

PINNED_COMMIT = "b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b"
"""The gitleaks commit the published figure was measured at (2026-07-22)."""

RULES_DIR = Path("cmd/generate/config/rules")

_TPS_START = re.compile(r"\btps\s*(?::=\s*\[\]string\{|=\s*append\(\s*tps\s*,)")
_GO_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[0-7]{3}|.)", re.DOTALL)
_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_RESIDUE = re.compile(r"(?<![A-Za-z0-9+=_~./-])[A-Za-z0-9+=_~-]{16,}(?![A-Za-z0-9+=_~./-])")


@dataclass(frozen=True)
class Fixture:
    rule: str  # the rules file's stem: "stripe", "curl"
    line: int  # where the literal starts in that file
    text: str


@dataclass
class Fixtures:
    literal: list[Fixture] = field(default_factory=list)
    generated: int = 0  # elements built by a call, skipped


@dataclass(frozen=True)
class Outcome:
    fixture: Fixture
    redacted: str
    caught: bool
    residue: tuple[str, ...]  # secret-shaped tokens of the original still whole in the result


def fixtures(checkout: Path) -> Fixtures:
    """Every ``tps`` element of every rules file under ``checkout``; raises FileNotFoundError without one."""
    rules = checkout / RULES_DIR
    if not rules.is_dir():
        raise FileNotFoundError(f"{checkout}: no {RULES_DIR}/ here; is this a gitleaks checkout?")
    found = Fixtures()
    for path in sorted(rules.glob("*.go")):
        source = path.read_text(encoding="utf-8", errors="replace")
        for start in _TPS_START.finditer(source):
            for offset, element in _elements(source, start.end()):
                literal = _literal(element)
                if literal is None:
                    found.generated += 1
                else:
                    line = source.count("\n", 0, offset) + 1
                    found.literal.append(Fixture(path.stem, line, literal))
    return found


def _elements(source: str, at: int) -> Iterator[tuple[int, str]]:
    """The top-level comma-separated elements of the list or call whose opening bracket ends at ``at``,
    with the offset each starts at; comments dropped, strings kept whole."""
    depth, start, index, parts = 1, at, at, []
    while index < len(source) and depth:
        char = source[index]
        if char == "`":
            index = source.index("`", index + 1) + 1
            continue
        if char == '"':
            index = _string_end(source, index)
            continue
        if source.startswith("//", index):
            parts.append((start, source[start:index]))
            index = source.find("\n", index)
            index = len(source) if index < 0 else index
            start = index
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if not depth:
                break
        elif char == "," and depth == 1:
            parts.append((start, source[start:index]))
            yield _joined(parts)
            parts, start = [], index + 1
        index += 1
    parts.append((start, source[start:index]))
    if "".join(text for _, text in parts).strip():
        yield _joined(parts)


def _joined(parts: list[tuple[int, str]]) -> tuple[int, str]:
    text = "".join(piece for _, piece in parts).strip()
    for start, piece in parts:
        if kept := piece.lstrip():
            return start + len(piece) - len(kept), text
    return parts[0][0], text


def _string_end(source: str, index: int) -> int:
    index += 1
    while source[index] != '"':
        index += 2 if source[index] == "\\" else 1
    return index + 1


def _literal(element: str) -> str | None:
    """The value of ``element`` when it is one Go string literal, else None."""
    if len(element) >= 2 and element[0] == element[-1] == "`" and "`" not in element[1:-1]:
        return element[1:-1]
    if len(element) >= 2 and element[0] == '"' and _string_end(element, 0) == len(element):
        return _GO_ESCAPE.sub(_unescape, element[1:-1])
    return None


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if code[0] in "xuU" and len(code) > 1:
        return chr(int(code[1:], 16))
    if code[0] in "01234567" and len(code) == 3:
        return chr(int(code, 8))
    return _SIMPLE_ESCAPES.get(code, code)


def judge(fixture: Fixture) -> Outcome:
    from sbcore.observe.redact import redact

    result = redact(fixture.text)
    residue = tuple(
        token for token in _RESIDUE.findall(result) if token in fixture.text and _secret_shaped(token)
    )
    return Outcome(fixture, result, result != fixture.text and not residue, residue)


def _secret_shaped(token: str) -> bool:
    digits = sum(char.isdigit() for char in token)
    letters = sum(char.isalpha() for char in token)
    counts = Counter(token)
    entropy = -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())
    return digits >= 2 and letters >= 2 and entropy >= 3.5


def commit_of(checkout: Path) -> str | None:
    """The checked-out commit, read from ``.git`` as files (a ref, a packed ref or a detached HEAD)."""
    git = checkout / ".git"
    try:
        head = (git / "HEAD").read_text().strip()
        if not head.startswith("ref: "):
            return head or None
        ref = head[5:]
        loose = git / ref
        if loose.is_file():
            return loose.read_text().strip() or None
        for line in (git / "packed-refs").read_text().splitlines():
            sha, _, name = line.partition(" ")
            if name == ref:
                return sha
    except OSError:
        return None
    return None


@dataclass
class Report:
    checkout: Path
    commit: str | None
    outcomes: list[Outcome]
    generated: int

    @property
    def caught(self) -> int:
        return sum(outcome.caught for outcome in self.outcomes)

    @property
    def ratio(self) -> float:
        return self.caught / len(self.outcomes) if self.outcomes else 0.0

    def as_json(self) -> dict[str, object]:
        return {
            "checkout": str(self.checkout),
            "commit": self.commit,
            "pinned_commit": PINNED_COMMIT,
            "at_pin": self.commit == PINNED_COMMIT,
            "fixtures": len(self.outcomes),
            "redacted": self.caught,
            "ratio": round(self.ratio, 4),
            "generated_skipped": self.generated,
            "misses": [
                {
                    "rule": outcome.fixture.rule,
                    "line": outcome.fixture.line,
                    "fixture": outcome.fixture.text,
                    "redacted": outcome.redacted,
                    "residue": list(outcome.residue),
                }
                for outcome in self.outcomes
                if not outcome.caught
            ],
        }

    def text(self) -> str:
        commit = self.commit or "unknown commit"
        pin = "the pinned commit" if self.commit == PINNED_COMMIT else f"not the pinned {PINNED_COMMIT[:12]}"
        lines = [
            f"gitleaks at {commit[:12]} ({pin}): {self.caught} of {len(self.outcomes)} literal fixtures "
            f"redacted ({self.ratio:.1%}); {self.generated} generated at gitleaks' test time, skipped",
        ]
        misses = [outcome for outcome in self.outcomes if not outcome.caught]
        if misses:
            lines.append("not redacted:")
        for outcome in misses:
            shown = outcome.fixture.text.replace("\n", "\\n")
            shown = shown if len(shown) <= 100 else shown[:97] + "..."
            why = f"  still whole: {', '.join(outcome.residue)}" if outcome.residue else ""
            lines.append(f"  {outcome.fixture.rule}.go:{outcome.fixture.line}  {shown}{why}")
        return "\n".join(lines)


def bench(checkout: Path) -> Report:
    found = fixtures(checkout)
    return Report(checkout, commit_of(checkout), [judge(f) for f in found.literal], found.generated)
