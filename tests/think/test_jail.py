"""The path jail: attack paths are refused, legitimate paths inside the workspace work.

The workspace built here holds every trap the jail must survive: symlinks out (to files, directories, /proc,
/dev, /sys, dangling), a symlink loop, a FIFO, a socket, an oversize file, a binary file, and a sibling
directory whose name starts with the workspace's (the classic prefix-comparison bug). Each attack goes through
the real Read tool, so what is asserted is what a detector's model would get back.
"""

from __future__ import annotations

import os
import socket
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sbcore.jail import Jail, JailError, NotFound, Resolved
from sbcore.think.tools.files import FileLimits, ReadTool

SECRET = "TOP-SECRET-OUTSIDE"
LIMITS = FileLimits(max_file_bytes=4096)


@pytest.fixture
def tree(tmp_path: Path) -> Iterator[Path]:
    """``tmp_path/ws`` is the workspace; ``outside`` and ``ws-evil`` are its neighbours."""
    ws = tmp_path / "ws"
    outside = tmp_path / "outside"
    evil = tmp_path / "ws-evil"
    for directory in (ws / "src", ws / "sub" / "dir", ws / ".git", outside / "dir", evil):
        directory.mkdir(parents=True)
    (ws / "src" / "a.py").write_text("def a():\n    return 1\n")
    (ws / "README.md").write_text("hello\n")
    (ws / "sub" / "dir" / "deep.txt").write_text("deep\n")
    (ws / "naïve name.txt").write_text("unicode and a space\n")
    (ws / "big.txt").write_text("x" * 5000)
    (ws / "binary.dat").write_bytes(b"abc\x00def\n")
    (outside / "secret.txt").write_text(SECRET + "\n")
    (outside / "dir" / "deep.txt").write_text(SECRET + "\n")
    (evil / "x").write_text(SECRET + "\n")
    links = {
        "link_in": "src/a.py",
        "dirlink_in": "src",
        "dangling_in": "missing.txt",
        "link_out": str(outside / "secret.txt"),
        "rel_link_out": "../outside/secret.txt",
        "dirlink_out": str(outside),
        "dangling_out": str(outside / "nothing-here"),
        "proc_link": "/proc/self",
        "dev_link": "/dev/zero",
        "sys_link": "/sys",
        "root_link": "/",
        "loop_a": "loop_b",
        "loop_b": "loop_a",
    }
    for name, target in links.items():
        (ws / name).symlink_to(target)
    os.mkfifo(ws / "fifo")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(ws / "sock"))
    try:
        yield ws
    finally:
        sock.close()


ATTACKS = [
    # .. traversal
    "../outside/secret.txt",
    "../../../../../../../../etc/passwd",
    "src/../../outside/secret.txt",
    "src/./../../outside/secret.txt",
    "sub/dir/../../../outside/dir/deep.txt",
    "../ws-evil/x",
    "dirlink_in/../../outside/secret.txt",
    # absolute paths outside
    "/etc/passwd",
    "//etc/passwd",
    "/./etc/../etc/passwd",
    "{outside}/secret.txt",
    "{tmp}/ws-evil/x",
    # home expansion
    "~/.bashrc",
    "~root/.ssh/id_rsa",
    "~",
    # pseudo-filesystems
    "/proc/self/environ",
    "/proc/1/cmdline",
    "/dev/zero",
    "/dev/random",
    "/sys/kernel/hostname",
    "../../../../../../../../proc/self/environ",
    # symlink escapes
    "link_out",
    "rel_link_out",
    "dirlink_out/secret.txt",
    "dirlink_out/dir/deep.txt",
    "dangling_out",
    "proc_link/environ",
    "dev_link",
    "sys_link/kernel/hostname",
    "root_link/etc/passwd",
    # symlink loops
    "loop_a",
    "loop_b/x",
    # not regular files
    "fifo",
    "sock",
    ".",
    "src",
    ".git",
    # malformed
    "src/a.py\x00.txt",
    "\x00",
    "a/" * 2100,
    "src/" + "b" * 300,
    "",
    # oversize and binary
    "big.txt",
    "binary.dat",
]


