"""git run by the observer runs nothing a repository's own configuration names (issue 25, item 1).

Each test builds a workspace the way a copied folder or an unpacked archive arrives: its own ``.git/config``
naming a program of the attacker's, which writes a marker file when it runs. The observer's ``Run`` tool
then runs the git command the built-in ``git-log`` lens is granted; the marker must never appear.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest

from sbcore.think.tools.run import run_command

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]


def git(root: Path, *args: str) -> str:
    done = subprocess.run([*GIT, *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout


def evil(tmp_path: Path) -> tuple[Path, Path]:
    """A program that leaves a marker and passes its input through (so a filter still works)."""
    marker = tmp_path / "ran"
    script = tmp_path / "evil.sh"
    script.write_text(f"#!/bin/sh\necho ran >> {marker}\ncat\n")
    script.chmod(0o755)
    return script, marker


def repo(tmp_path: Path) -> Path:
    root = tmp_path / "work"
    root.mkdir()
    git(root, "init", "-q")
    (root / "app.py").write_text("print(1)\n")
    git(root, "add", "app.py")
    git(root, "commit", "-q", "-m", "first")
    return root


def run(root: Path, command: str) -> str:
    return asyncio.run(run_command(command, cwd=root)).text


def test_a_signature_program_in_the_repositorys_config_never_runs(tmp_path: Path) -> None:
    root = repo(tmp_path)
    script, marker = evil(tmp_path)
    # a commit carrying a signature, so that showing signatures would call the configured program
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    body = (
        f"tree {tree}\nauthor t <t@x> 1700000000 +0000\ncommitter t <t@x> 1700000000 +0000\n"
        "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n"
    )
    signed = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--stdin"],
        cwd=root,
        input=body,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    git(root, "update-ref", "refs/heads/signed", signed)
    git(root, "config", "gpg.program", str(script))
    git(root, "config", "log.showSignature", "true")
    subprocess.run(["git", "log", "-n", "1", "signed"], cwd=root, capture_output=True)  # the route is real
    assert marker.exists(), "without the observer's configuration, git runs the repository's program"
    marker.unlink()
    out = run(root, "git log -n 40 --date=short --name-only --format=%h%x09%ad%x09%an%x09%s signed")
    assert "signed" in out
    assert not marker.exists()


def test_a_clean_filter_in_the_repositorys_config_never_runs(tmp_path: Path) -> None:
    root = repo(tmp_path)
    script, marker = evil(tmp_path)
    (root / ".gitattributes").write_text("*.py filter=evil\n")
    git(root, "config", "filter.evil.clean", str(script))
    git(root, "config", "filter.evil.smudge", str(script))
    (root / "app.py").write_text("print(2)\n")
    os.utime(root / "app.py", (1, 1))
    subprocess.run(["git", "status", "--short"], cwd=root, capture_output=True)
    assert marker.exists(), "without the observer's configuration, git runs the repository's filter"
    marker.unlink()
    os.utime(root / "app.py", (2, 2))
    out = run(root, "git status --short --branch")
    assert "app.py" in out
    assert not marker.exists()


@pytest.mark.parametrize(
    ("key", "command"),
    [
        ("diff.evil.textconv", "git log -n 1 -p"),
        ("diff.evil.command", "git log -n 1 -p --ext-diff"),
    ],
)
def test_a_diff_driver_in_the_repositorys_config_never_runs(tmp_path: Path, key: str, command: str) -> None:
    root = repo(tmp_path)
    script, marker = evil(tmp_path)
    (root / ".gitattributes").write_text("*.py diff=evil\n")
    git(root, "config", key, str(script))
    (root / "app.py").write_text("print(3)\n")
    git(root, "commit", "-q", "-am", "second")
    run(root, command)
    assert not marker.exists()


def test_configuration_that_cannot_be_listed_means_git_is_not_run(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / ".git" / "config").write_text("[core\nbroken = \n")  # git refuses to read it
    out = run(root, "git status --short")
    assert "not run: git's configuration could not be listed" in out
