"""State files that are appended to or locked are opened with O_NOFOLLOW: a planted symlink is refused."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from sbcore import paths
from sbcore.config import hot
from sbcore.deliver.mailbox import Mailbox
from sbcore.observe.offsets import OffsetStore
from sbcore.worker.lifecycle import SessionLock, open_log


@pytest.fixture
def target(tmp_path: Path) -> Path:
    """The file a planted link points at: it must come out of every case untouched."""
    victim = tmp_path / "victim"
    victim.write_text("original\n")
    victim.chmod(0o644)
    return victim


def plant(link: Path, target: Path) -> Path:
    link.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    link.symlink_to(target)
    return link


def untouched(target: Path) -> bool:
    return target.read_text() == "original\n" and (target.stat().st_mode & 0o777) == 0o644


def test_append_private_refuses_a_symlink(tmp_path: Path, target: Path) -> None:
    link = plant(tmp_path / "state" / "events.jsonl", target)
    with pytest.raises(paths.SymlinkRefused, match="symbolic link"):
        paths.append_private(link, b"appended\n")
    assert untouched(target)


def test_a_dangling_symlink_is_not_followed_to_create_its_target(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere" / "created"
    (tmp_path / "elsewhere").mkdir()
    link = plant(tmp_path / "state" / "spool.jsonl", elsewhere)
    with pytest.raises(paths.SymlinkRefused):
        paths.append_private(link, b"x\n")
    assert not elsewhere.exists()


def _offset_lock(data: Path) -> Path:
    store = OffsetStore("s1", data)
    with pytest.raises(paths.SymlinkRefused), store.lock("main"):
        pass
    return store.directory / "main.lock"


def _mailbox_lock(data: Path) -> Path:
    mailbox = Mailbox("s1", data)
    with pytest.raises(paths.SymlinkRefused), mailbox._locked(wait=None):
        pass
    return mailbox.lock_path


def _session_lock(data: Path) -> Path:
    lock = SessionLock(data, "s1")
    with pytest.raises(paths.SymlinkRefused):
        lock.try_acquire(host="h")
    return lock.path


def _hot_lock(data: Path) -> Path:
    with pytest.raises(paths.SymlinkRefused), hot._locked(data):
        pass
    return data / "hot.lock"


def _worker_log(data: Path) -> Path:
    path = data / "logs" / "worker-s1.log"
    with pytest.raises(paths.SymlinkRefused):
        open_log(path)
    return path


LOCK_PATHS: dict[str, tuple[Callable[[Path], Path], Callable[[Path], Path]]] = {
    "offsets lock": (lambda d: OffsetStore("s1", d).directory / "main.lock", _offset_lock),
    "mailbox lock": (lambda d: Mailbox("s1", d).lock_path, _mailbox_lock),
    "session lock": (lambda d: SessionLock(d, "s1").path, _session_lock),
    "hot-config lock": (lambda d: d / "hot.lock", _hot_lock),
    "worker log": (lambda d: d / "logs" / "worker-s1.log", _worker_log),
}


@pytest.mark.parametrize("name", sorted(LOCK_PATHS))
def test_locks_and_logs_refuse_a_symlink(tmp_path: Path, target: Path, name: str) -> None:
    where, attempt = LOCK_PATHS[name]
    data = tmp_path / "data"
    link = plant(where(data), target)
    assert attempt(data) == link
    assert untouched(target)
    assert os.path.islink(link)
