"""Every plugin command the product names, collected from the code and the docs (not from a hand list).

A slash command the product prints must be one that runs: in Claude Code a plugin command
``commands/NAME.md`` of the plugin ``second-brain`` is ``/second-brain:NAME``, and the short
``/second-brain-NAME`` or ``/NAME`` forms answer "no command with that name" in ``claude -p``. The
forms come from three places, so a new text is covered without anyone adding it here:

- literally, ``/second-brain:NAME`` anywhere in the README, docs/, plugin/ and the package's sources;
- constructed, every ``slash_command("NAME", ...)`` call in the package's sources (the framing builds
  the mute hint and the finish gate's off switch this way);
- rendered, the user's copy of an advisory and the finish gate's message, as the hooks print them.

Used by tests/hooks/test_command_names.py (each names a file in plugin/commands) and by
tests/e2e/test_slash_commands.py (each runs on the real CLI).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COMMANDS = REPO / "plugin" / "commands"
NAMESPACED = re.compile(r"/second-brain:([a-z][a-z0-9-]*)")
OLD_FORM = re.compile(r"(?:^|[\s`(\"'])(/second-brain-[a-z]+)\b", re.M)
"""The unnamespaced form (``/second-brain-config``), which does not run; data paths like
``…/data/second-brain-sbcore`` do not match because a word character precedes their slash."""


def text_files() -> list[Path]:
    """The README, the docs, the plugin and the package's sources."""
    found = [REPO / "README.md"]
    found += sorted((REPO / "docs").rglob("*.md"))
    found += sorted(path for path in (REPO / "plugin").rglob("*") if path.is_file())
    for package in ("sbcore", "detectors", "catalogue"):
        found += sorted(
            path for path in (REPO / package).rglob("*") if path.suffix in {".py", ".yaml", ".j2"}
        )
    return [path for path in found if "__pycache__" not in path.parts]


def _constructed(path: Path) -> list[str]:
    """``NAME`` of every ``slash_command("NAME", …)`` call in a Python source."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        first = node.args[0]
        if called == "slash_command" and isinstance(first, ast.Constant) and isinstance(first.value, str):
            names.append(first.value)
    return names


def _rendered() -> list[str]:
    """The texts the hooks print that name commands: an advisory's user copy and the finish gate's."""
    from sbcore.deliver.channels import StopBlock
    from sbcore.deliver.framing import frame_for_user
    from sbcore.gate.advice import Advice

    advice = Advice(
        id="a1",
        task_id="t",
        session_id="s",
        workspace="/w",
        kind="repeat-failure",
        headline="The same command failed three times",
        body="Read the error.",
        confidence=0.9,
        dedup_key="k",
        generated_at=0.0,
        ttl=600.0,
        queue_timeout=600.0,
    )
    return [frame_for_user(advice), StopBlock().render([advice])["systemMessage"]]


def named_commands() -> dict[str, list[str]]:
    """Each command name the product names, with where (``file`` or ``rendered: …``)."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in text_files():
        where = str(path.relative_to(REPO))
        text = path.read_text(encoding="utf-8", errors="replace")
        for name in NAMESPACED.findall(text):
            found[name].append(where)
        if path.suffix == ".py":
            for name in _constructed(path):
                found[name].append(f"{where} (slash_command)")
    for index, text in enumerate(_rendered()):
        for name in NAMESPACED.findall(text):
            found[name].append(f"rendered text {index}")
    return dict(found)


def old_forms() -> list[str]:
    """``file: form`` for every unnamespaced slash command left in the texts."""
    return [
        f"{path.relative_to(REPO)}: {form}"
        for path in text_files()
        for form in OLD_FORM.findall(path.read_text(encoding="utf-8", errors="replace"))
    ]


def command_files() -> set[str]:
    """The command names the plugin defines (``plugin/commands/NAME.md``)."""
    return {path.stem for path in COMMANDS.glob("*.md")}
