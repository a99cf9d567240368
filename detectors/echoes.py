"""What a runner printed of the commands it ran: the works a failure's text shows were run under it.

A task runner or a script often echoes each command before it runs it: npm and script runners with a
``> `` prefix (``> spago test``), a shell trace with ``+ `` (``+ make build``), make plainly, a recipe line as
it stands (``docker compose -f compose.test.yml up --abort-on-container-exit``). A command the agent runs by
hand next, or ran before, that such a line shows is the same work as the task that echoed it. Read from the
head of a failure's text (where the echoes stand), as work keys (:func:`~.identity.work_identity`), so two
spellings of one command meet.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .identity import work_identity

ECHO_LINES = 12
"""How many lines of a failure's head are read for a plain echo."""

_ECHO = re.compile(r"^[>+] (\S.*)$", re.MULTILINE)
_PACKAGE_BANNER = re.compile(r"^\S+@\d")  # npm's `> shop@2.4.1 test`, above the command it runs


def echoed(text: str) -> list[str]:
    """The work keys of the commands a runner echoed with a ``> `` or ``+ `` before running them, as shown
    in a failure's text: such a line is certainly a command."""
    if "> " not in text and "+ " not in text:
        return []
    return [
        work_identity(command).key for command in _ECHO.findall(text) if not _PACKAGE_BANNER.match(command)
    ]


@lru_cache(maxsize=256)
def line_works(text: str) -> frozenset[str]:
    """The work each line of a failure's head would be if it were a command: where a runner echoes the
    commands it runs plainly (a line that is not one gives a key no command has, so it ties nothing)."""
    return frozenset(work_identity(line).key for line in text.splitlines()[:ECHO_LINES] if line.strip())