def _fill(path: str, ws: Path) -> str:
    return path.replace("{outside}", str(ws.parent / "outside")).replace("{tmp}", str(ws.parent))


@pytest.mark.timeout(20)
@pytest.mark.parametrize("attack", ATTACKS, ids=[repr(a)[:60] for a in ATTACKS])
def test_read_refuses_attack(tree: Path, attack: str) -> None:
    given = _fill(attack, tree)
    result = ReadTool(Jail(tree), LIMITS).read({"path": given})
    assert result.is_error
    assert result.refused, result.text
    assert SECRET not in result.text
    if str(tree.parent) not in given:
        assert str(tree.parent / "outside") not in result.text  # where a link pointed is never revealed


def test_at_least_thirty_attack_cases() -> None:
    assert len(ATTACKS) >= 30


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("src/a.py", "def a():"),
        ("./src/a.py", "def a():"),
        ("src/../README.md", "hello"),
        ("link_in", "def a():"),
        ("dirlink_in/a.py", "def a():"),
        ("sub/dir/deep.txt", "deep"),
        ("naïve name.txt", "unicode and a space"),
        ("{ws}/README.md", "hello"),
        (".git/../README.md", "hello"),
    ],
)
def test_read_allows_paths_inside(tree: Path, path: str, expected: str) -> None:
    result = ReadTool(Jail(tree), LIMITS).read({"path": path.replace("{ws}", str(tree))})
    assert not result.is_error, result.text
    assert expected in result.text


def test_missing_file_is_an_error_not_a_refusal(tree: Path) -> None:
    for path in ("missing.txt", "dangling_in", "src/nope/deeper.txt", "src/a.py/x"):
        result = ReadTool(Jail(tree), LIMITS).read({"path": path})
        assert result.is_error and not result.refused
        assert "does not exist" in result.text


def test_refusal_messages_are_specific(tree: Path) -> None:
    jail = Jail(tree)
    cases = {
        "../outside/secret.txt": "outside the workspace",
        "/proc/self/environ": "pseudo-filesystem",
        "~/.bashrc": "not expanded",
        "a\x00b": "NUL byte",
        "fifo": "a FIFO",
        "sock": "a socket",
        "loop_a": "symbolic link",
        "loop_a/x": "symbolic link",
        "big.txt": "over the 4096-byte limit",
    }
    for path, fragment in cases.items():
        with pytest.raises(JailError, match=fragment):
            jail.read_file(path, max_bytes=4096)


def test_resolve_reports_root_relative_form(tree: Path) -> None:
    jail = Jail(tree)
    assert jail.resolve(".").rel == "."
    assert jail.resolve(str(tree)).rel == "."
    assert jail.resolve("dirlink_in/a.py").rel == "src/a.py"
    assert jail.directory("sub").rel == "sub"
    with pytest.raises(JailError, match="not a directory"):
        jail.directory("README.md")
    with pytest.raises(NotFound):
        jail.directory("nowhere")


