"""Thin wrappers around rsync/ssh used by the deploy commands."""
import subprocess

from deploykit.config import Target


def push(src: str, target: Target, dest: str) -> subprocess.CompletedProcess:
    cmd = f"rsync -az --delete {src} {target.user}@{target.host}:{dest}"
    return subprocess.run(cmd, shell=True, check=True)


def remote(target: Target, command: str) -> str:
    out = subprocess.run(
        ["ssh", f"{target.user}@{target.host}", command],
        check=True, capture_output=True, text=True,
    )
    return out.stdout
