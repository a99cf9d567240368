"""Which Run commands execute code the repository controls, and the one check that gates them.

Run executes exact allowlisted commands without a shell, but many ordinary developer commands run code the
repository chose: ``mypy`` imports the plugins its ``mypy.ini``/``setup.cfg``/``pyproject.toml`` names,
``pytest`` imports ``conftest.py``, ``npx`` runs a binary out of ``node_modules``, ``make`` runs the
Makefile, ``cargo`` compiles and runs ``build.rs``. Allowlisting such a command in a workspace nobody vetted
hands the repository a way to run a process, which is exactly what an untrusted workspace must not have.

:data:`REPO_CODE_PROGRAMS` is the registry (data, not code paths): each entry is an argument prefix and the
reason it executes repository code. A program named by a relative path (``./gradlew``, ``scripts/lint``) is
a file of the repository and always counts. :func:`executes_repo_code` classifies one command;
:func:`repo_code_refusal` is the gate dispatch applies before Run executes anything: such a command runs only
when the caller passes ``trusted=True`` -- the grant came from the user's own configuration layers, or the
workspace's content was trusted by the user. Grants from the built-in catalogue, an installed pack or the
workspace's own files default to untrusted (those authors chose the command, not what the repository makes
it do).

Commands that read repository configuration but do not execute it (``git`` with the hardening Run's
environment applies, ``ruff``, ``go vet`` with ``GOTOOLCHAIN=local``, ``tsc`` itself) are not listed.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass

TRUST_COMMAND = "second-brain trust"
"""The command that trusts a workspace's content; named by every refusal."""


@dataclass(frozen=True)
class RepoCodeRule:
    """Commands starting with ``argv`` (the program compared by its base name) execute repository code."""

    argv: tuple[str, ...]
    reason: str


def _rules(programs: str, reason: str) -> tuple[RepoCodeRule, ...]:
    return tuple(RepoCodeRule(tuple(program.split()), reason) for program in programs.split(","))


REPO_CODE_PROGRAMS: tuple[RepoCodeRule, ...] = (
    *_rules("mypy,dmypy,stubtest", "loads the plugins named by the repository's mypy configuration"),
    *_rules("pylint", "loads the plugins named by the repository's pylint configuration"),
    *_rules("pytest,py.test", "imports the repository's conftest.py files and the plugins they name"),
    *_rules("tox,nox", "runs the environments the repository's tox.ini / noxfile.py define"),
    *_rules("npx,pnpx,bunx", "runs a package binary from the repository's node_modules, or fetches one"),
    *_rules("npm,yarn,pnpm,bun", "runs scripts defined by the repository's package.json"),
    *_rules("eslint,prettier,jest,vitest,webpack,vite", "loads the repository's JavaScript configuration"),
    *_rules("make,gmake,just,task,rake,ninja,cmake,meson,bazel", "runs the recipes of its build files"),
    *_rules("cargo", "compiles and runs the repository's build scripts and procedural macros"),
    *_rules("go test,go run,go generate,go build,go install", "builds and runs the repository's Go code"),
    *_rules("gradle,mvn,ant,sbt", "runs the repository's build definition, which is code"),
    *_rules("pre-commit", "runs the hooks the repository's .pre-commit-config.yaml names"),
    *_rules("uv,poetry,pipenv,hatch,pdm,pip,pip3", "runs the project's scripts or builds its packages"),
    *_rules("bundle,composer", "runs the project's scripts or builds its packages"),
    *_rules(
        "python,python3,pypy,pypy3,node,deno,ruby,perl,php,sh,bash,zsh,dash,fish,env,xargs",
        "an interpreter or launcher: runs whatever it is given, the repository's files included",
    ),
)
"""The registry of commands that execute repository-controlled code."""

_VERSIONED_INTERPRETER = re.compile(r"^(python|pypy|ruby|perl|php|node)\d[\d.]*$")


def executes_repo_code(command: str) -> str | None:
    """Why ``command`` executes code the repository controls, or None when it does not (as far as we know)."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return None  # the loader refuses such commands; nothing runs
    if not argv:
        return None
    program = argv[0]
    if "/" in program and not os.path.isabs(program):
        return f"{program} is a file of the repository"
    name = os.path.basename(program)
    if _VERSIONED_INTERPRETER.match(name):
        return "an interpreter: runs whatever it is given, the repository's files included"
    words = (name, *argv[1:])
    for rule in REPO_CODE_PROGRAMS:
        if words[: len(rule.argv)] == rule.argv:
            return rule.reason
    return None


def repo_code_refusal(command: str, *, trusted: bool = False) -> str | None:
    """The refusal for running ``command``, or None when it may run.

    A command that executes repository code runs only when ``trusted``: its grant came from the user's own
    configuration layers, or the user trusted this workspace's content. Everything else always may run.
    """
    reason = executes_repo_code(command)
    if reason is None or trusted:
        return None
    return (
        f"refused: {command!r} executes code from the repository ({reason}), and this workspace's content "
        f"is not trusted; run `{TRUST_COMMAND}` in the workspace to allow it, or grant the command in your "
        "own (global or local) configuration"
    )