def test_swap_after_check_is_refused_not_followed(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A directory replaced by a symlink between resolution and opening is not followed (O_NOFOLLOW walk)."""
    jail = Jail(tree)
    stale = jail.resolve("sub/dir/deep.txt")
    (tree / "sub").rename(tree / "sub-moved")
    (tree / "sub").symlink_to(tree.parent / "outside")
    monkeypatch.setattr(Jail, "resolve", lambda self, given: stale)
    with pytest.raises(JailError, match="symbolic link") as caught:
        jail.read_file("sub/dir/deep.txt", max_bytes=4096)
    assert SECRET not in str(caught.value)


def test_final_component_swapped_for_a_link_is_refused(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jail = Jail(tree)
    stale = jail.resolve("README.md")
    (tree / "README.md").unlink()
    (tree / "README.md").symlink_to(tree.parent / "outside" / "secret.txt")
    monkeypatch.setattr(Jail, "resolve", lambda self, given: stale)
    with pytest.raises(JailError, match="symbolic link"):
        jail.read_file("README.md", max_bytes=4096)


def test_open_directory_lists_a_folder_and_refuses_what_is_not_one(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jail = Jail(tree)
    resolved, fd = jail.open_directory("sub")
    try:
        assert resolved.rel == "sub" and [entry.name for entry in os.scandir(fd)] == ["dir"]
    finally:
        os.close(fd)
    root, fd = jail.open_directory(".")
    os.close(fd)
    assert root.rel == "."
    for refused in ("dirlink_out", "README.md", "fifo", "../outside"):
        with pytest.raises(JailError):
            jail.open_directory(refused)
    with pytest.raises(NotFound):
        jail.open_directory("nowhere")
    stale = jail.resolve("src")  # swapped for a link to a folder inside after the check: not followed
    (tree / "src").rename(tree / "src-moved")
    (tree / "src").symlink_to(tree / "sub")
    monkeypatch.setattr(Jail, "resolve", lambda self, given: stale)
    with pytest.raises(JailError, match="not a folder"):
        jail.open_directory("src")


@pytest.mark.parametrize("root", ["/", "/proc", "/dev/shm", "/sys/kernel"])
def test_jail_refuses_meaningless_roots(root: str) -> None:
    with pytest.raises(ValueError, match="refusing"):
        Jail(root)


def test_jail_root_must_be_a_directory(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(ValueError, match="not a directory"):
        Jail(tmp_path / "f")


def test_jail_root_given_through_a_symlink_is_resolved(tree: Path, tmp_path: Path) -> None:
    (tmp_path / "alias").symlink_to(tree)
    jail = Jail(tmp_path / "alias")
    assert jail.root == tree.resolve()
    assert not ReadTool(jail, LIMITS).read({"path": "src/a.py"}).is_error
    assert ReadTool(jail, LIMITS).read({"path": "../outside/secret.txt"}).refused


_SEGMENTS = st.sampled_from(
    [
        "..",
        ".",
        "src",
        "a.py",
        "link_out",
        "dirlink_out",
        "dirlink_in",
        "proc_link",
        "loop_a",
        "~",
        "etc",
        "",
        "sub",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    absolute=st.booleans(),
    segments=st.lists(_SEGMENTS | st.text(string.ascii_letters + "./~", max_size=6), max_size=8),
)
@example(absolute=False, segments=["loop_a", "..", "link_out"])  # realpath stops at the loop; `..` did not
def test_resolution_never_leaves_the_root(
    tmp_path_factory: pytest.TempPathFactory, absolute: bool, segments: list[str]
) -> None:
    ws = _shared_tree(tmp_path_factory)
    jail = Jail(ws)
    path = ("/" if absolute else "") + "/".join(segments)
    try:
        resolved: Resolved = jail.resolve(path)
    except JailError:
        return
    real = os.path.realpath(resolved.real)
    assert real == str(ws) or real.startswith(str(ws) + os.sep)


_TREES: dict[str, Path] = {}


def _shared_tree(factory: pytest.TempPathFactory) -> Path:
    """One small tree with escaping links for the property test (hypothesis runs many examples per test)."""
    if "ws" not in _TREES:
        base = factory.mktemp("prop")
        ws = base / "ws"
        (ws / "src").mkdir(parents=True)
        (ws / "sub").mkdir()
        (ws / "src" / "a.py").write_text("x\n")
        (base / "outside").mkdir()
        (ws / "link_out").symlink_to(base / "outside")
        (ws / "dirlink_out").symlink_to(base / "outside")
        (ws / "dirlink_in").symlink_to("src")
        (ws / "proc_link").symlink_to("/proc/self")
        (ws / "loop_a").symlink_to("loop_a")
        _TREES["ws"] = ws.resolve()
    return _TREES["ws"]
