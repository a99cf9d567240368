"""git that runs nothing a repository's own configuration names.

A workspace that arrives with its own ``.git/config`` (a copied folder or an unpacked archive rather than a
clone) chooses programs git runs on its behalf: ``gpg.program`` when ``git log`` checks a signature
(``log.showSignature``), a ``filter.<driver>.clean`` when ``git status`` compares a file, a ``diff.<driver>``
command or text conversion, a submodule's own configuration when ``git status`` recurses into it. The
observer's ``Run`` tool runs git commands a detector was granted (the built-in ``git-log`` lens among them),
so every one of them gets, on top of the scrubbed environment, configuration that outranks every file
(``GIT_CONFIG_COUNT``/``KEY``/``VALUE``, which git reads after all of them):

- fixed keys that turn off what would execute: signature checks and their programs, the file-system
  monitor and hooks (already in the scrubbed environment), external diff, editors, the SSH command, the
  credential helpers, every transport, submodule recursion;
- for each driver the repository's configuration defines (read first with ``git config --list``, which
  runs nothing), its programs replaced by harmless ones: ``cat`` for a filter or a text conversion, ``false``
  for a diff or merge command, and its filter marked not required.

Standard library only.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from pathlib import Path

from sbcore.problems import SbcoreError

GIT_FIXED = (
    ("log.showSignature", "false"),
    ("gpg.program", "false"),
    ("gpg.openpgp.program", "false"),
    ("gpg.ssh.program", "false"),
    ("gpg.x509.program", "false"),
    ("diff.external", "false"),
    ("core.editor", "false"),
    ("sequence.editor", "false"),
    ("core.sshCommand", "false"),
    ("core.askPass", "false"),
    ("credential.helper", ""),
    ("protocol.allow", "never"),
    ("status.submoduleSummary", "false"),
    ("diff.ignoreSubmodules", "all"),
    ("submodule.recurse", "false"),
)
"""Keys every observer git command gets, whatever the repository says."""

# A driver's keys that name a program, and what takes its place.
_DRIVER_PROGRAMS = re.compile(
    r"^(?P<driver>(?:filter|diff|merge)\.[^\n]+)\.(?P<key>clean|smudge|process|textconv|command|driver)$",
    re.IGNORECASE,
)
_REPLACEMENT = {
    "clean": "cat",
    "smudge": "cat",
    "textconv": "cat",
    "process": "",
    "command": "false",
    "driver": "false",
}
LIST_TIMEOUT_S = 5.0


def is_git(argv: list[str]) -> bool:
    return bool(argv) and argv[0].rsplit("/", 1)[-1] == "git"


class GitConfigUnreadable(SbcoreError, OSError):
    """The repository's configuration could not be listed, so what it names cannot be neutralised."""


async def git_environment(env: Mapping[str, str], cwd: Path) -> dict[str, str]:
    """``env`` with the configuration that keeps git from running what the repository at ``cwd`` names;
    raises :class:`GitConfigUnreadable` when the repository's configuration cannot be listed."""
    names = await _configured_names(env, cwd)
    if names is None:
        raise GitConfigUnreadable("git's configuration could not be listed")
    pairs = list(GIT_FIXED)
    for name in names:
        found = _DRIVER_PROGRAMS.match(name)
        if found is None:
            continue
        key = found.group("key").lower()
        pairs.append((name, _REPLACEMENT[key]))
        if key in ("clean", "smudge", "process"):
            pairs.append((f"{found.group('driver')}.required", "false"))
    hardened = {name: value for name, value in env.items() if not name.startswith("GIT_CONFIG_")}
    existing = [
        (env[f"GIT_CONFIG_KEY_{index}"], env[f"GIT_CONFIG_VALUE_{index}"])
        for index in range(int(env.get("GIT_CONFIG_COUNT", "0") or 0))
        if f"GIT_CONFIG_KEY_{index}" in env and f"GIT_CONFIG_VALUE_{index}" in env
    ]
    for index, (key, value) in enumerate([*existing, *pairs]):
        hardened[f"GIT_CONFIG_KEY_{index}"] = key
        hardened[f"GIT_CONFIG_VALUE_{index}"] = value
    hardened["GIT_CONFIG_COUNT"] = str(len(existing) + len(pairs))
    return hardened


async def _configured_names(env: Mapping[str, str], cwd: Path) -> list[str] | None:
    """Every configuration key git sees in ``cwd`` (with includes; listing them runs nothing), or None when
    they cannot be listed (git cannot start, cannot read them, or takes too long)."""
    try:
        proc = await asyncio.create_subprocess_exec(
            "git",
            "config",
            "--includes",
            "--null",
            "--name-only",
            "--list",
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            cwd=str(cwd),
            env=dict(env),
        )
    except OSError:
        return None
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), LIST_TIMEOUT_S)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        return None
    if proc.returncode != 0:
        return None  # a configuration git itself cannot read: what it names is unknown
    return [name for name in out.decode("utf-8", "replace").split("\0") if name]
