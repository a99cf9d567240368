"""Where state lives, and that everything written there is private."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from sbcore import paths


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def test_data_dir_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("SBCORE_DATA_DIR", "CLAUDE_PLUGIN_DATA", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert paths.data_dir() == tmp_path / "home" / ".local" / "share" / "sbcore"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert paths.data_dir() == tmp_path / "xdg" / "sbcore"
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path / "plugin"))
    assert paths.data_dir() == tmp_path / "plugin"
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "explicit"))
    assert paths.data_dir() == tmp_path / "explicit"


def test_config_dir_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("SBCORE_CONFIG_DIR", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert paths.config_dir() == tmp_path / "home" / ".config" / "sbcore"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert paths.config_dir() == tmp_path / "xdg" / "sbcore"
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "explicit"))
    assert paths.config_dir() == tmp_path / "explicit"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0", "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"),
        ("../../etc/passwd", "etc-passwd"),
        ("/home/dev/my project", "home-dev-my-project"),
        ("..", "_"),
        ("", "_"),
        ("x" * 300, "x" * 200),
    ],
)
def test_safe_name(value: str, expected: str) -> None:
    assert paths.safe_name(value) == expected


def test_ensure_private_dir_makes_every_new_level_0700(open_umask: None, tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "c"
    assert paths.ensure_private_dir(target) == target
    assert [_mode(p) for p in (tmp_path / "a", tmp_path / "a" / "b", target)] == [0o700] * 3


def test_ensure_private_dir_tightens_the_leaf_but_not_existing_parents(tmp_path: Path) -> None:
    parent = tmp_path / "users-own"
    parent.mkdir()
    parent.chmod(0o755)
    leaf = parent / "state"
    leaf.mkdir()
    leaf.chmod(0o777)
    paths.ensure_private_dir(leaf)
    assert (_mode(parent), _mode(leaf)) == (0o755, 0o700)
    paths.ensure_private_dir(leaf / "new")
    assert (_mode(parent), _mode(leaf), _mode(leaf / "new")) == (0o755, 0o700, 0o700)


def test_ensure_private_dir_refuses_a_file_in_the_way(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    blocker.chmod(0o644)
    with pytest.raises(FileExistsError):
        paths.ensure_private_dir(blocker / "below")
    with pytest.raises(FileExistsError):
        paths.ensure_private_dir(blocker)
    assert _mode(blocker) == 0o644


def test_write_private_replaces_atomically_as_0600(open_umask: None, tmp_path: Path) -> None:
    target = tmp_path / "state" / "offsets" / "x.json"
    paths.write_private(target, b"one")
    paths.write_private(target, b"two")
    assert target.read_bytes() == b"two"
    assert _mode(target) == 0o600
    assert [_mode(p) for p in (tmp_path / "state", target.parent)] == [0o700, 0o700]
    assert sorted(p.name for p in target.parent.iterdir()) == ["x.json"]  # no temp file left behind


def test_write_private_leaves_the_old_file_when_it_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "x.json"
    paths.write_private(target, b"old")

    def fail(fd: int) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OSError, match="disk on fire"):
        paths.write_private(target, b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.json"]


def test_append_private_creates_0600_and_tightens_an_existing_file(open_umask: None, tmp_path: Path) -> None:
    target = tmp_path / "spool" / "s.jsonl"
    paths.append_private(target, b"a\n")
    assert _mode(target) == 0o600 and _mode(target.parent) == 0o700
    target.chmod(0o644)
    paths.append_private(target, b"b\n")
    assert target.read_bytes() == b"a\nb\n"
    assert _mode(target) == 0o600


def test_append_private_line_start_repairs_only_a_torn_tail(tmp_path: Path) -> None:
    target = tmp_path / "s.jsonl"
    paths.append_private(target, b"first\n", line_start=True)
    paths.append_private(target, b"second\n", line_start=True)
    assert target.read_bytes() == b"first\nsecond\n"
    paths.append_private(target, b"tor")  # a write cut short
    paths.append_private(target, b"third\n", line_start=True)
    assert target.read_bytes() == b"first\nsecond\ntor\nthird\n"


def test_append_private_finishes_a_short_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = os.write
    calls: list[int] = []

    def dribble(fd: int, data: bytes | memoryview) -> int:
        calls.append(len(data))
        return real_write(fd, bytes(data[:3]))

    monkeypatch.setattr(os, "write", dribble)
    target = tmp_path / "s.jsonl"
    paths.append_private(target, b"0123456789\n")
    assert target.read_bytes() == b"0123456789\n"
    assert len(calls) == 4


def test_workspace_key_keeps_paths_that_safe_name_folds_apart(tmp_path: Path) -> None:
    first = tmp_path / "a" / "b-c"
    second = tmp_path / "a-b" / "c"
    assert paths.safe_name(str(first)) == paths.safe_name(str(second))
    assert paths.workspace_key(first) != paths.workspace_key(second)
    assert paths.workspace_key(first) == paths.workspace_key(str(first))
    assert paths.workspace_key(first).startswith("b-c-")


def test_ensure_private_dir_refuses_a_link_in_place_of_a_folder(tmp_path: Path) -> None:
    """events/ or logs/ replaced by a link to a folder elsewhere is not followed (nor chmod-ed there)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o755)
    data = tmp_path / "data"
    data.mkdir()
    (data / "events").symlink_to(elsewhere)
    with pytest.raises(NotADirectoryError, match="symbolic link"):
        paths.ensure_private_dir(data / "events")
    assert (elsewhere.stat().st_mode & 0o777) == 0o755


def test_the_data_directory_itself_may_be_a_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user may keep their data directory elsewhere and link to it; only its folders must be real."""
    elsewhere = tmp_path / "big-disk"
    elsewhere.mkdir()
    (tmp_path / "data").symlink_to(elsewhere)
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))
    assert paths.ensure_private_dir(tmp_path / "data") == tmp_path / "data"
    paths.ensure_private_dir(tmp_path / "data" / "events")
    assert (elsewhere / "events").is_dir()
