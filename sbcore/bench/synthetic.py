"""A synthetic Claude Code session: deterministic transcript records of plausible coding work.

The worker benchmark needs a session long enough to reach a given number of
observations, shaped like real ones so the worker does the work it does in a
real session: user prompts, assistant text (with thinking blocks the
projection drops), Read, Grep, Edit, Write and Bash calls with their results
(bulky successful results the projection drops, failed commands and edits it
keeps), one content block per assistant record as the CLI writes them. The
same ``seed`` always yields the same records; only the clock is the caller's.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

CLI_VERSION = "2.1.328"
MODEL = "claude-sonnet-4-5"
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

FILES = (
    "src/inventory/models.py",
    "src/inventory/storage.py",
    "src/inventory/api.py",
    "src/inventory/pricing.py",
    "src/inventory/cli.py",
    "tests/test_api.py",
    "tests/test_pricing.py",
    "tests/test_storage.py",
    "README.md",
    "pyproject.toml",
)
REQUESTS = (
    "Add a discount field to orders and apply it in the pricing module.",
    "The storage layer loses the last write when two updates race; find out why and fix it.",
    "Rename `sku_code` to `sku` everywhere, including the API responses.",
    "Add pagination to GET /items (limit and cursor), with tests.",
    "Why does test_pricing fail on the CI runner but not locally?",
    "Write a CLI command that exports the inventory as CSV.",
    "Tidy up the error messages in api.py so they name the offending field.",
    "Bump the version to 0.4.0 and update the changelog.",
)
FUNCTIONS = ("apply_discount", "load_items", "save_item", "paginate", "export_csv", "validate_sku", "total")
PLANS = (
    "Let me look at how {fn} is used before changing it.",
    "I'll check {path} first to see the current behaviour.",
    "The failure points at {fn}; reading the test that covers it.",
    "Running the tests to see where we stand.",
    "That edit should handle the empty case as well; re-running the suite.",
)


@dataclass
class Turn:
    """One user turn: its transcript records and the final assistant message (what the Stop hook sees)."""

    number: int
    records: list[dict[str, Any]]
    final_text: str


class SyntheticSession:
    """An endless, deterministic sequence of :class:`Turn` values for one session."""

    def __init__(self, session_id: str, cwd: str, *, seed: int = 0, start: datetime = START) -> None:
        self.session_id = session_id
        self.cwd = cwd
        self.rng = random.Random(seed)
        self.clock = start
        self.parent: str | None = None
        self.turn = 0

    def turns(self) -> Iterator[Turn]:
        while True:
            yield self.next_turn()

    def next_turn(self) -> Turn:
        self.turn += 1
        rng = self.rng
        request = REQUESTS[(self.turn - 1) % len(REQUESTS)]
        records = [self._prompt(f"{request} (turn {self.turn})")]
        records.append(
            self._assistant({"type": "thinking", "thinking": self._thinking(), "signature": "sig"})
        )
        records.append(self._text(f"I'll start by reading the code involved in: {request.lower()}"))
        for _ in range(rng.randint(5, 12)):
            records += self._step()
        final = (
            f"Done with turn {self.turn}: {rng.choice(FUNCTIONS)} is updated in {rng.choice(FILES)} "
            f"and the suite passes ({rng.randint(40, 160)} tests)."
        )
        records.append(self._text(final))
        return Turn(self.turn, records, final)

    # -- one step of agent work ---------------------------------------------------------------------

    def _step(self) -> list[dict[str, Any]]:
        rng = self.rng
        path = rng.choice(FILES)
        fn = rng.choice(FUNCTIONS)
        out: list[dict[str, Any]] = []
        if rng.random() < 0.35:
            out.append(self._text(rng.choice(PLANS).format(fn=fn, path=path)))
        kind = rng.choices(("Read", "Grep", "Edit", "Bash", "Write"), weights=(30, 12, 25, 28, 5))[0]
        if kind == "Read":
            body = self._source(path, rng.randint(40, 160))
            out += self._call("Read", {"file_path": f"{self.cwd}/{path}"}, body)
        elif kind == "Grep":
            hits = "\n".join(f"{rng.choice(FILES)}:{rng.randint(1, 300)}:    {fn}(" for _ in range(6))
            out += self._call("Grep", {"pattern": fn, "path": self.cwd, "output_mode": "content"}, hits)
        elif kind == "Edit":
            edit = {
                "file_path": f"{self.cwd}/{path}",
                "old_string": f"def {fn}(items):\n    return items",
                "new_string": f"def {fn}(items, *, limit=None):\n    return items[:limit]",
            }
            if rng.random() < 0.12:
                error = "<tool_use_error>String to replace not found in file.</tool_use_error>"
                out += self._call("Edit", edit, error, error=True)
            else:
                out += self._call("Edit", edit, f"The file {self.cwd}/{path} has been updated.")
        elif kind == "Write":
            content = self._source(path, rng.randint(20, 60))
            out += self._call(
                "Write", {"file_path": f"{self.cwd}/{path}", "content": content}, "File written."
            )
        else:
            out += self._bash(fn)
        return out

    def _bash(self, fn: str) -> list[dict[str, Any]]:
        rng = self.rng
        command = rng.choice(("pytest -q", "pytest -q tests/test_pricing.py", "ruff check src", "git status"))
        if command.startswith("pytest") and rng.random() < 0.3:
            failure = (
                f"Exit code 1\nFAILED tests/test_pricing.py::test_{fn} - AssertionError: assert 90 == 81\n"
                f"1 failed, {rng.randint(20, 150)} passed in {rng.uniform(0.5, 4):.2f}s"
            )
            return self._call(
                "Bash", {"command": command, "description": "Run the tests"}, failure, error=True
            )
        if command.startswith("pytest"):
            dots = "".join(
                f"tests/test_{name}.py {'.' * rng.randint(4, 30)}\n" for name in ("api", "pricing")
            )
            output = f"{dots}{rng.randint(40, 160)} passed in {rng.uniform(0.5, 4):.2f}s"
        elif command.startswith("ruff"):
            output = "All checks passed!"
        else:
            output = "On branch main\nChanges not staged for commit:\n\tmodified:   src/inventory/pricing.py"
        return self._call("Bash", {"command": command, "description": "Check the working tree"}, output)

    # -- records ------------------------------------------------------------------------------------

    def _base(self, kind: str) -> dict[str, Any]:
        self.clock += timedelta(seconds=self.rng.randint(1, 9))
        record_id = str(uuid.UUID(int=self.rng.getrandbits(128), version=4))
        record = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.session_id,
            "version": CLI_VERSION,
            "gitBranch": "main",
            "type": kind,
            "uuid": record_id,
            "timestamp": self.clock.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        }
        self.parent = record_id
        return record

    def _prompt(self, text: str) -> dict[str, Any]:
        record = self._base("user")
        record["message"] = {"role": "user", "content": text}
        return record

    def _assistant(self, block: dict[str, Any]) -> dict[str, Any]:
        record = self._base("assistant")
        record["requestId"] = f"req_{self.rng.getrandbits(64):016x}"
        record["message"] = {
            "id": f"msg_{self.rng.getrandbits(64):016x}",
            "type": "message",
            "role": "assistant",
            "model": MODEL,
            "content": [block],
            "stop_reason": None,
            "usage": {
                "input_tokens": 4,
                "cache_creation_input_tokens": self.rng.randint(100, 3000),
                "cache_read_input_tokens": self.rng.randint(10_000, 60_000),
                "output_tokens": self.rng.randint(20, 600),
            },
        }
        return record

    def _text(self, text: str) -> dict[str, Any]:
        return self._assistant({"type": "text", "text": text})

    def _call(
        self, tool: str, tool_input: dict[str, Any], output: str, *, error: bool = False
    ) -> list[dict[str, Any]]:
        call_id = f"toolu_{self.rng.getrandbits(96):024x}"
        call = self._assistant({"type": "tool_use", "id": call_id, "name": tool, "input": tool_input})
        result = self._base("user")
        block = {"tool_use_id": call_id, "type": "tool_result", "content": output, "is_error": error}
        result["message"] = {"role": "user", "content": [block]}
        result["toolUseResult"] = f"Error: {output}" if error else {"stdout": output, "stderr": ""}
        return [call, result]

    def _thinking(self) -> str:
        pairs = zip(FUNCTIONS, FILES, strict=False)  # FILES is the longer: one sentence per function
        return " ".join(self.rng.choice(PLANS).format(fn=fn, path=path) for fn, path in pairs)

    def _source(self, path: str, lines: int) -> str:
        """A Read result: numbered lines of plausible Python."""
        body = []
        for number in range(1, lines + 1):
            fn = FUNCTIONS[number % len(FUNCTIONS)]
            text = (
                f"def {fn}(items):" if number % 12 == 1 else f"    value = {fn}(items[{number}:])  # {path}"
            )
            body.append(f"{number:>6}\t{text}")
        return "\n".join(body)
