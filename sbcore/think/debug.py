"""The ``--debug`` capture: what each pass sent, and each fork's whole loop, as files.

Layout (design, "Human surfaces", ``debug.enabled``)::

    <root>/<session>/<pass>/digest.txt        the shared prefix every fork of the pass received,
                                              ending at the cache breakpoint
    <root>/<session>/<pass>/<detector>.txt    that fork's private tail, every model reply and tool call
                                              with its result, and its final outcome
    <root>/<session>/<pass>/compaction.txt    when the pass compacted the window: what was folded, into what

Purely mechanical: the strings are ones the engine holds anyway, written as they happen (a fork's file grows
while the fork runs, so a hung fork still shows how far it got). Directories are 0700 and files 0600: the
capture holds the session's projected content.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sbcore.paths import append_private, safe_name, write_private


class ForkLog:
    """Appends one fork's loop to its file, section by section."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def section(self, title: str, text: str) -> None:
        append_private(self.path, f"=== {title} ===\n{text.rstrip()}\n".encode())

    def json(self, title: str, value: Any) -> None:
        self.section(title, json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False, default=str))


class DebugCapture:
    """Where one session's passes are captured."""

    def __init__(self, root: Path | str, session: str) -> None:
        self.root = Path(root)
        self.session = safe_name(session)

    def pass_dir(self, pass_number: int) -> Path:
        return self.root / self.session / f"{pass_number:04d}"

    def digest(self, pass_number: int, text: str) -> Path:
        path = self.pass_dir(pass_number) / "digest.txt"
        write_private(path, text.encode("utf-8"))
        return path

    def fork(self, pass_number: int, detector: str) -> ForkLog:
        path = self.pass_dir(pass_number) / f"{safe_name(detector)}.txt"
        write_private(path, b"")
        return ForkLog(path)

    def compaction(self, pass_number: int, details: Mapping[str, Any], summary: str) -> Path:
        path = self.pass_dir(pass_number) / "compaction.txt"
        head = "\n".join(f"{key}: {value}" for key, value in details.items())
        write_private(path, f"{head}\n=== summary ===\n{summary}\n".encode())
        return path
